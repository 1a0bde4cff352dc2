import Tandem

/// What one engine answered to one statement: a result or an error.
enum Outcome: Hashable, Sendable {
  case result(StatementResult)
  case failure(FailureSummary)

  /// Runs `body` and captures its answer.
  static func of(_ body: () throws -> StatementResult) -> Outcome {
    do {
      return .result(try body())
    } catch {
      return .failure(FailureSummary(error))
    }
  }

  /// The failure, when it is the memory engine refusing a feature it cannot reproduce.
  var unsupportedFeature: String? {
    guard case .failure(let failure) = self, failure.kind == .unsupported else { return nil }
    return failure.message
  }
}

/// The parts of an error both engines must agree on (the error table in Docs/Queries.md): kind, constraint, table, columns,
/// message and SQLite code — not the statement text, which only SQLite fills in.
struct FailureSummary: Hashable, Sendable, CustomStringConvertible {
  /// The error's kind; `nil` for an error that is not a ``TandemError``.
  var kind: TandemError.Kind?
  var constraint: TandemError.Constraint?
  var table: String?
  var columns: [String]
  var message: String
  var sqliteCode: Int32?

  init(_ error: any Error) {
    if let error = error as? TandemError {
      kind = error.kind
      constraint = error.constraint
      table = error.table
      columns = error.columns
      message = error.message
      sqliteCode = error.sqliteCode
    } else {
      kind = nil
      columns = []
      message = "\(type(of: error)): \(error)"
    }
  }

  var description: String {
    var text = kind.map(String.init(describing:)) ?? "non-Tandem error"
    if let constraint { text += " (\(constraint))" }
    if let table { text += " table: \(table)" }
    if !columns.isEmpty { text += " columns: \(columns)" }
    if let sqliteCode { text += " code: \(sqliteCode)" }
    return text + " message: \"\(message)\""
  }
}

extension Outcome: CustomStringConvertible {
  var description: String {
    switch self {
    case .failure(let failure): return "error: \(failure)"
    case .result(let result):
      var text = "\(result.rows.count) row(s)"
      if result.changes != 0 || result.lastInsertRowid != 0 {
        text += ", changes \(result.changes), last insert rowid \(result.lastInsertRowid)"
      }
      for row in result.rows.prefix(40) {
        text += "\n      (" + row.map(ReadableSQL.typedValue).joined(separator: ", ") + ")"
      }
      if result.rows.count > 40 { text += "\n      … \(result.rows.count - 40) more" }
      return text
    }
  }
}
