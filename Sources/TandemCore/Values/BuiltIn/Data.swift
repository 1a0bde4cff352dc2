import Foundation

/// `Data` is stored as a `BLOB`.
///
/// ```swift
/// Data([0xFF]).sqliteValue                   // .blob(Data([0xFF]))
/// ```
extension Data: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .blob }
  public var sqliteValue: SqliteValue { .blob(self) }
  public static func decode(sqliteValue: SqliteValue) -> Data? {
    guard case .blob(let value) = sqliteValue else { return nil }
    return value
  }
}

/// `[UInt8]` is stored as a `BLOB`, like `Data`.
///
/// ```swift
/// ([1, 2] as [UInt8]).sqliteValue            // .blob(Data([1, 2]))
/// ```
extension Array: ColumnType where Element == UInt8 {
  public static var sqliteTypeName: SqliteTypeName { .blob }
  public var sqliteValue: SqliteValue { .blob(Data(self)) }
  public static func decode(sqliteValue: SqliteValue) -> [UInt8]? {
    guard case .blob(let value) = sqliteValue else { return nil }
    return [UInt8](value)
  }
}
