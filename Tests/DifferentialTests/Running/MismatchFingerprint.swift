import Tandem

/// A rough identity for a (minimized) mismatch, so that one engine bug found by many cases is
/// reported once: the kind of step, the query-model features of the failing statement, and the
/// shape of each engine's answer.
enum MismatchFingerprint {
  static func of(_ mismatch: Mismatch) -> String {
    var parts = [mismatch.signature]
    if case .statement(.select(let select), _) = mismatch.step, select.hasBareColumn {
      // Which row a bare column comes from is one question, however the query looks.
      parts.append("bare column")
    } else if case .statement(let statement, _) = mismatch.step {
      parts += Coverage.features(of: statement).filter { !$0.hasPrefix("value ") }.sorted()
    }
    parts += [shape(mismatch.sqlite), shape(mismatch.memory)]
    return parts.joined(separator: "|")
  }

  private static func shape(_ outcome: Outcome) -> String {
    switch outcome {
    case .result: "result"
    case .failure(let failure):
      "error \(failure.kind.map(String.init(describing:)) ?? "other"): \(failure.message.prefix(24))"
    }
  }
}
