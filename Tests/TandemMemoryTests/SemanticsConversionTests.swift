import Foundation
import TandemCore
import Testing

@testable import TandemMemory
import SeededRandomness

/// REAL↔TEXT conversion, CAST and storage affinity, checked against the real SQLite library.
@Suite struct SemanticsConversionTests {
  /// Doubles whose 16th significant digit is a 5: the near-tie cases where SQLite's long-double
  /// digit generation differs from correctly rounded `%.15g`.
  static func nearTies(_ count: Int, seed: UInt64) -> [Double] {
    var rng = SplitMix64(state: seed)
    return (0..<count).compactMap { _ in
      let digits = (0..<14).map { _ in String(rng.next() % 10) }.joined()
      let exponent = Int.random(in: -330...310, using: &rng)
      let sign = rng.next() % 2 == 0 ? "" : "-"
      return Double("\(sign)\(1 + rng.next() % 9).\(digits)5e\(exponent)")
    }
  }

  static func randomDoubles(_ count: Int, seed: UInt64) -> [Double] {
    var rng = SplitMix64(state: seed)
    return (0..<count).map { _ in SemanticsValues.randomReal(&rng) }
  }

  @Test func realToTextMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    let values = SemanticsValues.edgeReals + Self.randomDoubles(30_000, seed: 11) + Self.nearTies(30_000, seed: 12)
    let mismatches = try mismatchesAgainstSQLite(oracle, "SELECT CAST(?1 AS TEXT)", values.map { [.real($0)] }) {
      guard case .real(let r) = $0[0] else { return [] }
      return [.text(Conversion.realToText(r))]
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func realToTextExamplesFromTheSpecification() {
    let cases: [(Double, String)] = [
      (1.0, "1.0"), (1e20, "1.0e+20"), (0.1, "0.1"), (1.0 / 3, "0.333333333333333"), (100.0, "100.0"),
      (1e15, "1.0e+15"), (1e14, "100000000000000.0"), (1234567890123456.0, "1.23456789012346e+15"),
      (0.00001, "1.0e-05"), (-0.0, "0.0"), (1.7976931348623157e308, "1.79769313486232e+308"),
      (.leastNonzeroMagnitude, "4.94065645841247e-324"), (.infinity, "Inf"), (-.infinity, "-Inf"),
      (0.8585005279831045, "0.858500527983105"), (-82227.89813682565, "-82227.8981368257"),
      (4.355772405659235e+181, "4.35577240565923e+181"),
    ]
    for (value, text) in cases {
      #expect(Conversion.realToText(value) == text)
    }
  }

  @Test func textToRealMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    var rng = SplitMix64(state: 21)
    var texts = SemanticsValues.edgeTexts
    for _ in 0..<20_000 { texts.append(SemanticsValues.randomNumericText(&rng)) }
    for _ in 0..<20_000 {
      let r = SemanticsValues.randomReal(&rng)
      texts.append(rng.next() % 2 == 0 ? "\(r)" : String(format: "%.\(Int(rng.next() % 25))e", r))
    }
    let mismatches = try mismatchesAgainstSQLite(oracle, "SELECT CAST(?1 AS REAL)", texts.map { [.text($0)] }) {
      guard case .text(let s) = $0[0] else { return [] }
      let fromString = Conversion.textToReal(s)
      let fromBytes = Conversion.textToReal(s.utf8.dropFirst(0))
      return [fromString.bitPattern == fromBytes.bitPattern ? .real(fromString) : .null]
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
    #expect(Conversion.textToReal("613740.838162").bitPattern == (613740.83816200006 as Double).bitPattern)
  }

  @Test func castMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    let values = SemanticsValues.sample(count: 6_000, seed: 31)
    let sql = "SELECT CAST(?1 AS INTEGER), CAST(?1 AS REAL), CAST(?1 AS TEXT), CAST(?1 AS BLOB), CAST(?1 AS NUMERIC)"
    let mismatches = try mismatchesAgainstSQLite(oracle, sql, values.map { [$0] }) { args in
      try [CastType.integer, .real, .text, .blob, .numeric].map { try Conversion.cast(args[0], to: $0) }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func textOfValuesMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    let values = SemanticsValues.sample(count: 2_000, seed: 32)
    let mismatches = try mismatchesAgainstSQLite(oracle, "SELECT CAST(?1 AS TEXT)", values.map { [$0] }) { args in
      [try Conversion.text(of: args[0]).map(SqliteValue.text) ?? .null]
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func storageAffinityMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    try oracle.exec("CREATE TABLE s(i INTEGER, r REAL, tx TEXT, b BLOB, n NUMERIC, u)")
    var rng = SplitMix64(state: 41)
    let values = SemanticsValues.sample(count: 4_000, seed: 42)
      + (0..<4_000).map { _ in SqliteValue.text(SemanticsValues.randomNumericText(&rng)) }
    var mismatches: [String] = []
    let affinities: [Affinity] = [.integer, .real, .text, .blob, .numeric, .blob]
    for value in values {
      try oracle.exec("DELETE FROM s")
      _ = try oracle.evaluate("INSERT INTO s VALUES(?1, ?1, ?1, ?1, ?1, ?1)", [value])
      let expected = try oracle.row("SELECT i, r, tx, b, n, u FROM s")
      let actual = affinities.map { value.applyingStorageAffinity($0) }
      if expected != actual { mismatches.append("\(value): SQLite \(expected), memory \(actual)") }
      if mismatches.count > 8 { break }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func storageAffinityExamples() {
    #expect(SqliteValue.text("9223372036854775808").applyingStorageAffinity(.integer) == .real(9223372036854775808.0))
    #expect(SqliteValue.real(-0.0).applyingStorageAffinity(.integer) == .integer(0))
    #expect(SqliteValue.real(-0.0).applyingStorageAffinity(.numeric) == .integer(0))
    #expect(SqliteValue.real(3.0).applyingStorageAffinity(.real) == .real(3.0))
    #expect(SqliteValue.text("12\u{00A0}").applyingStorageAffinity(.integer) == .text("12\u{00A0}"))
    #expect(SqliteValue.real(.nan).applyingStorageAffinity(.blob) == .null)
    #expect(Affinity(columnType: .null(.integer)) == .integer)
    #expect(Affinity(columnType: .blob) == .blob)
    #expect(Affinity(cast: .numeric) == .numeric)
  }
}
