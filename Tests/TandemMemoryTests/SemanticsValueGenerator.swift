import Foundation
import TandemCore
import SeededRandomness

/// Edge-case and seeded random values of every storage class for the differential tests.
enum SemanticsValues {
  static let edgeIntegers: [Int64] = [
    0, 1, -1, 2, -2, 7, 10, -7, 100, 255, 256, 1000, Int64(Int32.max), Int64(Int32.min), 4_294_967_297,
    (1 << 53) - 1, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1, 4_503_599_627_370_496, 2_251_799_813_685_248,
    -2_251_799_813_685_248, 3_037_000_499, 3_037_000_500, 4_611_686_018_427_387_904, .max, .max - 1, .min, .min + 1,
    9_223_372_036_854_775_000, -9_223_372_036_854_775_000,
  ]

  static let edgeReals: [Double] = [
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 3.0, 7.5, -7.5, 100.0,
    1e14, 1e15, 1e16, 1e20, -1e20, 1e100, 1e300, 1.7976931348623157e308, -1.7976931348623157e308,
    .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 2.2250738585072014e-308, 1e-5, 1e-4, 1.5e-7, 123456789012345.0, 1234567890123456.0,
    9007199254740992.0, 9007199254740993.0, 9223372036854775807.0, -9223372036854775808.0, 9.2233720368547748e18,
    -9.2233720368547748e18, 1.8446744073709552e19, 0.8585005279831045, -82227.89813682565, 4.355772405659235e+181,
    613740.838162, 4503599627370495.5, -4503599627370495.5, 4503599627370496.0, 0.49999999999999994, 2.675, 1.005,
    0.15, -0.15, 1.45, 1.55, 0.125, 1e22, 1e23, .infinity, -.infinity, 5e-15, 999999999999999.9, 0.999999999999999,
  ]

  static let edgeTexts: [String] = [
    "", " ", "  ", "0", "1", "-1", "+7", "- 7", "12", " 12 ", "  12", "12  ", "\t12\n", "\u{0B}12", "\u{0C}12\r",
    "12\u{00A0}", "1.5", "-1.5", "3.0", "3.", "5.", ".5", "-.5", ".", "-", "+", "1e3", "1E3", "1e", "1e+", "1e-2",
    "1.5e", "1.e5", "1e999", "-1e999", "1e-999", "9.0e18", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "99999999999999999999", "00012", "0x10", "0x1A", "12abc",
    "1.5abc", "12.0abc", "abc", "ABC", "a", "A", "b", "B", "_", "%", "a%", "%a", "a_c", "a\\%c", "é", "É", "ä", "Ä",
    "héllo", "straße", "ΑΒΓ", "😀", "a\u{0}b", "\u{0}", "a ", "a  ", " a", "Inf", "NaN", "-0", "-0.0", "0.0",
    "1,000", "true", "1 2", "7 7", "  +7  ", "2.5e-3xyz", "613740.838162", "0.1", "4.35577240565924e+181",
    "123456789012345678901234567890", "0.000000000000000000000000001", "1" + String(repeating: "0", count: 30),
    "\u{FFFF}", "\u{FFFD}", "e\u{301}", "\u{E9}",
  ]

  static let edgeBlobs: [Data] = [
    Data(), Data([0]), Data([1]), Data([0x31, 0x32]), Data([0x61, 0x62, 0x63]), Data([0x2D, 0x35]),
    Data([0x31, 0x2E, 0x35]), Data([0xC3, 0xA9, 0x61]), Data([0xFF, 0x00, 0x80]), Data([0x20, 0x20, 0x41, 0x20, 0x20]),
  ]

  /// Every edge value of every class, plus NULL.
  static var edges: [SqliteValue] {
    [.null] + edgeIntegers.map { .integer($0) } + edgeReals.map { .real($0) } + edgeTexts.map { .text($0) }
      + edgeBlobs.map { .blob($0) }
  }

  /// A random value of a random class.
  static func random(_ rng: inout SplitMix64) -> SqliteValue {
    switch rng.next() % 10 {
    case 0: return .null
    case 1, 2: return .integer(randomInteger(&rng))
    case 3, 4: return .real(randomReal(&rng))
    case 5, 6, 7: return .text(randomText(&rng))
    case 8: return .text(randomNumericText(&rng))
    default: return .blob(randomBlob(&rng))
    }
  }

  static func randomInteger(_ rng: inout SplitMix64) -> Int64 {
    switch rng.next() % 4 {
    case 0: return Int64(bitPattern: rng.next())
    case 1: return Int64.random(in: -1000...1000, using: &rng)
    case 2: return edgeIntegers[Int(rng.next() % UInt64(edgeIntegers.count))] &+ Int64.random(in: -2...2, using: &rng)
    default: return Int64(bitPattern: rng.next()) >> Int64.random(in: 1...62, using: &rng)
    }
  }

  static func randomReal(_ rng: inout SplitMix64) -> Double {
    switch rng.next() % 6 {
    case 0:
      var r = Double(bitPattern: rng.next())
      while r.isNaN { r = Double(bitPattern: rng.next()) }
      return r
    case 1: return Double.random(in: -1000...1000, using: &rng)
    case 2: return Double(Int64.random(in: -100_000...100_000, using: &rng)) / 8
    case 3: return Double(Int64.random(in: -1_000_000_000...1_000_000_000, using: &rng)) / 1000
    case 4: return edgeReals[Int(rng.next() % UInt64(edgeReals.count))]
    default:
      let exponent = Double(Int.random(in: -30...30, using: &rng))
      return Double.random(in: -10...10, using: &rng) * pow(10, exponent)
    }
  }

  static func randomText(_ rng: inout SplitMix64) -> String {
    if rng.next() % 3 == 0 { return edgeTexts[Int(rng.next() % UInt64(edgeTexts.count))] }
    let alphabet: [String] = ["a", "b", "A", "B", "z", "Z", " ", "_", "%", "1", "2", ".", "-", "é", "Ä", "😀", "\t", "e", "x"]
    let length = Int(rng.next() % 7)
    return (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
  }

  /// Text from the numeric grammar, with optional whitespace and junk.
  static func randomNumericText(_ rng: inout SplitMix64) -> String {
    var text = ""
    let spaces = [" ", "\t", "\n", "  "]
    if rng.next() % 5 == 0 { text += spaces[Int(rng.next() % 4)] }
    switch rng.next() % 4 {
    case 0: text += "-"
    case 1: text += "+"
    default: break
    }
    let digits = { (count: Int, rng: inout SplitMix64) -> String in
      String((0..<count).map { _ in Character(String(rng.next() % 10)) })
    }
    text += digits(Int(rng.next() % 22), &rng)
    if rng.next() % 2 == 0 { text += "." + digits(Int(rng.next() % 20), &rng) }
    if rng.next() % 3 == 0 {
      text += ["e", "E"][Int(rng.next() % 2)] + ["", "+", "-"][Int(rng.next() % 3)] + digits(Int(rng.next() % 4), &rng)
    }
    if rng.next() % 5 == 0 { text += spaces[Int(rng.next() % 4)] }
    if rng.next() % 6 == 0 { text += ["x", "abc", "e", ".", "1"][Int(rng.next() % 5)] }
    return text
  }

  static func randomBlob(_ rng: inout SplitMix64) -> Data {
    if rng.next() % 2 == 0 { return edgeBlobs[Int(rng.next() % UInt64(edgeBlobs.count))] }
    if rng.next() % 2 == 0 { return Data(randomNumericText(&rng).utf8) }
    return Data((0..<Int(rng.next() % 6)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
  }

  /// Edge values followed by `count` seeded random ones.
  static func sample(count: Int, seed: UInt64) -> [SqliteValue] {
    var rng = SplitMix64(state: seed)
    return edges + (0..<count).map { _ in random(&rng) }
  }
}
