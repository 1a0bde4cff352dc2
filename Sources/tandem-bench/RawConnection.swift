import CSQLite

/// A bare `sqlite3` connection for the raw-C baselines: opened in `init`, closed in `deinit`.
///
/// The baselines call the C API directly in their loops (bind, step, column, reset); this type
/// only owns the handle and turns failing result codes into ``BenchError``s.
final class RawConnection {
  let handle: OpaquePointer

  /// Opens `path` (`":memory:"` for a private in-memory database). A file is put in WAL mode, as
  /// Tandem's SQLite backend does, so that the comparison measures Tandem and not the journal.
  init(path: String) throws {
    var opened: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &opened, flags, nil)
    guard let opened else { throw BenchError("sqlite3_open_v2(\(path)) failed with code \(code)") }
    handle = opened
    guard code == SQLITE_OK else {
      let message = String(cString: sqlite3_errmsg(opened))
      sqlite3_close_v2(opened)
      throw BenchError("sqlite3_open_v2(\(path)): \(message)")
    }
    if path != ":memory:" {
      try execute("PRAGMA journal_mode = WAL")
    }
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs SQL text without results (`sqlite3_exec`).
  func execute(_ sql: String) throws {
    try check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
  }

  /// Compiles one statement; the caller finalizes it with ``RawStatement``'s `deinit`.
  func prepare(_ sql: String) throws -> RawStatement {
    var statement: OpaquePointer?
    try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql)
    guard let statement else { throw BenchError("no statement in \(sql)") }
    return RawStatement(handle: statement, connection: self)
  }

  /// Throws unless `code` is `SQLITE_OK`.
  func check(_ code: Int32, _ sql: String) throws {
    guard code == SQLITE_OK else { throw failure(code, sql) }
  }

  /// The error for a failing result code, with SQLite's message.
  func failure(_ code: Int32, _ sql: String) -> BenchError {
    BenchError("SQLite error \(code) (\(String(cString: sqlite3_errmsg(handle)))) in \(sql)")
  }
}

/// One prepared statement of a ``RawConnection``, finalized in `deinit`.
final class RawStatement {
  let handle: OpaquePointer
  let connection: RawConnection

  init(handle: OpaquePointer, connection: RawConnection) {
    self.handle = handle
    self.connection = connection
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Steps a statement that returns no row and resets it.
  func runToCompletion() throws {
    let code = sqlite3_step(handle)
    sqlite3_reset(handle)
    guard code == SQLITE_DONE else { throw connection.failure(code, String(cString: sqlite3_sql(handle))) }
  }

  /// Steps once: `true` for a row, `false` when done; throws on an error.
  @inline(__always)
  func step() throws -> Bool {
    let code = sqlite3_step(handle)
    if code == SQLITE_ROW { return true }
    if code == SQLITE_DONE { return false }
    throw connection.failure(code, String(cString: sqlite3_sql(handle)))
  }

  @inline(__always)
  func bind(_ value: Int, at index: Int32) {
    sqlite3_bind_int64(handle, index, Int64(value))
  }

  func bind(_ value: String, at index: Int32) {
    sqlite3_bind_text(handle, index, value, -1, tandem_sqlite_transient())
  }

  func bind(_ value: Int?, at index: Int32) {
    if let value {
      sqlite3_bind_int64(handle, index, Int64(value))
    } else {
      sqlite3_bind_null(handle, index)
    }
  }

  func bind(_ value: Double?, at index: Int32) {
    if let value {
      sqlite3_bind_double(handle, index, value)
    } else {
      sqlite3_bind_null(handle, index)
    }
  }

  @inline(__always)
  func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

  func text(_ column: Int32) -> String {
    guard let text = sqlite3_column_text(handle, column) else { return "" }
    return String(cString: text)
  }

  func optionalDouble(_ column: Int32) -> Double? {
    sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
  }

  /// Reads a ``Row10`` from columns 0…9 of the current row.
  @inline(__always)
  func row10() -> Row10 {
    Row10(
      id: int(0), c1: int(1), c2: int(2), c3: int(3), c4: int(4), c5: int(5), c6: int(6), c7: int(7), c8: int(8),
      c9: int(9))
  }
}
