import TandemCore

/// A result column's type letter, which decides how its values print — as SQLite's reference
/// driver prints them.
///
/// ```swift
/// SQLLogicColumnType.integer.render(.text("12abc"))       // "12"
/// SQLLogicColumnType.real.render(.integer(1))             // "1.000"
/// SQLLogicColumnType.text.render(.text(""))               // "(empty)"
/// SQLLogicColumnType.text.render(.null)                   // "NULL"
/// ```
public enum SQLLogicColumnType: Character, Sendable, Hashable {
  /// `I`: `sqlite3_column_int` (the low 32 bits of the 64-bit integer) printed with `%d`.
  case integer = "I"
  /// `R`: `sqlite3_column_double` printed with SQLite's `%.3f`.
  case real = "R"
  /// `T`: `sqlite3_column_text`, `(empty)` when empty, bytes outside `' '`…`'~'` as `@`.
  case text = "T"

  /// The line the reference driver prints for `value` in a column of this type.
  ///
  /// ```swift
  /// SQLLogicColumnType.real.render(.real(-0.0004))  // "-0.000"
  /// ```
  public func render(_ value: SqliteValue) -> String {
    if value.isNull { return "NULL" }
    switch self {
    case .integer:
      return String(value.columnInt32)
    case .real:
      return SQLitePrintf.fixed(value.columnDouble, precision: 3)
    case .text:
      if case .text(let text) = value, !text.isEmpty, Self.isPrintable(text) { return text }
      let bytes = value.columnText ?? []
      if bytes.isEmpty { return "(empty)" }
      let printable = bytes.map { (0x20...0x7e).contains($0) ? $0 : UInt8(ascii: "@") }
      return String(decoding: printable, as: UTF8.self)
    }
  }

  /// Whether every byte of `text` is in `' '`…`'~'` (then it prints as it is).
  private static func isPrintable(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      for byte in bytes where byte < 0x20 || byte > 0x7e {
        return false
      }
      return true
    }
  }
}
