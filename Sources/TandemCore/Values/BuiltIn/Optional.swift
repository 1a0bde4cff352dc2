/// An `Optional` column is nullable: its type name is `.null(Wrapped.sqliteTypeName)` and `nil`
/// is stored as `NULL`.
///
/// ```swift
/// Optional<String>.sqliteTypeName                  // .null(.text)
/// String?.decode(sqliteValue: .null)               // .some(nil)
/// String?.decode(sqliteValue: .integer(1))         // nil: not a string, not NULL
/// ```
extension Optional: ColumnType where Wrapped: ColumnType {
  /// Equality as the wrapped type offers it (`NULL` is handled by `IS NULL`).
  public typealias _QueryEquality = Wrapped._QueryEquality
  public static var sqliteTypeName: SqliteTypeName { .null(Wrapped.sqliteTypeName) }
  public var sqliteValue: SqliteValue { self?.sqliteValue ?? .null }
  public static func decode(sqliteValue: SqliteValue) -> Wrapped?? {
    if case .null = sqliteValue { return .some(nil) }
    guard let wrapped = Wrapped.decode(sqliteValue: sqliteValue) else { return nil }
    return .some(wrapped)
  }
  /// `nil` is always stored (as `NULL`); a wrapped value is checked as its own type checks it.
  @inlinable
  public func validateForStorage() throws { try self?.validateForStorage() }
}

/// An optional representation stores an optional value: `@Column(as: Date.UnixTimeRepresentation?.self)`.
extension Optional: ColumnRepresentation where Wrapped: ColumnRepresentation {
  public init(_ represented: Wrapped.Represented?) {
    self = represented.map { Wrapped($0) }
  }
  public var represented: Wrapped.Represented? { self?.represented }
}
