import Foundation
import TandemCore

/// SQLite's built-in scalar functions, applied to already-evaluated arguments.
///
/// ```swift
/// try ScalarFunctions.call(.substr, [.text("hello"), .integer(2), .integer(3)], collation: .binary) // .text("ell")
/// try ScalarFunctions.call(.abs, [.integer(.min)], collation: .binary) // throws "integer overflow"
/// ```
enum ScalarFunctions {
  /// SQLite's default `SQLITE_LIMIT_LENGTH`, the length `substr` uses when none is given.
  static let maximumLength: Int64 = 1_000_000_000

  /// Calls `function` with evaluated arguments. `collation` is the one scalar `min`/`max` and
  /// `nullif` compare text with. Throws SQLite's errors (`integer overflow` from `abs`, a wrong
  /// number of arguments).
  static func call(_ function: ScalarFunction, _ args: [SqliteValue], collation: Collation) throws -> SqliteValue {
    guard function.arity.contains(args.count) else {
      throw TandemError.sqlite(
        code: 1, message: "wrong number of arguments to function \(function.rawValue)()", sql: nil)
    }
    switch function {
    case .abs: return try abs(args[0])
    case .coalesce, .ifnull: return args.first { !$0.isNull } ?? .null
    case .nullif: return ValueOrder.compare(args[0], args[1], collation: collation) != 0 ? args[0] : .null
    case .instr: return TextFunctions.instr(args[0], args[1])
    case .length: return TextFunctions.length(args[0])
    case .lower: return try TextFunctions.mapASCII(args[0], ValueOrder.foldASCII)
    case .upper: return try TextFunctions.mapASCII(args[0]) { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
    case .ltrim: return try TextFunctions.trim(args[0], args.dropFirst().first, left: true, right: false)
    case .rtrim: return try TextFunctions.trim(args[0], args.dropFirst().first, left: false, right: true)
    case .trim: return try TextFunctions.trim(args[0], args.dropFirst().first, left: true, right: true)
    case .replace: return try TextFunctions.replace(args[0], args[1], args[2])
    case .round: return round(args[0], args.dropFirst().first)
    case .substr: return try TextFunctions.substr(args[0], args[1], args.dropFirst(2).first)
    case .typeof: return .text(args[0].storageClass)
    case .min: return extreme(args, collation: collation, greatest: false)
    case .max: return extreme(args, collation: collation, greatest: true)
    }
  }

  /// `abs(X)`: INTEGER stays INTEGER (`abs(-9223372036854775808)` is an error), anything else
  /// non-NULL becomes the absolute value of its REAL reading.
  static func abs(_ value: SqliteValue) throws -> SqliteValue {
    switch value {
    case .null:
      return .null
    case .integer(let i):
      if i == .min { throw TandemError.sqlite(code: 1, message: "integer overflow", sql: nil) }
      return .integer(i < 0 ? -i : i)
    default:
      let r = Conversion.realValue(of: value)
      return Conversion.realResult(r < 0 ? -r : r)
    }
  }

  /// `round(X [, N])`: always REAL; N clamped to 0...30; half away from zero for N = 0, SQLite's
  /// printf `%.Nf` then text-to-real for N > 0.
  static func round(_ value: SqliteValue, _ digits: SqliteValue?) -> SqliteValue {
    var n: Int32 = 0
    if let digits {
      if digits.isNull { return .null }
      n = Int32(truncatingIfNeeded: Conversion.integerValue(of: digits))
      n = Swift.min(Swift.max(n, 0), 30)
    }
    if value.isNull { return .null }
    var r = Conversion.realValue(of: value)
    if r < -4503599627370496.0 || r > 4503599627370496.0 {
      // No fractional part: nothing to round.
    } else if n == 0 {
      r = Double(Conversion.machineInteger(r + (r < 0 ? -0.5 : 0.5)))
    } else {
      let text = SqliteFloatPrinter.format(r, precision: Int(n), style: .fixed, alternateForm2: false)
      r = text.withUnsafeBufferPointer { SqliteNumberParser.parseReal($0).value }
    }
    return Conversion.realResult(r)
  }

  /// Scalar `min`/`max`: NULL if any argument is NULL; for `max` ties keep the earlier argument,
  /// for `min` the later one (as SQLite's `minmaxFunc` does).
  private static func extreme(_ args: [SqliteValue], collation: Collation, greatest: Bool) -> SqliteValue {
    if args[0].isNull { return .null }
    var best = 0
    for index in 1..<args.count {
      if args[index].isNull { return .null }
      let order = ValueOrder.compare(args[best], args[index], collation: collation)
      if greatest ? order < 0 : order >= 0 { best = index }
    }
    return args[best]
  }
}
