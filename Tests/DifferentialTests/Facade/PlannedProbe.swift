import Foundation
import Tandem
import SeededRandomness

/// The record of the plan-dependent record-API fuzzer: a rowid key, a NOT NULL integer that is
/// sometimes `Int.min` (whose `abs()` overflows), a NOT NULL UNIQUE integer that updates shift,
/// a UNIQUE text column and texts for NOT NULL failures.
@Table("planned_probe") struct PlannedProbe {
  let id: Int
  var n: Int
  @Column(unique: true) var slot: Int
  @Column(unique: true) var code: String?
  var label: String
  var note: String?
}

extension PlannedProbe {
  /// The table with an index on `n` too, so some filters on it search an index.
  static var indexedSchema: TableSchema {
    var schema = Self.schema
    schema.indexes = [IndexSchema(columns: ["n"]), IndexSchema(columns: ["label", "n"])]
    return schema
  }

  static let codes: [String?] = [nil, "a", "b", "m", "z", "za", "A", ""]
  static let labels = ["x", "y", "a", "", "é"]

  /// Mostly small or boolean-looking values (0 and 1 decode as Bool, 2 does not), sometimes the
  /// 64-bit extremes.
  static func randomN(_ random: inout SplitMix64) -> Int {
    random.weighted([(4, 0), (4, 1), (2, 2), (2, -1), (3, Int.min), (1, Int.max), (2, random.int(-5...5))])
  }

  /// `count` records whose `slot`s are consecutive from `firstSlot`, in shuffled order.
  static func randomBatch(_ random: inout SplitMix64, count: Int, firstSlot: Int) -> [PlannedProbe] {
    var slots = Array(firstSlot..<(firstSlot + count))
    slots.shuffle(using: &random)
    return slots.map { slot in
      PlannedProbe(
        id: random.chance(0.8) ? random.int(1...12) : Int(random.pick(NastyValues.integers.filter { $0 < .max - 1_000_000 })),
        n: randomN(&random), slot: slot, code: random.pick(codes), label: random.pick(labels),
        note: random.chance(0.4) ? nil : random.pick(labels))
    }
  }
}
