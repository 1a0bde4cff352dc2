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

  /// `sqlite3AtoF`'s value, step by step: up to 18 significant digits into an integer, the
  /// rest only moving the decimal point, an exponent whose digits may be missing, then a scale
  /// of powers of ten computed in the linked build's `long double`.
  private static func leadingDouble(_ bytes: [UInt8]) -> Double {
    let significantLimit = (Int64.max - 9) / 10
    var index = 0
    while index < bytes.count && isSpace(bytes[index]) { index += 1 }
    guard index < bytes.count else { return 0 }
    var negative = false
    if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
    }
    var significand: Int64 = 0
    var shift = 0
    while index < bytes.count && isDigit(bytes[index]) && significand < significantLimit {
      significand = significand * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    while index < bytes.count && isDigit(bytes[index]) {
      shift += 1
      index += 1
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count && isDigit(bytes[index]) {
        if significand < significantLimit {
          significand = significand * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
          shift -= 1
        }
        index += 1
      }
    }
    var exponent = 0
    if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
      index += 1
      var exponentSign = 1
      if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
        exponentSign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
      }
      while index < bytes.count && isDigit(bytes[index]) {
        exponent = exponent < 10_000 ? exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) : 10_000
        index += 1
      }
      exponent *= exponentSign
    }
    exponent += shift
    let divides = exponent < 0
    exponent = abs(exponent)
    guard significand != 0 else { return negative ? -0.0 : 0.0 }
    while exponent > 0 {
      if divides {
        if significand % 10 != 0 { break }
        significand /= 10
      } else {
        if significand >= Int64.max / 10 { break }
        significand *= 10
      }
      exponent -= 1
    }
    if negative { significand = -significand }
    if exponent == 0 { return Double(significand) }
    var scale: LinkedLongDouble = 1
    if exponent > 307 {
      guard exponent < 342 else { return divides ? 0.0 * Double(significand) : .infinity * Double(significand) }
      while exponent % 308 != 0 {
        scale *= 10
        exponent -= 1
      }
      if divides {
        return Double(LinkedLongDouble(significand) / scale) / 1.0e308
      }
      return Double(LinkedLongDouble(significand) * scale) * 1.0e308
    }
    while exponent % 22 != 0 {
      scale *= 10
      exponent -= 1
    }
    while exponent > 0 {
      scale *= 1.0e22
      exponent -= 22
    }
    return Double(divides ? LinkedLongDouble(significand) / scale : LinkedLongDouble(significand) * scale)
  }
}
