import CSQLite
import Foundation
import SQLLogicTest
import TandemCore

/// An error SQLite reported, with its message.
struct RawSQLiteError: Error, CustomStringConvertible {
  var description: String
}

/// The sqllogictest engine straight over the C API, as SQLite's reference driver uses it:
/// `sqlite3_exec` for statement records, prepare-and-step for queries. It proves the runner, since
/// real SQLite passes every record of the corpus.
final class RawSQLiteEngine: SQLLogicEngine {
  private let handle: OpaquePointer

  init() throws {
    var handle: OpaquePointer?
    guard sqlite3_open(":memory:", &handle) == SQLITE_OK, let handle else {
      sqlite3_close(handle)
      throw RawSQLiteError(description: "cannot open an in-memory database")
    }
    self.handle = handle
  }

  deinit {
    sqlite3_close(handle)
  }

  func execute(script: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, script, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      throw RawSQLiteError(description: message.map { String(cString: $0) } ?? "error \(code)")
    }
  }

  func query(_ sql: String, rowOrderMatters: Bool) throws -> SQLLogicResult {
    let statement = try prepare(sql)
    defer { sqlite3_finalize(statement) }
    let columnCount = Int(sqlite3_column_count(statement))
    var result = SQLLogicResult(columnCount: columnCount, rows: [])
    while true {
      let code = sqlite3_step(statement)
      if code == SQLITE_DONE { break }
      guard code == SQLITE_ROW else {
        result.stepError = RawSQLiteError(description: String(cString: sqlite3_errmsg(handle)))
        break
      }
      result.rows.append((0..<columnCount).map { value(statement, column: Int32($0)) })
    }
    return result
  }

  /// What `sqlite3_column_int`, `sqlite3_column_double` and `sqlite3_column_text` give for
  /// `value`, read back from `SELECT ?` — the facts the runner's own conversions are tested against.
  func columnReadings(of value: SqliteValue) throws -> (int: Int32, double: Double, text: [UInt8]?) {
    let statement = try prepare("SELECT ?")
    defer { sqlite3_finalize(statement) }
    try bind(value, to: statement)
    guard sqlite3_step(statement) == SQLITE_ROW else { throw RawSQLiteError(description: "SELECT ? gave no row") }
    // Each reading converts a fresh copy: the column's own value is left as stored.
    let int = sqlite3_column_int(statement, 0)
    sqlite3_reset(statement)
    guard sqlite3_step(statement) == SQLITE_ROW else { throw RawSQLiteError(description: "SELECT ? gave no row") }
    let double = sqlite3_column_double(statement, 0)
    sqlite3_reset(statement)
    guard sqlite3_step(statement) == SQLITE_ROW else { throw RawSQLiteError(description: "SELECT ? gave no row") }
    let text = sqlite3_column_text(statement, 0).map { pointer in
      Array(UnsafeBufferPointer(start: pointer, count: strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))))
    }
    return (int, double, text)
  }

  /// `printf(format, value)` as SQLite's SQL function computes it.
  func printf(_ format: String, _ value: Double) throws -> String {
    let statement = try prepare("SELECT printf(?, ?)")
    defer { sqlite3_finalize(statement) }
    try bind(.text(format), to: statement, at: 1)
    try bind(.real(value), to: statement, at: 2)
    guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else {
      throw RawSQLiteError(description: "printf gave no text")
    }
    return String(cString: text)
  }

  private func prepare(_ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw RawSQLiteError(description: String(cString: sqlite3_errmsg(handle)))
    }
    return statement
  }

  private func bind(_ value: SqliteValue, to statement: OpaquePointer, at index: Int32 = 1) throws {
    let code: Int32
    switch value {
    case .integer(let integer): code = sqlite3_bind_int64(statement, index, integer)
    case .real(let real): code = sqlite3_bind_double(statement, index, real)
    case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, tandem_sqlite_transient())
    case .blob(let data):
      code = data.withUnsafeBytes { bytes in
        sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), tandem_sqlite_transient())
      }
    case .null: code = sqlite3_bind_null(statement, index)
    }
    guard code == SQLITE_OK else { throw RawSQLiteError(description: "bind failed: \(code)") }
  }

  private func value(_ statement: OpaquePointer, column: Int32) -> SqliteValue {
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
      guard let bytes = sqlite3_column_blob(statement, column) else { return .blob(Data()) }
      return .blob(Data(bytes: bytes, count: count))
    default:
      return .null
    }
  }
}
