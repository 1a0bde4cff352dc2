import TandemCore

extension MemoryBackend {
  /// `CREATE [UNIQUE] INDEX` on a table that exists: the table is rebuilt with the index added
  /// (its rows and rowids kept), refusing what SQLite refuses, with SQLite's messages — a unique
  /// index over rows that repeat a key is `UNIQUE constraint failed`, and nothing changes.
  ///
  /// ```swift
  /// try backend.createIndex(.index("by_title", on: ["title"], unique: true), on: "notes", ifNotExists: false)
  /// ```
  func createIndex(_ index: IndexSchema, on tableName: String, ifNotExists: Bool) throws {
    trace?("memory: create index \(index.name(in: tableName)) on \(tableName)")
    guard let table = catalog.table(tableName) else { throw EngineError.noSuchTable("main.\(tableName)") }
    var schema = table.definition.schema
    schema.indexes = [index]
    let created = try schema.checkCreation(
      ifNotExists: ifNotExists,
      tableExists: { [catalog] name in !SQLName.same(name, schema.name) && catalog.table(name) != nil },
      indexExists: catalog.hasIndex)
    guard let created, !created.isEmpty else { return }
    schema.indexes = table.definition.schema.indexes + created
    try replace(table, with: schema) { rebuilt in
      guard index.isUnique, let position = rebuilt.definition.indexes.firstIndex(where: { SQLName.same($0.name, index.name(in: schema.name)) })
      else { return }
      let definition = rebuilt.definition.indexes[position]
      throw EngineError.unique(table: schema.name, columns: definition.columnNames, primaryKey: false)
    }
  }

  /// `DROP INDEX`: the table that holds it is rebuilt without it. The index of a UNIQUE or
  /// PRIMARY KEY constraint cannot be dropped, as in SQLite.
  ///
  /// ```swift
  /// try backend.dropIndex("by_title", ifExists: true)
  /// ```
  func dropIndex(_ name: String, ifExists: Bool) throws {
    trace?("memory: drop index \(name)")
    guard let table = catalog.allTables.first(where: { $0.definition.indexes.contains { SQLName.same($0.name, name) } })
    else {
      if ifExists { return }
      throw EngineError.sqlite(1, "no such index: \(name)")
    }
    guard catalog.hasIndex(name) else {
      throw EngineError.sqlite(1, "index associated with UNIQUE or PRIMARY KEY constraint cannot be dropped")
    }
    var schema = table.definition.schema
    schema.indexes.removeAll { SQLName.same($0.name(in: schema.name), name) }
    try replace(table, with: schema) { _ in }
  }

  /// Replaces `table` by a table of `schema` holding the same rows (same rowids, same AUTOINCREMENT
  /// counter), in the same place of the catalog; `duplicate` is called when a row's key is already
  /// taken in a unique index of the new table, and must throw. The undo log can put the old table
  /// back.
  private func replace(_ table: TableStorage, with schema: TableSchema, duplicate: (TableStorage) throws -> Void) throws {
    let rebuilt = TableStorage(definition: SchemaRegistry.definition(for: schema))
    let uniqueIndexes = rebuilt.definition.indexes.indices.filter { rebuilt.definition.indexes[$0].isUnique }
    for rowid in table.data.rowids {
      guard let values = table.data.row(rowid) else { continue }
      for index in uniqueIndexes where rebuilt.data.owner(of: rebuilt.data.key(of: values, index: index), index: index) != nil {
        try duplicate(rebuilt)
      }
      rebuilt.data.insert(rowid, values: values)
    }
    rebuilt.data.sequence = table.data.sequence
    let position = catalog.creationPosition(of: table)
    catalog.remove(table)
    catalog.restore(rebuilt, position: position)
    log.record(.droppedTable(table, position: position))
    log.record(.createdTable(rebuilt))
    log.commitIfIdle()
  }
}
