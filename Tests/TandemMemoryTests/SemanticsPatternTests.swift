import Foundation
import TandemCore
import Testing

@testable import TandemMemory
import SeededRandomness

/// LIKE and GLOB, checked against the real SQLite library.
@Suite struct SemanticsPatternTests {
  static let likeAlphabet = ["a", "b", "A", "B", "é", "É", "ä", "Ä", "😀", " ", "\\", "!", "x", "%", "_", "1", "."]
  static let globAlphabet = ["a", "b", "A", "c", "é", "😀", "*", "?", "[", "]", "^", "-", "!", "%", "_", "1", "z"]

  static func word(_ alphabet: [String], _ rng: inout SplitMix64, maximum: Int = 6) -> String {
    (0..<Int(rng.next() % UInt64(maximum + 1))).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
  }

  /// A pattern made from `subject` by swapping some characters for wildcards, or a random word.
  static func pattern(from subject: String, _ alphabet: [String], wildcards: [String], _ rng: inout SplitMix64) -> String {
    if rng.next() % 4 == 0 { return word(alphabet, &rng) }
    var out = ""
    for character in subject {
      switch rng.next() % 8 {
      case 0: out += wildcards[Int(rng.next() % UInt64(wildcards.count))]
      case 1: out += wildcards[Int(rng.next() % UInt64(wildcards.count))] + String(character)
      case 2: out += String(character).uppercased()
      default: out += String(character)
      }
    }
    return out
  }

  @Test func likeMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    var rng = SplitMix64(state: 81)
    var pairs: [[SqliteValue]] = []
    for _ in 0..<15_000 {
      let subject = Self.word(Self.likeAlphabet, &rng)
      let pattern = Self.pattern(from: subject, Self.likeAlphabet, wildcards: ["%", "_", "\\", "!"], &rng)
      pairs.append([.text(subject), .text(pattern)])
    }
    let extras = SemanticsValues.sample(count: 300, seed: 82)
    for _ in 0..<3_000 {
      pairs.append([extras[Int(rng.next() % UInt64(extras.count))], extras[Int(rng.next() % UInt64(extras.count))]])
    }
    var mismatches = try mismatchesAgainstSQLite(oracle, "SELECT ?1 LIKE ?2, like(?2, ?1)", pairs) { args in
      let result = try Pattern.like(args[0], pattern: args[1], escape: nil)
      return [result, result]
    }
    let escapes: [SqliteValue] = [.text("\\"), .text("!"), .text("%"), .text("_"), .text("é"), .text("ab"), .text(""), .null, .integer(1), .blob(Data([0x21]))]
    let triples = pairs.prefix(12_000).map { $0 + [escapes[Int(rng.next() % UInt64(escapes.count))]] }
    mismatches += try mismatchesAgainstSQLite(oracle, "SELECT ?1 LIKE ?2 ESCAPE ?3", Array(triples)) { args in
      [try Pattern.like(args[0], pattern: args[1], escape: args[2])]
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func globMatchesSQLite() throws {
    let oracle = SQLiteOracle()
    var rng = SplitMix64(state: 83)
    var pairs: [[SqliteValue]] = []
    for _ in 0..<15_000 {
      let subject = Self.word(Self.globAlphabet, &rng)
      let wildcards = ["*", "?", "[a-c]", "[^a]", "[]a]", "[a-]", "[!x]", "[", "[z-a]", "[é😀]", "[^]]"]
      pairs.append([.text(subject), .text(Self.pattern(from: subject, Self.globAlphabet, wildcards: wildcards, &rng))])
    }
    let extras = SemanticsValues.sample(count: 300, seed: 84)
    for _ in 0..<3_000 {
      pairs.append([extras[Int(rng.next() % UInt64(extras.count))], extras[Int(rng.next() % UInt64(extras.count))]])
    }
    let mismatches = try mismatchesAgainstSQLite(oracle, "SELECT ?1 GLOB ?2, glob(?2, ?1)", pairs) { args in
      let result = try Pattern.glob(args[0], pattern: args[1])
      return [result, result]
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func likeErrors() throws {
    #expect(throws: TandemError.self) { try Pattern.like(.text("a"), pattern: .text("a"), escape: .text("ab")) }
    do {
      _ = try Pattern.like(.null, pattern: .text("a"), escape: .text(""))
    } catch let error as TandemError {
      #expect(error.message == "ESCAPE expression must be a single character")
    }
    #expect(try Pattern.like(.blob(Data([0x61])), pattern: .null, escape: nil) == .integer(0))
    #expect(try Pattern.like(.text("a"), pattern: .text("a"), escape: .null) == .null)
  }

  @Test func overlongPatternsMatchSQLite() throws {
    let oracle = SQLiteOracle()
    let inputs: [[SqliteValue]] = [49_999, 50_000, 50_001].flatMap { count in
      [[.text("a"), .text(String(repeating: "%", count: count))], [.integer(1), .text(String(repeating: "*", count: count))],
       [.null, .text(String(repeating: "é", count: count / 2 + 1))]]
    }
    let mismatches = try mismatchesAgainstSQLite(oracle, "SELECT ?1 LIKE ?2, ?1 GLOB replace(?2, '%', '*')", inputs) { args in
      [try Pattern.like(args[0], pattern: args[1], escape: nil),
       try Pattern.glob(args[0], pattern: try TextFunctions.replace(args[1], .text("%"), .text("*")))]
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }
}
