import Foundation
import TandemCore
import Testing

@testable import TandemMemory
import SeededRandomness

/// Scalar functions, checked against the real SQLite library.
@Suite struct SemanticsFunctionTests {
  static let values = SemanticsValues.sample(count: 1_500, seed: 71)

  /// Positions and lengths for `substr`, and digit counts for `round`.
  static let positions: [SqliteValue] = (-12...12).map { .integer(Int64($0)) } + [
    .null, .real(1.9), .real(-1.9), .real(2.5), .text("2"), .text("-3"), .text("abc"), .blob(Data([0x32])),
    .integer(4_294_967_298), .integer(-4_294_967_298), .integer(.max), .integer(.min), .integer(2_147_483_648),
    .real(1e20), .integer(30), .integer(31), .integer(100),
  ]

  static func pick(_ pool: [SqliteValue], _ rng: inout SplitMix64) -> SqliteValue {
    pool[Int(rng.next() % UInt64(pool.count))]
  }

  static func call(_ function: ScalarFunction, _ args: [SqliteValue]) throws -> [SqliteValue] {
    [try ScalarFunctions.call(function, args, collation: .binary)]
  }

  @Test func unaryFunctionsMatchSQLite() throws {
    let oracle = SQLiteOracle()
    let inputs = Self.values.map { [$0] }
    var mismatches: [String] = []
    let functions: [ScalarFunction] = [.length, .lower, .upper, .typeof, .abs, .trim, .ltrim, .rtrim, .round]
    for function in functions {
      mismatches += try mismatchesAgainstSQLite(oracle, "SELECT \(function.rawValue)(?1)", inputs) {
        try Self.call(function, $0)
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func binaryFunctionsMatchSQLite() throws {
    let oracle = SQLiteOracle()
    var rng = SplitMix64(state: 72)
    var textish: [SqliteValue] = []
    for _ in 0..<300 { textish.append(.text(SemanticsValues.randomText(&rng))) }
    let pool = Self.values + textish
    var mismatches: [String] = []
    let functions: [ScalarFunction] = [.instr, .nullif, .ifnull, .coalesce, .trim, .ltrim, .rtrim, .min, .max]
    for function in functions {
      let inputs = (0..<4_000).map { _ in
        let a = Self.pick(pool, &rng)
        let b = rng.next() % 4 == 0 ? a : Self.pick(pool, &rng)
        if function == .instr || function == .trim, rng.next() % 3 == 0, let bytes = Conversion.textBytes(of: a) {
          // A piece of the first argument, so that matches happen.
          let start = Int(rng.next() % UInt64(bytes.count + 1))
          let end = start + Int(rng.next() % UInt64(bytes.count - start + 1))
          return [a, .text(String(decoding: bytes[start..<end], as: UTF8.self))]
        }
        return [a, b]
      }
      mismatches += try mismatchesAgainstSQLite(oracle, "SELECT \(function.rawValue)(?1, ?2)", inputs) {
        try Self.call(function, $0)
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func collatedMinMaxAndNullifMatchSQLite() throws {
    let oracle = SQLiteOracle()
    var rng = SplitMix64(state: 73)
    let pool: [SqliteValue] = ["a", "A", "b", "B", "a ", "A  ", "_", "ä", "Ä", .integer(1), .real(1), .null, .blob(Data([0x61]))]
    var mismatches: [String] = []
    for collation in [Collation.nocase, .rtrim] {
      for function in [ScalarFunction.min, .max, .nullif] {
        let inputs = (0..<600).map { _ in [Self.pick(pool, &rng), Self.pick(pool, &rng), Self.pick(pool, &rng)] }
        let arguments = function == .nullif ? "?1 COLLATE \(collation.rawValue), ?2" : "?1 COLLATE \(collation.rawValue), ?2, ?3"
        mismatches += try mismatchesAgainstSQLite(oracle, "SELECT \(function.rawValue)(\(arguments))", inputs) {
          [try ScalarFunctions.call(function, function == .nullif ? Array($0.prefix(2)) : $0, collation: collation)]
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func substrMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    var rng = SplitMix64(state: 74)
    let twoArguments = (0..<6_000).map { _ in [Self.pick(Self.values, &rng), Self.pick(Self.positions, &rng)] }
    let threeArguments = (0..<12_000).map { _ in
      [Self.pick(Self.values, &rng), Self.pick(Self.positions, &rng), Self.pick(Self.positions, &rng)]
    }
    var mismatches = try mismatchesAgainstSQLite(oracle, "SELECT substr(?1, ?2)", twoArguments) {
      try Self.call(.substr, $0)
    }
    mismatches += try mismatchesAgainstSQLite(oracle, "SELECT substr(?1, ?2, ?3)", threeArguments) {
      try Self.call(.substr, $0)
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func replaceMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    var rng = SplitMix64(state: 75)
    let inputs: [[SqliteValue]] = (0..<8_000).map { _ in
      let a = Self.pick(Self.values, &rng)
      var b = Self.pick(Self.values, &rng)
      if rng.next() % 2 == 0, let bytes = Conversion.textBytes(of: a) {
        let start = Int(rng.next() % UInt64(bytes.count + 1))
        let end = start + Int(rng.next() % UInt64(Swift.min(3, bytes.count - start) + 1))
        b = .text(String(decoding: bytes[start..<end], as: UTF8.self))
      }
      return [a, b, Self.pick(Self.values, &rng)]
    }
    let mismatches = try mismatchesAgainstSQLite(oracle, "SELECT replace(?1, ?2, ?3)", inputs) {
      try Self.call(.replace, $0)
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func roundMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    var rng = SplitMix64(state: 76)
    var numbers: [SqliteValue] = SemanticsValues.edgeReals.map { .real($0) }
    for _ in 0..<12_000 {
      switch rng.next() % 4 {
      case 0: numbers.append(.real(Double(Int64.random(in: -100_000_000...100_000_000, using: &rng)) / 1000))
      case 1: numbers.append(.real(Double(Int64.random(in: -1_000_000...1_000_000, using: &rng)) / 200 + 0.005))
      case 2: numbers.append(.real(SemanticsValues.randomReal(&rng)))
      default: numbers.append(Self.pick(Self.values, &rng))
      }
    }
    let digits: [SqliteValue] = (0...31).map { .integer(Int64($0)) } + Self.positions
    var mismatches = try mismatchesAgainstSQLite(oracle, "SELECT round(?1)", numbers.map { [$0] }) {
      try Self.call(.round, $0)
    }
    let pairs = numbers.map { [$0, Self.pick(digits, &rng)] }
    mismatches += try mismatchesAgainstSQLite(oracle, "SELECT round(?1, ?2)", pairs) { try Self.call(.round, $0) }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func errorsAndArity() throws {
    #expect(throws: TandemError.self) { try ScalarFunctions.call(.abs, [.integer(.min)], collation: .binary) }
    do {
      _ = try ScalarFunctions.call(.abs, [.integer(.min)], collation: .binary)
    } catch let error as TandemError {
      #expect(error.message == "integer overflow")
      #expect(error.sqliteCode == 1)
    }
    #expect(throws: TandemError.self) { try ScalarFunctions.call(.ifnull, [1, 2, 3], collation: .binary) }
    #expect(try ScalarFunctions.call(.max, [.integer(2), .real(2)], collation: .binary) == .integer(2))
    #expect(try ScalarFunctions.call(.max, [.real(2), .integer(2)], collation: .binary) == .real(2))
    #expect(try ScalarFunctions.call(.coalesce, [.null, .text("x"), .integer(1)], collation: .binary) == .text("x"))
  }
}
