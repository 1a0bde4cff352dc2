/// Something an `order { }` closure may return: an expression (ascending) or an explicit ``Ordering``.
///
/// Only expressions whose stored order is their Swift order (``QueryComparable``) are orderings:
/// `Reminder.order { $0.id }` compiles, ordering by a `UUID` or JSON column does not.
public protocol OrderingConvertible: Sendable {
  /// The ORDER BY term.
  var orderingTerm: OrderingTerm { get }
}

/// An ORDER BY term with its direction and NULL placement.
///
/// ```swift
/// Reminder.order { $0.dueDate.desc(nulls: .last) }   // ORDER BY "dueDate" DESC NULLS LAST
/// ```
public struct Ordering: OrderingConvertible {
  public let orderingTerm: OrderingTerm
}

extension QueryExpression where QueryValue: QueryComparable {
  /// Ascending order (NULLs first unless `nulls: .last`).
  public func asc(nulls: OrderingTerm.NullsOrder? = nil) -> Ordering {
    Ordering(orderingTerm: OrderingTerm(expression, descending: false, nulls: nulls))
  }
  /// Descending order (NULLs last unless `nulls: .first`).
  public func desc(nulls: OrderingTerm.NullsOrder? = nil) -> Ordering {
    Ordering(orderingTerm: OrderingTerm(expression, descending: true, nulls: nulls))
  }
}

extension ColumnExpression: OrderingConvertible where QueryValue: QueryComparable {
  public var orderingTerm: OrderingTerm { OrderingTerm(expression) }
}

extension TypedExpression: OrderingConvertible where QueryValue: QueryComparable {
  public var orderingTerm: OrderingTerm { OrderingTerm(expression) }
}
