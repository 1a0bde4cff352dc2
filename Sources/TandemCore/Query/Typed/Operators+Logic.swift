/// `lhs AND rhs` (SQL three-valued logic: `NULL AND 0` is 0, `NULL AND 1` is NULL).
///
/// ```swift
/// Reminder.where { !$0.isCompleted && $0.priority == .high }
/// ```
public func && <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue: _BooleanQueryValue, R.QueryValue: _BooleanQueryValue {
  TypedExpression(.binary(.and, lhs.expression, rhs.expression))
}

/// `lhs OR rhs`.
public func || <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> TypedExpression<Bool>
where L.QueryValue: _BooleanQueryValue, R.QueryValue: _BooleanQueryValue {
  TypedExpression(.binary(.or, lhs.expression, rhs.expression))
}

/// `NOT expr`.
public prefix func ! <E: QueryExpression>(operand: E) -> TypedExpression<Bool> where E.QueryValue: _BooleanQueryValue {
  TypedExpression(.unary(.not, operand.expression))
}
