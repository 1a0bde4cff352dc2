import Foundation

/// `Decimal` is stored as decimal `TEXT` so that it round-trips exactly (a `REAL` would round).
///
/// ```swift
/// Decimal(string: "0.1")!.sqliteValue        // .text("0.1")
/// Decimal.decode(sqliteValue: .text("1.2.3")) // nil
/// ```
extension Decimal: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .text }
  public var sqliteValue: SqliteValue { .text(Self.canonicalText(self)) }
  public static func decode(sqliteValue: SqliteValue) -> Decimal? {
    guard case .text(let text) = sqliteValue, isDecimalLiteral(text) else { return nil }
    return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
  }

  private static func canonicalText(_ value: Decimal) -> String {
    var value = value
    return NSDecimalString(&value, Locale(identifier: "en_US_POSIX"))
  }

  /// `-?digits[.digits][e[+-]digits]`, the only text `Decimal` accepts back.
  private static func isDecimalLiteral(_ text: String) -> Bool {
    var bytes = text.utf8[...]
    func digits() -> Int {
      let count = bytes.prefix(while: { $0 >= 0x30 && $0 <= 0x39 }).count
      bytes = bytes.dropFirst(count)
      return count
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    guard digits() > 0 else { return false }
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      guard digits() > 0 else { return false }
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
      guard digits() > 0 else { return false }
    }
    return bytes.isEmpty
  }
}
