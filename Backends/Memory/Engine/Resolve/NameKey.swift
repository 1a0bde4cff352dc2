/// The lookup key of a table, column, index or savepoint name.
///
/// SQLite matches identifiers case-insensitively for ASCII letters only, and otherwise by their
/// UTF-8 bytes (`"é"` precomposed and decomposed are different names).
///
/// ```swift
/// NameKey("Title") == NameKey("title") // true
/// NameKey("Ä") == NameKey("ä")         // false
/// ```
struct NameKey: Hashable, Sendable {
  /// The name's UTF-8 bytes with `A`–`Z` folded to lowercase.
  let bytes: [UInt8]

  /// The key of `name`.
  init(_ name: String) {
    var bytes = Array(name.utf8)
    for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A {
      bytes[index] += 0x20
    }
    self.bytes = bytes
  }

  /// Whether `name` has this key, found without building its key: a name is looked up far more
  /// often than a key is made.
  ///
  /// ```swift
  /// NameKey("Title").matches("TITLE") // true
  /// ```
  func matches(_ name: String) -> Bool {
    guard name.utf8.count == bytes.count else { return false }
    var name = name
    return name.withUTF8 { spelled in
      var index = 0
      while index < spelled.count {
        var byte = spelled[index]
        if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
        if byte != bytes[index] { return false }
        index += 1
      }
      return true
    }
  }

  /// Whether `name` is one of the rowid's own names (`rowid`, `oid`, `_rowid_`).
  var isRowidName: Bool { Self.rowidNames.contains(bytes) }

  private static let rowidNames: [[UInt8]] = [Array("rowid".utf8), Array("oid".utf8), Array("_rowid_".utf8)]

  /// Whether the name starts with `sqlite_`, which SQLite reserves for itself.
  var isReserved: Bool { bytes.starts(with: Array("sqlite_".utf8)) }
}
