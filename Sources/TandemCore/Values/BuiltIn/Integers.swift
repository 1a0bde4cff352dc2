/// Fixed-width integers are stored as `INTEGER`. Decoding is exact: a stored value outside the
/// type's range (`Int8` from `300`, `UInt32` from `-1`) decodes to `nil`, never a truncated number.
///
/// ```swift
/// Int8(7).sqliteValue                          // .integer(7)
/// Int8.decode(sqliteValue: .integer(300))      // nil
/// ```
public protocol _ExactIntegerColumn: FixedWidthInteger, ColumnType {}

extension _ExactIntegerColumn {
  public static var sqliteTypeName: SqliteTypeName { .integer }
  public var sqliteValue: SqliteValue { .integer(Int64(self)) }
  public static func decode(sqliteValue: SqliteValue) -> Self? {
    guard case .integer(let value) = sqliteValue else { return nil }
    return Self(exactly: value)
  }
}

extension Int: _ExactIntegerColumn {}
extension Int8: _ExactIntegerColumn {}
extension Int16: _ExactIntegerColumn {}
extension Int32: _ExactIntegerColumn {}
extension Int64: _ExactIntegerColumn {}
extension UInt8: _ExactIntegerColumn {}
extension UInt16: _ExactIntegerColumn {}
extension UInt32: _ExactIntegerColumn {}
