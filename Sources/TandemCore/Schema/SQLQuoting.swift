import Foundation

/// Identifier and literal quoting shared by the DDL emitter and the SQLite renderer.
public enum SQLQuoting {
  /// A double-quoted identifier with embedded quotes doubled.
  ///
  /// ```swift
  /// SQLQuoting.identifier(#"a "quoted" name"#)  // "a ""quoted"" name" (with the outer quotes)
  /// SQLQuoting.identifier("order")              // "order"
  /// ```
  public static func identifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// A single-quoted text literal with embedded quotes doubled.
  ///
  /// ```swift
  /// SQLQuoting.text("it's")  // 'it''s'
  /// ```
  public static func text(_ value: String) -> String {
    "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
  }
}

extension SqliteValue {
  /// The value as a SQL literal, used only for `DEFAULT` clauses in DDL (queries always bind).
  ///
  /// Reals use the shortest text that reads back as the same double; infinities become `9e999` /
  /// `-9e999` (SQLite reads an overflowing literal as infinity); NaN is `NULL`, as SQLite stores it.
  ///
  /// ```swift
  /// SqliteValue.text("it's").sqlLiteral      // 'it''s'
  /// SqliteValue.blob(Data([0xCA, 0xFE])).sqlLiteral  // X'CAFE'
  /// SqliteValue.real(0.1).sqlLiteral         // 0.1
  /// ```
  public var sqlLiteral: String {
    switch self {
    case .null:
      return "NULL"
    case .integer(let value):
      return String(value)
    case .real(let value):
      if value.isNaN { return "NULL" }
      if value.isInfinite { return value < 0 ? "-9e999" : "9e999" }
      // Swift's description is the shortest round-tripping form; make sure SQLite reads a REAL.
      var text = "\(value)"
      if !text.contains(".") && !text.contains("e") { text += ".0" }
      return text
    case .text(let value):
      return SQLQuoting.text(value)
    case .blob(let value):
      let hexDigits = Array("0123456789ABCDEF".utf8)
      var bytes: [UInt8] = [UInt8(ascii: "X"), UInt8(ascii: "'")]
      bytes.reserveCapacity(value.count * 2 + 3)
      for byte in value {
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0x0F)])
      }
      bytes.append(UInt8(ascii: "'"))
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
