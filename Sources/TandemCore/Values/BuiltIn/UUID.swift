import Foundation

/// `UUID` is stored as its canonical uppercase text, `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`.
///
/// Decoding accepts only that canonical text, so equal stored text means `==` UUIDs and `==` in
/// a query finds every row Swift would: lowercase text (written by another tool) fails to decode
/// instead of silently never matching. UUIDs have no ordering in queries: Swift orders `UUID`
/// only from macOS 15, and not by its text.
///
/// ```swift
/// UUID.decode(sqliteValue: .text("nope"))    // nil
/// UUID.decode(sqliteValue: .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))   // nil: not canonical
/// ```
extension UUID: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .text }
  public var sqliteValue: SqliteValue { .text(uuidString) }
  public static func decode(sqliteValue: SqliteValue) -> UUID? {
    guard case .text(let text) = sqliteValue, let uuid = UUID(uuidString: text),
      uuid.uuidString.utf8.elementsEqual(text.utf8)
    else { return nil }
    return uuid
  }
}
