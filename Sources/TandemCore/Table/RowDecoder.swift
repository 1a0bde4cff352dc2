/// Reads a row's values in column order, decoding each into a Swift type or throwing a
/// ``TandemError`` that names the table, column, stored value and type.
///
/// ```swift
/// init(row: inout RowDecoder) throws {
///   id = try row.decode(Int.self)
///   createdAt = try row.decode(as: Date.UnixTimeRepresentation.self)
/// }
/// ```
public struct RowDecoder {
  @usableFromInline let values: [SqliteValue]
  /// Names the table and columns in errors; a shared reference, so a decoder is cheap to make.
  @usableFromInline let context: RowDecodingContext?
  @usableFromInline var position: Int
  @usableFromInline let start: Int
  @usableFromInline let end: Int

  /// A decoder over `values[start..<start + count]`, naming `schema`'s table and columns in errors.
  public init(values: [SqliteValue], schema: TableSchema?, start: Int = 0, count: Int? = nil) {
    self.init(values: values, context: schema.map(RowDecodingContext.init), start: start, count: count)
  }

  /// A decoder over `values[start..<start + count]`, naming `context`'s table and columns in errors.
  ///
  /// ```swift
  /// var decoder = RowDecoder(values: [.integer(1)], context: RowDecodingContext(Reminder.schema))
  /// ```
  @inlinable
  public init(values: [SqliteValue], context: RowDecodingContext?, start: Int = 0, count: Int? = nil) {
    self.values = values
    self.context = context
    self.position = start
    self.start = start
    self.end = start + (count ?? (values.count - start))
  }

  /// Decodes the next value as `T`.
  @inlinable @inline(__always)
  public mutating func decode<T: ColumnType>(_ type: T.Type = T.self) throws -> T {
    guard position < end else { try throwExhausted() }
    let index = position
    position += 1
    // The value is read in place (not copied out, which would retain and release it).
    guard let decoded = T.decode(sqliteValue: values[index]) else {
      // Out of line, so that the success path stays small enough to inline.
      try throwFailure(value: values[index], swiftType: T.self, column: index - start)
    }
    return decoded
  }

  /// Skips the next `count` values (a LEFT JOIN's record without a match).
  @inlinable
  public mutating func skip(_ count: Int) { position = Swift.min(position + count, end) }

  /// Decodes the next value through a representation and returns the represented Swift value.
  @inlinable
  public mutating func decode<R: ColumnRepresentation>(as representation: R.Type) throws -> R.Represented {
    try decode(R.self).represented
  }

  /// Throws the error for a decoder asked for more values than the row has.
  @usableFromInline @inline(never)
  func throwExhausted() throws -> Never {
    throw TandemError.misuse(
      "row of \(context?.schema.name ?? "a query") has \(values.count) values; a decoder asked for more")
  }

  /// Throws the decoding failure of the value at `column` as `swiftType`.
  @usableFromInline @inline(never)
  func throwFailure<T>(value: SqliteValue, swiftType: T.Type, column: Int) throws -> Never {
    throw failure(value: value, swiftType: "\(T.self)", column: column)
  }

  func failure(value: SqliteValue, swiftType: String, column: Int) -> TandemError {
    let schema = context?.schema
    let columnName =
      schema.flatMap { schema in schema.columns.indices.contains(column) ? schema.columns[column].name : nil }
      ?? "#\(column)"
    return .decodingFailure(table: schema?.name, column: columnName, value: value, swiftType: swiftType)
  }
}
