import CSQLite
import TandemCore

/// The one owner of a `sqlite3` handle: opens it in `init`, closes it in `deinit`.
///
/// Prepared statements keep their connection alive, so the handle is closed only after every
/// statement prepared on it has been finalized.
///
/// The handle is opened with `SQLITE_OPEN_NOMUTEX` (SQLite's "multi-thread" mode): SQLite takes
/// no lock of its own on this connection, because the `Database` facade already serializes every
/// call to a backend. The connection must therefore never be used from two threads at once.
final class SQLiteConnection {
  let handle: OpaquePointer

  /// Opens (creating if needed) the database at `path`; `":memory:"` is a private in-memory one.
  /// A read-only connection neither creates the file nor writes to it.
  init(path: String, readOnly: Bool) throws {
    var opened: OpaquePointer?
    let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    let flags = access | SQLITE_OPEN_NOMUTEX
    let resultCode = sqlite3_open_v2(path, &opened, flags, nil)
    guard let opened else {
      try raiseSQLiteError(resultCode, connection: nil, sql: nil)
    }
    guard resultCode == SQLITE_OK else {
      defer { sqlite3_close_v2(opened) }
      try raiseSQLiteError(resultCode, connection: opened, sql: nil)
    }
    handle = opened
    sqlite3_extended_result_codes(handle, 1)
  }

  /// Makes a quoted identifier that names nothing an error instead of a text literal.
  func disableDoubleQuotedStrings() throws {
    let resultCode = tandem_sqlite_disable_double_quoted_strings(handle)
    if resultCode != SQLITE_OK {
      try raiseSQLiteError(resultCode, connection: handle, sql: nil)
    }
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// The number of rows the last INSERT, UPDATE or DELETE changed.
  var changes: Int { Int(sqlite3_changes64(handle)) }

  /// The number of rows every INSERT, UPDATE and DELETE has changed since the connection opened.
  var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

  /// The rowid of the most recent successful insert on this connection.
  var lastInsertRowid: Int64 {
    get { sqlite3_last_insert_rowid(handle) }
    set { sqlite3_set_last_insert_rowid(handle, newValue) }
  }

  /// Whether the connection is inside a transaction.
  var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// Whether the main database can only be read (opened read-only, or SQLite could not open the
  /// file for writing).
  var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Waits up to `milliseconds` for another connection's lock before failing with `database is locked`.
  func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }
}
