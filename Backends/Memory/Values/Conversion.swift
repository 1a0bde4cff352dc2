import Foundation
import TandemCore

/// SQLite's conversions between numbers and text, and `CAST`.
enum Conversion {
  /// A REAL as SQLite renders it as TEXT (`printf("%!.15g")`): `1.0`, `0.1`, `1.0e+20`, `Inf`.
  ///
  /// ```swift
  /// Conversion.realToText(1e20) // "1.0e+20"
  /// ```
  static func realToText(_ value: Double) -> String {
    String(decoding: realToTextBytes(value), as: UTF8.self)
  }

  /// The UTF-8 bytes of ``realToText(_:)``.
  static func realToTextBytes(_ value: Double) -> [UInt8] {
    SqliteFloatPrinter.format(value, precision: 15, style: .generic, alternateForm2: true)
  }

  /// The value of the longest real-number prefix of some UTF-8 text, as `CAST(x AS REAL)` computes it.
  ///
  /// ```swift
  /// Conversion.textToReal("  -2.5e-3xyz".utf8) // -0.0025
  /// ```
  static func textToReal<Bytes: Collection<UInt8>>(_ utf8: Bytes) -> Double {
    if let value = utf8.withContiguousStorageIfAvailable({ SqliteNumberParser.parseReal($0).value }) {
      return value
    }
    return Array(utf8).withUnsafeBufferPointer { SqliteNumberParser.parseReal($0).value }
  }

  /// The value of the longest real-number prefix of a text (`CAST(text AS REAL)`).
  static func textToReal(_ text: String) -> Double {
    SqliteNumberParser.parseReal(text).value
  }

  /// The value as TEXT, nil for NULL. Numbers are rendered (REAL per ``realToText(_:)``), BLOB bytes
  /// are read as UTF-8 (see ``text(_:)``).
  static func text(of value: SqliteValue) throws -> String? {
    switch value {
    case .null: nil
    case .integer(let i): String(i)
    case .real(let r): realToText(r)
    case .text(let s): s
    case .blob(let data): try validText(data)
    }
  }

  /// TEXT made of these bytes.
  ///
  /// SQLite keeps any bytes as TEXT, but a Swift `String` holds only valid UTF-8: bytes that are
  /// not (which only a BLOB read as TEXT can bring) would be repaired, and every later comparison,
  /// length or conversion would differ from SQLite's. The engine refuses them instead.
  ///
  /// ```swift
  /// try Conversion.text([0x61, 0x62]) // .text("ab")
  /// try Conversion.text([0xFF])       // throws unsupported
  /// ```
  static func text(_ bytes: some Collection<UInt8>) throws -> SqliteValue {
    .text(try validText(bytes))
  }

  private static func validText(_ bytes: some Collection<UInt8>) throws -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else { throw invalidUTF8 }
    return text
  }

  /// The error for text that is not valid UTF-8.
  static let invalidUTF8 = TandemError.unsupported(
    "text made from bytes that are not valid UTF-8 (a BLOB read as TEXT)", backend: "memory")

  /// The bytes SQLite's `sqlite3_value_text()` sees for a value (nil for NULL): numbers rendered,
  /// text as UTF-8, blob bytes as they are.
  static func textBytes(of value: SqliteValue) -> [UInt8]? {
    switch value {
    case .null: nil
    case .integer(let i): Array(String(i).utf8)
    case .real(let r): realToTextBytes(r)
    case .text(let s): Array(s.utf8)
    case .blob(let data): [UInt8](data)
    }
  }

  /// `sqlite3VdbeRealValue`: a value as a double (text and blob via their numeric prefix, NULL → 0).
  static func realValue(of value: SqliteValue) -> Double {
    switch value {
    case .null: 0
    case .integer(let i): Double(i)
    case .real(let r): r
    case .text(let s): SqliteNumberParser.parseReal(s).value
    case .blob(let data): data.withUnsafeBytes { SqliteNumberParser.parseReal($0.bindMemory(to: UInt8.self)).value }
    }
  }

  /// `sqlite3VdbeIntValue`: a value as an Int64 (REAL truncated and saturated, text/blob via their
  /// integer prefix, NULL → 0).
  static func integerValue(of value: SqliteValue) -> Int64 {
    switch value {
    case .null: 0
    case .integer(let i): i
    case .real(let r): saturatingInteger(r)
    case .text(let s): SqliteNumberParser.parseInteger(s).value
    case .blob(let data): data.withUnsafeBytes { SqliteNumberParser.parseInteger($0.bindMemory(to: UInt8.self)).value }
    }
  }

  /// SQLite's `doubleToInt64`: truncation toward zero, saturating at the Int64 bounds; NaN → Int64.min.
  static func saturatingInteger(_ r: Double) -> Int64 {
    if r <= -9223372036854775808.0 { return .min }
    if r >= 9223372036854775808.0 { return .max }
    if r.isNaN { return .min }
    return Int64(r)
  }

  /// The C cast `(sqlite3_int64)r` as x86-64 performs it: truncation, and Int64.min for values
  /// out of range or NaN.
  static func machineInteger(_ r: Double) -> Int64 {
    if r.isNaN || r >= 9223372036854775808.0 || r < -9223372036854775808.0 { return .min }
    return Int64(r)
  }

  /// `sqlite3RealSameAsInt`: whether `r` is exactly the small integer `i` (or zero).
  static func realSameAsInteger(_ r: Double, _ i: Int64) -> Bool {
    r == 0 || (r.bitPattern == Double(i).bitPattern && i >= -2_251_799_813_685_248 && i < 2_251_799_813_685_248)
  }

  /// `CAST(value AS type)`.
  ///
  /// ```swift
  /// Conversion.cast(.text("12abc"), to: .integer) // .integer(12)
  /// Conversion.cast(.text("1e3"), to: .numeric)   // .integer(1000)
  /// ```
  static func cast(_ value: SqliteValue, to type: CastType) throws -> SqliteValue {
    if case .null = value { return .null }
    switch type {
    case .integer:
      return .integer(integerValue(of: value))
    case .real:
      return realResult(realValue(of: value))
    case .text:
      return .text(try text(of: value) ?? "")
    case .blob:
      switch value {
      case .blob: return value
      default: return .blob(Data(textBytes(of: value) ?? []))
      }
    case .numeric:
      switch value {
      case .integer, .real, .null: return value
      case .text(let s): return withUTF8Bytes(of: s) { numerify($0) }
      case .blob(let data): return data.withUnsafeBytes { numerify($0.bindMemory(to: UInt8.self)) }
      }
    }
  }

  /// `sqlite3VdbeMemNumerify` for text/blob bytes (CAST AS NUMERIC).
  private static func numerify(_ bytes: UnsafeBufferPointer<UInt8>) -> SqliteValue {
    let real = SqliteNumberParser.parseReal(bytes)
    if real.kind == 0 || real.kind == 1 {
      let integer = SqliteNumberParser.parseInteger(bytes)
      if integer.status <= 1 { return .integer(integer.value) }
    }
    let truncated = machineInteger(real.value)
    if realSameAsInteger(real.value, truncated) { return .integer(truncated) }
    return realResult(real.value)
  }

  /// A double as a result value: NaN becomes NULL, as `sqlite3_result_double` and the VDBE do.
  static func realResult(_ r: Double) -> SqliteValue {
    r.isNaN ? .null : .real(r)
  }
}
