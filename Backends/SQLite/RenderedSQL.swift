import TandemCore

/// One `?` placeholder of rendered SQL: either a value fixed when the statement was built, or a
/// named parameter whose value is looked up when the statement runs.
///
/// ```swift
/// // WHERE ("title" = ?) AND ("priority" > ?)
/// [.value(.text("Milk")), .parameter("minimum")]
/// ```
public enum SQLBinding: Sendable, Hashable {
  /// A literal of the query model, bound as is.
  case value(SqliteValue)
  /// A named parameter (`:name`), resolved from the parameters passed at execution.
  case parameter(String)

  /// The value to bind, taking named parameters from `parameters`.
  ///
  /// Throws ``TandemError/misuse(_:)`` (`missing value for parameter :name`) when a parameter has
  /// no value.
  ///
  /// ```swift
  /// try SQLBinding.parameter("id").value(in: ["id": 7])  // .integer(7)
  /// ```
  public func value(in parameters: [String: SqliteValue]) throws -> SqliteValue {
    switch self {
    case .value(let value):
      return value
    case .parameter(let name):
      guard let value = parameters[name] else {
        throw TandemError.misuse("missing value for parameter :\(name)")
      }
      return value
    }
  }
}

/// SQL text with `?` placeholders, and what to bind to each placeholder, in order.
///
/// No value ever appears in `sql`; its `description` shows only the SQL, so logs never leak data.
///
/// ```swift
/// let rendered = try SQLRenderer().render(.delete(DeleteStatement(table: "t", filter: .binary(.equal, .column("a"), .literal(1)))))
/// rendered.sql       // DELETE FROM "t" WHERE ("a" = ?)
/// rendered.bindings  // [.value(.integer(1))]
/// ```
public struct RenderedSQL: Sendable, Hashable, CustomStringConvertible {
  /// The SQL text, with one `?` per binding.
  public var sql: String
  /// The values (or named parameters) for the placeholders, in order.
  public var bindings: [SQLBinding]
  /// The number of trailing result columns that hold the rowids a join's rows are to be sorted
  /// by (ascending, NULLs first) and that are dropped afterwards; 0 when the SQL orders its rows
  /// itself. Only the backend's own rendering leaves that order to it.
  var rowidSortKeyCount = 0

  /// Rendered SQL from its text and bindings.
  public init(sql: String, bindings: [SQLBinding]) {
    self.sql = sql
    self.bindings = bindings
  }

  /// The values to bind, with named parameters taken from `parameters`.
  ///
  /// ```swift
  /// try rendered.values(parameters: ["id": 7])  // [.integer(7)]
  /// ```
  public func values(parameters: [String: SqliteValue]) throws -> [SqliteValue] {
    try bindings.map { try $0.value(in: parameters) }
  }

  /// The SQL text alone; bound values are never printed.
  public var description: String { sql }
}
