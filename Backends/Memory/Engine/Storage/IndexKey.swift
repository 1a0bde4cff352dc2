import TandemCore

/// The key of a row in a unique index: values compared as SQLite's index b-trees compare them
/// under BINARY collation — INTEGER and REAL by numeric value (`1` equals `1.0`, `-0.0` equals
/// `0`), TEXT and BLOB by bytes, and never equal across those classes.
enum IndexKey: Hashable {
  case single(SqliteValue)
  case composite([SqliteValue])

  /// The key of these values, or `nil` when one of them is NULL (NULLs never conflict).
  static func make(_ values: some Collection<SqliteValue>) -> IndexKey? {
    if values.count == 1, let value = values.first {
      guard let normalized = normalized(value) else { return nil }
      return .single(normalized)
    }
    var parts: [SqliteValue] = []
    parts.reserveCapacity(values.count)
    for value in values {
      guard let normalized = normalized(value) else { return nil }
      parts.append(normalized)
    }
    return .composite(parts)
  }

  /// A single-value key, or `nil` for NULL.
  static func make(_ value: SqliteValue) -> IndexKey? {
    normalized(value).map { .single($0) }
  }

  /// The value in the canonical form used for hashing: an integral REAL inside the Int64 range
  /// becomes the equal INTEGER, so equal numbers hash and compare equal. `nil` for NULL.
  static func normalized(_ value: SqliteValue) -> SqliteValue? {
    switch value {
    case .null:
      return nil
    case .real(let number):
      if number.rounded(.towardZero) == number, number >= -0x1p63, number < 0x1p63 {
        return .integer(Int64(number))
      }
      return value
    case .integer, .text, .blob:
      return value
    }
  }
}
