import CSQLite
import Foundation
import TandemCore

@testable import TandemMemory
import SQLiteReference

/// Real SQLite in memory: the reference every memory-engine test compares against.
///
/// Configured like the SQLite backend (foreign keys on, no double-quoted string literals). Two
/// ways to ask it: ``run(_:_:)`` executes a whole statement as the backend would (rows, changes,
/// last insert rowid, errors mapped to `TandemError`), for engine tests; ``evaluate(_:_:)`` reads
/// the first row of a value expression exactly (storage class and bits), for value-semantics tests.
final class SQLiteOracle {
  /// What ``evaluate(_:_:)`` saw: the first row's values, or SQLite's error message.
  enum Outcome: Equatable, CustomStringConvertible {
    case row([SqliteValue])
    case error(String)

    var description: String {
      switch self {
      case .row(let values): "row(\(values.map(\.description).joined(separator: ", ")))"
      case .error(let message): "error(\(message))"
      }
    }
  }

  private var db: OpaquePointer?
  /// Prepared statements of ``evaluate(_:_:)``, which runs the same SQL thousands of times.
  private var statements: [String: OpaquePointer] = [:]

  init() {
    sqlite3_open(":memory:", &db)
    _ = tandem_sqlite_disable_double_quoted_strings(db)
    _ = try? exec("PRAGMA foreign_keys = ON")
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close(db)
  }

  /// Runs SQL without results (DDL, savepoints, setup); throws the error as both engines report it.
  func exec(_ sql: String) throws {
    let rc = sqlite3_exec(db, sql, nil, nil, nil)
    if rc != SQLITE_OK { throw currentError(rc, sql: sql) }
  }

  /// Creates a table exactly as the SQLite backend does: `CREATE TABLE` then `CREATE INDEX`es.
  func create(_ schema: TableSchema, ifNotExists: Bool = false) throws {
    try exec("SAVEPOINT tandem_create")
    do {
      for sql in schema.createStatements(ifNotExists: ifNotExists) { try exec(sql) }
      try exec("RELEASE tandem_create")
    } catch {
      try? exec("ROLLBACK TO tandem_create; RELEASE tandem_create")
      throw error
    }
  }

  /// Runs one statement with positional bindings as the SQLite backend does; returns its rows,
  /// `changes()` and `last_insert_rowid()`.
  func run(_ sql: String, _ bindings: [SqliteValue]) throws -> StatementResult {
    var statement: OpaquePointer?
    let prepared = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
    if prepared != SQLITE_OK { throw currentError(prepared, sql: sql) }
    defer { sqlite3_finalize(statement) }
    guard let statement else { return StatementResult() }
    SQLiteHandle.bind(bindings, to: statement)
    // As the SQLite backend: an insert reports only the rowids it inserted itself.
    let isInsert = sql.hasPrefix("INSERT")
    if isInsert { sqlite3_set_last_insert_rowid(db, 0) }
    // As the SQLite backend: inside a transaction a write runs in its own savepoint, so a failed
    // statement changes nothing even where SQLite keeps no statement journal.
    let isWrite = sqlite3_stmt_readonly(statement) == 0
    let guarded = isWrite && sqlite3_get_autocommit(db) == 0
    if guarded { try exec("SAVEPOINT oracle_statement") }
    var rows: [[SqliteValue]] = []
    while true {
      let rc = sqlite3_step(statement)
      if rc == SQLITE_DONE { break }
      guard rc == SQLITE_ROW else {
        let error = currentError(rc, sql: sql)
        if guarded && sqlite3_get_autocommit(db) == 0 {
          sqlite3_reset(statement)
          try? exec("ROLLBACK TO oracle_statement; RELEASE oracle_statement")
        }
        throw error
      }
      rows.append(SQLiteHandle.row(of: statement))
    }
    if guarded { try exec("RELEASE oracle_statement") }
    return StatementResult(
      rows: rows, lastInsertRowid: isInsert ? sqlite3_last_insert_rowid(db) : 0,
      changes: isWrite ? Int(sqlite3_changes(db)) : 0)
  }

  /// Runs `sql` with `values` bound to `?1`, `?2`, … and returns the first row (empty for no row),
  /// or the error SQLite reported while stepping.
  func evaluate(_ sql: String, _ values: [SqliteValue] = []) throws -> Outcome {
    let statement = try cached(sql)
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    SQLiteHandle.bind(values, to: statement)
    let code = sqlite3_step(statement)
    if code == SQLITE_DONE { return .row([]) }
    if code != SQLITE_ROW { return .error(String(cString: sqlite3_errmsg(db))) }
    let columns = 0..<sqlite3_column_count(statement)
    // Text that is not valid UTF-8 cannot be a Swift String: the memory engine refuses to make it.
    if columns.contains(where: { !isValidText(statement, $0) }) { return .error(Conversion.invalidUTF8.message) }
    return .row(SQLiteHandle.row(of: statement))
  }

  /// The first row of `sql`; throws if SQLite reports an error.
  func row(_ sql: String, _ values: [SqliteValue] = []) throws -> [SqliteValue] {
    switch try evaluate(sql, values) {
    case .row(let row): return row
    case .error(let message): throw TandemError.sqlite(code: 1, message: message, sql: sql)
    }
  }

  /// The single value of `sql`'s first row.
  func value(_ sql: String, _ values: [SqliteValue] = []) throws -> SqliteValue {
    try row(sql, values).first ?? .null
  }

  // MARK: - Values in and out

  private func cached(_ sql: String) throws -> OpaquePointer {
    if let statement = statements[sql] { return statement }
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
    guard rc == SQLITE_OK, let statement else { throw currentError(rc, sql: sql) }
    statements[sql] = statement
    return statement
  }

  /// Whether a result column is not TEXT, or TEXT whose bytes are valid UTF-8.
  private func isValidText(_ statement: OpaquePointer, _ index: Int32) -> Bool {
    guard sqlite3_column_type(statement, index) == SQLITE_TEXT, let text = sqlite3_column_text(statement, index) else {
      return true
    }
    let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index)))
    return String(validating: bytes, as: UTF8.self) != nil
  }

  /// The current error as the SQLite backend reports it (`raiseSQLiteError`).
  private func currentError(_ rc: Int32, sql: String) -> TandemError {
    let message = String(cString: sqlite3_errmsg(db))
    let extended = sqlite3_extended_errcode(db)
    func qualified(_ prefix: String) -> (String?, [String]) {
      let list = message.dropFirst(prefix.count).components(separatedBy: ", ")
      let table = list.first?.split(separator: ".", maxSplits: 1).first.map(String.init)
      return (table, list.map { $0.split(separator: ".", maxSplits: 1).last.map(String.init) ?? $0 })
    }
    switch extended {
    case 2067, 1555, 2579:
      let (table, columns) = qualified("UNIQUE constraint failed: ")
      return .constraintViolation(extended == 2067 ? .unique : .primaryKey, table: table, columns: columns, message: message)
    case 1299:
      let (table, columns) = qualified("NOT NULL constraint failed: ")
      return .constraintViolation(.notNull, table: table, columns: columns, message: message)
    case 275:
      return .constraintViolation(.check, table: nil, columns: [], message: message)
    case 787, 1811:  // 1811: SQLITE_CONSTRAINT_TRIGGER, an ON DELETE RESTRICT action
      return .constraintViolation(.foreignKey, table: nil, columns: [], message: message)
    default:
      return .sqlite(code: extended & 0xFF, message: message, sql: sql)
    }
  }
}
