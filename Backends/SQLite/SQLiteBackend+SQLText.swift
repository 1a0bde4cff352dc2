import CSQLite
import TandemCore

extension SQLiteBackend {
  /// The linked SQLite library's version, as `sqlite3_libversion()` gives it.
  ///
  /// ```swift
  /// SQLiteBackend.libraryVersion  // "3.40.1"
  /// ```
  public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

  /// Runs SQL text as written: SQLite compiles each statement, binds `arguments` to its
  /// parameters by SQLite's own parameter names, and steps it; the rows of every statement go to
  /// `body`.
  ///
  /// Inside a transaction, a statement that writes runs in a savepoint of its own, so that one
  /// failing half-way (a multi-row INSERT whose third row breaks a constraint) changes nothing,
  /// as every other write of this backend.
  ///
  /// ```swift
  /// try backend.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (?)", arguments: [1], rowOrder: .sqlite) { _ in }
  /// ```
  public func execute(
    sql: String, arguments: StatementArguments, rowOrder: RowOrder, eachRow body: (Row) throws -> Void
  ) throws -> StatementResult {
    // The text may change the schema: forget what was read of it.
    forgetTables()
    defer { forgetTables() }
    var cursor = 0
    var result = StatementResult()
    try SQLiteStatement.forEachStatement(in: sql, on: connection) { statement in
      let values = try arguments.values(for: statement.parameterNames, cursor: &cursor)
      let names = statement.columnNames
      connection.lastInsertRowid = 0
      let isWrite = !statement.isReadOnly
      let before = connection.totalChanges
      try atomically(isWrite && connection.isInTransaction) {
        try statement.forEachRow(values) { values in try body(Row(columnNames: names, values: values)) }
      }
      // `sqlite3_changes` keeps the count of the last INSERT, UPDATE or DELETE; a statement that
      // changed no row (DDL, a SELECT) reports 0.
      let changed = connection.totalChanges != before
      result = StatementResult(lastInsertRowid: connection.lastInsertRowid, changes: changed ? connection.changes : 0)
    }
    try arguments.checkAllUsed(cursor: cursor)
    return result
  }
}
