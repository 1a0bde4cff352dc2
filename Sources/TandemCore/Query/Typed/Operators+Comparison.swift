// Comparison operators. Comparing with a Swift value binds it (never splices it); comparing with
// `nil` is `IS NULL` / `IS NOT NULL`, never `= NULL`. A value with no stored form (NaN, a date
// past year 9999) makes the statement fail with an encoding failure instead of comparing with
// something else.
//
// Equality needs stored equality to be Swift's `==` (not JSON text); ordering needs the stored
// order to be the Swift order (``QueryComparable``).

/// Builds `lhs <op> value`, turning `== nil` / `!= nil` into `IS [NOT] NULL`.
func comparison<V: ColumnType>(_ op: BinaryOperator, _ lhs: SQLExpression, _ value: V) -> TypedExpression<Bool> {
  let bound = SQLExpression.bound(value, for: lhs)
  if case .literal(.null) = bound {
    switch op {
    case .equal: return TypedExpression(.isNull(lhs, negated: false))
    case .notEqual: return TypedExpression(.isNull(lhs, negated: true))
    default: break
    }
  }
  return TypedExpression(.binary(op, lhs, bound))
}

/// `column = value`, or `column IS NULL` when the value is `nil`.
///
/// ```swift
/// Reminder.where { $0.title == "Milk" }   // WHERE "title" = ?
/// Reminder.where { $0.dueDate == nil }    // WHERE "dueDate" IS NULL
/// ```
public func == <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool>
where L.QueryValue: ColumnType, L.QueryValue._QueryEquality: _EqualityMatchesSwift {
  comparison(.equal, lhs.expression, rhs)
}
/// `column <> value`, or `column IS NOT NULL` when the value is `nil`.
public func != <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool>
where L.QueryValue: ColumnType, L.QueryValue._QueryEquality: _EqualityMatchesSwift {
  comparison(.notEqual, lhs.expression, rhs)
}
/// `column < value`.
public func < <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: QueryComparable {
  comparison(.less, lhs.expression, rhs)
}
/// `column <= value`.
public func <= <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: QueryComparable {
  comparison(.lessOrEqual, lhs.expression, rhs)
}
/// `column > value`.
public func > <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: QueryComparable {
  comparison(.greater, lhs.expression, rhs)
}
/// `column >= value`.
public func >= <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: QueryComparable {
  comparison(.greaterOrEqual, lhs.expression, rhs)
}

/// Comparing two expressions of the same type.
///
/// ```swift
/// Item.where { $0.stock < $0.reorderLevel }
/// ```
public func == <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue, L.QueryValue: ColumnType, L.QueryValue._QueryEquality: _EqualityMatchesSwift {
  TypedExpression(.binary(.equal, lhs.expression, rhs.expression))
}
/// `lhs <> rhs` for two expressions.
public func != <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue, L.QueryValue: ColumnType, L.QueryValue._QueryEquality: _EqualityMatchesSwift {
  TypedExpression(.binary(.notEqual, lhs.expression, rhs.expression))
}
/// `lhs < rhs` for two expressions.
public func < <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue, L.QueryValue: QueryComparable {
  TypedExpression(.binary(.less, lhs.expression, rhs.expression))
}
/// `lhs <= rhs` for two expressions.
public func <= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue, L.QueryValue: QueryComparable {
  TypedExpression(.binary(.lessOrEqual, lhs.expression, rhs.expression))
}
/// `lhs > rhs` for two expressions.
public func > <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue, L.QueryValue: QueryComparable {
  TypedExpression(.binary(.greater, lhs.expression, rhs.expression))
}
/// `lhs >= rhs` for two expressions.
public func >= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue, L.QueryValue: QueryComparable {
  TypedExpression(.binary(.greaterOrEqual, lhs.expression, rhs.expression))
}

// An expression compares with an optional expression of its type, in either order: `Int` with
// `Int?`. The result is typed `Bool` like every comparison (NULL when the optional side is NULL,
// which `where` treats as false); re-type it as `TypedExpression<Bool?>` to read the NULL.

/// `lhs = rhs` for an expression and an optional expression of its type.
///
/// ```swift
/// Item.where { $0.stock == $0.discount }   // WHERE ("stock" = "discount")
/// ```
public func == <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where R.QueryValue == L.QueryValue?, L.QueryValue: ColumnType, L.QueryValue._QueryEquality: _EqualityMatchesSwift {
  TypedExpression(.binary(.equal, lhs.expression, rhs.expression))
}
/// `lhs = rhs` for an optional expression and an expression of its wrapped type.
public func == <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue?, R.QueryValue: ColumnType, R.QueryValue._QueryEquality: _EqualityMatchesSwift {
  TypedExpression(.binary(.equal, lhs.expression, rhs.expression))
}
/// `lhs <> rhs` for an expression and an optional expression of its type.
public func != <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where R.QueryValue == L.QueryValue?, L.QueryValue: ColumnType, L.QueryValue._QueryEquality: _EqualityMatchesSwift {
  TypedExpression(.binary(.notEqual, lhs.expression, rhs.expression))
}
/// `lhs <> rhs` for an optional expression and an expression of its wrapped type.
public func != <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue?, R.QueryValue: ColumnType, R.QueryValue._QueryEquality: _EqualityMatchesSwift {
  TypedExpression(.binary(.notEqual, lhs.expression, rhs.expression))
}
/// `lhs < rhs` for an expression and an optional expression of its type.
///
/// ```swift
/// Item.where { $0.stock < $0.discount }   // WHERE ("stock" < "discount")
/// ```
public func < <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where R.QueryValue == L.QueryValue?, L.QueryValue: QueryComparable {
  TypedExpression(.binary(.less, lhs.expression, rhs.expression))
}
/// `lhs < rhs` for an optional expression and an expression of its wrapped type.
public func < <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue?, R.QueryValue: QueryComparable {
  TypedExpression(.binary(.less, lhs.expression, rhs.expression))
}
/// `lhs <= rhs` for an expression and an optional expression of its type.
public func <= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where R.QueryValue == L.QueryValue?, L.QueryValue: QueryComparable {
  TypedExpression(.binary(.lessOrEqual, lhs.expression, rhs.expression))
}
/// `lhs <= rhs` for an optional expression and an expression of its wrapped type.
public func <= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue?, R.QueryValue: QueryComparable {
  TypedExpression(.binary(.lessOrEqual, lhs.expression, rhs.expression))
}
/// `lhs > rhs` for an expression and an optional expression of its type.
public func > <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where R.QueryValue == L.QueryValue?, L.QueryValue: QueryComparable {
  TypedExpression(.binary(.greater, lhs.expression, rhs.expression))
}
/// `lhs > rhs` for an optional expression and an expression of its wrapped type.
public func > <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue?, R.QueryValue: QueryComparable {
  TypedExpression(.binary(.greater, lhs.expression, rhs.expression))
}
/// `lhs >= rhs` for an expression and an optional expression of its type.
public func >= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where R.QueryValue == L.QueryValue?, L.QueryValue: QueryComparable {
  TypedExpression(.binary(.greaterOrEqual, lhs.expression, rhs.expression))
}
/// `lhs >= rhs` for an optional expression and an expression of its wrapped type.
public func >= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue == R.QueryValue?, R.QueryValue: QueryComparable {
  TypedExpression(.binary(.greaterOrEqual, lhs.expression, rhs.expression))
}

// Columns stored through a representation compare with the represented Swift value.

/// `column = value` for a column stored through a representation (a Unix-time date…).
///
/// ```swift
/// Event.where { $0.startsAt == Date(timeIntervalSince1970: 0) }
/// ```
public func == <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool>
where L.QueryValue: ColumnRepresentation, L.QueryValue._QueryEquality: _EqualityMatchesSwift {
  comparison(.equal, lhs.expression, L.QueryValue(rhs))
}
/// `column <> value` through a representation.
public func != <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool>
where L.QueryValue: ColumnRepresentation, L.QueryValue._QueryEquality: _EqualityMatchesSwift {
  comparison(.notEqual, lhs.expression, L.QueryValue(rhs))
}
/// `column < value` through a representation.
public func < <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool>
where L.QueryValue: ColumnRepresentation & QueryComparable {
  comparison(.less, lhs.expression, L.QueryValue(rhs))
}
/// `column <= value` through a representation.
public func <= <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool>
where L.QueryValue: ColumnRepresentation & QueryComparable {
  comparison(.lessOrEqual, lhs.expression, L.QueryValue(rhs))
}
/// `column > value` through a representation.
public func > <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool>
where L.QueryValue: ColumnRepresentation & QueryComparable {
  comparison(.greater, lhs.expression, L.QueryValue(rhs))
}
/// `column >= value` through a representation.
public func >= <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool>
where L.QueryValue: ColumnRepresentation & QueryComparable {
  comparison(.greaterOrEqual, lhs.expression, L.QueryValue(rhs))
}

extension QueryExpression where QueryValue: ColumnType, QueryValue._QueryEquality: _EqualityMatchesSwift {
  /// `expr IS value`: equality where `NULL IS NULL` is true.
  ///
  /// ```swift
  /// Reminder.where { $0.priority.is(nil) }   // "priority" IS ?
  /// ```
  public func `is`(_ other: QueryValue) -> TypedExpression<Bool> {
    TypedExpression(.binary(.is, expression, .bound(other, for: expression)))
  }

  /// `expr IS NOT value`.
  public func isNot(_ other: QueryValue) -> TypedExpression<Bool> {
    TypedExpression(.binary(.isNot, expression, .bound(other, for: expression)))
  }

  /// `expr IN (values…)`; values are bound.
  ///
  /// ```swift
  /// Reminder.where { $0.id.in([1, 3]) }   // "id" IN (?, ?)
  /// ```
  public func `in`<S: Sequence>(_ values: S) -> TypedExpression<Bool> where S.Element == QueryValue {
    TypedExpression(.inList(expression, values.map { .bound($0, for: expression) }, negated: false))
  }

  /// `expr NOT IN (values…)`.
  public func notIn<S: Sequence>(_ values: S) -> TypedExpression<Bool> where S.Element == QueryValue {
    TypedExpression(.inList(expression, values.map { .bound($0, for: expression) }, negated: true))
  }

  /// `expr IS other` for another expression of the same type: equality where `NULL IS NULL` is
  /// true.
  ///
  /// ```swift
  /// Item.where { $0.discount.is($0.discount) }   // WHERE ("discount" IS "discount")
  /// ```
  public func `is`(_ other: some QueryExpression<QueryValue>) -> TypedExpression<Bool> {
    TypedExpression(.binary(.is, expression, other.expression))
  }

  /// `expr IS NOT other` for another expression of the same type.
  public func isNot(_ other: some QueryExpression<QueryValue>) -> TypedExpression<Bool> {
    TypedExpression(.binary(.isNot, expression, other.expression))
  }

  /// `expr IN (expressions…)`: other expressions of the same type, columns or computed.
  ///
  /// ```swift
  /// Item.where { $0.stock.in([$0.reorderLevel, $0.reorderLevel * 2]) }
  /// // WHERE ("stock" IN ("reorderLevel", ("reorderLevel" * ?)))
  /// ```
  public func `in`(_ expressions: [any QueryExpression<QueryValue>]) -> TypedExpression<Bool> {
    TypedExpression(.inList(expression, expressions.map(\.expression), negated: false))
  }

  /// `expr NOT IN (expressions…)` for other expressions of the same type.
  public func notIn(_ expressions: [any QueryExpression<QueryValue>]) -> TypedExpression<Bool> {
    TypedExpression(.inList(expression, expressions.map(\.expression), negated: true))
  }
}

extension QueryExpression
where QueryValue: _OptionalQueryValue & ColumnType, QueryValue._Wrapped: ColumnType, QueryValue._QueryEquality: _EqualityMatchesSwift {
  /// `expr IS other` for an optional expression and an expression of its wrapped type.
  ///
  /// ```swift
  /// Item.where { $0.discount.is($0.stock) }   // WHERE ("discount" IS "stock")
  /// ```
  public func `is`(_ other: some QueryExpression<QueryValue._Wrapped>) -> TypedExpression<Bool> {
    TypedExpression(.binary(.is, expression, other.expression))
  }

  /// `expr IS NOT other` for an optional expression and an expression of its wrapped type.
  public func isNot(_ other: some QueryExpression<QueryValue._Wrapped>) -> TypedExpression<Bool> {
    TypedExpression(.binary(.isNot, expression, other.expression))
  }

  /// `expr IN (expressions…)` for an optional expression and expressions of its wrapped type.
  ///
  /// ```swift
  /// Item.where { $0.discount.in([$0.stock, $0.reorderLevel]) }   // WHERE ("discount" IN ("stock", "reorderLevel"))
  /// ```
  public func `in`(_ expressions: [any QueryExpression<QueryValue._Wrapped>]) -> TypedExpression<Bool> {
    TypedExpression(.inList(expression, expressions.map(\.expression), negated: false))
  }

  /// `expr NOT IN (expressions…)` for an optional expression and expressions of its wrapped type.
  public func notIn(_ expressions: [any QueryExpression<QueryValue._Wrapped>]) -> TypedExpression<Bool> {
    TypedExpression(.inList(expression, expressions.map(\.expression), negated: true))
  }
}

extension QueryExpression where QueryValue: ColumnRepresentation, QueryValue._QueryEquality: _EqualityMatchesSwift {
  /// `expr IN (values…)` for a column stored through a representation; values are bound.
  ///
  /// ```swift
  /// Payment.where { $0.amount.in([Decimal(1), Decimal(2)]) }   // "amount" IN (?, ?)
  /// ```
  public func `in`<S: Sequence>(_ values: S) -> TypedExpression<Bool> where S.Element == QueryValue.Represented {
    TypedExpression(.inList(expression, values.map { .bound(QueryValue($0), for: expression) }, negated: false))
  }

  /// `expr NOT IN (values…)` for a column stored through a representation.
  public func notIn<S: Sequence>(_ values: S) -> TypedExpression<Bool> where S.Element == QueryValue.Represented {
    TypedExpression(.inList(expression, values.map { .bound(QueryValue($0), for: expression) }, negated: true))
  }
}

extension QueryExpression {
  /// `expr IS NULL`.
  ///
  /// ```swift
  /// Reminder.where { $0.dueDate.isNull() }
  /// ```
  public func isNull() -> TypedExpression<Bool> { TypedExpression(.isNull(expression, negated: false)) }

  /// `expr IS NOT NULL`.
  public func isNotNull() -> TypedExpression<Bool> { TypedExpression(.isNull(expression, negated: true)) }
}

extension QueryExpression where QueryValue: QueryComparable {
  /// `expr BETWEEN low AND high`.
  ///
  /// ```swift
  /// Reminder.where { $0.id.between(10, and: 20) }   // "id" BETWEEN ? AND ?
  /// ```
  public func between(_ low: QueryValue, and high: QueryValue) -> TypedExpression<Bool> {
    TypedExpression(.between(expression, .bound(low, for: expression), .bound(high, for: expression), negated: false))
  }

  /// `expr NOT BETWEEN low AND high`.
  public func notBetween(_ low: QueryValue, and high: QueryValue) -> TypedExpression<Bool> {
    TypedExpression(.between(expression, .bound(low, for: expression), .bound(high, for: expression), negated: true))
  }

  /// `expr BETWEEN low AND high` for bounds that are expressions of the same type.
  ///
  /// ```swift
  /// Item.where { $0.stock.between($0.reorderLevel, and: $0.reorderLevel * 2) }
  /// // WHERE ("stock" BETWEEN "reorderLevel" AND ("reorderLevel" * ?))
  /// ```
  public func between(_ low: some QueryExpression<QueryValue>, and high: some QueryExpression<QueryValue>) -> TypedExpression<Bool> {
    TypedExpression(.between(expression, low.expression, high.expression, negated: false))
  }

  /// `expr NOT BETWEEN low AND high` for bounds that are expressions of the same type.
  public func notBetween(_ low: some QueryExpression<QueryValue>, and high: some QueryExpression<QueryValue>) -> TypedExpression<Bool> {
    TypedExpression(.between(expression, low.expression, high.expression, negated: true))
  }
}

extension QueryExpression where QueryValue: QueryComparable & _OptionalQueryValue {
  /// `expr BETWEEN low AND high` for an optional expression and bounds of its wrapped type.
  ///
  /// ```swift
  /// Item.where { $0.discount.between($0.stock - 100, and: $0.reorderLevel) }
  /// ```
  public func between(
    _ low: some QueryExpression<QueryValue._Wrapped>, and high: some QueryExpression<QueryValue._Wrapped>
  ) -> TypedExpression<Bool> {
    TypedExpression(.between(expression, low.expression, high.expression, negated: false))
  }

  /// `expr NOT BETWEEN low AND high` for an optional expression and bounds of its wrapped type.
  public func notBetween(
    _ low: some QueryExpression<QueryValue._Wrapped>, and high: some QueryExpression<QueryValue._Wrapped>
  ) -> TypedExpression<Bool> {
    TypedExpression(.between(expression, low.expression, high.expression, negated: true))
  }
}

extension QueryExpression where QueryValue: ColumnRepresentation & QueryComparable {
  /// `expr BETWEEN low AND high` for a column stored through a representation.
  ///
  /// ```swift
  /// Event.where { $0.startsAt.between(start, and: end) }   // "startsAt" BETWEEN ? AND ?
  /// ```
  public func between(_ low: QueryValue.Represented, and high: QueryValue.Represented) -> TypedExpression<Bool> {
    between(QueryValue(low), and: QueryValue(high))
  }

  /// `expr NOT BETWEEN low AND high` for a column stored through a representation.
  public func notBetween(_ low: QueryValue.Represented, and high: QueryValue.Represented) -> TypedExpression<Bool> {
    notBetween(QueryValue(low), and: QueryValue(high))
  }
}
