/// Collects a record's values in column order.
///
/// ```swift
/// func encode(to row: inout RowEncoder) {
///   row.encode(id)
///   row.encode(createdAt, as: Date.UnixTimeRepresentation.self)
/// }
/// ```
///
/// Encoding cannot throw (a record's `encode(to:)` is not `throws`): a value with no stored form
/// (``ColumnType/validateForStorage()`` throws) is noted, and ``checkStorable(in:)`` reports the
/// first one before anything is written.
public struct RowEncoder {
  /// The values encoded so far.
  @inlinable public var values: [SqliteValue] { storage }
  @usableFromInline var storage: [SqliteValue] = []
  /// The first value with no stored form: its position in ``values``, its type and its error.
  @usableFromInline var firstUnstorable: (position: Int, swiftType: String, error: any Error)?

  /// An empty encoder with room for `capacity` values.
  public init(capacity: Int = 0) { storage.reserveCapacity(capacity) }

  /// Appends a value.
  @inlinable
  public mutating func encode<T: ColumnType>(_ value: T) {
    do {
      try value.validateForStorage()
    } catch {
      noteUnstorable(error, T.self)
    }
    append(value.sqliteValue)
  }

  /// Appends a value stored through a representation.
  @inlinable
  public mutating func encode<R: ColumnRepresentation>(_ value: R.Represented, as representation: R.Type) {
    encode(R(value))
  }

  /// Appends an already-encoded value.
  @inlinable
  public mutating func append(_ value: SqliteValue) { storage.append(value) }

  /// Throws the ``TandemError/Kind/encodingFailure`` of the first value that has no stored form,
  /// naming `schema`'s table and the value's column (values are in column order, row after row).
  ///
  /// ```swift
  /// var encoder = RowEncoder()
  /// record.encode(to: &encoder)
  /// try encoder.checkStorable(in: Reminder.schema)
  /// ```
  public func checkStorable(in schema: TableSchema) throws {
    guard let (position, swiftType, error) = firstUnstorable else { return }
    let column = schema.columns.isEmpty ? nil : schema.columns[position % schema.columns.count].name
    throw TandemError.unstorable(error, swiftType: swiftType, table: schema.name, column: column)
  }

  @usableFromInline @inline(never)
  mutating func noteUnstorable<T>(_ error: any Error, _ type: T.Type) {
    if firstUnstorable == nil { firstUnstorable = (storage.count, "\(T.self)", error) }
  }
}
