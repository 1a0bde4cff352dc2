import Foundation
import Tandem
import Testing

/// The seeded differential fuzzer: random schemas, rows and statements run on SQLite in memory
/// and on the memory engine; every answer must be identical.
///
/// `swift test --filter Differential` runs the fixed CI budget. Environment variables (see
/// ``FuzzSettings``) pick the seed, the number of cases and the first case, so that
/// `TANDEM_FUZZ_CASES=1000000` runs a long campaign and `TANDEM_FUZZ_FIRST=<i> TANDEM_FUZZ_CASES=1`
/// reruns one reported case.
@Suite("Differential fuzzing")
struct DifferentialFuzzTests {
  /// Seconds spent shrinking each mismatch (`TANDEM_FUZZ_SHRINK_SECONDS`, 0 to skip).
  static var shrinkSeconds: Double {
    ProcessInfo.processInfo.environment["TANDEM_FUZZ_SHRINK_SECONDS"].flatMap(Double.init) ?? 6
  }

  @Test("The memory engine answers every generated statement exactly as SQLite does")
  func memoryEngineAnswersLikeSQLite() {
    Self.campaign(FuzzSettings.current, generate: CaseGenerator.generate)
  }

  /// Runs the cases `settings` selects, made by `generate(seed, index)`, on both engines:
  /// shrinks and reports each distinct mismatch, then checks that refusals stayed rare.
  static func campaign(_ settings: FuzzSettings, generate: (UInt64, UInt64) -> FuzzCase) {
    var runner = PairRunner()
    var shrinker = CaseShrinker(seconds: Self.shrinkSeconds)
    var reported: [String: UInt64] = [:]  // fingerprint → first case index
    var duplicates = 0
    var fuzzingSeconds = 0.0
    print(
      "fuzzing \(settings.suite): linked SQLite \(Database.sqliteVersion), memory engine reproduces "
        + Database.memoryEngineSQLiteVersion)
    for index in settings.indices {
      let fuzzCase = generate(settings.seed, index)
      if settings.verbose { print("-- case \(index)\n" + CaseScript.sql(fuzzCase)) }
      let started = Date()
      let verdict = runner.run(fuzzCase)
      fuzzingSeconds += Date().timeIntervalSince(started)
      guard case .mismatch(let mismatch) = verdict else { continue }
      let minimized = Self.shrinkSeconds > 0 ? shrinker.shrink(mismatch) : nil
      let fingerprint = MismatchFingerprint.of(minimized ?? mismatch)
      if let first = reported[fingerprint] {
        // Most likely the same engine bug as an earlier report: say so briefly.
        duplicates += 1
        print("case \(index): mismatch like the one reported for case \(first) (\(fingerprint))")
        if duplicates >= settings.maxMismatches * 3 { break }
        continue
      }
      reported[fingerprint] = index
      let report = MismatchReport.text(mismatch, settings: settings, minimized: minimized)
      print(report)
      Issue.record(Comment(rawValue: report))
      if reported.count >= settings.maxMismatches {
        print("stopping after \(reported.count) distinct mismatches (TANDEM_FUZZ_MAX_MISMATCHES)")
        break
      }
    }
    if duplicates > 0 {
      Issue.record(Comment(rawValue: "\(duplicates) more mismatch(es) looked like ones reported above"))
    }
    runner.statistics.seconds = fuzzingSeconds
    print(runner.statistics.summary)

    // Refusing a feature is allowed, but it must stay rare or the comparison means little.
    let unsupported = runner.statistics.unsupported.values.reduce(0, +)
    #expect(
      unsupported * 20 <= max(20, runner.statistics.statements),
      "the memory engine refused \(unsupported) of \(runner.statistics.statements) statements as unsupported")
  }
}
