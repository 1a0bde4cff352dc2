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

  /// Whether `name` is one of the rowid's own names (`rowid`, `oid`, `_rowid_`).
  var isRowidName: Bool {
    bytes == Array("rowid".utf8) || bytes == Array("oid".utf8) || bytes == Array("_rowid_".utf8)
  }

  /// Whether the name starts with `sqlite_`, which SQLite reserves for itself.
  var isReserved: Bool { bytes.starts(with: Array("sqlite_".utf8)) }
}
