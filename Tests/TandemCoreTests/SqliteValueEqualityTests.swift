import Foundation
import TandemCore
import Testing

/// `SqliteValue`'s equality is storage identity: text by its UTF-8 bytes, which `UTF8Bytes`
/// compares and hashes in place.
@Suite struct SqliteValueEqualityTests {
  @Test func textIsEqualByItsBytesNotByCanonicalEquivalence() {
    let precomposed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(precomposed == decomposed)  // Swift's String equality
    #expect(SqliteValue.text(precomposed) != .text(decomposed))
    #expect(SqliteValue.text(precomposed) == .text("caf\u{E9}"))
    #expect(SqliteValue.text("") == .text(""))
    #expect(SqliteValue.text("a") != .text("a\0"))
    #expect(SqliteValue.text("abc") != .text("abd"))
  }

  @Test func equalTextHashesAlikeWhateverItsStorage() {
    // A long string built piece by piece and a literal: different storage, the same bytes.
    let built = String(repeating: "ab", count: 40) + "\u{E9}"
    let literal = "abababababababababababababababababababababababababababababababababababababababab\u{E9}"
    #expect(SqliteValue.text(built) == .text(literal))
    #expect(SqliteValue.text(built).hashValue == SqliteValue.text(literal).hashValue)
    let values: Set<SqliteValue> = [.text(built), .text(literal), .text("cafe\u{301}"), .text("caf\u{E9}")]
    #expect(values.count == 3)
  }
}
