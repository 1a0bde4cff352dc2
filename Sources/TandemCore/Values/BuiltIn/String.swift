/// `String` is stored as `TEXT` (UTF-8), unchanged: no normalization, NUL characters kept.
///
/// ```swift
/// "héllo".sqliteValue                        // .text("héllo")
/// String.decode(sqliteValue: .integer(1))    // nil: wrong storage class
/// ```
extension String: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .text }
  public var sqliteValue: SqliteValue { .text(self) }
  public static func decode(sqliteValue: SqliteValue) -> String? {
    guard case .text(let value) = sqliteValue else { return nil }
    return value
  }
}
