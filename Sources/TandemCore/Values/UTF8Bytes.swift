import Foundation

/// Text compared and hashed by its UTF-8 bytes, the way SQLite's BINARY collation and its
/// identifiers see it, with one `memcmp` rather than a generic walk over `String.UTF8View`
/// (which costs about ten instructions a byte, and far more in a debug build).
///
/// ```swift
/// UTF8Bytes.equal("é", "e\u{301}")  // false: Swift's `==` says true (canonical equivalence)
/// UTF8Bytes.equal("abc", "abc")     // true
/// ```
package enum UTF8Bytes {
  /// Whether `a` and `b` hold the same UTF-8 bytes.
  package static func equal(_ a: String, _ b: String) -> Bool {
    let count = a.utf8.count
    guard count == b.utf8.count else { return false }
    guard count > 0 else { return true }
    // `withUTF8` makes a string contiguous first, which a native Swift string already is.
    var a = a
    var b = b
    return a.withUTF8 { left in
      b.withUTF8 { right in
        guard let l = left.baseAddress, let r = right.baseAddress else { return left.count == right.count }
        return memcmp(l, r, count) == 0
      }
    }
  }

  /// Feeds the bytes of `text` (and their count) to `hasher`: equal bytes, equal hashes.
  package static func hash(_ text: String, into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { bytes in
      hasher.combine(bytes.count)
      hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
  }
}
