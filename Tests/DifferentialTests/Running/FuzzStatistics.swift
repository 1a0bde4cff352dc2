import Foundation

/// Counts gathered over a campaign, printed at its end.
struct FuzzStatistics: Sendable {
  var cases = 0
  var statements = 0
  var statementsByKind: [String: Int] = [:]
  /// Statements both engines rejected the same way, by the error message's first part.
  var agreedErrors: [String: Int] = [:]
  /// Statements the memory engine refused as unsupported, by feature.
  var unsupported: [String: Int] = [:]
  /// Cases stopped early because an unsupported write left the engines' data apart.
  var abandonedCases = 0
  /// Cases stopped where SQLite's answer is not determined (a random rowid).
  var engineChoices = 0
  var mismatches = 0
  /// Statements whose query plans were compared with SQLite's EXPLAIN QUERY PLAN.
  var comparedPlans = 0
  var seconds = 0.0

  mutating func record(_ kind: String, _ outcome: Outcome) {
    statements += 1
    statementsByKind[kind, default: 0] += 1
    if case .failure(let failure) = outcome, failure.kind != .unsupported {
      let category = failure.message.split(separator: ":", maxSplits: 1).first.map(String.init) ?? failure.message
      agreedErrors[category, default: 0] += 1
    }
  }

  mutating func merge(_ other: FuzzStatistics) {
    cases += other.cases
    statements += other.statements
    statementsByKind.merge(other.statementsByKind, uniquingKeysWith: +)
    agreedErrors.merge(other.agreedErrors, uniquingKeysWith: +)
    unsupported.merge(other.unsupported, uniquingKeysWith: +)
    abandonedCases += other.abandonedCases
    engineChoices += other.engineChoices
    mismatches += other.mismatches
    comparedPlans += other.comparedPlans
  }

  /// A multi-line summary.
  var summary: String {
    func table(_ counts: [String: Int]) -> String {
      counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .map { "    \($0.value)\t\($0.key)" }.joined(separator: "\n")
    }
    let rate = seconds > 0 ? Double(cases) / seconds : 0
    var text = "differential fuzzing: \(cases) cases, \(statements) statements in \(String(format: "%.1f", seconds)) s"
    text +=
      " (\(String(format: "%.0f", rate)) cases/s), \(mismatches) mismatch(es), \(abandonedCases) case(s) abandoned"
    text += " (\(engineChoices) where SQLite's answer is random), \(comparedPlans) query plans compared"
    text += "\n  statements:\n" + table(statementsByKind)
    if !agreedErrors.isEmpty { text += "\n  errors both engines reported:\n" + table(agreedErrors) }
    text += "\n  unsupported on the memory engine: \(unsupported.values.reduce(0, +))"
    if !unsupported.isEmpty { text += "\n" + table(unsupported) }
    return text
  }
}
