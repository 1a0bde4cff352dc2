extension TypedExpression where QueryValue: ColumnType {
  /// A constant value as an expression, always bound (`?`), never spliced into the SQL.
  ///
  /// A value with no stored form (`Double.nan`, a date past year 9999) makes the statement fail
  /// with an encoding failure when it runs.
  ///
  /// ```swift
  /// Item.all.select { ($0.name, TypedExpression.constant(1)) }   // SELECT "name", ?
  /// Item.where { TypedExpression.constant(10) < $0.stock }       // WHERE (? < "stock")
  /// ```
  public static func constant(_ value: QueryValue) -> TypedExpression {
    TypedExpression(.bound(value))
  }
}
