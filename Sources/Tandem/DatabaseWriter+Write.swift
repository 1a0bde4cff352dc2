@_spi(TandemBackend) import TandemCore

extension DatabaseWriter {
  /// Inserts a record and returns its rowid.
  ///
  /// A value with no stored form (`Double.nan`, a date past year 9999…) is an
  /// ``TandemError/Kind/encodingFailure`` thrown before anything is written.
  ///
  /// ```swift
  /// try db.insert(Reminder(id: 1, title: "Milk"))
  /// try db.insert(Reminder(id: 1, title: "Oat milk"), onConflict: .replace)
  /// ```
  @inlinable @discardableResult
  public func insert<T: Table>(_ record: T, onConflict: ConflictPolicy = .abort) throws -> Int64 {
    let values = try record.storableValues()
    return try withConnection { connection in
      try connection.insert(T.self, row: values, conflict: onConflict.resolution)
    }.lastInsertRowid
  }

  /// Inserts many records, all or none.
  ///
  /// ```swift
  /// try db.insert([Reminder(id: 1, title: "Milk"), Reminder(id: 2, title: "Eggs")])
  /// ```
  @inlinable
  public func insert<T: Table>(_ records: [T], onConflict: ConflictPolicy = .abort) throws {
    guard !records.isEmpty else { return }
    // Every record's values in one array: no array per row.
    let width = T.schema.columns.count
    var encoder = RowEncoder(capacity: records.count * width)
    for index in records.indices {
      let start = encoder.values.count
      records[index].encode(to: &encoder)
      // A hand-written `encode(to:)` must write one value per column, or rows would shift.
      let written = encoder.values.count - start
      guard written == width else {
        throw TandemError.misuse("insert row \(index + 1) has \(written) values for \(width) columns")
      }
    }
    try encoder.checkStorable(in: T.schema)
    let values = encoder.values
    // One backend call is one statement: all rows or none, with no transaction of our own.
    _ = try withConnection { connection in
      try connection.insert(T.self, flattenedRows: values, conflict: onConflict.resolution)
    }
  }

  /// Inserts a draft, letting the database assign its integer key, and returns the stored record.
  ///
  /// ```swift
  /// let reminder = try db.insert(Reminder.Draft(title: "Milk"))
  /// print(reminder.id)   // assigned by the database
  /// ```
  @discardableResult
  public func insert<D: TableDraft>(_ draft: D) throws -> D.Record {
    var encoder = RowEncoder()
    draft.encode(to: &encoder)
    let schema = D.Record.schema
    try encoder.checkStorable(in: schema)
    return try transaction { db in
      let rowid = try db.insert(
        into: schema.name, columns: db.columnNames(of: D.Record.self), values: [encoder.values], conflict: .abort
      ).lastInsertRowid
      var query = D.Record.all
      query.base.filter = .binary(.equal, .rowid, .literal(.integer(rowid)))
      guard let record = try db.fetchOne(query) else {
        throw TandemError.misuse("the row inserted into \(schema.name) could not be read back")
      }
      return record
    }
  }

  /// Inserts a record, or updates the existing row with the same primary key.
  ///
  /// ```swift
  /// try db.upsert(Reminder(id: 1, title: "Milk"))   // INSERT … ON CONFLICT ("id") DO UPDATE SET …
  /// ```
  public func upsert<T: Table>(_ record: T) throws {
    let keys = T.schema.primaryKeyColumns.map(\.name)
    guard !keys.isEmpty else { throw TandemError.misuse("upsert needs a primary key, and \(T.tableName) has none") }
    let assignments = T.schema.columns.filter { $0.primaryKey == nil }.map {
      Assignment(column: $0.name, value: .excluded($0.name))
    }
    let conflict: InsertStatement.ConflictResolution =
      assignments.isEmpty ? .nothing(target: keys) : .update(target: keys, assignments: assignments)
    let values = try record.storableValues()
    _ = try withConnection { connection in
      try connection.insert(T.self, row: values, conflict: conflict)
    }
  }

  /// Updates every column of the row with the record's primary key; `false` when no row has it.
  ///
  /// A composite key matches on all its columns; a key value that is NULL (a nullable key
  /// column) is a ``TandemError/Kind/misuse``, since NULL equals no row.
  ///
  /// ```swift
  /// reminder.title = "Oat milk"
  /// try db.update(reminder)   // UPDATE "reminders" SET … WHERE "id" = ?
  /// try db.update(membership) // UPDATE "memberships" SET "role" = ? WHERE "projectID" = ? AND "userName" = ?
  /// ```
  @discardableResult
  public func update<T: Table>(_ record: T) throws -> Bool {
    let values = try record.storableValues()
    let assignments = zip(T.schema.columns, values).filter { $0.0.primaryKey == nil }.map {
      Assignment(column: $0.0.name, value: .literal($0.1))
    }
    guard !assignments.isEmpty else { return try fetchCount(Select<T, T>.matching(record, values)) > 0 }
    let statement = UpdateStatement(table: T.tableName, assignments: assignments, filter: try T.keyFilter(values))
    return try execute(.update(statement)).changes > 0
  }

  /// Updates the rows a query selects; returns how many changed.
  ///
  /// A closure that sets no column is a ``TandemError/Kind/misuse`` ("update of reminders sets no
  /// column"), and a value with no stored form an ``TandemError/Kind/encodingFailure``, both
  /// thrown before the statement runs.
  ///
  /// ```swift
  /// try db.update(Reminder.where { $0.priority == nil }) { $0.set(\.priority, to: .low) }
  /// ```
  @discardableResult
  public func update<Root, Output>(_ query: Select<Root, Output>, set assignments: (inout Updates<Root>) -> Void, parameters: [String: SqliteValue] = [:]) throws -> Int {
    let statement = try query.validatedUpdate(assignments)
    return try execute(.update(statement), parameters: parameters).changes
  }

  /// Deletes the rows a query selects; returns how many were deleted.
  ///
  /// ```swift
  /// try db.delete(Reminder.where { $0.isCompleted })
  /// try db.delete(Reminder.all)
  /// ```
  @discardableResult
  public func delete<Root, Output>(_ query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]) throws -> Int {
    try execute(.delete(query.deleteStatement), parameters: parameters).changes
  }

  /// Deletes the row with the record's primary key; `false` when there was none.
  ///
  /// A composite key matches on all its columns; a NULL key value is a
  /// ``TandemError/Kind/misuse``, as for ``update(_:)``.
  ///
  /// ```swift
  /// try db.delete(reminder)   // DELETE FROM "reminders" WHERE "id" = ?
  /// try db.delete(membership) // DELETE FROM "memberships" WHERE "projectID" = ? AND "userName" = ?
  /// ```
  @discardableResult
  public func delete<T: Table>(_ record: T) throws -> Bool {
    let statement = DeleteStatement(table: T.tableName, filter: try T.keyFilter(record.storableValues()))
    return try execute(.delete(statement)).changes > 0
  }
}

extension ConflictPolicy {
  @usableFromInline var resolution: InsertStatement.ConflictResolution {
    switch self {
    case .abort: .abort
    case .replace: .replace
    case .ignore: .ignore
    }
  }
}

extension Table {
  /// `key1 = v1 AND key2 = v2` for the record's primary key values (one term per column of a
  /// composite key). A NULL key value equals no row, so it is refused rather than matching nothing.
  static func keyFilter(_ values: [SqliteValue]) throws -> SQLExpression {
    let keyIndices = schema.columns.indices.filter { schema.columns[$0].primaryKey != nil }
    guard !keyIndices.isEmpty else {
      throw TandemError.misuse("\(tableName) has no primary key, so a record cannot be found by key")
    }
    if let nullKey = keyIndices.first(where: { values[$0].isNull }) {
      throw TandemError.misuse(
        "the record's primary key column \(tableName).\(schema.columns[nullKey].name) is NULL, which equals no row, "
          + "so the record cannot be found by key")
    }
    return keyIndices.map { SQLExpression.binary(.equal, .column(schema.columns[$0].name), .literal(values[$0])) }
      .reduce(nil as SQLExpression?) { partial, term in partial.map { .binary(.and, $0, term) } ?? term }
      ?? .literal(.integer(0))
  }
}

extension Select where Output == Root {
  static func matching(_ record: Root, _ values: [SqliteValue]) throws -> Select {
    var query = Root.all
    query.base.filter = try Root.keyFilter(values)
    return query
  }
}
