/// A name compared and hashed by its exact UTF-8 bytes, for caches keyed by how a name was
/// written.
///
/// Swift's `String` equality treats canonically equivalent text as equal (`"é"` precomposed and
/// decomposed), but SQLite tells such names apart, so a cache keyed by `String` could answer for
/// the wrong spelling.
///
/// ```swift
/// Spelling("t") == Spelling("t")            // true
/// Spelling("\u{E9}") == Spelling("e\u{301}") // false
/// ```
struct Spelling: Hashable, Sendable {
  /// The name as written.
  let text: String

  init(_ text: String) { self.text = text }

  static func == (lhs: Spelling, rhs: Spelling) -> Bool {
    lhs.text.hasSameSpelling(as: rhs.text)
  }

  func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
