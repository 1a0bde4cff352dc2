import CSQLite
import Foundation
import SQLLogicTest
import TandemCore
import SQLiteReference

/// An error SQLite reported, with its message.
struct RawSQLiteError: Error, CustomStringConvertible {
  var description: String
}

/// The sqllogictest engine straight over the C API, as SQLite's reference driver uses it:
/// `sqlite3_exec` for statement records, prepare-and-step for queries. It proves the runner, since
/// real SQLite passes every record of the corpus.
final class RawSQLiteLogicEngine: SQLLogicEngine {
  private let sqlite: SQLiteHandle
  private var handle: OpaquePointer { sqlite.connection }

  init() throws {
    sqlite = try SQLiteHandle()
  }

  func execute(script: String) throws {
    do {
      try sqlite.execute(script)
    } catch let failure as SQLiteHandle.Failure {
      throw RawSQLiteError(description: failure.message)
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
      result.rows.append(SQLiteHandle.row(of: statement))
    }
    return result
  }

  /// What `sqlite3_column_int`, `sqlite3_column_double` and `sqlite3_column_text` give for
  /// `value`, read back from `SELECT ?` — the facts the runner's own conversions are tested against.
  func columnReadings(of value: SqliteValue) throws -> (int: Int32, double: Double, text: [UInt8]?) {
    let statement = try prepare("SELECT ?")
    defer { sqlite3_finalize(statement) }
    SQLiteHandle.bind(value, to: statement, at: 1)
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
    SQLiteHandle.bind([.text(format), .real(value)], to: statement)
    guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else {
      throw RawSQLiteError(description: "printf gave no text")
    }
    return String(cString: text)
  }

  private func prepare(_ sql: String) throws -> OpaquePointer {
    do {
      return try sqlite.prepare(sql)
    } catch let failure as SQLiteHandle.Failure {
      throw RawSQLiteError(description: failure.message)
    }
  }
}
