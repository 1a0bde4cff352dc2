import TandemCore

/// SQL text, for what the typed API does not express. Values are always bound (`arguments`),
/// never spliced into the text.
///
/// On `.sqlite` and `.sqliteInMemory` SQLite runs the text as written; on `.memory` the engine
/// parses it and answers as SQLite would, refusing with ``TandemError/Kind/unsupported`` what it
/// cannot do exactly; `.tandem` runs both and compares them.
extension DatabaseWriter {
  /// Runs SQL text — one statement or a script of several — and returns what its last statement
  /// changed. The rows of any SELECT in it are dropped.
  ///
  /// ```swift
  /// try db.execute(sql: """
  ///   CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT NOT NULL);
  ///   INSERT INTO notes(body) VALUES (?), (?);
  ///   """, arguments: ["Milk", "Eggs"])
  /// ```
  @discardableResult
  public func execute(sql: String, arguments: StatementArguments = []) throws -> StatementResult {
    try withConnection { try $0.backend.execute(sql: sql, arguments: arguments, rowOrder: .unordered) { _ in } }
  }

  /// Runs SQL text and hands each result row to `body` as it is read; an error met after some
  /// rows is thrown once those rows were handed over. `rowOrder: .unordered` says the caller does
  /// not depend on the order of rows SQL leaves open (see ``RowOrder``).
  ///
  /// ```swift
  /// try db.forEachRow(sql: "SELECT body FROM notes") { row in print(try row["body"] as String) }
  /// ```
  public func forEachRow(
    sql: String, arguments: StatementArguments = [], rowOrder: RowOrder = .sqlite, _ body: (Row) throws -> Void
  ) throws {
    try withConnection { _ = try $0.backend.execute(sql: sql, arguments: arguments, rowOrder: rowOrder, eachRow: body) }
  }

  /// Every result row of SQL text, with its column names.
  ///
  /// ```swift
  /// let rows = try db.fetchAll(sql: "SELECT id, body AS text FROM notes WHERE id > :id", arguments: ["id": 1])
  /// let pairs = try db.fetchAll(sql: "SELECT n.id, t.name FROM notes n, tags t", rowOrder: .unordered)
  /// let text: String = try rows[0]["text"]
  /// ```
  public func fetchAll(sql: String, arguments: StatementArguments = [], rowOrder: RowOrder = .sqlite) throws -> [Row] {
    var rows: [Row] = []
    try forEachRow(sql: sql, arguments: arguments, rowOrder: rowOrder) { rows.append($0) }
    return rows
  }

  /// The first result row of SQL text, or `nil` when it has none.
  ///
  /// ```swift
  /// let row = try db.fetchOne(sql: "SELECT count(*) AS n FROM notes")
  /// ```
  public func fetchOne(sql: String, arguments: StatementArguments = []) throws -> Row? {
    try fetchAll(sql: sql, arguments: arguments).first
  }

  /// The value of the first column of the first result row, decoded as `V`, or `nil` when there
  /// is no row.
  ///
  /// ```swift
  /// let count = try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes")  // Optional(2)
  /// ```
  public func fetchOne<V: ColumnType>(_ type: V.Type, sql: String, arguments: StatementArguments = []) throws -> V? {
    guard let row = try fetchOne(sql: sql, arguments: arguments) else { return nil }
    return try row[0] as V
  }

  /// Records of `T` from SQL text: each of `T`'s columns is read from the result column of the
  /// same name (a missing one is a ``TandemError/Kind/misuse``).
  ///
  /// ```swift
  /// let overdue = try db.fetchAll(Reminder.self, sql: "SELECT * FROM reminders WHERE dueDate < ?", arguments: [today])
  /// ```
  public func fetchAll<T: Table>(
    _ type: T.Type, sql: String, arguments: StatementArguments = [], rowOrder: RowOrder = .sqlite
  ) throws -> [T] {
    var records: [T] = []
    var positions: [Int]?
    try forEachRow(sql: sql, arguments: arguments, rowOrder: rowOrder) { row in
      let order = try positions ?? Self.columnPositions(of: T.self, in: row)
      positions = order
      let values = order.map { row.values[$0] }
      var decoder = RowDecoder(values: values, schema: T.schema)
      do {
        records.append(try T(row: &decoder))
      } catch let error as TandemError {
        throw error.inResult(row: records.count, values: values, record: T.self)
      }
    }
    return records
  }

  /// The first record of `T` SQL text returns, or `nil`.
  ///
  /// ```swift
  /// let note = try db.fetchOne(Note.self, sql: "SELECT * FROM notes WHERE id = ?", arguments: [1])
  /// ```
  public func fetchOne<T: Table>(_ type: T.Type, sql: String, arguments: StatementArguments = []) throws -> T? {
    try fetchAll(type, sql: sql, arguments: arguments).first
  }

  /// Where each of `T`'s columns is in the row.
  private static func columnPositions<T: Table>(of type: T.Type, in row: Row) throws -> [Int] {
    try T.schema.columns.map { column in
      guard let position = row.columnIndex(named: column.name) else {
        throw TandemError.misuse(
          "the SQL's result has no column \(column.name) for \(T.self); its columns are "
            + row.columnNames.joined(separator: ", "))
      }
      return position
    }
  }
}
