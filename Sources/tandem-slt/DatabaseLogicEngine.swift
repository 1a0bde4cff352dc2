import SQLLogicTest
import Tandem

/// A Tandem `Database` as a sqllogictest engine, through its raw-SQL API.
///
/// `forEachRow` throws an error met while stepping after handing over the rows read before it;
/// that error ends the result, as in SQLite's reference driver. An error before any row could be
/// a prepare error (the query fails) or a step error on the first row (an empty result): the API
/// does not say which, so only SQLite's step-only messages in ``stepOnlyMessages`` are taken for
/// the latter.
final class DatabaseLogicEngine: SQLLogicEngine {
  /// Messages SQLite reports only while stepping, never when preparing.
  static let stepOnlyMessages: Set<String> = ["integer overflow"]

  private let database: Database

  /// A fresh, empty database of the given storage.
  init(storage: Database.Storage) throws {
    database = try Database(storage)
  }

  func execute(script: String) throws {
    try database.execute(sql: script)
  }

  func query(_ sql: String) throws -> SQLLogicResult {
    var result = SQLLogicResult(columnCount: nil, rows: [])
    do {
      try database.forEachRow(sql: sql) { row in
        result.columnCount = row.columnNames.count
        result.rows.append(row.values)
      }
    } catch {
      let message = (error as? TandemError)?.message ?? ""
      guard !result.rows.isEmpty || Self.stepOnlyMessages.contains(message) else { throw error }
      result.stepError = error
    }
    return result
  }
}
