// Arithmetic on numeric expressions and concatenation of text expressions, following SQLite's
// rules (integer overflow becomes REAL, division by zero is NULL). Each operator is offered only
// where it means what it means in Swift: `+ -` for exact fixed-point decimals too, `* /` for
// integers and floating point, `%` for integers (SQLite truncates reals before `%`).

/// `lhs + rhs`.
///
/// ```swift
/// Item.update { $0.set(\.stock, to: $0.stock + 1) }   // SET "stock" = ("stock" + ?)
/// ```
public func + <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<L.QueryValue>
where L.QueryValue: _AdditiveQueryValue & ColumnType {
  TypedExpression(.binary(.add, lhs.expression, .bound(rhs, for: lhs.expression)))
}
/// `lhs - rhs`.
public func - <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<L.QueryValue>
where L.QueryValue: _AdditiveQueryValue & ColumnType {
  TypedExpression(.binary(.subtract, lhs.expression, .bound(rhs, for: lhs.expression)))
}
/// `lhs * rhs`.
public func * <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<L.QueryValue>
where L.QueryValue: _NumericQueryValue & ColumnType {
  TypedExpression(.binary(.multiply, lhs.expression, .bound(rhs, for: lhs.expression)))
}
/// `lhs / rhs` (integer division truncates; dividing by zero gives NULL).
public func / <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<L.QueryValue?>
where L.QueryValue: _NumericQueryValue & ColumnType {
  TypedExpression(.binary(.divide, lhs.expression, .bound(rhs, for: lhs.expression)))
}
/// `lhs % rhs` for integers (NULL when rhs is zero).
public func % <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<L.QueryValue?>
where L.QueryValue: _IntegerQueryValue & ColumnType {
  TypedExpression(.binary(.remainder, lhs.expression, .bound(rhs, for: lhs.expression)))
}
/// `lhs / rhs` for an optional expression: `Int?`, not `Int??`.
///
/// ```swift
/// Item.all.select { $0.discount / 2 }   // SELECT ("discount" / ?): Int?
/// ```
public func / <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<L.QueryValue>
where L.QueryValue: _NumericQueryValue & _OptionalQueryValue & ColumnType {
  TypedExpression(.binary(.divide, lhs.expression, .bound(rhs, for: lhs.expression)))
}
/// `lhs % rhs` for an optional integer expression: `Int?`, not `Int??`.
public func % <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> TypedExpression<L.QueryValue>
where L.QueryValue: _IntegerQueryValue & _OptionalQueryValue & ColumnType {
  TypedExpression(.binary(.remainder, lhs.expression, .bound(rhs, for: lhs.expression)))
}

// A Swift value on the left: `1.0 - $0.discount`, `2 * $0.quantity`, as written in Swift.

/// `value + rhs`, a Swift value on the left.
///
/// ```swift
/// Line.all.select { 1 + $0.quantity }   // SELECT (? + "quantity")
/// ```
public func + <R: QueryExpression>(lhs: R.QueryValue, rhs: R) -> TypedExpression<R.QueryValue>
where R.QueryValue: _AdditiveQueryValue & ColumnType {
  TypedExpression(.binary(.add, .bound(lhs, for: rhs.expression), rhs.expression))
}
/// `value - rhs`, a Swift value on the left.
///
/// ```swift
/// Line.all.select { $0.price * (1.0 - $0.discount) }   // SELECT ("price" * (? - "discount"))
/// ```
public func - <R: QueryExpression>(lhs: R.QueryValue, rhs: R) -> TypedExpression<R.QueryValue>
where R.QueryValue: _AdditiveQueryValue & ColumnType {
  TypedExpression(.binary(.subtract, .bound(lhs, for: rhs.expression), rhs.expression))
}
/// `value * rhs`, a Swift value on the left.
public func * <R: QueryExpression>(lhs: R.QueryValue, rhs: R) -> TypedExpression<R.QueryValue>
where R.QueryValue: _NumericQueryValue & ColumnType {
  TypedExpression(.binary(.multiply, .bound(lhs, for: rhs.expression), rhs.expression))
}
/// `value / rhs`, a Swift value on the left (NULL when rhs is zero).
public func / <R: QueryExpression>(lhs: R.QueryValue, rhs: R) -> TypedExpression<R.QueryValue?>
where R.QueryValue: _NumericQueryValue & ColumnType {
  TypedExpression(.binary(.divide, .bound(lhs, for: rhs.expression), rhs.expression))
}
/// `value / rhs` for an optional expression: `Int?`, not `Int??`.
public func / <R: QueryExpression>(lhs: R.QueryValue, rhs: R) -> TypedExpression<R.QueryValue>
where R.QueryValue: _NumericQueryValue & _OptionalQueryValue & ColumnType {
  TypedExpression(.binary(.divide, .bound(lhs, for: rhs.expression), rhs.expression))
}
/// `value % rhs` for integers, a Swift value on the left (NULL when rhs is zero).
public func % <R: QueryExpression>(lhs: R.QueryValue, rhs: R) -> TypedExpression<R.QueryValue?>
where R.QueryValue: _IntegerQueryValue & ColumnType {
  TypedExpression(.binary(.remainder, .bound(lhs, for: rhs.expression), rhs.expression))
}
/// `value % rhs` for an optional integer expression: `Int?`, not `Int??`.
public func % <R: QueryExpression>(lhs: R.QueryValue, rhs: R) -> TypedExpression<R.QueryValue>
where R.QueryValue: _IntegerQueryValue & _OptionalQueryValue & ColumnType {
  TypedExpression(.binary(.remainder, .bound(lhs, for: rhs.expression), rhs.expression))
}

/// `lhs + value` for a fixed-point decimal column and a `Decimal`.
///
/// ```swift
/// Account.update { $0.set(\.balance, to: $0.balance + Decimal(string: "0.01")!) }
/// ```
public func + <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<L.QueryValue>
where L.QueryValue: _AdditiveQueryValue & ColumnRepresentation {
  TypedExpression(.binary(.add, lhs.expression, .bound(L.QueryValue(rhs), for: lhs.expression)))
}
/// `lhs - value` for a fixed-point decimal column and a `Decimal`.
public func - <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Represented) -> TypedExpression<L.QueryValue>
where L.QueryValue: _AdditiveQueryValue & ColumnRepresentation {
  TypedExpression(.binary(.subtract, lhs.expression, .bound(L.QueryValue(rhs), for: lhs.expression)))
}

/// `lhs + rhs` for two numeric expressions.
public func + <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<L.QueryValue>
where L.QueryValue: _AdditiveQueryValue, L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.add, lhs.expression, rhs.expression))
}
/// `lhs - rhs` for two numeric expressions.
public func - <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<L.QueryValue>
where L.QueryValue: _AdditiveQueryValue, L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.subtract, lhs.expression, rhs.expression))
}
/// `lhs * rhs` for two numeric expressions.
public func * <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<L.QueryValue>
where L.QueryValue: _NumericQueryValue, L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.multiply, lhs.expression, rhs.expression))
}
/// `lhs / rhs` for two numeric expressions.
public func / <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<L.QueryValue?>
where L.QueryValue: _NumericQueryValue, L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.divide, lhs.expression, rhs.expression))
}
/// `lhs % rhs` for two integer expressions.
public func % <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<L.QueryValue?>
where L.QueryValue: _IntegerQueryValue, L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.remainder, lhs.expression, rhs.expression))
}
/// `lhs / rhs` for two optional expressions: `Int?`, not `Int??`.
public func / <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<L.QueryValue>
where L.QueryValue: _NumericQueryValue & _OptionalQueryValue, L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.divide, lhs.expression, rhs.expression))
}
/// `lhs % rhs` for two optional integer expressions: `Int?`, not `Int??`.
public func % <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<L.QueryValue>
where L.QueryValue: _IntegerQueryValue & _OptionalQueryValue, L.QueryValue == R.QueryValue {
  TypedExpression(.binary(.remainder, lhs.expression, rhs.expression))
}

/// `-expr`.
public prefix func - <E: QueryExpression>(operand: E) -> TypedExpression<E.QueryValue> where E.QueryValue: _AdditiveQueryValue {
  TypedExpression(.unary(.negate, operand.expression))
}

/// Text concatenation, `lhs || rhs`.
///
/// ```swift
/// Person.select { $0.firstName + " " + $0.lastName }
/// ```
public func + <L: QueryExpression>(lhs: L, rhs: String) -> TypedExpression<L.QueryValue>
where L.QueryValue: _TextQueryValue {
  TypedExpression(.binary(.concatenate, lhs.expression, .literal(.text(rhs))))
}
/// Text concatenation with a `String` on the left, `lhs || rhs`.
///
/// ```swift
/// Person.select { "Dr. " + $0.lastName }   // SELECT (? || "lastName")
/// ```
public func + <R: QueryExpression>(lhs: String, rhs: R) -> TypedExpression<R.QueryValue>
where R.QueryValue: _TextQueryValue {
  TypedExpression(.binary(.concatenate, .literal(.text(lhs)), rhs.expression))
}
// Concatenating two text expressions takes the right operand's type as a constraint, `String` or
// `String?`: the result is optional when either operand is. Two overloads with a concrete right
// type keep chains such as `$0.a + " " + $0.b + "!"` quick to type-check.

/// Text concatenation of a text expression and a `String` expression: optional when `lhs` is.
///
/// ```swift
/// Person.select { $0.firstName + " " + $0.lastName }   // ("firstName" || ?) || "lastName"
/// ```
public func + <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<L.QueryValue>
where L.QueryValue: _TextQueryValue, R.QueryValue == String {
  TypedExpression(.binary(.concatenate, lhs.expression, rhs.expression))
}
/// Text concatenation with an optional text expression: optional, since `'a' || NULL` is NULL.
///
/// ```swift
/// Word.all.select { $0.text + $0.note }   // SELECT ("text" || "note"): String?
/// ```
public func + <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<String?>
where L.QueryValue: _TextQueryValue, R.QueryValue == String? {
  TypedExpression(.binary(.concatenate, lhs.expression, rhs.expression))
}
