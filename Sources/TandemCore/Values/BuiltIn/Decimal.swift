import Foundation

/// `Decimal` is stored as its canonical decimal `TEXT` (`"-9.99"`, `"0.1"`, never an exponent),
/// so that it round-trips exactly (a `REAL` would round).
///
/// Text offers only equality: `==`, `in` and `group` compile for a `Decimal` column, but `<`,
/// `order { }`, `min()`, `max()` and arithmetic do not, because text order puts `"10"` before
/// `"9.99"`. Store amounts you compare or add with ``Decimal/FixedPointRepresentation``.
/// Decoding accepts only the canonical text Tandem writes (`"1.0"` and `"1e1"` fail), so equal
/// stored text means `==` decimals. `Decimal.nan` is not written: it is an encoding failure.
///
/// ```swift
/// Decimal(string: "0.10")!.sqliteValue        // .text("0.1")
/// Decimal.decode(sqliteValue: .text("1.2.3")) // nil
/// Decimal.decode(sqliteValue: .text("0.10"))  // nil: not canonical
/// ```
extension Decimal: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .text }
  public var sqliteValue: SqliteValue { .text(Self.canonicalText(self)) }
  public static func decode(sqliteValue: SqliteValue) -> Decimal? {
    guard case .text(let text) = sqliteValue, let value = parse(canonicalText: text) else { return nil }
    return value
  }
  /// Throws for `Decimal.nan`, which has no decimal text.
  public func validateForStorage() throws {
    guard isNaN else { return }
    throw TandemError.encodingFailure(table: nil, column: nil, swiftType: "Decimal", reason: "NaN has no decimal text")
  }

  /// The text Tandem writes: digits, an optional point and fraction, no exponent, no trailing
  /// zeros; one text per value (`Decimal` normalizes `1.0` to `1`).
  static func canonicalText(_ value: Decimal) -> String {
    var value = value
    return NSDecimalString(&value, Locale(identifier: "en_US_POSIX"))
  }

  /// The value whose canonical text is exactly `text`, or `nil`.
  static func parse(canonicalText text: String) -> Decimal? {
    guard isPlainDecimal(text), let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
      !value.isNaN, canonicalText(value).utf8.elementsEqual(text.utf8)
    else { return nil }
    return value
  }

  /// `-?digits[.digits]`: the shape of canonical text, checked before the costlier parse.
  private static func isPlainDecimal(_ text: String) -> Bool {
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
    return bytes.isEmpty
  }
}
