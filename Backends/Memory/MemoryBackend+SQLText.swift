@_spi(TandemBackend) import TandemCore
import TandemSQL

extension MemoryBackend {
  /// The SQLite version whose answers this engine reproduces.
  ///
  /// ```swift
  /// MemoryBackend.reproducedSQLiteVersion  // "3.40.1"
  /// ```
  public static let reproducedSQLiteVersion = "3.40.1"

  /// Parses SQL text into the query model and runs it statement by statement, as SQLite would
  /// (each statement is parsed once the one before it ran, so that a table created earlier in a
  /// script is known to the next). Parameters are bound by SQLite's parameter numbering.
  ///
  /// ```swift
  /// try backend.execute(sql: "CREATE TABLE t(a INTEGER); INSERT INTO t VALUES (?)", arguments: [1], rowOrder: .sqlite) { _ in }
  /// ```
  public func execute(
    sql: String, arguments: StatementArguments, rowOrder: RowOrder, eachRow body: (Row) throws -> Void
  ) throws -> StatementResult {
    plans.compilesSQLText = true
    defer { plans.compilesSQLText = false }
    return try SQLTextMode.$current.withValue(SQLTextMode(rowOrderIsFree: rowOrder == .unordered)) {
      try runScript(sql, arguments, body)
    }
  }

  private func runScript(
    _ sql: String, _ arguments: StatementArguments, _ body: (Row) throws -> Void
  ) throws -> StatementResult {
    var reader = SQLScriptReader(sql)
    var cursor = 0
    var result = StatementResult()
    let catalog = self.catalog
    let rowidAlias = { (name: String) -> String? in
      guard let definition = catalog.table(name)?.definition else { return nil }
      return definition.rowidColumn.map { definition.columnNames[$0] }
    }
    while let parsed = try reader.next(
      schema: { catalog.table($0)?.definition.columnNames }, views: catalog.view, rowidAlias: rowidAlias)
    {
      let values = try arguments.values(for: parsed.parameterNames, cursor: &cursor)
      var parameters: [String: SqliteValue] = [:]
      for (offset, value) in values.enumerated() { parameters["?\(offset + 1)"] = value }
      result = try run(parsed.statement, parameters, body)
    }
    try arguments.checkAllUsed(cursor: cursor)
    return result
  }

  private func run(
    _ statement: ParsedStatement, _ parameters: [String: SqliteValue], _ body: (Row) throws -> Void
  ) throws -> StatementResult {
    try refuseViewMisuse(statement)
    switch statement {
    case .query(.select(let select), let names):
      _ = try run(PreparedStatement(.select(select)), .named(parameters)) { values in try body(Row(columnNames: names, values: values)) }
      return StatementResult()
    case .query(let statement, _):
      let result = try execute(statement, parameters: parameters)
      if case .insert = statement { return result }
      return StatementResult(changes: result.changes)
    case .insertSelect(let insert, let select):
      return try insertRows(of: select, into: insert, parameters)
    case .createTable(let schema, let ifNotExists):
      try create(schema, ifNotExists: ifNotExists)
    case .createIndex(let table, let index, let ifNotExists):
      try createIndex(index, on: table, ifNotExists: ifNotExists)
    case .dropTable(let name, let ifExists):
      try drop(table: name, ifExists: ifExists)
    case .dropIndex(let name, let ifExists):
      try dropIndex(name, ifExists: ifExists)
    case .createView(let view, let ifNotExists):
      try create(view, ifNotExists: ifNotExists)
    case .dropView(let name, let ifExists):
      try drop(view: name, ifExists: ifExists)
    case .reindex(let name):
      // Indexes are rebuilt from scratch when a collation changes; the built-in ones never do,
      // so there is nothing to rebuild — but the name must be an index, a table or a collation.
      if let name, catalog.table(name) == nil,
        !catalog.allTables.contains(where: { $0.definition.indexes.contains { SQLName.same($0.name, name) } }),
        !["BINARY", "NOCASE", "RTRIM"].contains(name.uppercased())
      {
        throw EngineError.sqlite(1, "unable to identify the object to be reindexed")
      }
    case .transaction(let control):
      try run(control)
    }
    return StatementResult()
  }

  /// `CREATE VIEW`: refused when a table, view or index has the name, with SQLite's messages.
  /// The view's SELECT is only read (against the tables and views of the moment) when a
  /// statement reads the view.
  private func create(_ view: ViewDefinition, ifNotExists: Bool) throws {
    trace?("memory: create view \(view.name)")
    try SQLName.check(view.name)
    if let existing = catalog.table(view.name) {
      if ifNotExists { return }
      // A TEMP view may shadow a table in SQLite; this engine keeps one namespace.
      if view.isTemporary { throw EngineError.unsupported("a TEMP view named like a table") }
      throw EngineError.sqlite(1, "table \(existing.name) already exists")
    }
    if let existing = catalog.view(view.name) {
      if ifNotExists { return }
      throw EngineError.sqlite(1, "view \(existing.name) already exists")
    }
    if catalog.hasIndex(view.name) { throw EngineError.sqlite(1, "there is already an index named \(view.name)") }
    if view.name.lowercased().hasPrefix("sqlite_") {
      throw EngineError.sqlite(1, "object name reserved for internal use: \(view.name)")
    }
    catalog.add(view)
    log.record(.createdView(view))
    log.commitIfIdle()
  }

  /// `DROP VIEW`: only a view (a table is `use DROP TABLE`).
  private func drop(view name: String, ifExists: Bool) throws {
    trace?("memory: drop view \(name)")
    guard let view = catalog.view(name) else {
      if let table = catalog.table(name) { throw EngineError.sqlite(1, "use DROP TABLE to delete table \(table.name)") }
      if ifExists { return }
      throw EngineError.sqlite(1, "no such view: \(name)")
    }
    catalog.removeView(view.name)
    log.record(.droppedView(view))
    log.commitIfIdle()
  }

  /// What SQLite refuses to do to a view besides changing its rows (which the parser refuses):
  /// index it, or drop it as a table.
  private func refuseViewMisuse(_ statement: ParsedStatement) throws {
    switch statement {
    case .createIndex(let table, _, _):
      if catalog.view(table) != nil { throw EngineError.sqlite(1, "views may not be indexed") }
    case .dropTable(let name, _):
      if let view = catalog.view(name) { throw EngineError.sqlite(1, "use DROP VIEW to delete view \(view.name)") }
    default:
      break
    }
  }

  /// `INSERT … SELECT`: the select's rows inserted in the order it produces them, as one
  /// statement. SQLite inserts each row as the select produces it, so an error the select meets
  /// on a later row comes after any constraint error of the rows before it; the rows inserted
  /// before the select's error are undone. (When the select reads the table written, SQLite
  /// first reads all of it: then the select's error comes first.)
  private func insertRows(
    of select: SelectStatement, into insert: InsertStatement, _ parameters: [String: SqliteValue]
  ) throws -> StatementResult {
    let table = try catalog.requireTable(insert.table)
    let columns = insert.columns.isEmpty ? table.definition.columnNames : insert.columns
    if select.columns.count != columns.count {
      throw EngineError.sqlite(
        1,
        insert.columns.isEmpty
          ? "table \(table.name) has \(columns.count) columns but \(select.columns.count) values were supplied"
          : "\(select.columns.count) values for \(columns.count) columns")
    }
    var rows: [[SqliteValue]] = []
    var selectError: (any Error)?
    do {
      try self.select(select, parameters: parameters) { rows.append($0) }
    } catch {
      selectError = error
    }
    let readsTarget = Statement.select(select).tablesRead.contains { SQLName.same($0, insert.table) }
    if let selectError, readsTarget || rows.isEmpty { throw selectError }
    guard !rows.isEmpty else { return StatementResult() }
    guard let selectError else {
      return try self.insert(into: insert.table, columns: columns, values: rows, conflict: insert.conflict)
    }
    // The rows before the select's error go in (and may fail first); then all of them are undone.
    log.openSavepoint(Self.insertSelectSavepoint)
    do {
      _ = try self.insert(into: insert.table, columns: columns, values: rows, conflict: insert.conflict)
    } catch {
      try log.rollback(to: Self.insertSelectSavepoint, catalog: catalog)
      throw error
    }
    try log.rollback(to: Self.insertSelectSavepoint, catalog: catalog)
    throw selectError
  }

  /// The savepoint that undoes the rows of an `INSERT … SELECT` whose select failed.
  private static let insertSelectSavepoint = "\u{0}insert-select"

  /// BEGIN, COMMIT, ROLLBACK and savepoints written in SQL, with SQLite's errors. A transaction
  /// begun with BEGIN is an unnamed savepoint under the named ones, so releasing the outermost
  /// named savepoint does not commit it.
  private func run(_ control: TransactionControl) throws {
    switch control {
    case .begin:
      if log.inTransaction { throw EngineError.sqlite(1, "cannot start a transaction within a transaction") }
      log.openSavepoint(Self.beginSavepoint)
    case .commit:
      guard log.inTransaction else { throw EngineError.sqlite(1, "cannot commit - no transaction is active") }
      log.commitTransaction()
    case .rollback:
      guard log.inTransaction else { throw EngineError.sqlite(1, "cannot rollback - no transaction is active") }
      log.rollbackTransaction(catalog: catalog)
    case .savepoint(let name):
      try savepoint(name)
    case .release(let name):
      try release(name)
    case .rollbackTo(let name):
      try log.rollback(to: name, catalog: catalog, keepingOpen: true)
    }
  }

  /// The name of the savepoint BEGIN opens: SQL text cannot spell it (it holds a NUL).
  private static let beginSavepoint = "\u{0}begin"
}
