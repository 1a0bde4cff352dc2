import Tandem
import Testing
import SeededRandomness

/// The loop both record-API fuzzers run: cases of `callsPerCase` random calls, each on a fresh
/// ``EnginePair``; a case ends at its first mismatch (recorded as an issue) or refusal.
///
/// ```swift
/// try RecordFuzzCampaign.run(title: "record API", suite: "FacadeFuzzTests", stream: 0xFACADE, callsPerCase: 40,
///   databases: FacadePerformer.databases, newCase: { _ in { FacadeCall.random(&$0) } }, perform: FacadePerformer.perform)
/// ```
enum RecordFuzzCampaign {
  static func run<Call: CustomStringConvertible>(
    title: String, suite: String, stream: UInt64, callsPerCase: Int, databases: () throws -> EnginePair,
    newCase: (inout SplitMix64) -> (inout SplitMix64) -> Call, perform: (Call, Database) throws -> [[SqliteValue]]
  ) throws {
    let settings = FuzzSettings.current
    let count = max(1, settings.cases / 10)
    var mismatches = 0
    var calls = 0
    var refusals: [String: Int] = [:]
    var failureMessages: [String: Int] = [:]
    for index in settings.first..<(settings.first &+ UInt64(count)) {
      var random = SplitMix64(seed: settings.seed, stream: stream &+ index)
      let pair = try databases()
      let nextCall = newCase(&random)
      for step in 0..<callsPerCase {
        let call = nextCall(&random)
        calls += 1
        switch pair.run({ try perform(call, $0) }) {
        case .agrees(let failure):
          if let failure { failureMessages[String(failure.prefix(60)), default: 0] += 1 }
          continue
        case .refused(let feature):
          // The engines' data may now differ: the case ends here.
          refusals[feature, default: 0] += 1
        case .differs(let difference):
          mismatches += 1
          Issue.record(
            Comment(
              rawValue: """
                === \(title) mismatch: seed 0x\(String(settings.seed, radix: 16, uppercase: true)), case \(index), call \(step)
                reproduce: \(settings.reproduction(index: index).replacingOccurrences(of: "DifferentialFuzzTests", with: suite))
                call: \(call)
                \(difference)
                """))
        }
        break
      }
      if mismatches >= settings.maxMismatches { break }
    }
    let failures = failureMessages.values.reduce(0, +)
    print(
      "\(title) fuzzing: \(count) cases, \(calls) calls (\(failures) failing alike), \(mismatches) mismatch(es), "
        + "refused by the memory engine: \(refusals)")
    for (message, count) in failureMessages.sorted(by: { $0.value > $1.value }).prefix(12) { print("  \(count)\t\(message)") }
    // The calls must mostly succeed, or the fuzzer compares little but error messages.
    #expect(failures * 2 < calls, "\(failures) of \(calls) calls failed")
  }
}
