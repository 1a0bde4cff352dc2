import CSQLite
import Foundation
import TandemCore

/// Real SQLite in memory, as the reference every engine test compares against
/// (`PRAGMA foreign_keys = ON`, like the SQLite backend).
final class EngineOracle {
  private var db: OpaquePointer?

  init() {
    sqlite3_open(":memory:", &db)
    // As the SQLite backend: no double-quoted string literals, foreign keys enforced.
    _ = tandem_sqlite_disable_double_quoted_strings(db)
    _ = try? exec("PRAGMA foreign_keys = ON")
  }

  deinit { sqlite3_close(db) }

  /// Runs SQL without results (DDL, savepoints); throws the error as both engines report it.
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

  /// Runs one statement with positional bindings; returns its rows, `changes()` and `last_insert_rowid()`.
  func run(_ sql: String, _ bindings: [SqliteValue]) throws -> StatementResult {
    var statement: OpaquePointer?
    let prepared = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
    if prepared != SQLITE_OK { throw currentError(prepared, sql: sql) }
    defer { sqlite3_finalize(statement) }
    for (offset, value) in bindings.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case .null: sqlite3_bind_null(statement, index)
      case .integer(let v): sqlite3_bind_int64(statement, index, v)
      case .real(let v): sqlite3_bind_double(statement, index, v)
      case .text(let v): sqlite3_bind_text(statement, index, v, -1, tandem_sqlite_transient())
      case .blob(let v):
        if v.isEmpty {
          sqlite3_bind_zeroblob(statement, index, 0)
        } else {
          _ = v.withUnsafeBytes { bytes in
            sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(v.count), tandem_sqlite_transient())
          }
        }
      }
    }
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
      rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
    }
    if guarded { try exec("RELEASE oracle_statement") }
    return StatementResult(
      rows: rows, lastInsertRowid: isInsert ? sqlite3_last_insert_rowid(db) : 0,
      changes: isWrite ? Int(sqlite3_changes(db)) : 0)
  }

  private func column(_ statement: OpaquePointer?, _ index: Int32) -> SqliteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let text = sqlite3_column_text(statement, index) else { return .text("") }
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let blob = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
      return .blob(Data(bytes: blob, count: count))
    default: return .null
    }
  }

  /// The current error as ERRORS.md maps it.
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
    case 787:
      return .constraintViolation(.foreignKey, table: nil, columns: [], message: message)
    default:
      return .sqlite(code: extended & 0xFF, message: message, sql: sql)
    }
  }
}
