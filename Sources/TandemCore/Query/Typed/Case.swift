/// A searched `CASE WHEN … THEN … ELSE … END` expression. Each THEN and the ELSE is a value
/// (bound) or an expression of the same type.
///
/// ```swift
/// Reminder.select {
///   Case(else: "later")
///     .when($0.priority == .high, then: "now")
///     .when($0.priority == .medium, then: $0.title + " soon")
/// }
/// // CASE WHEN ("priority" = ?) THEN ? WHEN ("priority" = ?) THEN ("title" || ?) ELSE ? END
/// ```
public struct Case<QueryValue: ColumnType>: QueryExpression {
  private var branches: [CaseBranch] = []
  private let otherwise: SQLExpression?

  /// A CASE whose value is `otherwise` when no branch matches (NULL when `nil`).
  public init(else otherwise: QueryValue? = nil) {
    self.otherwise = otherwise.map { .bound($0) }
  }

  /// A CASE whose value is the expression `otherwise` when no branch matches.
  ///
  /// ```swift
  /// Item.all.select { Case(else: $0.stock).when($0.stock < 0, then: 0) }
  /// // CASE WHEN ("stock" < ?) THEN ? ELSE "stock" END
  /// ```
  public init(else otherwise: some QueryExpression<QueryValue>) {
    self.otherwise = otherwise.expression
  }

  /// Adds `WHEN condition THEN value`.
  public func when<C: QueryExpression>(_ condition: C, then value: QueryValue) -> Case where C.QueryValue: _BooleanQueryValue {
    var copy = self
    copy.branches.append(CaseBranch(when: condition.expression, then: .bound(value)))
    return copy
  }

  /// Adds `WHEN condition THEN expression`.
  ///
  /// ```swift
  /// Item.all.select { Case(else: 0).when($0.stock > $0.reorderLevel, then: $0.stock - $0.reorderLevel) }
  /// ```
  public func when<C: QueryExpression>(_ condition: C, then value: some QueryExpression<QueryValue>) -> Case
  where C.QueryValue: _BooleanQueryValue {
    var copy = self
    copy.branches.append(CaseBranch(when: condition.expression, then: value.expression))
    return copy
  }

  public var expression: SQLExpression {
    .caseWhen(base: nil, branches: branches, else: otherwise)
  }
}
