/// How many fraction digits a ``Decimal/FixedPointRepresentation`` column keeps.
///
/// Declare one for the precision you need, or use ``Hundredths``, ``Thousandths``,
/// ``TenThousandths`` or ``Millionths``:
///
/// ```swift
/// enum Satoshis: DecimalScale { static var fractionDigits: Int { 8 } }
/// @Column(as: Decimal.FixedPointRepresentation<Satoshis>.self) var balance: Decimal
/// ```
public protocol DecimalScale: Sendable {
  /// The number of digits after the point, from 0 to 18 (values are stored as `value × 10^digits`
  /// in an `Int64`).
  static var fractionDigits: Int { get }
}

/// Two fraction digits (cents): `9.99` is stored as the integer `999`.
public enum Hundredths: DecimalScale {
  public static var fractionDigits: Int { 2 }
}

/// Three fraction digits: `9.999` is stored as the integer `9999`.
public enum Thousandths: DecimalScale {
  public static var fractionDigits: Int { 3 }
}

/// Four fraction digits: `9.9999` is stored as the integer `99999`.
public enum TenThousandths: DecimalScale {
  public static var fractionDigits: Int { 4 }
}

/// Six fraction digits: `0.000001` is stored as the integer `1`.
public enum Millionths: DecimalScale {
  public static var fractionDigits: Int { 6 }
}
