/// A searched `CASE WHEN … THEN … ELSE … END` expression.
///
/// ```swift
/// Reminder.select {
///   Case(else: "later")
///     .when($0.priority == .high, then: "now")
///     .when($0.priority == .medium, then: "soon")
/// }
/// ```
public struct Case<QueryValue: ColumnType>: QueryExpression {
  private var branches: [CaseBranch] = []
  private let otherwise: SQLExpression?

  /// A CASE whose value is `otherwise` when no branch matches (NULL when `nil`).
  public init(else otherwise: QueryValue? = nil) {
    self.otherwise = otherwise.map { .bound($0) }
  }

  /// Adds `WHEN condition THEN value`.
  public func when<C: QueryExpression>(_ condition: C, then value: QueryValue) -> Case where C.QueryValue: _BooleanQueryValue {
    var copy = self
    copy.branches.append(CaseBranch(when: condition.expression, then: .bound(value)))
    return copy
  }

  public var expression: SQLExpression {
    .caseWhen(base: nil, branches: branches, else: otherwise)
  }
}

/// A named parameter: its value is supplied when the query runs, so one prepared query serves
/// many values.
///
/// ```swift
/// let byTitle = Reminder.where { $0.title == Parameter<String>("title") }
/// try db.fetchAll(byTitle, parameters: ["title": "Milk"])
/// ```
public struct Parameter<QueryValue: ColumnType>: QueryExpression {
  /// The parameter's name.
  public let name: String
  /// A parameter named `name`.
  public init(_ name: String) { self.name = name }
  public var expression: SQLExpression { .parameter(name) }
}
