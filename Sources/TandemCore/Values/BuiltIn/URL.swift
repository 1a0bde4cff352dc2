import Foundation

/// `URL` is stored as its absolute string.
///
/// ```swift
/// URL(string: "https://swift.org")!.sqliteValue   // .text("https://swift.org")
/// ```
extension URL: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .text }
  public var sqliteValue: SqliteValue { .text(absoluteString) }
  public static func decode(sqliteValue: SqliteValue) -> URL? {
    guard case .text(let text) = sqliteValue, !text.isEmpty else { return nil }
    return URL(string: text)
  }
}
