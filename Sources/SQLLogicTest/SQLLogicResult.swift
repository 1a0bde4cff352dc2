import TandemCore

/// What a query gave: its column count, the rows read, and the error that ended stepping, if any.
///
/// As in SQLite's reference driver, an error while stepping (`integer overflow` from `sum()`)
/// only ends the result: the rows before it are the result.
///
/// ```swift
/// SQLLogicResult(columnCount: 2, rows: [[.integer(1), .text("a")]])
/// ```
public struct SQLLogicResult {
  /// The number of result columns, or `nil` when the engine cannot tell without a row.
  public var columnCount: Int?
  /// The rows, in the order the engine returned them.
  public var rows: [[SqliteValue]]
  /// The error that ended stepping early, if any.
  public var stepError: (any Error)?

  /// A query's result.
  ///
  /// ```swift
  /// SQLLogicResult(columnCount: 1, rows: [], stepError: overflow)
  /// ```
  public init(columnCount: Int?, rows: [[SqliteValue]], stepError: (any Error)? = nil) {
    self.columnCount = columnCount
    self.rows = rows
    self.stepError = stepError
  }
}
