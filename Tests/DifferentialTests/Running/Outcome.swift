import Tandem

/// What one engine answered to one statement: a result or an error.
enum Outcome: Hashable, Sendable {
  case result(StatementResult)
  case failure(TandemError.Signature)

  /// Runs `body` and captures its answer.
  static func of(_ body: () throws -> StatementResult) -> Outcome {
    do {
      return .result(try body())
    } catch {
      return .failure(TandemError.Signature(error))
    }
  }

  /// The failure, when it is the memory engine refusing a feature it cannot reproduce.
  var unsupportedFeature: String? {
    guard case .failure(let failure) = self, failure.kind == .unsupported else { return nil }
    return failure.message
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
