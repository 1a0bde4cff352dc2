/// Something an `order { }` closure may return: an expression (ascending) or an explicit ``Ordering``.
public protocol OrderingConvertible: Sendable {
  /// The ORDER BY term.
  var orderingTerm: OrderingTerm { get }
}

/// An ORDER BY term with its direction and NULL placement.
///
/// ```swift
/// Reminder.order { $0.dueDate.desc(nulls: .last) }
/// ```
public struct Ordering: OrderingConvertible {
  public let orderingTerm: OrderingTerm
}

extension QueryExpression {
  /// Ascending order (NULLs first unless `nulls: .last`).
  public func asc(nulls: OrderingTerm.NullsOrder? = nil) -> Ordering {
    Ordering(orderingTerm: OrderingTerm(expression, descending: false, nulls: nulls))
  }
  /// Descending order (NULLs last unless `nulls: .first`).
  public func desc(nulls: OrderingTerm.NullsOrder? = nil) -> Ordering {
    Ordering(orderingTerm: OrderingTerm(expression, descending: true, nulls: nulls))
  }
}

extension ColumnExpression: OrderingConvertible {
  public var orderingTerm: OrderingTerm { OrderingTerm(expression) }
}

extension TypedExpression: OrderingConvertible {
  public var orderingTerm: OrderingTerm { OrderingTerm(expression) }
}
