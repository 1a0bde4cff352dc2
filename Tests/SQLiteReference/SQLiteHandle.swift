import CSQLite
import Foundation
import TandemCore

/// Real SQLite in memory, straight over its C API: the one way test targets reach the reference
/// engine (to prepare, bind and read values, and to run scripts), whatever they build on top.
///
/// ```swift
/// let sqlite = try SQLiteHandle()
/// try sqlite.execute("CREATE TABLE t(a); INSERT INTO t VALUES (1)")
/// try sqlite.rows("SELECT a + ? FROM t", bindings: [.integer(1)])  // [[.integer(2)]]
/// ```
public final class SQLiteHandle {
  /// What SQLite reported: its result code and message, with the SQL it was running.
  public struct Failure: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let sql: String
    public var description: String { "\(message) in \(sql)" }

    public init(code: Int32, message: String, sql: String) {
      self.code = code
      self.message = message
      self.sql = sql
    }
  }

  /// The connection, for what a test reads beyond values (`sqlite3_extended_errcode`, `sqlite3_changes`).
  public let connection: OpaquePointer

  /// Opens an in-memory database; `doubleQuotedStrings` keeps SQLite's default of reading an
  /// unknown double-quoted name as a string (the `sqlite3` shell's), which the SQLite backend turns off.
  public init(doubleQuotedStrings: Bool = true) throws {
    var connection: OpaquePointer?
    guard sqlite3_open(":memory:", &connection) == SQLITE_OK, let connection else {
      sqlite3_close(connection)
      throw Failure(code: SQLITE_CANTOPEN, message: "cannot open an in-memory database", sql: "")
    }
    self.connection = connection
    if !doubleQuotedStrings { _ = tandem_sqlite_disable_double_quoted_strings(connection) }
  }

  deinit { sqlite3_close(connection) }

  /// The message of the last error.
  public var errorMessage: String { String(cString: sqlite3_errmsg(connection)) }

  /// Runs a script of statements without results.
  public func execute(_ script: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(connection, script, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      throw Failure(code: code, message: message.map { String(cString: $0) } ?? errorMessage, sql: script)
    }
  }

  /// Prepares one statement; the caller finalizes it.
  public func prepare(_ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw Failure(code: code, message: errorMessage, sql: sql)
    }
    return statement
  }

  /// The message preparing `sql` reports, or nil when it prepares.
  public func prepareError(_ sql: String) -> String? {
    do {
      sqlite3_finalize(try prepare(sql))
      return nil
    } catch let failure as Failure {
      return failure.message
    } catch {
      return "\(error)"
    }
  }

  /// The rows of one statement, with `bindings` bound to its parameters in order.
  public func rows(_ sql: String, bindings: [SqliteValue] = []) throws -> [[SqliteValue]] {
    let statement = try prepare(sql)
    defer { sqlite3_finalize(statement) }
    Self.bind(bindings, to: statement)
    var rows: [[SqliteValue]] = []
    while true {
      let code = sqlite3_step(statement)
      if code == SQLITE_DONE { return rows }
      guard code == SQLITE_ROW else { throw Failure(code: code, message: errorMessage, sql: sql) }
      rows.append(Self.row(of: statement))
    }
  }

  /// The names SQLite gives a query's result columns.
  public func columnNames(_ sql: String) throws -> [String] {
    let statement = try prepare(sql)
    defer { sqlite3_finalize(statement) }
    return (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
  }

  /// Binds `values` to the statement's parameters `?1`, `?2`, …: text and blobs by byte count (so
  /// text holding NUL is bound whole, and an empty blob is a blob, not NULL).
  public static func bind(_ values: [SqliteValue], to statement: OpaquePointer) {
    for (offset, value) in values.enumerated() { bind(value, to: statement, at: Int32(offset + 1)) }
  }

  /// Binds one value to parameter `index`.
  public static func bind(_ value: SqliteValue, to statement: OpaquePointer, at index: Int32) {
    switch value {
    case .null:
      sqlite3_bind_null(statement, index)
    case .integer(let integer):
      sqlite3_bind_int64(statement, index, integer)
    case .real(let real):
      sqlite3_bind_double(statement, index, real)
    case .text(let text):
      let bytes = Array(text.utf8).map { CChar(bitPattern: $0) } + [0]
      bytes.withUnsafeBufferPointer { buffer in
        _ = sqlite3_bind_text(statement, index, buffer.baseAddress, Int32(bytes.count - 1), tandem_sqlite_transient())
      }
    case .blob(let data):
      let bytes = [UInt8](data) + [0]
      bytes.withUnsafeBufferPointer { buffer in
        _ = sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(bytes.count - 1), tandem_sqlite_transient())
      }
    }
  }

  /// The current row of a stepped statement.
  public static func row(of statement: OpaquePointer) -> [SqliteValue] {
    (0..<sqlite3_column_count(statement)).map { value(of: statement, column: $0) }
  }

  /// One column of the current row, in its storage class (text decoded from its bytes).
  public static func value(of statement: OpaquePointer, column: Int32) -> SqliteValue {
    switch sqlite3_column_type(statement, column) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_column_int64(statement, column))
    case SQLITE_FLOAT:
      return .real(sqlite3_column_double(statement, column))
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(statement, column))
      guard let text = sqlite3_column_text(statement, column) else { return .text("") }
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, column))
      guard count > 0, let blob = sqlite3_column_blob(statement, column) else { return .blob(Data()) }
      return .blob(Data(bytes: blob, count: count))
    default:
      return .null
    }
  }
}
