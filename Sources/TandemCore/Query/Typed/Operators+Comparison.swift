// Comparison operators. Comparing with a Swift value binds it (never splices it); comparing with
// `nil` is `IS NULL` / `IS NOT NULL`, never `= NULL`.

/// Builds `lhs <op> value`, turning `== nil` / `!= nil` into `IS [NOT] NULL`.
@usableFromInline
func comparison(_ op: BinaryOperator, _ lhs: SQLExpression, _ value: SqliteValue) -> TypedExpression<Bool> {
  if case .null = value {
    switch op {
    case .equal: return TypedExpression(.isNull(lhs, negated: false))
    case .notEqual: return TypedExpression(.isNull(lhs, negated: true))
    default: break
    }
  }
  return TypedExpression(.binary(op, lhs, .literal(value)))
}

/// `column = value`, or `column IS NULL` when the value is `nil`.
///
/// ```swift
/// Reminder.where { $0.title == "Milk" }   // WHERE "title" = ?
/// Reminder.where { $0.dueDate == nil }    // WHERE "dueDate" IS NULL
/// ```
public func == <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: ColumnType {
  comparison(.equal, lhs.expression, rhs.sqliteValue)
}
/// `column <> value`, or `column IS NOT NULL` when the value is `nil`.
public func != <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: ColumnType {
  comparison(.notEqual, lhs.expression, rhs.sqliteValue)
}
/// `column < value`.
public func < <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: ColumnType {
  comparison(.less, lhs.expression, rhs.sqliteValue)
}
/// `column <= value`.
public func <= <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: ColumnType {
  comparison(.lessOrEqual, lhs.expression, rhs.sqliteValue)
}
/// `column > value`.
public func > <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: ColumnType {
  comparison(.greater, lhs.expression, rhs.sqliteValue)
}
/// `column >= value`.
public func >= <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<Bool> where L.QueryValue: ColumnType {
  comparison(.greaterOrEqual, lhs.expression, rhs.sqliteValue)
}

/// Comparing two expressions of the same type.
///
/// ```swift
/// Item.where { $0.stock < $0.reorderLevel }
/// ```
public func == <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool> where L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.equal, lhs.expression, rhs.expression))
}
/// `lhs <> rhs` for two expressions.
public func != <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool> where L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.notEqual, lhs.expression, rhs.expression))
}
/// `lhs < rhs` for two expressions.
public func < <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool> where L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.less, lhs.expression, rhs.expression))
}
/// `lhs <= rhs` for two expressions.
public func <= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool> where L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.lessOrEqual, lhs.expression, rhs.expression))
}
/// `lhs > rhs` for two expressions.
public func > <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool> where L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.greater, lhs.expression, rhs.expression))
}
/// `lhs >= rhs` for two expressions.
public func >= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool> where L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.greaterOrEqual, lhs.expression, rhs.expression))
}

// Columns stored through a representation compare with the represented Swift value.

/// `column = value` for a column stored through a representation (a Unix-time date, JSON…).
///
/// ```swift
/// Event.where { $0.startsAt == Date(timeIntervalSince1970: 0) }
/// ```
public func == <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool> where L.QueryValue: ColumnRepresentation {
  comparison(.equal, lhs.expression, L.QueryValue(rhs).sqliteValue)
}
/// `column <> value` through a representation.
public func != <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool> where L.QueryValue: ColumnRepresentation {
  comparison(.notEqual, lhs.expression, L.QueryValue(rhs).sqliteValue)
}
/// `column < value` through a representation.
public func < <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool> where L.QueryValue: ColumnRepresentation {
  comparison(.less, lhs.expression, L.QueryValue(rhs).sqliteValue)
}
/// `column <= value` through a representation.
public func <= <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool> where L.QueryValue: ColumnRepresentation {
  comparison(.lessOrEqual, lhs.expression, L.QueryValue(rhs).sqliteValue)
}
/// `column > value` through a representation.
public func > <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool> where L.QueryValue: ColumnRepresentation {
  comparison(.greater, lhs.expression, L.QueryValue(rhs).sqliteValue)
}
/// `column >= value` through a representation.
public func >= <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<Bool> where L.QueryValue: ColumnRepresentation {
  comparison(.greaterOrEqual, lhs.expression, L.QueryValue(rhs).sqliteValue)
}

extension QueryExpression {
  /// `expr IS value`: equality where `NULL IS NULL` is true.
  ///
  /// ```swift
  /// Reminder.where { $0.priority.is(nil) }   // "priority" IS ?
  /// ```
  public func `is`(_ other: QueryValue) -> TypedExpression<Bool> where QueryValue: ColumnType {
    TypedExpression(.binary(.is, expression, .literal(other.sqliteValue)))
  }

  /// `expr IS NOT value`.
  public func isNot(_ other: QueryValue) -> TypedExpression<Bool> where QueryValue: ColumnType {
    TypedExpression(.binary(.isNot, expression, .literal(other.sqliteValue)))
  }

  /// `expr IS NULL`.
  ///
  /// ```swift
  /// Reminder.where { $0.dueDate.isNull() }
  /// ```
  public func isNull() -> TypedExpression<Bool> { TypedExpression(.isNull(expression, negated: false)) }

  /// `expr IS NOT NULL`.
  public func isNotNull() -> TypedExpression<Bool> { TypedExpression(.isNull(expression, negated: true)) }

  /// `expr IN (values…)`; values are bound.
  ///
  /// ```swift
  /// Reminder.where { $0.id.in([1, 2, 3]) }
  /// ```
  public func `in`<S: Sequence>(_ values: S) -> TypedExpression<Bool> where S.Element == QueryValue, QueryValue: ColumnType {
    TypedExpression(.inList(expression, values.map { .literal($0.sqliteValue) }, negated: false))
  }

  /// `expr NOT IN (values…)`.
  public func notIn<S: Sequence>(_ values: S) -> TypedExpression<Bool> where S.Element == QueryValue, QueryValue: ColumnType {
    TypedExpression(.inList(expression, values.map { .literal($0.sqliteValue) }, negated: true))
  }

  /// `expr BETWEEN low AND high`.
  ///
  /// ```swift
  /// Reminder.where { $0.id.between(10, and: 20) }
  /// ```
  public func between(_ low: QueryValue, and high: QueryValue) -> TypedExpression<Bool> where QueryValue: ColumnType {
    TypedExpression(.between(expression, .literal(low.sqliteValue), .literal(high.sqliteValue), negated: false))
  }

  /// `expr NOT BETWEEN low AND high`.
  public func notBetween(_ low: QueryValue, and high: QueryValue) -> TypedExpression<Bool> where QueryValue: ColumnType {
    TypedExpression(.between(expression, .literal(low.sqliteValue), .literal(high.sqliteValue), negated: true))
  }
}
