import Foundation

/// How much fuzzing to do, read from the environment.
///
/// - `TANDEM_FUZZ_SEED`: the campaign seed (decimal or `0x` hex); default fixed, so CI repeats itself.
/// - `TANDEM_FUZZ_CASES`: how many cases to run (default ``defaultCases``).
/// - `TANDEM_FUZZ_FIRST`: the index of the first case (default 0); with `TANDEM_FUZZ_CASES=1` it
///   reruns one reported case alone.
/// - `TANDEM_FUZZ_MAX_MISMATCHES`: stop after this many mismatches (default 10).
/// - `TANDEM_FUZZ_VERBOSE=1`: print every case's SQL as it runs.
/// - `TANDEM_REL_FUZZ_CASES`: how many relational cases (joins, subqueries) to run (default
///   ``defaultRelationalCases``); the others apply to them too.
struct FuzzSettings: Sendable {
  static let defaultSeed: UInt64 = 0x7A4D_E11A
  static let defaultCases = 3000
  static let defaultRelationalCases = 400

  var seed: UInt64
  var cases: Int
  var first: UInt64
  var maxMismatches: Int
  var verbose: Bool
  /// The variable that sets ``cases``, for the reproduction command.
  var casesVariable = "TANDEM_FUZZ_CASES"
  /// The test suite that runs these cases, for the reproduction command.
  var suite = "DifferentialFuzzTests"

  /// The settings from the process environment.
  static var current: FuzzSettings { settings(casesVariable: "TANDEM_FUZZ_CASES", defaultCases: defaultCases) }

  /// The settings of the relational campaign (``RelationalFuzzTests``).
  static var relational: FuzzSettings {
    var settings = settings(casesVariable: "TANDEM_REL_FUZZ_CASES", defaultCases: defaultRelationalCases)
    settings.suite = "RelationalFuzzTests"
    return settings
  }

  private static func settings(casesVariable: String, defaultCases: Int) -> FuzzSettings {
    let environment = ProcessInfo.processInfo.environment
    return FuzzSettings(
      seed: environment["TANDEM_FUZZ_SEED"].flatMap(parse) ?? defaultSeed,
      cases: environment[casesVariable].flatMap(parse).map { Int(clamping: $0) } ?? defaultCases,
      first: environment["TANDEM_FUZZ_FIRST"].flatMap(parse) ?? 0,
      maxMismatches: environment["TANDEM_FUZZ_MAX_MISMATCHES"].flatMap(parse).map { Int(clamping: $0) } ?? 10,
      verbose: environment["TANDEM_FUZZ_VERBOSE"] == "1", casesVariable: casesVariable)
  }

  /// The case indices to run.
  var indices: Range<UInt64> { first..<(first &+ UInt64(max(0, cases))) }

  private static func parse(_ text: String) -> UInt64? {
    let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")
    if trimmed.lowercased().hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
    return UInt64(trimmed)
  }

  /// The command that reruns case `index` alone.
  func reproduction(index: UInt64) -> String {
    "TANDEM_FUZZ_SEED=0x\(String(seed, radix: 16, uppercase: true)) TANDEM_FUZZ_FIRST=\(index) \(casesVariable)=1 "
      + "swift test --filter \(suite)"
  }
}
