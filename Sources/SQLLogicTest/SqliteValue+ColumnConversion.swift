import Foundation
import TandemCore

/// How SQLite 3.40's `sqlite3_column_int64`, `sqlite3_column_double` and `sqlite3_column_text`
/// convert a stored value, reproduced so that any engine's results print as SQLite prints them.
///
/// ```swift
/// SqliteValue.text("12abc").columnInt64  // 12
/// SqliteValue.real(2.5).columnText       // "2.5"
/// ```
extension SqliteValue {
  /// `sqlite3_column_int64`: reals truncate and saturate, text and blobs read their leading integer.
  var columnInt64: Int64 {
    switch self {
    case .integer(let value): return value
    case .real(let value): return Self.saturatingInt64(value)
    case .text(let text): return Self.leadingInt64(Array(text.utf8))
    case .blob(let data): return Self.leadingInt64(Array(data))
    case .null: return 0
    }
  }

  /// `sqlite3_column_int`: the low 32 bits of ``columnInt64``.
  var columnInt32: Int32 {
    Int32(truncatingIfNeeded: columnInt64)
  }

  /// `sqlite3_column_double`: integers convert, text and blobs read their leading number.
  var columnDouble: Double {
    switch self {
    case .integer(let value): return Double(value)
    case .real(let value): return value
    case .text(let text): return Self.leadingDouble(Array(text.utf8))
    case .blob(let data): return Self.leadingDouble(Array(data))
    case .null: return 0
    }
  }

  /// `sqlite3_column_text` as a C string: the bytes up to the first NUL (`nil` for NULL).
  var columnText: [UInt8]? {
    let bytes: [UInt8]
    switch self {
    case .integer(let value): bytes = Array(String(value).utf8)
    case .real(let value): bytes = Array(SQLitePrintf.realText(value).utf8)
    case .text(let text): bytes = Array(text.utf8)
    case .blob(let data): bytes = Array(data)
    case .null: return nil
    }
    if let end = bytes.firstIndex(of: 0) { return Array(bytes[..<end]) }
    return bytes
  }

  /// `doubleToInt64`: out-of-range reals saturate, the rest truncate toward zero.
  private static func saturatingInt64(_ value: Double) -> Int64 {
    if value.isNaN { return .min }
    if value <= -9223372036854775808.0 { return .min }
    if value >= 9223372036854775807.0 { return .max }
    return Int64(value)
  }

  /// `sqlite3Isspace`: space, tab, newline, vertical tab, form feed, carriage return.
  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0d).contains(byte)
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte)
  }

  /// `sqlite3Atoi64`'s value (its return code ignored, as `memIntValue` does): leading spaces,
  /// a sign, then as many digits as there are; more than fits saturates.
  private static func leadingInt64(_ bytes: [UInt8]) -> Int64 {
    var index = 0
    while index < bytes.count && isSpace(bytes[index]) { index += 1 }
    var negative = false
    if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
    }
    while index < bytes.count && bytes[index] == UInt8(ascii: "0") { index += 1 }
    let start = index
    var magnitude: UInt64 = 0
    while index < bytes.count && isDigit(bytes[index]) {
      magnitude = magnitude &* 10 &+ UInt64(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    let digitCount = index - start
    let limit: Int64 = negative ? .min : .max
    if digitCount > 19 { return limit }
    if digitCount == 19 {
      let twoToThe63: [UInt8] = Array("9223372036854775808".utf8)
      if !bytes[start..<index].lexicographicallyPrecedes(twoToThe63) { return limit }
    }
    if magnitude > UInt64(Int64.max) { return limit }
    return negative ? -Int64(magnitude) : Int64(magnitude)
  }

  /// `sqlite3AtoF`'s value: the longest prefix that reads as a decimal number (leading spaces, a
  /// sign, digits, a fraction, an exponent whose digits may be missing), else 0.
  private static func leadingDouble(_ bytes: [UInt8]) -> Double {
    var index = 0
    while index < bytes.count && isSpace(bytes[index]) { index += 1 }
    var literal = ""
    if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
      if bytes[index] == UInt8(ascii: "-") { literal.append("-") }
      index += 1
    }
    var mantissa = ""
    while index < bytes.count && isDigit(bytes[index]) {
      mantissa.unicodeScalars.append(Unicode.Scalar(bytes[index]))
      index += 1
    }
    var fraction = ""
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count && isDigit(bytes[index]) {
        fraction.unicodeScalars.append(Unicode.Scalar(bytes[index]))
        index += 1
      }
    }
    if mantissa.isEmpty && fraction.isEmpty { return literal.isEmpty ? 0 : -0.0 }
    var exponent = 0
    if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
      index += 1
      var exponentSign = 1
      if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
        exponentSign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
      }
      while index < bytes.count && isDigit(bytes[index]) {
        exponent = min(exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")), 10_000)
        index += 1
      }
      exponent *= exponentSign
    }
    literal += (mantissa.isEmpty ? "0" : mantissa) + "." + (fraction.isEmpty ? "0" : fraction) + "e\(exponent)"
    return Double(literal) ?? 0
  }
}
