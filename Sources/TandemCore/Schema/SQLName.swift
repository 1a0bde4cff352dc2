/// How SQLite reads the name of a table, column, index or savepoint: ASCII letters compare without
/// case and every other byte as it is (`"é"` precomposed and decomposed are two names), and no
/// name can hold a NUL character, which would end the SQL text.
///
/// ```swift
/// SQLName.same("Title", "title")   // true
/// SQLName.same("Ä", "ä")           // false
/// try SQLName.check("a\0b")        // misuse: identifier "a\0b" contains a NUL character
/// ```
package enum SQLName {
  /// The name's UTF-8 bytes with `A`–`Z` lowercased: equal keys name the same thing.
  package static func key(_ name: String) -> [UInt8] {
    name.utf8.map(lowercased)
  }

  /// Whether two spellings name the same thing.
  package static func same(_ a: String, _ b: String) -> Bool {
    a.utf8.elementsEqual(b.utf8) { lowercased($0) == lowercased($1) }
  }

  /// Throws ``TandemError/Kind/misuse`` when `name` holds a NUL character (shown escaped).
  package static func check(_ name: String) throws {
    // A plain loop over the contiguous bytes: the generic `contains` costs 20 times more in the
    // debug builds unit tests run in, and every statement checks its names.
    let hasNUL =
      name.utf8.withContiguousStorageIfAvailable { bytes in
        var index = 0
        while index < bytes.count {
          if bytes[index] == 0 { return true }
          index += 1
        }
        return false
      } ?? name.utf8.contains(0)
    if hasNUL {
      throw TandemError.misuse("identifier \(name.debugDescription) contains a NUL character")
    }
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }
}
