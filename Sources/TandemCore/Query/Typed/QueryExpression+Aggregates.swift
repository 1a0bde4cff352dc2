extension QueryExpression {
  /// `count(expr)`: the number of non-NULL values (`count(DISTINCT expr)` with `distinct: true`).
  ///
  /// ```swift
  /// Reminder.select { $0.dueDate.count() }
  /// ```
  public func count(distinct: Bool = false) -> TypedExpression<Int> {
    TypedExpression(.aggregate(.count, expression, distinct: distinct))
  }

  /// `group_concat(expr)`: the non-NULL values as text joined by `,`, in the order the rows are
  /// visited; NULL when there is none (`group_concat(DISTINCT expr)` with `distinct: true`).
  ///
  /// ```swift
  /// Reminder.group { $0.listID }.select { ($0.listID, $0.title.groupConcat()) }   // String?
  /// ```
  public func groupConcat(distinct: Bool = false) -> TypedExpression<String?> {
    TypedExpression(.aggregate(.groupConcat, expression, distinct: distinct))
  }

  /// `group_concat(expr, separator)`: the non-NULL values as text joined by `separator`.
  ///
  /// ```swift
  /// Reminder.all.select { $0.title.groupConcat(separator: ", ") }   // SELECT group_concat("title", ?)
  /// ```
  public func groupConcat(separator: String) -> TypedExpression<String?> {
    TypedExpression(.aggregate(.groupConcat, expression, distinct: false, separator: .literal(.text(separator))))
  }
}

extension QueryExpression where QueryValue: QueryComparable {
  /// `min(expr)`: the least non-NULL value, NULL when there is none.
  ///
  /// ```swift
  /// Order.select { $0.quantity.min() }   // SELECT min("quantity"): Int?
  /// ```
  public func min() -> TypedExpression<QueryValue?> { TypedExpression(.aggregate(.min, expression, distinct: false)) }
  /// `max(expr)`: the greatest non-NULL value, NULL when there is none.
  public func max() -> TypedExpression<QueryValue?> { TypedExpression(.aggregate(.max, expression, distinct: false)) }
  /// `min(expr)` of an optional expression.
  public func min() -> TypedExpression<QueryValue> where QueryValue: _OptionalQueryValue {
    TypedExpression(.aggregate(.min, expression, distinct: false))
  }
  /// `max(expr)` of an optional expression.
  public func max() -> TypedExpression<QueryValue> where QueryValue: _OptionalQueryValue {
    TypedExpression(.aggregate(.max, expression, distinct: false))
  }
}

extension QueryExpression where QueryValue: _AdditiveQueryValue {
  /// `sum(expr)`: NULL over no rows; an `integer overflow` error if an integer sum overflows
  /// (so a fixed-point decimal sum is exact or fails).
  ///
  /// ```swift
  /// Order.select { $0.quantity.sum() }   // Int?
  /// ```
  public func sum(distinct: Bool = false) -> TypedExpression<QueryValue?> {
    TypedExpression(.aggregate(.sum, expression, distinct: distinct))
  }
  /// `sum(expr)` of an optional expression: `Int?`, not `Int??`.
  ///
  /// ```swift
  /// Item.all.select { $0.discount.sum() }   // SELECT sum("discount"): Int?
  /// ```
  public func sum(distinct: Bool = false) -> TypedExpression<QueryValue> where QueryValue: _OptionalQueryValue {
    TypedExpression(.aggregate(.sum, expression, distinct: distinct))
  }
}

extension QueryExpression where QueryValue: _NumericQueryValue {
  /// `total(expr)`: like `sum` but always a `REAL`, 0.0 over no rows.
  public func total(distinct: Bool = false) -> TypedExpression<Double> {
    TypedExpression(.aggregate(.total, expression, distinct: distinct))
  }
  /// `avg(expr)`: a `REAL`, NULL over no rows.
  public func avg(distinct: Bool = false) -> TypedExpression<Double?> {
    TypedExpression(.aggregate(.avg, expression, distinct: distinct))
  }
}

extension TypedExpression where QueryValue == Int {
  /// `count(*)`: the number of rows.
  ///
  /// ```swift
  /// Reminder.group { $0.listID }.select { ($0.listID, TypedExpression.countAll) }
  /// ```
  public static var countAll: TypedExpression<Int> { TypedExpression(.aggregate(.count, nil, distinct: false)) }
}

extension QueryExpression where Self == TypedExpression<Int> {
  /// `count(*)`: the number of rows, spelled `.count()` wherever an expression is expected.
  ///
  /// ```swift
  /// Reminder.group { $0.priority }.select { ($0.priority, .count()) }   // SELECT "priority", count(*)
  /// Reminder.group { $0.priority }.having { _ in .count() > 1 }
  /// ```
  public static func count() -> TypedExpression<Int> { .countAll }
}
