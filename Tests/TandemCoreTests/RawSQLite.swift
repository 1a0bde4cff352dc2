import CSQLite
import Foundation
import TandemCore

/// A minimal raw SQLite handle for checking emitted DDL against the real engine.
final class RawSQLite {
  private var handle: OpaquePointer?

  init() throws {
    guard sqlite3_open(":memory:", &handle) == SQLITE_OK else { throw RawSQLiteError(message: "open failed") }
  }

  deinit { sqlite3_close(handle) }

  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw RawSQLiteError(message: "\(text) in \(sql)")
    }
  }

  /// The rows of `sql`, with `texts` bound to its `?` placeholders in order.
  func rows(_ sql: String, binding texts: [String] = []) throws -> [[SqliteValue]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
      throw RawSQLiteError(message: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    for (index, text) in texts.enumerated() {
      let bytes = Array(text.utf8)
      let result = bytes.withUnsafeBufferPointer { buffer in
        sqlite3_bind_text64(
          statement, Int32(index + 1), UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1))?
            .assumingMemoryBound(to: CChar.self), UInt64(buffer.count), tandem_sqlite_transient(), UInt8(SQLITE_UTF8))
      }
      guard result == SQLITE_OK else { throw RawSQLiteError(message: String(cString: sqlite3_errmsg(handle))) }
    }
    var result: [[SqliteValue]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      result.append((0..<sqlite3_column_count(statement)).map { column in
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
          .text(String(decoding: UnsafeRawBufferPointer(start: sqlite3_column_text(statement, column), count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self))
        case SQLITE_BLOB:
          .blob(Data(bytes: sqlite3_column_blob(statement, column) ?? UnsafeRawPointer(bitPattern: 1)!, count: Int(sqlite3_column_bytes(statement, column))))
        default: .null
        }
      })
    }
    return result
  }
}

struct RawSQLiteError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
