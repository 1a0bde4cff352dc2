/// A Swift type that is stored in one column: it names its SQLite type, encodes itself to one
/// ``SqliteValue`` and decodes itself back.
///
/// Conform your own single-value types; a type made of several columns is a ``Table``, never a
/// `ColumnType`. Add ``QueryComparable`` when the stored order is the Swift order, so that
/// `<`, `order { }` and `max()` compile for it:
///
/// ```swift
/// struct Money: ColumnType, QueryComparable, Equatable {
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
/// table, the column, the stored value and the Swift type. A value with no stored form that
/// decodes back throws from ``validateForStorage()``, and Tandem writes nothing.
///
/// Equality (`==`, `in`, `group`) compares stored values, so it is offered only when two values
/// are stored alike exactly when they are `==` in Swift; ``JSONRepresentation`` opts out.
public protocol ColumnType: Sendable {
  /// Whether equal stored values mean `==` Swift values: ``_SwiftEquality`` (the default) or not.
  associatedtype _QueryEquality: _QueryEqualityKind = _SwiftEquality
  /// The column's declared type, `.null(inner)` when it accepts `NULL`.
  static var sqliteTypeName: SqliteTypeName { get }
  /// This value as SQLite stores it.
  var sqliteValue: SqliteValue { get }
  /// The Swift value for a stored value, or `nil` when the value cannot be represented exactly.
  static func decode(sqliteValue: SqliteValue) -> Self?
  /// Throws when this value has no stored form that decodes back, so that it is never written.
  ///
  /// Tandem calls it before every write and for every value a query compares with; the thrown
  /// error becomes a ``TandemError/Kind/encodingFailure`` naming the table and column. The
  /// default accepts every value.
  ///
  /// ```swift
  /// try Double.nan.validateForStorage()   // throws: SQLite would store NULL
  /// ```
  func validateForStorage() throws
}

extension ColumnType {
  /// Every value of the type can be stored (the default).
  @inlinable @inline(__always)
  public func validateForStorage() throws {}
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
