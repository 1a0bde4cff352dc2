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
