import Foundation
import Tandem
import SeededRandomness

/// The record the facade fuzzer writes and reads: every storage class, optionals, a unique
/// column, an integer key (so it has a `Draft`).
@Table("probe") struct Probe {
  let id: Int
  var name: String
  @Column(unique: true) var code: String?
  var score: Double
  var rank: Int?
  var flag: Bool
  var payload: Data?
}

extension Probe {
  /// A record of values drawn from the fuzzer's hostile pools.
  static func random(_ random: inout SplitMix64) -> Probe {
    Probe(
      id: random.chance(0.7) ? random.int(-3...12) : Int(random.pick(NastyValues.integers)),
      name: random.pick(NastyValues.texts),
      code: random.chance(0.4) ? nil : random.pick(["a", "A", "b", "é", "e\u{301}", "", "1"]),
      score: random.chance(0.5) ? Double(random.int(-2...4)) / 2 : random.pick(NastyValues.reals + [.nan]),
      rank: random.chance(0.3) ? nil : (random.chance(0.8) ? random.int(-5...5) : Int(random.pick(NastyValues.integers))),
      flag: random.chance(0.5),
      payload: random.chance(0.5) ? nil : Data(random.pick(NastyValues.blobs)))
  }

  /// A draft of the same kind, without a key.
  static func randomDraft(_ random: inout SplitMix64) -> Probe.Draft {
    let record = Probe.random(&random)
    return Probe.Draft(
      name: record.name, code: record.code, score: record.score, rank: record.rank, flag: record.flag,
      payload: record.payload)
  }
}
