import Foundation

extension Decimal {
  /// Stores a `Decimal` exactly as an `INTEGER` count of `10^-Scale.fractionDigits` units, so
  /// that SQLite compares, orders, adds and sums it exactly as Swift does.
  ///
  /// With ``Hundredths``, `9.99` is stored as `999`: `9.99 < 10 < 100` in SQL as in Swift.
  /// It offers `==`, `<`, `between`, `order { }`, `min()`, `max()`, `+` and `-` between such
  /// expressions or with a `Decimal`, prefix `-`, `abs()` and an exact `sum()` (an `integer
  /// overflow` error past `Int64`). Not `*`, `/`, `%` or `avg()`: on the scaled integers they
  /// would not mean Swift's product, quotient or mean.
  ///
  /// A value with more fraction digits than the scale, beyond `Int64` units, or NaN, is never
  /// rounded: writing it is an encoding failure, and so is comparing with it.
  ///
  /// ```swift
  /// @Column(as: Decimal.FixedPointRepresentation<Hundredths>.self) var amount: Decimal
  /// Decimal.FixedPointRepresentation<Hundredths>(Decimal(string: "9.99")!).sqliteValue // .integer(999)
  /// Order.where { $0.amount > Decimal(string: "9.99")! }.order { $0.amount.desc() }
  /// ```
  public struct FixedPointRepresentation<Scale: DecimalScale>: ColumnRepresentation, QueryComparable, Hashable {
    public var represented: Decimal
    public init(_ represented: Decimal) { self.represented = represented }

    public static var sqliteTypeName: SqliteTypeName { .integer }

    /// The scaled integer, or `NULL` when there is none (rejected by ``validateForStorage()``).
    public var sqliteValue: SqliteValue {
      guard let units = try? Self.units(of: represented) else { return .null }
      return .integer(units)
    }

    public static func decode(sqliteValue: SqliteValue) -> Self? {
      guard case .integer(let units) = sqliteValue, (0...18).contains(Scale.fractionDigits) else { return nil }
      let magnitude = Decimal(units.magnitude)
      return Self(Decimal(sign: units < 0 ? .minus : .plus, exponent: -Scale.fractionDigits, significand: magnitude))
    }

    /// Throws for NaN, for more fraction digits than the scale keeps, and beyond `Int64` units.
    public func validateForStorage() throws { _ = try Self.units(of: represented) }

    /// `value × 10^fractionDigits` as an integer, computed on the canonical decimal text so that
    /// nothing is rounded.
    static func units(of value: Decimal) throws -> Int64 {
      let digits = Scale.fractionDigits
      guard (0...18).contains(digits) else { throw failure("its scale of \(digits) fraction digits is outside 0...18") }
      guard !value.isNaN else { throw failure("NaN has no fixed-point value") }
      let text = Decimal.canonicalText(value).utf8
      let isNegative = text.first == UInt8(ascii: "-")
      let unsigned = isNegative ? text.dropFirst() : text[...]
      let whole = unsigned.prefix { $0 != UInt8(ascii: ".") }
      let fraction = unsigned.dropFirst(whole.count + 1)
      guard fraction.count <= digits else {
        throw failure("it has more than \(digits) fraction digits")
      }
      var magnitude: UInt64 = 0
      var overflow = false
      let padding = Array(repeating: UInt8(ascii: "0"), count: digits - fraction.count)
      for byte in Array(whole) + Array(fraction) + padding {
        let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
        magnitude = sum
        overflow = overflow || o1 || o2
      }
      let limit = isNegative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
      guard !overflow, magnitude <= limit else {
        throw failure("it is beyond the Int64 range of \(digits)-fraction-digit units")
      }
      return isNegative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
    }

    private static func failure(_ reason: String) -> TandemError {
      .encodingFailure(table: nil, column: nil, swiftType: "Decimal.FixedPointRepresentation<\(Scale.self)>", reason: reason)
    }
  }
}
