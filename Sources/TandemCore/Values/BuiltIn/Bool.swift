/// `Bool` is stored as the `INTEGER` 0 or 1, as SQLite's `TRUE` and `FALSE` are.
///
/// ```swift
/// true.sqliteValue                          // .integer(1)
/// Bool.decode(sqliteValue: .integer(2))     // nil: only 0 and 1 are booleans
/// ```
extension Bool: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .integer }
  public var sqliteValue: SqliteValue { .integer(self ? 1 : 0) }
  public static func decode(sqliteValue: SqliteValue) -> Bool? {
    switch sqliteValue {
    case .integer(0): false
    case .integer(1): true
    default: nil
    }
  }
}
