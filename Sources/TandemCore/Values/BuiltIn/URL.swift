import Foundation

/// `URL` is stored as its absolute string, and read back as an absolute URL.
///
/// A URL made relative to a base (`URL(string: "b", relativeTo: base)`) is stored as its absolute
/// string, so it reads back as the absolute URL, which Swift does not call `==` to the relative
/// one; `==` and `in` in queries compare absolute strings. Decoding accepts only text that is the
/// absolute string of the URL it parses to, so equal stored text means `==` URLs. URLs have no
/// ordering in queries: text order is not a Swift order.
///
/// ```swift
/// URL(string: "https://swift.org")!.sqliteValue   // .text("https://swift.org")
/// ```
extension URL: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .text }
  public var sqliteValue: SqliteValue { .text(absoluteString) }
  public static func decode(sqliteValue: SqliteValue) -> URL? {
    guard case .text(let text) = sqliteValue, !text.isEmpty, let url = URL(string: text),
      url.absoluteString.utf8.elementsEqual(text.utf8)
    else { return nil }
    return url
  }
  /// Throws when the absolute string does not parse back to a URL with that absolute string.
  public func validateForStorage() throws {
    guard URL.decode(sqliteValue: sqliteValue) == nil else { return }
    throw TandemError.encodingFailure(
      table: nil, column: nil, swiftType: "URL", reason: "its absolute string does not read back as a URL")
  }
}
