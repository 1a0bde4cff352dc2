/// A `query` record: its column types, sort mode, optional label, SQL and expected result.
///
/// ```swift
/// // query II rowsort
/// // SELECT a, b FROM t1
/// // ----
/// // 1
/// // 2
/// SQLLogicQuery(types: [.integer, .integer], sortMode: .rowSort, label: nil,
///               sql: "SELECT a, b FROM t1", expected: ["1", "2"])
/// ```
public struct SQLLogicQuery: Sendable, Hashable {
  /// How result values are ordered before they are compared.
  public enum SortMode: String, Sendable, Hashable {
    /// In the order the engine returned them.
    case noSort = "nosort"
    /// Rows sorted by their rendered values, byte-wise, column by column.
    case rowSort = "rowsort"
    /// Every value sorted on its own, byte-wise.
    case valueSort = "valuesort"
  }

  /// One result column's type letters (`I`, `R`, `T`), each a column.
  public var types: [SQLLogicColumnType]
  /// How results are ordered before comparing.
  public var sortMode: SortMode
  /// A label: queries with the same label must produce the same result hash.
  public var label: String?
  /// The query's SQL.
  public var sql: String
  /// The lines after `----`: one rendered value per line, or `N values hashing to <md5>`.
  public var expected: [String]

  /// A query record's content.
  ///
  /// ```swift
  /// SQLLogicQuery(types: [.text], sortMode: .noSort, label: nil, sql: "SELECT 'a'", expected: ["a"])
  /// ```
  public init(types: [SQLLogicColumnType], sortMode: SortMode, label: String?, sql: String, expected: [String]) {
    self.types = types
    self.sortMode = sortMode
    self.label = label
    self.sql = sql
    self.expected = expected
  }
}
