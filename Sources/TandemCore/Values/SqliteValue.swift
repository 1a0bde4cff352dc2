import Foundation

/// One value as SQLite stores it: one of its five storage classes.
///
/// Both engines speak only this type: SQLite binds from it and reads into it, the memory engine
/// stores it as is.
///
/// ```swift
/// let values: [SqliteValue] = [.integer(1), .real(-0.0), .text("héllo"), .blob(Data([0, 1])), .null]
/// ```
///
/// Equality is *exact storage identity*, stricter than SQL's `=` and than Swift's `String ==`:
/// text is compared by its UTF-8 bytes (`"é"` precomposed differs from `"e\u{301}"`), reals by
/// their bit pattern (`-0.0` differs from `0.0`), and values of different storage classes are never
/// equal (`.integer(1) != .real(1)`). SQL comparison rules live in the engines, not here.
public enum SqliteValue: Sendable {
  /// A signed 64-bit integer.
  case integer(Int64)
  /// An IEEE-754 double.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// A byte string.
  case blob(Data)
  /// SQL `NULL`.
  case null

  /// The storage class name as SQLite's `typeof()` prints it: `integer`, `real`, `text`, `blob`, `null`.
  ///
  /// ```swift
  /// SqliteValue.real(1).storageClass // "real"
  /// ```
  public var storageClass: String {
    switch self {
    case .integer: "integer"
    case .real: "real"
    case .text: "text"
    case .blob: "blob"
    case .null: "null"
    }
  }

  /// Whether this is SQL `NULL`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

extension SqliteValue: Equatable {
  public static func == (lhs: SqliteValue, rhs: SqliteValue) -> Bool {
    switch (lhs, rhs) {
    case (.integer(let a), .integer(let b)): a == b
    case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
    case (.text(let a), .text(let b)): UTF8Bytes.equal(a, b)
    case (.blob(let a), .blob(let b)): a == b
    case (.null, .null): true
    default: false
    }
  }
}

extension SqliteValue: Hashable {
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .integer(let v):
      hasher.combine(0 as UInt8)
      hasher.combine(v)
    case .real(let v):
      hasher.combine(1 as UInt8)
      hasher.combine(v.bitPattern)
    case .text(let v):
      hasher.combine(2 as UInt8)
      UTF8Bytes.hash(v, into: &hasher)
    case .blob(let v):
      hasher.combine(3 as UInt8)
      hasher.combine(v)
    case .null:
      hasher.combine(4 as UInt8)
    }
  }
}

extension SqliteValue: CustomStringConvertible {
  /// The value written like SQLite's `quote()`: `1`, `1.5`, `'it''s'`, `X'00FF'`, `NULL`.
  public var description: String { sqlLiteral }
}

extension SqliteValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
  /// `let v: SqliteValue = 42` is `.integer(42)`.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// `let v: SqliteValue = 1.5` is `.real(1.5)`.
  public init(floatLiteral value: Double) { self = .real(value) }
  /// `let v: SqliteValue = "a"` is `.text("a")`.
  public init(stringLiteral value: String) { self = .text(value) }
  /// `let v: SqliteValue = true` is `.integer(1)`, as SQLite stores booleans.
  public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
  /// `let v: SqliteValue = nil` is `.null`.
  public init(nilLiteral: ()) { self = .null }
}
