import Foundation
import TandemCore
import Testing

@testable import TandemMemory
import SeededRandomness

/// Arithmetic operators and `||`, checked against the real SQLite library.
@Suite struct SemanticsArithmeticTests {
  static func pairs(_ count: Int, seed: UInt64) -> [[SqliteValue]] {
    var rng = SplitMix64(state: seed)
    let values = SemanticsValues.sample(count: 400, seed: seed + 1)
    return (0..<count).map { _ in
      [values[Int(rng.next() % UInt64(values.count))], values[Int(rng.next() % UInt64(values.count))]]
    }
  }

  @Test func operatorsMatchSQLite() throws {
    let oracle = SQLiteOracle()
    let sql = "SELECT ?1 + ?2, ?1 - ?2, ?1 * ?2, ?1 / ?2, ?1 % ?2, -?1, ?1 || ?2"
    let mismatches = try mismatchesAgainstSQLite(oracle, sql, Self.pairs(25_000, seed: 61)) { args in
      let (a, b) = (args[0], args[1])
      return [
        Arithmetic.add(a, b), Arithmetic.subtract(a, b), Arithmetic.multiply(a, b), Arithmetic.divide(a, b),
        Arithmetic.remainder(a, b), Arithmetic.negate(a), try Arithmetic.concatenate(a, b),
      ]
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func integerEdgeCases() {
    #expect(Arithmetic.add(.integer(.max), .integer(1)) == .real(9_223_372_036_854_775_808.0))
    #expect(Arithmetic.multiply(.integer(4_611_686_018_427_387_904), .integer(-2)) == .integer(.min))
    #expect(Arithmetic.divide(.integer(.min), .integer(-1)) == .real(9_223_372_036_854_775_808.0))
    #expect(Arithmetic.remainder(.integer(.min), .integer(-1)) == .integer(0))
    #expect(Arithmetic.negate(.integer(.min)) == .real(9_223_372_036_854_775_808.0))
    #expect(Arithmetic.divide(.integer(1), .integer(0)) == .null)
    #expect(Arithmetic.remainder(.real(5.5), .real(0.5)) == .null)
    #expect(Arithmetic.remainder(.real(-7.5), .integer(2)) == .real(-1.0))
    #expect(Arithmetic.subtract(.real(.infinity), .real(.infinity)) == .null)
    #expect(Arithmetic.add(.text("1e"), .integer(0)) == .integer(1))
    #expect(Arithmetic.add(.text("3.0"), .integer(4)) == .real(7.0))
  }
}
