/// `Double` is stored as `REAL`, bit for bit (including `-0.0` and the infinities).
///
/// ```swift
/// Double(1.5).sqliteValue                   // .real(1.5)
/// Double.decode(sqliteValue: .text("1.5"))  // nil: wrong storage class
/// ```
///
/// SQLite stores NaN as `NULL`, so a NaN written to a `NOT NULL` column fails there.
extension Double: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .real }
  public var sqliteValue: SqliteValue { .real(self) }
  public static func decode(sqliteValue: SqliteValue) -> Double? {
    guard case .real(let value) = sqliteValue else { return nil }
    return value
  }
}

/// `Float` is stored as `REAL`; decoding fails when the stored double has no exact `Float` value.
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
}
