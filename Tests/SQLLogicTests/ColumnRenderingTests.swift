import Foundation
import Testing
import TandemCore

@testable import SQLLogicTest
import SeededRandomness

/// The runner's conversions and printing, checked against real SQLite reading the same values.
@Suite struct ColumnRenderingTests {
  static let texts: [String] = [
    "", "abc", "12abc", " 12", "\t\n 42x", "-12", "+5", "-", "+", "0x10", "1e5", "1.5e3xyz", ".5", "-.5e-2", "e5", ".",
    "3.", "1e", "1e+", "1e-", "1e400", "-1e400", "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "99999999999999999999999", "-00000000000000000000000000012", "0000000000000000000009223372036854775807",
    "2147483648", "4294967297", "-2147483649", "12.9", "-12.9", "0.0001", "123456789012345678901234567890.5",
    "héllo", "tab\there", "line\nbreak", "~ and \u{7f}", "0.1", "1_000",
  ]

  static let reals: [Double] = [
    0, -0.0, 1, -1, 0.5, 0.0005, -0.0005, 0.0004999, 0.0015, 0.0025, 1.0005, 2.675, 1e15, 1e16, 1e17,
    9007199254740994, 2147483648.5, -2147483648.5, 4294967296.7, 9.2e18, 9223372036854775808, -9223372036854775808,
    1.8446744073709552e19, 1e20, 1e21, 1e100, 1e300, 1.7976931348623157e308, 1e-5, 1e-300, .leastNonzeroMagnitude,
    .infinity, -.infinity, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 123456.789, -98765.4321, 100, 1e-4, 12345678901234568,
  ]

  static var randomReals: [Double] {
    var generator = SplitMix64(state: 0x5eed_0001)
    var values: [Double] = []
    for _ in 0..<3000 {
      let bits = generator.next()
      let fromBits = Double(bitPattern: bits)
      if fromBits.isFinite { values.append(fromBits) }
      let decimal = Double(Int64.random(in: -10_000_000...10_000_000, using: &generator)) / 10_000
      values.append(decimal)
      values.append(decimal + 0.0005)
      let scaled = Double.random(in: 1..<10, using: &generator) * pow(10, Double(Int.random(in: -12...25, using: &generator)))
      values.append(Bool.random(using: &generator) ? scaled : -scaled)
    }
    return values
  }

  /// Numeric text: up to 22 digits, a point anywhere, an exponent sometimes, junk after it.
  static var numericTexts: [String] {
    var generator = SplitMix64(state: 0x5eed_0003)
    return (0..<2000).map { _ in
      let digits = (0..<Int.random(in: 1...22, using: &generator)).map { _ in String(Int.random(in: 0...9, using: &generator)) }
      var text = digits.joined()
      if Bool.random(using: &generator) {
        let point = text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &generator))
        text.insert(".", at: point)
      }
      if Int.random(in: 0..<3, using: &generator) == 0 { text += "e\(Int.random(in: -330...330, using: &generator))" }
      if Bool.random(using: &generator) { text = "-" + text }
      if Int.random(in: 0..<4, using: &generator) == 0 { text += "x1" }
      return text
    }
  }

  static var values: [SqliteValue] {
    var values: [SqliteValue] = [
      .integer(0), .integer(1), .integer(-1), .integer(Int64(Int32.max)), .integer(Int64(Int32.max) + 1),
      .integer(Int64(Int32.min)), .integer(Int64(Int32.min) - 1), .integer(.max), .integer(.min), .integer(4_294_967_297),
      .blob(Data()), .blob(Data("12abc".utf8)), .blob(Data([0x31, 0x32, 0x00, 0x33])), .blob(Data([0x00, 0x41])),
      .blob(Data([0xff, 0x41, 0x0a])), .text("a\u{0}b"),
    ]
    values += texts.map(SqliteValue.text) + texts.map { .blob(Data($0.utf8)) }
    values += numericTexts.map(SqliteValue.text)
    values += (reals + randomReals.prefix(400)).map(SqliteValue.real)
    var generator = SplitMix64(state: 0x5eed_0002)
    for _ in 0..<300 {
      values.append(.integer(Int64(bitPattern: generator.next())))
      values.append(.text(String(Int64(bitPattern: generator.next()) >> Int64.random(in: 0..<63, using: &generator))))
    }
    return values
  }

  @Test func conversionsMatchSQLite() throws {
    let sqlite = try RawSQLiteLogicEngine()
    for value in Self.values {
      let reading = try sqlite.columnReadings(of: value)
      #expect(value.columnInt32 == reading.int, "int of \(value)")
      #expect(value.columnDouble.bitPattern == reading.double.bitPattern, "double of \(value): \(value.columnDouble) vs \(reading.double)")
      #expect(value.columnText == reading.text, "text of \(value)")
    }
  }

  /// Below 1e9 (at most 12 digits before rounding) the corpus's `double` printf and the linked
  /// `long double` one agree; above, they differ in the 16th digit, and the corpus decides.
  @Test func fixedPrintingMatchesSQLitePrintf() throws {
    let sqlite = try RawSQLiteLogicEngine()
    var compared = 0
    for real in Self.reals + Self.randomReals where real.magnitude < 1e9 {
      let expected = try sqlite.printf("%.3f", real)
      #expect(SQLitePrintf.fixed(real, precision: 3) == expected, "%.3f of \(real)")
      compared += 1
    }
    #expect(compared > 5000)
  }

  /// Values of the corpus (`evidence/slt_lang_aggfunc.test`) and the README's examples.
  @Test func fixedPrintingKeepsSixteenDigitsAsTheCorpus() {
    #expect(SQLitePrintf.fixed(-9223372036854775808, precision: 3) == "-9223372036854776000.000")
    #expect(SQLitePrintf.fixed(-18446744073709551616, precision: 3) == "-18446744073709550000.000")
    #expect(SQLitePrintf.fixed(1e20, precision: 3) == "100000000000000000000.000")
    #expect(SQLitePrintf.fixed(.infinity, precision: 3) == "Inf")
    #expect(SQLitePrintf.fixed(-.infinity, precision: 3) == "-Inf")
    #expect(SQLitePrintf.fixed(-0.0, precision: 3) == "0.000")
    #expect(SQLitePrintf.fixed(2.675, precision: 3) == "2.675")
    #expect(SQLitePrintf.fixed(0.0005, precision: 3) == "0.001")
  }

  @Test func realTextMatchesSQLite() throws {
    let sqlite = try RawSQLiteLogicEngine()
    for real in Self.reals + Self.randomReals {
      let reading = try sqlite.columnReadings(of: .real(real))
      #expect(Array(SQLitePrintf.realText(real).utf8) == reading.text, "text of \(real)")
    }
  }

  @Test func typeLettersRenderAsTheReferenceDriver() {
    #expect(SQLLogicColumnType.integer.render(.integer(Int64(Int32.max) + 1)) == "-2147483648")
    #expect(SQLLogicColumnType.integer.render(.text("12abc")) == "12")
    #expect(SQLLogicColumnType.integer.render(.real(-3.9)) == "-3")
    #expect(SQLLogicColumnType.real.render(.integer(7)) == "7.000")
    #expect(SQLLogicColumnType.real.render(.real(-0.0004)) == "-0.000")
    #expect(SQLLogicColumnType.real.render(.text("x")) == "0.000")
    #expect(SQLLogicColumnType.text.render(.text("")) == "(empty)")
    #expect(SQLLogicColumnType.text.render(.text("é\tx~")) == "@@@x~")
    #expect(SQLLogicColumnType.text.render(.real(0.5)) == "0.5")
    #expect(SQLLogicColumnType.text.render(.integer(-4)) == "-4")
    #expect(SQLLogicColumnType.text.render(.blob(Data([0x00, 0x41]))) == "(empty)")
    for type in [SQLLogicColumnType.integer, .real, .text] {
      #expect(type.render(.null) == "NULL")
    }
  }
}
