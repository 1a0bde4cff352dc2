/// `Double` is stored as `REAL`, bit for bit (including `-0.0` and the infinities).
///
/// ```swift
/// Double(1.5).sqliteValue                   // .real(1.5)
/// Double.decode(sqliteValue: .text("1.5"))  // nil: wrong storage class
/// ```
///
/// NaN is never written: SQLite would store it as `NULL`, so a `Double?` would read back `nil`.
/// Writing it, or comparing with it, is an encoding failure.
extension Double: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .real }
  public var sqliteValue: SqliteValue { .real(self) }
  public static func decode(sqliteValue: SqliteValue) -> Double? {
    guard case .real(let value) = sqliteValue else { return nil }
    return value
  }
  /// Throws for NaN, which SQLite stores as `NULL`.
  @inlinable
  public func validateForStorage() throws {
    if isNaN { throw TandemError.nanHasNoStoredForm("Double") }
  }
}

/// `Float` is stored as `REAL`; decoding fails when the stored double has no exact `Float` value.
/// NaN is never written, as for `Double`.
///
/// ```swift
/// Float(0.5).sqliteValue                    // .real(0.5)
/// Float.decode(sqliteValue: .real(0.1))     // nil: 0.1 as a Double is not a Float
/// ```
extension Float: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .real }
  public var sqliteValue: SqliteValue { .real(Double(self)) }
  public static func decode(sqliteValue: SqliteValue) -> Float? {
    guard case .real(let value) = sqliteValue else { return nil }
    if value.isInfinite { return value < 0 ? -.infinity : .infinity }
    return Float(exactly: value)
  }
  /// Throws for NaN, which SQLite stores as `NULL`.
  @inlinable
  public func validateForStorage() throws {
    if isNaN { throw TandemError.nanHasNoStoredForm("Float") }
  }
}

extension TandemError {
  /// The encoding failure of a floating-point NaN.
  @usableFromInline
  static func nanHasNoStoredForm(_ swiftType: String) -> TandemError {
    .encodingFailure(table: nil, column: nil, swiftType: swiftType, reason: "NaN has no stored form: SQLite stores it as NULL")
  }
}
