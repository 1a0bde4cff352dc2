import Foundation
import Tandem
import Testing

/// The fuzzer's cases run on `Database(.tandem)`, the user-facing form of the same check: it
/// must never throw a divergence error.
@Suite("Tandem mode under fuzzing")
struct TandemModeFuzzTests {
  @Test("Database(.tandem) never reports a divergence on generated cases")
  func tandemModeNeverDiverges() {
    let settings = FuzzSettings.current
    // Tandem mode does the same work as the pair runner; a third of the budget is enough here.
    let count = max(1, settings.cases / 3)
    var runner = TandemRunner()
    var reported = 0
    var ran = 0
    for index in settings.first..<(settings.first &+ UInt64(count)) {
      ran += 1
      let fuzzCase = CaseGenerator.generate(seed: settings.seed, index: index)
      guard case .divergence(let path, let statement, let error) = runner.run(fuzzCase) else { continue }
      var readable = statement
      if case .statement(let failing, let parameters)? = CaseShrinker.operation(fuzzCase.operations, at: path) {
        readable = CaseScript.statementLines(failing, parameters, schemas: fuzzCase.schemas).joined(separator: " ")
      }
      let report = """
        === Database(.tandem) divergence: seed 0x\(String(settings.seed, radix: 16, uppercase: true)), case \(index), operation \(path)
        reproduce: \(settings.reproduction(index: index).replacingOccurrences(of: "DifferentialFuzzTests", with: "TandemModeFuzzTests"))
        statement: \(readable)
        \(error.message)
        -- script (sqlite3 shell):
        \(CaseScript.sql(fuzzCase, upTo: path))
        """
      print(report)
      Issue.record(Comment(rawValue: report))
      reported += 1
      if reported >= settings.maxMismatches { break }
    }
    let unsupported = runner.unsupported.values.reduce(0, +)
    print(
      "tandem mode: \(ran) cases, \(runner.statements) statements, \(reported) divergence(s), \(unsupported) unsupported"
    )
  }
}
