@_spi(TandemBackend) import TandemCore

extension DatabaseWriter {
  /// All results of a query, in its (deterministic) order.
  ///
  /// ```swift
  /// let reminders = try db.fetchAll(Reminder.where { $0.title.like("%milk%") })
  /// let titles = try db.fetchAll(Reminder.all.select { $0.title })
  /// ```
  @inlinable
  public func fetchAll<Root, Output>(_ query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]) throws -> [Output] {
    try withConnection { connection in
      var records: [Output] = []
      try connection.runAll(query, parameters, onRestart: { records.removeAll(keepingCapacity: true) }) { row in
        records.append(try query.decode(row, atRow: records.count))
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
    try withConnection { connection in
      try connection.fetchFirst(query, parameters) { try query.decode($0, atRow: 0) }
    }
  }

  /// The number of results of a query: exactly as many as ``fetchAll(_:parameters:)`` returns,
  /// and the same error where it fails.
  ///
  /// A plain filtered query is counted with `SELECT count(*)`; any other (grouped, distinct,
  /// limited, or with a column or term that may fail on some row) runs as it is and its rows are
  /// counted.
  ///
  /// ```swift
  /// let n = try db.fetchCount(Reminder.where { $0.title.like("%milk%") })
  /// // SELECT count(*) FROM "reminders" WHERE ("title" LIKE ?)
  /// ```
  public func fetchCount<Root, Output>(_ query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]) throws -> Int {
    let base = query.base
    if base.countsAsCountStar(parameters: parameters) {
      let count = SelectStatement(table: base.table, columns: [.aggregate(.count, nil, distinct: false)], filter: base.filter)
      let result = try execute(.select(count), parameters: parameters)
      guard case .integer(let n)? = result.rows.first?.first else {
        throw TandemError.misuse("count(*) returned no integer")
      }
      return Int(n)
    }
    let statement = query.statement
    return try withConnection { connection in
      var count = 0
      try connection.backend.select(statement, parameters: parameters) { _ in count += 1 }
      return count
    }
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
      try connection.run(lookup, key: key.sqliteValue) { row in
        guard found == nil else { return }
        var decoder = RowDecoder(values: row, context: lookup.context)
        do {
          found = try T(row: &decoder)
        } catch let error as TandemError {
          throw error.inResult(row: 0, values: row, record: T.self)
        }
      }
      return found
    }
  }
}

extension Connection {
  /// Decodes the first row `query` returns (with `LIMIT 1` when it has no limit), or `nil` when
  /// it returns none.
  @inlinable
  func fetchFirst<Root, Output>(
    _ query: Select<Root, Output>, _ parameters: [String: SqliteValue], _ decode: ([SqliteValue]) throws -> Output
  ) throws -> Output? {
    var first: Output?
    var isFirst = true
    try runFirst(query, parameters) { row in
      guard isFirst else { return }
      isFirst = false
      first = try decode(row)
    }
    return first
  }

  // The calls below are what the inlined fetches reach of the backend. They are not inlined, so
  // that the seam's types (`PreparedStatement`, `StatementBindings`) stay out of the public API.

  /// Runs `query` (prepared once, for `fetchAll`) and hands its rows to `body`; `onRestart`
  /// takes back the rows handed out so far, all of which are then handed out again
  /// (``DatabaseBackend/run(_:_:onRestart:eachRow:)``).
  @usableFromInline
  func runAll<Root, Output>(
    _ query: Select<Root, Output>, _ parameters: [String: SqliteValue], onRestart: () -> Void,
    eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    // The backend calls `onRestart` only during the run.
    _ = try withoutActuallyEscaping(onRestart) { onRestart in
      try backend.run(query.preparedForAll, .named(parameters), onRestart: onRestart, eachRow: body)
    }
  }

  /// Runs `query` with `LIMIT 1` when it has no limit (prepared once, for `fetchOne`) and hands
  /// its rows to `body`.
  @usableFromInline
  func runFirst<Root, Output>(
    _ query: Select<Root, Output>, _ parameters: [String: SqliteValue], eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    _ = try backend.run(query.preparedForFirst, .named(parameters), eachRow: body)
  }

  /// Runs a table type's primary-key lookup for `key` and hands its rows to `body`.
  @usableFromInline
  func run(_ lookup: KeyLookup, key: SqliteValue, eachRow body: ([SqliteValue]) throws -> Void) throws {
    _ = try backend.run(lookup.query, keyBindings(key), eachRow: body)
  }
}

extension Select {
  /// Decodes the result row at position `index`; a decoding failure names the row (its position,
  /// and a record's primary key).
  @inlinable
  func decode(_ values: [SqliteValue], atRow index: Int) throws -> Output {
    do {
      return try decode(values)
    } catch let error as TandemError {
      throw error.inResult(row: index, values: values, record: Output.self == Root.self ? Root.self : nil)
    }
  }
}

extension TandemError {
  /// The error naming the result row at `index` (see ``inResult(row:values:recordSchema:)``);
  /// `record` is the table type whose records the rows are, if they are.
  @usableFromInline
  func inResult(row index: Int, values: [SqliteValue], record: (any Table.Type)?) -> TandemError {
    inResult(row: index, values: values, recordSchema: record?.schema)
  }
}
