import TandemCore

extension DatabaseWriter {
  /// All results of a query, in its (deterministic) order.
  ///
  /// ```swift
  /// let reminders = try db.fetchAll(Reminder.where { $0.title.like("%milk%") })
  /// let titles = try db.fetchAll(Reminder.all.select { $0.title })
  /// ```
  @inlinable
  public func fetchAll<Root, Output>(_ query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]) throws -> [Output] {
    let statement = query.statement
    return try withConnection { connection in
      var records: [Output] = []
      try connection.backend.select(statement, parameters: parameters) { row in
        records.append(try query.decode(row))
      }
      return records
    }
  }

  /// The first result of a query, or `nil` (adds `LIMIT 1` when the query has no limit).
  ///
  /// ```swift
  /// let milk = try db.fetchOne(Reminder.where { $0.title == "Milk" })
  /// ```
  @inlinable
  public func fetchOne<Root, Output>(_ query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]) throws -> Output? {
    var statement = query.statement
    if statement.limit == nil { statement.limit = .literal(.integer(1)) }
    return try withConnection { connection in try connection.fetchFirst(statement, parameters, query.decode) }
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
  /// A key with no stored form (`Double.nan`…) is an ``TandemError/Kind/encodingFailure``.
  ///
  /// ```swift
  /// let reminder = try db.find(Reminder.self, key: 1)
  /// ```
  @inlinable
  public func find<T: Table, K: ColumnType>(_ type: T.Type, key: K) throws -> T? {
    do {
      try key.validateForStorage()
    } catch {
      throw TandemError.unstorable(
        error, swiftType: "\(K.self)", table: T.tableName, column: T.schema.primaryKeyColumns.first?.name)
    }
    return try withConnection { connection in
      // Built once per table type, with the key as a named parameter, so both engines reuse
      // their prepared statement / compiled plan.
      let lookup = try connection.keyLookup(for: T.self)
      var found: T?
      try connection.backend.select(prepared: lookup.query, values: [key.sqliteValue]) { row in
        guard found == nil else { return }
        var decoder = RowDecoder(values: row, context: lookup.context)
        found = try T(row: &decoder)
      }
      return found
    }
  }
}

extension Connection {
  /// Decodes the first row `statement` returns, or `nil` when it returns none.
  @usableFromInline
  func fetchFirst<Output>(
    _ statement: SelectStatement, _ parameters: [String: SqliteValue], _ decode: ([SqliteValue]) throws -> Output
  ) throws -> Output? {
    var first: Output?
    var isFirst = true
    try backend.select(statement, parameters: parameters) { row in
      guard isFirst else { return }
      isFirst = false
      first = try decode(row)
    }
    return first
  }
}
