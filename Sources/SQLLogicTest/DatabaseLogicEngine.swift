import Foundation
import Tandem

/// A Tandem `Database` as a sqllogictest engine, through its raw-SQL API.
///
/// `forEachRow` throws an error met while stepping after handing over the rows read before it;
/// that error ends the result, as in SQLite's reference driver. An error before any row could be
/// a prepare error (the query fails) or a step error on the first row (an empty result): the API
/// does not say which, so only SQLite's step-only messages in ``stepOnlyMessages`` are taken for
/// the latter.
///
/// A table or view whose CREATE the engine refused (`.unsupported`) is remembered: a later
/// `no such table` naming it is that refusal's consequence, and is reported as unsupported too.
///
/// ```swift
/// let report = try SQLLogicRunner().run(fileAt: url, on: DatabaseLogicEngine(storage: .memory))
/// ```
public final class DatabaseLogicEngine: SQLLogicEngine {
  /// Messages SQLite reports only while stepping, never when preparing.
  static let stepOnlyMessages: Set<String> = ["integer overflow"]

  private let database: Database
  /// Lowercased names of the tables and views whose CREATE was refused.
  private var refusedNames: Set<String> = []

  /// A fresh, empty database of the given storage.
  public init(storage: Database.Storage) throws {
    database = try Database(storage)
  }

  /// Runs a statement record's SQL as one script.
  public func execute(script: String) throws {
    do {
      try database.execute(sql: script)
    } catch let error as TandemError
      where error.kind == .unsupported || error.message.contains("memory failed with unsupported: ")
    {
      refusedNames.formUnion(Self.createdNames(in: script))
      throw consequence(of: error)
    } catch {
      throw consequence(of: error)
    }
  }

  /// Runs a query record's SQL; rows whose order the record does not check may come in any order.
  public func query(_ sql: String, rowOrderMatters: Bool) throws -> SQLLogicResult {
    var result = SQLLogicResult(columnCount: nil, rows: [])
    do {
      try database.forEachRow(sql: sql, rowOrder: rowOrderMatters ? .sqlite : .unordered) { row in
        result.columnCount = row.columnNames.count
        result.rows.append(row.values)
      }
    } catch {
      let message = (error as? TandemError)?.message ?? ""
      guard !result.rows.isEmpty || Self.stepOnlyMessages.contains(message) else { throw consequence(of: error) }
      result.stepError = error
    }
    return result
  }

  /// `no such table: X` for a table or view whose creation was refused, as that refusal; in
  /// tandem mode, a divergence where the memory engine refused what SQLite ran, as that refusal.
  private func consequence(of error: any Error) -> any Error {
    if let error = error as? TandemError, error.kind == .divergence,
      let refusal = error.message.range(of: "memory failed with unsupported: ")
    {
      let construct = error.message[refusal.upperBound...].prefix { $0 != "\n" }
      return TandemError.unsupported("in tandem mode, the memory engine refused \(construct)", backend: "memory")
    }
    guard let error = error as? TandemError, [.sqlite, .divergence].contains(error.kind),
      let found = error.message.range(of: "no such table: ")
    else { return error }
    let name = error.message[found.upperBound...].prefix { !$0.isWhitespace && $0 != ")" }
    guard refusedNames.contains(name.lowercased()) else { return error }
    return TandemError.unsupported("a table or view whose CREATE was refused (\(name))", backend: "memory")
  }

  /// The names `CREATE [TEMP] TABLE|VIEW [IF NOT EXISTS] name` statements in `script` create.
  static func createdNames(in script: String) -> [String] {
    let words = script.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "(" || $0 == ";" })
    var names: [String] = []
    for (index, word) in words.enumerated() where word == "table" || word == "view" {
      guard index > 0, ["create", "temp", "temporary"].contains(words[index - 1]) else { continue }
      var next = index + 1
      if next + 2 < words.count, words[next] == "if", words[next + 1] == "not", words[next + 2] == "exists" { next += 3 }
      if next < words.count { names.append(String(words[next]).trimmingCharacters(in: CharacterSet(charactersIn: "\"`[]"))) }
    }
    return names
  }
}
