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
