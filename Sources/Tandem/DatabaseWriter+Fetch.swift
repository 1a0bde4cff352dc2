import TandemCore

extension DatabaseWriter {
  /// All results of a query, in its (deterministic) order.
  ///
  /// ```swift
  /// let reminders = try db.fetchAll(Reminder.where { $0.title.like("%milk%") })
  /// let titles = try db.fetchAll(Reminder.all.select { $0.title })
  /// ```
  public func fetchAll<Root, Output>(_ query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]) throws -> [Output] {
    let result = try execute(.select(query.statement), parameters: parameters)
    return try result.rows.map(query.decode)
  }

  /// The first result of a query, or `nil` (adds `LIMIT 1` when the query has no limit).
  ///
  /// ```swift
  /// let milk = try db.fetchOne(Reminder.where { $0.title == "Milk" })
  /// ```
  public func fetchOne<Root, Output>(_ query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]) throws -> Output? {
    var statement = query.statement
    if statement.limit == nil { statement.limit = .literal(.integer(1)) }
    let result = try execute(.select(statement), parameters: parameters)
    return try result.rows.first.map(query.decode)
  }

  /// The number of results of a query.
  ///
  /// ```swift
  /// let n = try db.fetchCount(Reminder.where { $0.title.like("%milk%") })
  /// ```
  public func fetchCount<Root, Output>(_ query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]) throws -> Int {
    let base = query.base
    if !base.distinct, base.groupBy.isEmpty, !base.isAggregate, base.limit == nil, base.offset == nil {
      let count = SelectStatement(table: base.table, columns: [.aggregate(.count, nil, distinct: false)], filter: base.filter)
      let result = try execute(.select(count), parameters: parameters)
      guard case .integer(let n)? = result.rows.first?.first else {
        throw TandemError.misuse("count(*) returned no integer")
      }
      return Int(n)
    }
    return try execute(.select(query.statement), parameters: parameters).rows.count
  }

  /// The record of type `T` whose primary key is `key`, or `nil`.
  ///
  /// ```swift
  /// let reminder = try db.find(Reminder.self, key: 1)
  /// ```
  public func find<T: Table, K: ColumnType>(_ type: T.Type, key: K) throws -> T? {
    guard let keyColumn = T.schema.primaryKeyColumns.first, T.schema.primaryKeyColumns.count == 1 else {
      throw TandemError.misuse("\(T.tableName) has no single-column primary key")
    }
    // A named parameter keeps the statement identical across keys, so both engines reuse
    // their prepared statement / compiled plan.
    var query = T.all
    query.base.filter = .binary(.equal, .column(keyColumn.name), .parameter("tandem_key"))
    return try fetchOne(query, parameters: ["tandem_key": key.sqliteValue])
  }
}
