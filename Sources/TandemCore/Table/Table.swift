/// A Swift type stored as one row of one table.
///
/// `@Table` writes the conformance; it can be written by hand too:
///
/// ```swift
/// struct Tag: Table {
///   var id: Int
///   var name: String
///
///   static let tableName = "tags"
///   static let schema = TableSchema("tags", columns: [
///     .column("id", .integer, primaryKey: true),
///     .column("name", .text),
///   ])
///   struct Columns: TableColumns {
///     let id = ColumnExpression<Int>("id")
///     let name = ColumnExpression<String>("name")
///   }
///   static let columns = Columns()
///
///   init(row: inout RowDecoder) throws {
///     id = try row.decode(Int.self)
///     name = try row.decode(String.self)
///   }
///   func encode(to row: inout RowEncoder) {
///     row.encode(id)
///     row.encode(name)
///   }
/// }
/// ```
public protocol Table: Sendable {
  /// The typed column set handed to query closures (`$0.title`).
  associatedtype Columns: TableColumns
  /// The table's name in the database.
  static var tableName: String { get }
  /// The table's columns, keys and indexes.
  static var schema: TableSchema { get }
  /// The typed columns.
  static var columns: Columns { get }
  /// Decodes a record from its row, reading one value per column in schema order.
  init(row: inout RowDecoder) throws
  /// Encodes the record's values, one per column in schema order.
  func encode(to row: inout RowEncoder)
}

/// The typed column set of a ``Table``: one ``ColumnExpression`` property per column.
public protocol TableColumns: Sendable {}

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
    let value = values[position]
    position += 1
    guard let decoded = T.decode(sqliteValue: value) else {
      // Out of line, so that the success path stays small enough to inline.
      try throwFailure(value: value, swiftType: T.self, column: position - 1 - start)
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

/// What a ``RowDecoder`` names in its errors: the table and result columns of the rows it reads.
///
/// One context is shared by every row of a query, so making a decoder per row copies a single
/// reference instead of a whole ``TableSchema``.
///
/// ```swift
/// let context = RowDecodingContext(Reminder.schema)
/// var decoder = RowDecoder(values: [.integer(1)], context: context)
/// ```
public final class RowDecodingContext: Sendable {
  /// The table and columns named in errors (column `i` names the row's value `i`).
  public let schema: TableSchema

  /// A context naming `schema`'s table and columns.
  public init(_ schema: TableSchema) { self.schema = schema }
}

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

extension Table {
  /// The record's values in column order.
  ///
  /// ```swift
  /// Reminder(id: 1, title: "Milk").sqliteValues // [.integer(1), .text("Milk"), .integer(0), .null, .null]
  /// ```
  public var sqliteValues: [SqliteValue] {
    var encoder = RowEncoder(capacity: Self.schema.columns.count)
    encode(to: &encoder)
    return encoder.values
  }

  /// The record's values in column order, or the ``TandemError/Kind/encodingFailure`` of the
  /// first one that has no stored form (a `Double.nan`, a date past year 9999…).
  ///
  /// ```swift
  /// try Reminder(id: 1, title: "Milk").storableValues() // [.integer(1), .text("Milk"), …]
  /// ```
  @inlinable
  public func storableValues() throws -> [SqliteValue] {
    var encoder = RowEncoder(capacity: Self.schema.columns.count)
    encode(to: &encoder)
    try encoder.checkStorable(in: Self.schema)
    return encoder.values
  }

  /// Decodes a record from its values in column order.
  public init(sqliteValues: [SqliteValue]) throws {
    var decoder = RowDecoder(values: sqliteValues, schema: Self.schema)
    try self.init(row: &decoder)
  }
}
