import TandemCore

/// The affinity of a column or expression: how SQLite converts values stored into it or compared with it.
///
/// ```swift
/// Affinity(columnType: .null(.integer))                     // .integer
/// SqliteValue.text(" 12 ").applyingStorageAffinity(.integer) // .integer(12)
/// ```
enum Affinity: Sendable, Hashable {
  /// INTEGER affinity (declared types containing `INT`).
  case integer
  /// REAL affinity (`REAL`, `FLOA`, `DOUB`).
  case real
  /// NUMERIC affinity (any other declared type, `CAST(x AS NUMERIC)`).
  case numeric
  /// TEXT affinity (`CHAR`, `CLOB`, `TEXT`).
  case text
  /// A column declared BLOB or without a type: never converts on store, but in comparisons it
  /// counts as an affinity (unlike ``none``).
  case blob
  /// An expression without affinity (literals, arithmetic, function results).
  case none

  /// The affinity of a column declared with this storage type (nullability ignored).
  init(columnType: SqliteTypeName) {
    switch columnType.storage {
    case .integer: self = .integer
    case .real: self = .real
    case .text: self = .text
    case .blob, .null: self = .blob
    }
  }

  /// The affinity a `CAST(x AS type)` expression carries.
  init(cast: CastType) {
    switch cast {
    case .integer: self = .integer
    case .real: self = .real
    case .text: self = .text
    case .blob: self = .blob
    case .numeric: self = .numeric
    }
  }

  /// INTEGER, REAL or NUMERIC.
  var isNumeric: Bool {
    switch self {
    case .integer, .real, .numeric: true
    case .text, .blob, .none: false
    }
  }
}

extension SqliteValue {
  /// The value as SQLite stores it into a column of `affinity` (non-STRICT tables).
  ///
  /// INTEGER/NUMERIC turn whole numeric text into INTEGER or REAL and integral REALs into INTEGER;
  /// REAL turns numbers and numeric text into REAL; TEXT renders numbers; BLOB/none keeps the value.
  /// A NaN REAL becomes NULL whatever the affinity.
  ///
  /// ```swift
  /// SqliteValue.text("3.0").applyingStorageAffinity(.numeric) // .integer(3)
  /// SqliteValue.integer(7).applyingStorageAffinity(.real)      // .real(7.0)
  /// SqliteValue.real(1e20).applyingStorageAffinity(.text)      // .text("1.0e+20")
  /// ```
  func applyingStorageAffinity(_ affinity: Affinity) -> SqliteValue {
    if case .real(let r) = self, r.isNaN { return .null }
    switch affinity {
    case .integer, .numeric:
      switch self {
      case .real(let r): return Self.integerAffinity(r)
      case .text(let s): return NumericAffinity.convert(s, preferInteger: true)
      case .integer, .blob, .null: return self
      }
    case .real:
      switch self {
      case .integer(let i): return .real(Double(i))
      case .real(let r): return .real(r == 0 ? 0 : r)
      case .text(let s):
        switch NumericAffinity.convert(s, preferInteger: true) {
        case .integer(let i): return .real(Double(i))
        case .real(let r): return .real(r == 0 ? 0 : r)
        default: return self
        }
      case .blob, .null: return self
      }
    case .text:
      switch self {
      case .integer(let i): return .text(String(i))
      case .real(let r): return .text(Conversion.realToText(r))
      case .text, .blob, .null: return self
      }
    case .blob, .none:
      return self
    }
  }

  /// `sqlite3VdbeIntegerAffinity`: an integral REAL strictly inside (−2^63, 2^63) becomes INTEGER.
  static func integerAffinity(_ r: Double) -> SqliteValue {
    let i = Conversion.saturatingInteger(r)
    if r == Double(i) && i > .min && i < .max { return .integer(i) }
    return .real(r)
  }
}

/// SQLite's `applyNumericAffinity`: the conversion of TEXT that NUMERIC-like affinities perform.
enum NumericAffinity {
  /// Converts `text` to a number if the whole of it (surrounding whitespace allowed) is a decimal
  /// number; otherwise returns it as TEXT. With `preferInteger`, an integral REAL result that fits
  /// becomes INTEGER (storage); without it, `'3.0'` stays REAL (comparisons).
  static func convert(_ text: String, preferInteger: Bool) -> SqliteValue {
    withUTF8Bytes(of: text) { bytes in
      let real = SqliteNumberParser.parseReal(bytes)
      if real.kind <= 0 { return .text(text) }
      if real.kind == 1 {
        let truncated = Conversion.machineInteger(real.value)
        if Conversion.realSameAsInteger(real.value, truncated) { return .integer(truncated) }
        let integer = SqliteNumberParser.parseInteger(bytes)
        if integer.status == 0 { return .integer(integer.value) }
      }
      if preferInteger { return SqliteValue.integerAffinity(real.value) }
      return .real(real.value)
    }
  }
}
