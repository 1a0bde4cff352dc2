/// A Swift type that is stored in one column: it names its SQLite type, encodes itself to one
/// ``SqliteValue`` and decodes itself back.
///
/// Conform your own single-value types; a type made of several columns is a ``Table``, never a
/// `ColumnType`.
///
/// ```swift
/// struct Money: ColumnType, Equatable {
///   var cents: Int64
///   static var sqliteTypeName: SqliteTypeName { .integer }
///   var sqliteValue: SqliteValue { .integer(cents) }
///   static func decode(sqliteValue: SqliteValue) -> Money? {
///     guard case .integer(let cents) = sqliteValue else { return nil }
///     return Money(cents: cents)
///   }
/// }
/// ```
///
/// `decode(sqliteValue:)` returns `nil` for any value it cannot represent exactly (wrong storage
/// class, out of range, malformed text); Tandem turns that `nil` into a ``TandemError`` naming the
/// table, the column, the stored value and the Swift type.
public protocol ColumnType: Sendable {
  /// The column's declared type, `.null(inner)` when it accepts `NULL`.
  static var sqliteTypeName: SqliteTypeName { get }
  /// This value as SQLite stores it.
  var sqliteValue: SqliteValue { get }
  /// The Swift value for a stored value, or `nil` when the value cannot be represented exactly.
  static func decode(sqliteValue: SqliteValue) -> Self?
}

/// A ``ColumnType`` that stores another Swift type in a chosen form, picked per column.
///
/// ```swift
/// @Column(as: Date.UnixTimeRepresentation.self) var createdAt: Date
/// Date.UnixTimeRepresentation(Date(timeIntervalSince1970: 60)).sqliteValue // .integer(60)
/// ```
public protocol ColumnRepresentation<Represented>: ColumnType {
  /// The Swift type users see in their records.
  associatedtype Represented: Sendable
  /// Wraps a Swift value for storage.
  init(_ represented: Represented)
  /// The Swift value this representation stores.
  var represented: Represented { get }
}

extension ColumnType {
  /// The type's SQLite type name (convenience for `Self.sqliteTypeName`).
  @inlinable public var sqliteTypeName: SqliteTypeName { Self.sqliteTypeName }
}
