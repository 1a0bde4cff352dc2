import Foundation
import TandemCore
import Testing

@testable import TandemMemory
import SeededRandomness

/// Aggregates (plain, DISTINCT and collated), checked against the real SQLite library.
@Suite struct SemanticsAggregateTests {
  static func aggregate(
    _ function: AggregateFunction, _ values: [SqliteValue], distinct: Bool = false, collation: Collation = .binary
  ) throws -> SqliteValue {
    var accumulator = AggregateAccumulator(function, distinct: distinct, collation: collation)
    for value in values { try accumulator.step(value) }
    return try accumulator.result()
  }

  static func randomLists(_ count: Int, seed: UInt64) -> [[SqliteValue]] {
    var rng = SplitMix64(state: seed)
    let pool = SemanticsValues.sample(count: 300, seed: seed + 1)
    let integers: [SqliteValue] = [.integer(.max), .integer(.min), .integer(1), .integer(-1), .text("1"), .text(" 3 "), .real(1)]
    return (0..<count).map { _ in
      let length = Int(rng.next() % 9)
      let useIntegers = rng.next() % 3 == 0
      return (0..<length).map { _ in
        useIntegers ? integers[Int(rng.next() % UInt64(integers.count))] : pool[Int(rng.next() % UInt64(pool.count))]
      }
    }
  }

  @Test func aggregatesMatchSQLite() throws {
    let oracle = SQLiteOracle()
    try oracle.exec("CREATE TABLE g(x)")
    let functions: [AggregateFunction] = [.count, .sum, .total, .avg, .min, .max]
    let variants: [(distinct: Bool, collation: Collation)] = [(false, .binary), (true, .binary), (true, .nocase), (false, .nocase), (false, .rtrim), (true, .rtrim)]
    var mismatches: [String] = []
    for list in Self.randomLists(1_500, seed: 91) {
      try oracle.exec("DELETE FROM g")
      for value in list { _ = try oracle.row("INSERT INTO g VALUES(?1)", [value]) }
      for function in functions {
        for variant in variants {
          let argument = "\(variant.distinct ? "DISTINCT " : "")x COLLATE \(variant.collation.rawValue)"
          let sql = "SELECT \(function.rawValue)(\(argument)) FROM g"
          mismatches += try mismatchesAgainstSQLite(oracle, sql, [[]]) { _ in
            [try Self.aggregate(function, list, distinct: variant.distinct, collation: variant.collation)]
          }.map { "\($0) over \(list)" }
        }
      }
      let expected = try oracle.value("SELECT count(*) FROM g")
      var count = AggregateAccumulator(.count, distinct: false, collation: .binary)
      for _ in list { try count.step(.integer(1)) }
      if try expected != count.result() { mismatches.append("count(*) over \(list)") }
      if mismatches.count > 8 { break }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func sumOverflowAndEmptyInput() throws {
    #expect(throws: TandemError.self) { try Self.aggregate(.sum, [.integer(.max), .integer(1), .integer(-1)]) }
    #expect(try Self.aggregate(.sum, [.integer(.max), .integer(-1), .integer(1)]) == .integer(.max))
    #expect(try Self.aggregate(.sum, [.real(1), .integer(.max), .integer(1)]) == .real(9_223_372_036_854_775_808.0))
    #expect(try Self.aggregate(.total, [.integer(.max), .integer(1)]) == .real(9_223_372_036_854_775_808.0))
    #expect(try Self.aggregate(.sum, []) == .null)
    #expect(try Self.aggregate(.total, []) == .real(0))
    #expect(try Self.aggregate(.avg, [.null]) == .null)
    #expect(try Self.aggregate(.count, [.null]) == .integer(0))
    #expect(try Self.aggregate(.max, [.integer(1), .real(1)]) == .integer(1))
    #expect(try Self.aggregate(.count, [.integer(1), .real(1), .text("1")], distinct: true) == .integer(2))
  }
}
