import Tandem
import Testing

extension DatabaseWriter {
  /// The raw values of a typed query, in its deterministic order, without decoding: the storage
  /// class of every value is part of the result (`.integer(1)` is not `.real(1)`).
  ///
  /// ```swift
  /// #expect(try db.rows(Item.all.select { ($0.id, $0.stock / 0) }) == [[1, nil]])
  /// ```
  func rows<Root, Output>(_ query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]) throws
    -> [[SqliteValue]]
  {
    try execute(.select(query.statement), parameters: parameters).rows
  }

  /// The values of every row SQL text returns.
  ///
  /// ```swift
  /// #expect(try db.values(sql: "SELECT 1, NULL") == [[1, nil]])
  /// ```
  func values(sql: String, rowOrder: RowOrder = .sqlite) throws -> [[SqliteValue]] {
    try fetchAll(sql: sql, rowOrder: rowOrder).map(\.values)
  }

  /// The error SQL text fails with, or `nil` when it runs (its rows in any order).
  ///
  /// ```swift
  /// #expect(db.failure(sql: "SELECT nope")?.signature == .sqlite(code: 1, message: "no such column: nope"))
  /// ```
  func failure(sql: String) -> TandemError? {
    do {
      _ = try fetchAll(sql: sql, rowOrder: .unordered)
      return nil
    } catch {
      return error as? TandemError
    }
  }

  /// The one result of a query that returns exactly one row (an aggregate, typically).
  func fetchSingle<Root, Output>(
    _ query: Select<Root, Output>, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Output {
    let results = try fetchAll(query)
    try #require(results.count == 1, "expected exactly one row", sourceLocation: sourceLocation)
    return results[0]
  }

  /// Every row of a table as stored, columns in schema order, in rowid order.
  func storedRows(of table: String, columns: [String]) throws -> [[SqliteValue]] {
    try execute(
      .select(
        SelectStatement(table: table, columns: columns.map { .column($0) }, orderBy: [OrderingTerm(.rowid)]))
    ).rows
  }

  /// Inserts one row of raw values into `columns` of `table`, bypassing the typed layer, so that
  /// a test can store what no record would (NULL in a NOT NULL column, text in an INTEGER column).
  @discardableResult
  func insertRaw(into table: String, columns: [String], values: [SqliteValue]) throws -> StatementResult {
    try execute(
      .insert(InsertStatement(table: table, columns: columns, rows: [values.map(SQLExpression.literal)])))
  }
}
