/// One row of a query written in SQL: its values with the names of its columns.
///
/// ```swift
/// for row in try db.fetchAll(sql: "SELECT title, dueDate FROM reminders") {
///   let title: String = try row["title"]
///   let due: Date? = try row[1]
/// }
/// ```
public struct Row: Sendable, Hashable {
  /// The names SQLite gives the result columns (an alias, a column's name, or the expression's text).
  public let columnNames: [String]
  /// The values, in column order.
  public let values: [SqliteValue]

  /// A row from its column names and values (as many of each).
  public init(columnNames: [String], values: [SqliteValue]) {
    self.columnNames = columnNames
    self.values = values
  }

  /// The number of columns.
  public var count: Int { values.count }

  /// The value of the first column called `name` (ASCII case-insensitive, as SQL names are), or
  /// `nil` when there is no such column.
  ///
  /// ```swift
  /// row.value(named: "title")  // .text("Milk")
  /// ```
  public func value(named name: String) -> SqliteValue? {
    columnIndex(named: name).map { values[$0] }
  }

  /// The position of the first column called `name` (ASCII case-insensitive), or `nil`.
  public func columnIndex(named name: String) -> Int? {
    columnNames.firstIndex { SQLName.same($0, name) }
  }

  /// The value of the column called `name`, decoded as `V`.
  ///
  /// Throws ``TandemError/Kind/misuse`` when there is no such column and
  /// ``TandemError/Kind/decodingFailure`` when the value does not decode (a NULL decodes only
  /// into an optional).
  ///
  /// ```swift
  /// let title: String = try row["title"]
  /// ```
  public subscript<V: ColumnType>(_ name: String) -> V {
    get throws {
      guard let index = columnIndex(named: name) else {
        throw TandemError.misuse("the row has no column named \(name); its columns are \(columnNames.joined(separator: ", "))")
      }
      return try decode(at: index)
    }
  }

  /// The value of the column at `index` (from 0), decoded as `V`.
  ///
  /// ```swift
  /// let count: Int = try row[0]
  /// ```
  public subscript<V: ColumnType>(_ index: Int) -> V {
    get throws {
      guard values.indices.contains(index) else {
        throw TandemError.misuse("the row has \(values.count) columns; there is no column \(index)")
      }
      return try decode(at: index)
    }
  }

  private func decode<V: ColumnType>(at index: Int) throws -> V {
    let value = values[index]
    guard let decoded = V.decode(sqliteValue: value) else {
      throw TandemError.decodingFailure(table: nil, column: columnNames[index], value: value, swiftType: "\(V.self)")
    }
    return decoded
  }
}
