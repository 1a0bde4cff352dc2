import Foundation

/// `UUID` is stored as its canonical uppercase text, `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`.
///
/// ```swift
/// UUID.decode(sqliteValue: .text("nope"))    // nil
/// ```
extension UUID: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .text }
  public var sqliteValue: SqliteValue { .text(uuidString) }
  public static func decode(sqliteValue: SqliteValue) -> UUID? {
    guard case .text(let text) = sqliteValue else { return nil }
    return UUID(uuidString: text)
  }
}
