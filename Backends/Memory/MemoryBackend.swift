import TandemCore

/// The pure-Swift database engine: stores rows in memory and evaluates the query model itself,
/// answering exactly as SQLite 3.40 would — same rows, values, storage classes, order and errors.
///
/// ```swift
/// let backend = MemoryBackend()
/// try backend.create(TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("name", .text)]), ifNotExists: false)
/// _ = try backend.execute(.insert(InsertStatement(table: "t", columns: ["name"], rows: [[.literal("a")]])), parameters: [:])
/// try backend.execute(.select(SelectStatement(table: "t", columns: [.column("id")])), parameters: [:]).rows // [[1]]
/// ```
///
/// A failing statement leaves no trace outside a transaction; inside one it undoes exactly what
/// SQLite undoes — see `write`. Savepoints nest like SQLite's, and
/// foreign keys are enforced as SQLite enforces them with `PRAGMA foreign_keys = ON`. Anything
/// the engine cannot reproduce exactly throws ``TandemError/unsupported(_:backend:)``.
public final class MemoryBackend: DatabaseBackend {
  /// `"memory"`.
  public let name = EngineError.backendName

  private let catalog = Catalog()
  private let log = UndoLog()
  private let plans = PlanCache()
  private var trace: (@Sendable (String) -> Void)?

  /// An empty database.
  public init() {}

  /// Creates a table and its indexes, with SQLite's errors for a taken name.
  public func create(_ schema: TableSchema, ifNotExists: Bool) throws {
    trace?("memory: create table \(schema.name)" + (ifNotExists ? " if not exists" : ""))
    if ifNotExists, catalog.table(schema.name) != nil {
      let missing = schema.indexes.map { $0.name(in: schema.name) }.filter { !catalog.hasIndex($0) }
      if !missing.isEmpty {
        throw EngineError.unsupported("adding the indexes \(missing.joined(separator: ", ")) to an existing table")
      }
      return
    }
    let definition = try TableDefinition(schema)
    try catalog.validateNewTable(definition)
    let table = TableStorage(definition: definition)
    catalog.add(table)
    log.record(.createdTable(table))
    log.commitIfIdle()
  }

  /// Drops a table and its indexes. When other tables reference it, SQLite first deletes its rows
  /// (running ON DELETE actions) and refuses the drop if that violates a foreign key.
  public func drop(table name: String, ifExists: Bool) throws {
    trace?("memory: drop table \(name)" + (ifExists ? " if exists" : ""))
    guard let table = catalog.table(name) else {
      if ifExists { return }
      throw EngineError.noSuchTable(name)
    }
    _ = try write { session in
      if !catalog.incomingForeignKeys(of: table).isEmpty {
        session.ignoresMissingParents = true
        for rowid in table.data.rowids where table.data.contains(rowid) {
          try session.deleteRow(table, rowid, depth: 0)
        }
        session.ignoresMissingParents = false
        try session.finish()
      }
      log.record(.droppedTable(table, position: catalog.creationPosition(of: table)))
      catalog.remove(table)
    }
  }

  /// Runs one statement. For an INSERT, `lastInsertRowid` is the rowid of the last row it
  /// inserted (0 when it inserted none); `changes` counts the rows the statement itself inserted,
  /// updated or deleted, as `sqlite3_changes` does.
  public func execute(_ statement: Statement, parameters: [String: SqliteValue]) throws -> StatementResult {
    let description = trace.map { trace in
      let text = StatementDescription.describe(statement)
      trace(text)
      return text
    }
    do {
      switch statement {
      case .select(let select):
        let plan: SelectPlan
        if let cached = plans.cachedSelect(select, catalog: catalog) {
          try StatementShape.checkParameters(cached.placeholderNames, parameters)
          plan = cached
        } else {
          try checkShape(statement, parameters)
          plan = try plans.select(select, catalog: catalog)
        }
        return StatementResult(rows: try plan.run(parameters))
      case .insert(let insert):
        try checkShape(statement, parameters)
        let plan = try plans.insert(insert, catalog: catalog)
        let result = try write { session in try plan.run(insert, parameters, session: session) }
        return StatementResult(lastInsertRowid: result.lastInsertRowid, changes: result.changes)
      case .update(let update):
        let plan: UpdatePlan
        if let cached = plans.cachedUpdate(update, catalog: catalog) {
          try StatementShape.checkParameters(cached.placeholderNames, parameters)
          plan = cached
        } else {
          try checkShape(statement, parameters)
          plan = try plans.update(update, catalog: catalog)
        }
        return StatementResult(changes: try write { session in try plan.run(parameters, session: session) }.changes)
      case .delete(let delete):
        let plan: DeletePlan
        if let cached = plans.cachedDelete(delete, catalog: catalog) {
          try StatementShape.checkParameters(cached.placeholderNames, parameters)
          plan = cached
        } else {
          try checkShape(statement, parameters)
          plan = try plans.delete(delete, catalog: catalog)
        }
        return StatementResult(changes: try write { session in try plan.run(parameters, session: session) }.changes)
      }
    } catch let error as TandemError {
      throw error.with(statement: description ?? StatementDescription.describe(statement))
    }
  }

  /// The checks the SQLite backend makes while rendering (misuse errors, missing parameters).
  private func checkShape(_ statement: Statement, _ parameters: [String: SqliteValue]) throws {
    try StatementShape.check(statement, parameters: parameters) { rowidAvailable(statement.table) }
  }

  /// Whether the table's rowid has a name not taken by a column (unknown tables: yes).
  private func rowidAvailable(_ table: String) -> Bool {
    guard let definition = catalog.table(table)?.definition else { return true }
    return !["rowid", "_rowid_", "oid"].allSatisfy(definition.shadowsRowid)
  }

  /// Opens a savepoint; the outermost one begins the transaction.
  public func savepoint(_ name: String) throws {
    trace?("memory: savepoint \(name)")
    log.openSavepoint(name)
  }

  /// Releases a savepoint (and those opened after it); releasing the outermost commits.
  public func release(_ name: String) throws {
    trace?("memory: release \(name)")
    try log.release(name)
  }

  /// Rolls back to a savepoint and releases it: rows, indexes, AUTOINCREMENT counters and
  /// tables return to their state when it was opened.
  public func rollback(to name: String) throws {
    trace?("memory: rollback to \(name)")
    try log.rollback(to: name, catalog: catalog)
  }

  /// Receives a readable description of every statement, or `nil` to stop.
  public func setTrace(_ trace: (@Sendable (String) -> Void)?) {
    self.trace = trace
  }

  /// Runs a data-changing statement; a failure changes nothing.
  ///
  /// The SQLite backend runs every write inside a transaction in its own savepoint, so both
  /// engines undo the whole failed statement. One exception is SQLite's own: `database or disk is
  /// full` from a statement without a statement journal (see ``StatementJournal``) rolls back the
  /// whole transaction.
  private func write(_ body: (WriteSession) throws -> Void) throws -> StatementResult {
    let session = WriteSession(catalog: catalog, log: log)
    let mark = log.position
    do {
      try body(session)
      try session.finish()
    } catch {
      let full = (error as? TandemError)?.sqliteCode == 13
      if full && !session.usesStatementJournal && log.inTransaction {
        log.rollbackTransaction(catalog: catalog)
      } else {
        log.undo(to: mark, catalog: catalog)
      }
      throw error
    }
    log.commitIfIdle()
    assertInvariants()
    return StatementResult(rows: [], lastInsertRowid: session.lastInsertRowid, changes: session.changes)
  }

  /// Debug builds: every small table's indexes match its rows.
  private func assertInvariants() {
    #if DEBUG
      for table in catalog.allTables where table.data.rowCount <= 2048 { table.data.assertInvariants() }
    #endif
  }
}
