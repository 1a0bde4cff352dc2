import Foundation
import Tandem
import SeededRandomness

/// The values the fuzzer stores and compares: the edges where engines disagree.
///
/// Integers at the 64-bit limits and around 2^53, signed zeros and integral reals, numeric-looking
/// text, canonically-equivalent but byte-different Unicode, LIKE wildcards, blobs that read as text.
enum NastyValues {
  static let integers: [Int64] = [
    0, 1, -1, 2, 3, 5, 7, 10, 12, 42, 100, -5, 1000,
    .max, .min, .max - 1, .min + 1,
    9_007_199_254_740_992, 9_007_199_254_740_993, 4_611_686_018_427_387_904, 3_037_000_500,
    -9_223_372_036_854_775_807,
  ]

  static let reals: [Double] = [
    0.0, -0.0, 1.0, -1.0, 1.5, 2.5, -2.5, 0.5, 0.1, 0.2, 0.3, 3.0, 7.0, 12.0, 10.0, 100.0,
    1e20, -1e20, 1e308, -1e308, .leastNonzeroMagnitude, .leastNonzeroMagnitude * 2025, 2.2250738585072014e-308, 1e15,
    1e16,
    9_223_372_036_854_775_808.0, -9_223_372_036_854_775_808.0, 9_007_199_254_740_992.0,
    123_456_789.123_456_789, 0.1 + 0.2, 1.0 / 3.0, 4.35772405659235e+181, 613_740.838_162,
    .infinity, -.infinity,
  ]

  static let texts: [String] = [
    "", "a", "A", "b", "B", "abc", "ABC", "Abc", "z", "_", "%", "a%b", "a_b", "%a", "a%", "\\", "\\%",
    "é", "e\u{301}", "É", "ä", "Ä", "straße", "日本語", "😀", "ΑΒΓ",
    "12", " 12 ", "1e3", "0x10", "3.0", "3", "-5", "+7", "1.5", ".5", "5.", "9223372036854775807",
    "9223372036854775808", "-9223372036854775809", "12abc", "1,000", "Inf", "NaN", "\t12\n", "1e", "0.0", "-0",
    "a ", "a  ", " a", "abc ", "true", "null", "NULL", "'", "''", "\"", "x'41'", "a\u{0}b",
    "*", "?", "[a]", "[^a]", "a*", "a?c",
  ]

  static let blobs: [[UInt8]] = [
    [], [0x00], [0x01], [0x31], [0x31, 0x32], [0x61], [0x41], [0x61, 0x62, 0x63],
    [0x20, 0x20, 0x41, 0x20, 0x20], [0xC3, 0xA9], [0x2D, 0x35], [0x31, 0x2E, 0x35], [0x61, 0x00, 0x62],
    // Not valid UTF-8 (a stray byte, a truncated sequence, an encoded surrogate): text made from
    // these keeps the raw bytes in SQLite, and the memory engine must refuse to make it.
    [0xFF], [0xFF, 0x00], [0x86, 0x30, 0x95], [0x61, 0xC3], [0xED, 0xA0, 0x80],
  ]

  /// Any value, with a bias towards `preferred`'s storage class when given.
  static func any(_ random: inout SplitMix64, preferring preferred: SqliteTypeName? = nil) -> SqliteValue {
    var weights = [(2, 0), (5, 1), (4, 2), (5, 3), (2, 4)]  // null, integer, real, text, blob
    if let preferred {
      let index: Int
      switch preferred.storage {
      case .integer: index = 1
      case .real: index = 2
      case .text: index = 3
      default: index = 4
      }
      weights[index].0 += 12
    }
    switch random.weighted(weights) {
    case 0: return .null
    case 1: return .integer(integer(&random))
    case 2: return .real(real(&random))
    case 3: return .text(random.pick(texts))
    default: return .blob(Data(blob(&random)))
    }
  }

  /// A nasty integer, or sometimes a random one.
  static func integer(_ random: inout SplitMix64) -> Int64 {
    random.chance(0.8) ? random.pick(integers) : Int64(random.int(-1000...1000))
  }

  /// A nasty real, rarely NaN (which SQLite stores as NULL).
  static func real(_ random: inout SplitMix64) -> Double {
    if random.chance(0.01) { return .nan }
    if random.chance(0.2) { return Double(random.int(-2000...2000)) / 8 }
    return random.pick(reals)
  }

  /// A blob from the pool, or a few random bytes.
  static func blob(_ random: inout SplitMix64) -> [UInt8] {
    if random.chance(0.8) { return random.pick(blobs) }
    return (0..<random.int(1...4)).map { _ in UInt8(truncatingIfNeeded: random.next()) & 0x7F }
  }

  /// A LIKE pattern built from wildcards, letters of both cases and non-ASCII text.
  static func likePattern(_ random: inout SplitMix64) -> String {
    let pieces = ["%", "_", "a", "A", "b", "1", "2", "é", "e", ".", " ", "\\", "x", "%%", "_%", "ä", "日"]
    return (0..<random.int(0...4)).map { _ in random.pick(pieces) }.joined()
  }

  /// A GLOB pattern: `*`, `?`, character classes and literal text.
  static func globPattern(_ random: inout SplitMix64) -> String {
    let pieces = ["*", "?", "a", "A", "b", "1", "[a-c]", "[^a]", "[]]", "é", ".", " ", "[", "]", "**", "[0-9]"]
    return (0..<random.int(0...4)).map { _ in random.pick(pieces) }.joined()
  }
}
