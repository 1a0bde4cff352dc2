/// A `RawRepresentable` type whose raw value is a ``ColumnType`` is stored as its raw value once
/// it declares the conformance; nothing else to write.
///
/// Add ``QueryComparable`` to order and compare by the raw value (`<`, `order { }`, `max()`):
///
/// ```swift
/// enum Priority: Int, ColumnType, QueryComparable { case low = 1, medium, high }
/// Priority.high.sqliteValue                    // .integer(3)
/// Priority.decode(sqliteValue: .integer(9))    // nil: no such case
/// ```
extension ColumnType where Self: RawRepresentable, RawValue: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { RawValue.sqliteTypeName }
  public var sqliteValue: SqliteValue { rawValue.sqliteValue }
  public static func decode(sqliteValue: SqliteValue) -> Self? {
    RawValue.decode(sqliteValue: sqliteValue).flatMap(Self.init(rawValue:))
  }
  /// The raw value is checked as its own type checks it.
  @inlinable
  public func validateForStorage() throws { try rawValue.validateForStorage() }
}
