import Foundation
import TandemCore
import Testing

@testable import TandemMemory
import SeededRandomness

/// Comparison order, collations and the affinity conversions before a comparison, checked against
/// the real SQLite library.
@Suite struct SemanticsComparisonTests {
  static let collations: [Collation] = [.binary, .nocase, .rtrim]

  @Test func orderMatchesSQLiteUnderEveryCollation() throws {
    let oracle = SQLiteOracle()
    var rng = SplitMix64(state: 51)
    let values = SemanticsValues.sample(count: 300, seed: 52)
    var pairs: [[SqliteValue]] = []
    for _ in 0..<12_000 {
      pairs.append([values[Int(rng.next() % UInt64(values.count))], values[Int(rng.next() % UInt64(values.count))]])
    }
    let terms = Self.collations.map { c in
      "?1 < ?2 COLLATE \(c.rawValue), ?1 = ?2 COLLATE \(c.rawValue), ?1 > ?2 COLLATE \(c.rawValue)"
    }
    let sql = "SELECT " + terms.joined(separator: ", ")
    let mismatches = try mismatchesAgainstSQLite(oracle, sql, pairs) { args in
      Self.collations.flatMap { c in
        [
          comparisonResult(args[0], args[1], collation: c) { $0 < 0 },
          comparisonResult(args[0], args[1], collation: c) { $0 == 0 },
          comparisonResult(args[0], args[1], collation: c) { $0 > 0 },
        ]
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func exactIntegerRealOrder() {
    #expect(ValueOrder.compare(.integer(9_007_199_254_740_993), .real(9_007_199_254_740_992.0), collation: .binary) > 0)
    #expect(ValueOrder.compare(.integer(.max), .real(9_223_372_036_854_775_808.0), collation: .binary) < 0)
    #expect(ValueOrder.compare(.real(-0.0), .integer(0), collation: .binary) == 0)
    #expect(ValueOrder.compare(.integer(1), .text("1"), collation: .binary) < 0)
    #expect(ValueOrder.compare(.text("é"), .text("z"), collation: .binary) > 0)
    // Canonically equivalent but different bytes: SQLite sees two different texts.
    #expect(ValueOrder.compare(.text("\u{E9}"), .text("e\u{301}"), collation: .binary) != 0)
    #expect(ValueOrder.compareText("ä", "Ä", collation: .nocase) != 0)
    #expect(ValueOrder.compareText("a  ", "a", collation: .rtrim) == 0)
  }

  /// Every pair of sides: a column of each affinity (holding the value as that column stores it)
  /// or a bound parameter (no affinity).
  @Test func affinityConversionBeforeComparisonMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    try oracle.exec(
      "CREATE TABLE p(li INTEGER, lr REAL, lt TEXT, lb BLOB, ln NUMERIC, ri INTEGER, rr REAL, rt TEXT, rb BLOB, rn NUMERIC)")
    let sides: [(name: String, affinity: Affinity)] = [
      ("i", .integer), ("r", .real), ("t", .text), ("b", .blob), ("n", .numeric), ("?", .none),
    ]
    var terms: [String] = []
    for l in sides {
      for r in sides {
        let left = l.name == "?" ? "?1" : "l" + l.name
        let right = r.name == "?" ? "?2" : "r" + r.name
        terms.append("\(left) < \(right), \(left) = \(right), \(left) > \(right)")
      }
    }
    let select = "SELECT " + terms.joined(separator: ", ") + " FROM p"
    var rng = SplitMix64(state: 53)
    let values = SemanticsValues.sample(count: 300, seed: 54)
    var mismatches: [String] = []
    for _ in 0..<2_500 {
      let a = values[Int(rng.next() % UInt64(values.count))]
      let b = rng.next() % 3 == 0 ? a : values[Int(rng.next() % UInt64(values.count))]
      try oracle.exec("DELETE FROM p")
      _ = try oracle.row("INSERT INTO p VALUES(?1, ?1, ?1, ?1, ?1, ?2, ?2, ?2, ?2, ?2)", [a, b])
      let expected = try oracle.row(select, [a, b])
      var actual: [SqliteValue] = []
      for l in sides {
        for r in sides {
          let x = a.applyingStorageAffinity(l.affinity)
          let y = b.applyingStorageAffinity(r.affinity)
          let (px, py) = ComparisonOperands.prepare(x, l.affinity, y, r.affinity)
          actual += [
            comparisonResult(px, py, collation: .binary) { $0 < 0 },
            comparisonResult(px, py, collation: .binary) { $0 == 0 },
            comparisonResult(px, py, collation: .binary) { $0 > 0 },
          ]
        }
      }
      if expected != actual {
        let differing = zip(expected, actual).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        mismatches.append("\(a) vs \(b): differing terms \(differing.map { terms[$0 / 3] })")
        if mismatches.count > 5 { break }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func truthinessMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    let values = SemanticsValues.sample(count: 3_000, seed: 55)
    let sql = "SELECT CASE WHEN ?1 THEN 1 ELSE 0 END, CASE WHEN NOT ?1 THEN 1 ELSE 0 END"
    let mismatches = try mismatchesAgainstSQLite(oracle, sql, values.map { [$0] }) { args in
      let truth = Truth.isTrue(args[0])
      return [.integer(truth == true ? 1 : 0), .integer(truth == false ? 1 : 0)]
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func equalityKeyAgreesWithOrder() {
    let values = SemanticsValues.sample(count: 400, seed: 56)
    var rng = SplitMix64(state: 57)
    var problems: [String] = []
    for _ in 0..<40_000 {
      let a = values[Int(rng.next() % UInt64(values.count))]
      let b = rng.next() % 4 == 0 ? a : values[Int(rng.next() % UInt64(values.count))]
      for collation in Self.collations {
        let sameKey = ValueEqualityKey(a, collation: collation) == ValueEqualityKey(b, collation: collation)
        let equal = ValueOrder.compare(a, b, collation: collation) == 0
        if sameKey != equal { problems.append("\(a) \(b) \(collation)") }
      }
    }
    #expect(ValueEqualityKey(.integer(1), collation: .binary) == ValueEqualityKey(.real(1), collation: .binary))
    #expect(ValueEqualityKey(.text("a"), collation: .nocase) == ValueEqualityKey(.text("A"), collation: .nocase))
    #expect(problems.isEmpty, "\(problems.prefix(8))")
  }
}
