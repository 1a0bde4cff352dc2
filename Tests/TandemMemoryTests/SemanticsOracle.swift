import CSQLite
import Foundation
import TandemCore

@testable import TandemMemory

/// A test-only window on the real SQLite library: runs statements with bound values and reads the
/// results back exactly (storage class and bits), so the memory engine's value semantics can be
/// checked against it.
final class SemanticsOracle {
  /// What one statement produced: the first row's values, or SQLite's error message.
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

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let db: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]

  init() throws {
    var handle: OpaquePointer?
    guard sqlite3_open(":memory:", &handle) == SQLITE_OK, let handle else {
      throw Failure(description: "cannot open an in-memory SQLite database")
    }
    db = handle
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close(db)
  }

  /// Runs statements without results (schema, setup).
  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw Failure(description: "\(sql): \(text)")
    }
  }

  /// Runs `sql` with `values` bound to `?1`, `?2`, … and returns the first row (empty for no row),
  /// or the error SQLite reported while stepping.
  func run(_ sql: String, _ values: [SqliteValue] = []) throws -> Outcome {
    let statement = try prepared(sql)
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (offset, value) in values.enumerated() {
      bind(value, to: Int32(offset + 1), in: statement)
    }
    let code = sqlite3_step(statement)
    if code == SQLITE_DONE { return .row([]) }
    if code != SQLITE_ROW { return .error(String(cString: sqlite3_errmsg(db))) }
    let columns = 0..<sqlite3_column_count(statement)
    // Text that is not valid UTF-8 cannot be a Swift String: the memory engine refuses to make it.
    if columns.contains(where: { !isValidText(statement, $0) }) { return .error(Conversion.invalidUTF8.message) }
    return .row(columns.map { column(statement, $0) })
  }

  /// Whether a result column is not TEXT, or TEXT whose bytes are valid UTF-8.
  private func isValidText(_ statement: OpaquePointer?, _ index: Int32) -> Bool {
    guard sqlite3_column_type(statement, index) == SQLITE_TEXT, let text = sqlite3_column_text(statement, index) else {
      return true
    }
    let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index)))
    return String(validating: bytes, as: UTF8.self) != nil
  }

  /// The first row of `sql`; throws if SQLite reports an error.
  func row(_ sql: String, _ values: [SqliteValue] = []) throws -> [SqliteValue] {
    switch try run(sql, values) {
    case .row(let row): return row
    case .error(let message): throw Failure(description: "\(sql): \(message)")
    }
  }

  /// The single value of `sql`'s first row.
  func value(_ sql: String, _ values: [SqliteValue] = []) throws -> SqliteValue {
    try row(sql, values).first ?? .null
  }

  private func prepared(_ sql: String) throws -> OpaquePointer {
    if let statement = statements[sql] { return statement }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
    }
    statements[sql] = statement
    return statement
  }

  private func bind(_ value: SqliteValue, to index: Int32, in statement: OpaquePointer) {
    switch value {
    case .null:
      sqlite3_bind_null(statement, index)
    case .integer(let i):
      sqlite3_bind_int64(statement, index, i)
    case .real(let r):
      sqlite3_bind_double(statement, index, r)
    case .text(let s):
      let bytes = Array(s.utf8).map { CChar(bitPattern: $0) } + [0]
      bytes.withUnsafeBufferPointer { buffer in
        _ = sqlite3_bind_text(statement, index, buffer.baseAddress, Int32(bytes.count - 1), tandem_sqlite_transient())
      }
    case .blob(let data):
      // A zero-length blob still needs a non-NULL pointer, or SQLite binds NULL.
      let bytes = [UInt8](data) + [0]
      bytes.withUnsafeBufferPointer { buffer in
        _ = sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(bytes.count - 1), tandem_sqlite_transient())
      }
    }
  }

  private func column(_ statement: OpaquePointer, _ index: Int32) -> SqliteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT:
      return .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let text = sqlite3_column_text(statement, index) else { return .text("") }
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard count > 0, let blob = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
      return .blob(Data(bytes: blob, count: count))
    default:
      return .null
    }
  }
}
