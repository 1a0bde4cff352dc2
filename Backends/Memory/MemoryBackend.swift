import Foundation
@_spi(TandemBackend) import TandemCore

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
public final class MemoryBackend: DatabaseBackend, QueryPlanDescribing {
  /// `"memory"`.
  public let name = EngineError.backendName

  let catalog = Catalog()
  let log = UndoLog()
  let plans = PlanCache()
  /// The state of the statement being written, reset for each one.
  private lazy var session = WriteSession(catalog: catalog, log: log)
  /// The statement trace (``setTrace(_:)``), read by every statement under the database's lock:
  /// the runtime's exclusivity check is left out.
  @exclusivity(unchecked) private(set) var trace: (@Sendable (String) -> Void)?
  /// The array the last select streamed its rows through, emptied, kept so that a query run
  /// again (a lookup) allocates no row array.
  private var spareRow: [SqliteValue] = []

  /// An empty database.
  public init() {}

  /// The fingerprint of this database's table schemas (see ``SchemaRegistry``): databases with
  /// equal fingerprints share compiled plans.
  var schemaFingerprint: Int { catalog.fingerprint }

  /// Creates a table and its indexes, refusing what SQLite refuses with SQLite's errors (see
  /// ``TableSchema/checkCreation(ifNotExists:tableExists:indexExists:)``).
  public func create(_ schema: TableSchema, ifNotExists: Bool) throws {
    trace?("memory: create table \(schema.name)" + (ifNotExists ? " if not exists" : ""))
    if let view = catalog.view(schema.name) {
      if ifNotExists { return }
      throw EngineError.sqlite(1, "view \(view.name) already exists")
    }
    let indexes = try schema.checkCreation(
      ifNotExists: ifNotExists, tableExists: { catalog.table($0) != nil }, indexExists: { catalog.hasIndex($0) })
    guard let indexes else {
      // The table exists; SQLite would still add the schema's missing indexes to it.
      let missing = schema.indexes.map { $0.name(in: schema.name) }.filter { !catalog.hasIndex($0) }
      if !missing.isEmpty {
        throw EngineError.unsupported("adding the indexes \(missing.joined(separator: ", ")) to an existing table")
      }
      return
    }
    var created = schema
    created.indexes = indexes  // without those IF NOT EXISTS skipped, as in SQLite
    let definition = SchemaRegistry.definition(for: created)
    let table = TableStorage(definition: definition)
    catalog.add(table)
    log.record(.createdTable(table))
    log.commitIfIdle()
  }

  /// Drops a table and its indexes. When other tables reference it, SQLite first deletes its rows
  /// (running ON DELETE actions) and refuses the drop if that violates a foreign key.
  public func drop(table name: String, ifExists: Bool) throws {
    trace?("memory: drop table \(name)" + (ifExists ? " if exists" : ""))
    try SQLName.check(name)
    guard let table = catalog.table(name) else {
      if ifExists { return }
      throw EngineError.noSuchTable(name)
    }
    do {
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
    } catch let error as TandemError {
      throw named(error, .dropTable, table: name)
    }
  }

  /// Runs one statement, handing a select's rows to `body` as they are found. A prepared select
  /// run again under the same schema finds its plan by identity and binds its values by
  /// position; an insert of plain rows binds them without an expression per value.
  ///
  /// For an INSERT, `lastInsertRowid` is the rowid of the last row it inserted (0 when it inserted
  /// none); `changes` counts the rows the statement itself inserted, updated or deleted, as
  /// `sqlite3_changes` does.
  @_spi(TandemBackend) public func run(
    _ statement: PreparedStatement, _ bindings: StatementBindings, onRestart: (() -> Void)?,
    eachRow body: ([SqliteValue]) throws -> Void
  ) throws -> StatementResult {
    // Rows are handed out once, in order: this engine orders them before the first goes out.
    switch bindings {
    case .rows(let rows):
      let insert = try statement.insertTakingRows()
      return try insertRows(into: insert.table, columns: insert.columns, values: rows, conflict: insert.conflict)
    case .flattenedRows(let values):
      let insert = try statement.insertTakingRows()
      return try insertRows(
        into: insert.table, columns: insert.columns, values: try values.rows(of: insert.columns.count),
        conflict: insert.conflict)
    case .positional where statement.kind == .select, .named where statement.kind == .select:
      try selectRows(prepared: statement, bindings, eachRow: body)
      return StatementResult()
    case .named, .positional:
      return try executeStatement(statement.statement, parameters: statement.parameters(bindings))
    }
  }

  /// Runs one statement, collecting a select's rows.
  private func executeStatement(_ statement: Statement, parameters: [String: SqliteValue]) throws -> StatementResult {
    let description = trace.map { trace in
      let text = StatementDescription.describe(statement)
      trace(text)
      return text
    }
    do {
      switch statement {
      case .select(let select):
        var rows: [[SqliteValue]] = []
        try selectRows(select, parameters: parameters) { rows.append($0) }
        return StatementResult(rows: rows)
      case .insert(let insert):
        try checkShape(statement, parameters)
        let shape = InsertPlan.Shape(table: insert.table, columns: insert.columns, conflict: insert.conflict, firstRow: insert.rows.first)
        let plan = try plans.insert(shape, rows: insert.rows, catalog: catalog)
        let table = try storage(of: plan.tablePosition, named: insert.table)
        try FactoredConstants.refuseFailing(FactoredConstants.candidates(in: statement), parameters: parameters)
        let result = try write { session in try plan.run(insert, parameters, table: table, session: session) }
        return StatementResult(lastInsertRowid: result.lastInsertRowid, changes: result.changes)
      case .update, .delete:
        var changedByActions: Set<NameKey> = []
        if statement.isRelational {
          try Self.refusePlanDependentWrite(statement, catalog: catalog)
          changedByActions = Self.tablesForeignKeyActionsMayChange(statement, catalog: catalog)
        }
        return try RelationalSelect.$tablesWriteActionsChange.withValue(changedByActions) {
          let plan: any WritePlan
          if let cached = plans.cachedWrite(statement, catalog: catalog) {
            try StatementValidation.checkParameters(cached.placeholderNames, parameters)
            plan = cached
          } else {
            try checkShape(statement, parameters)
            plan = try plans.write(statement, catalog: catalog)
          }
          let table = try storage(of: plan.tablePosition, named: statement.table)
          try FactoredConstants.refuseFailing(FactoredConstants.candidates(in: statement), parameters: parameters)
          return StatementResult(
            changes: try write { session in try plan.run(parameters, table: table, session: session) }.changes)
        }
      }
    } catch let error as TandemError {
      throw named(error, FailedWrite.Kind(statement), table: statement.table)
        .with(statement: description ?? StatementDescription.describe(statement))
    }
  }

  /// Inserts rows of plain values: exactly what ``execute(_:parameters:)`` does for an
  /// ``InsertStatement`` whose rows are these values as literals (same rows, errors,
  /// `lastInsertRowid` and `changes`; a failure changes nothing), without building an
  /// expression per value.
  private func insertRows(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    let description = trace.map { trace in
      let text = Self.describeInsert(into: table, columns: columns, values: values, conflict: conflict)
      trace(text)
      return text
    }
    do {
      let shape = InsertPlan.Shape(table: table, columns: columns, conflict: conflict, firstRow: values.first)
      let plan: InsertPlan
      if let cached = plans.cachedInsert(shape, catalog: catalog) {
        // The same shape as the last insert: only its rows remain to be checked.
        try StatementValidation.checkInsertRows(values, columnCount: columns.count)
        plan = cached
      } else {
        try StatementValidation.checkInsert(into: table, columns: columns, values: values, conflict: conflict) {
          rowidAvailable(table)
        }
        plan = try plans.insert(shape, rows: [], catalog: catalog)
      }
      let storage = try storage(of: plan.tablePosition, named: table)
      let result = try write { session in try plan.run(values: values, table: storage, session: session) }
      return StatementResult(lastInsertRowid: result.lastInsertRowid, changes: result.changes)
    } catch let error as TandemError {
      throw named(error, .insert(conflict), table: table).with(
        statement: description ?? Self.describeInsert(into: table, columns: columns, values: values, conflict: conflict))
    }
  }

  /// The description of the statement equivalent to an insert of values: its rows as literals
  /// (built only for a trace or an error).
  private static func describeInsert(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution
  ) -> String {
    StatementDescription.describe(
      .insert(
        InsertStatement(table: table, columns: columns, rows: values.map { $0.map(SQLExpression.literal) }, conflict: conflict)))
  }

  /// A foreign key or rowid datatype error with the table and columns ``FailedWrite``'s rule
  /// gives, as the SQLite backend names it; any other error as it is.
  private func named(_ error: TandemError, _ kind: FailedWrite.Kind?, table: String) -> TandemError {
    guard let kind, FailedWrite.needsNaming(error, kind),
      let write = FailedWrite(kind: kind, table: table, schemas: catalog.allTables.map(\.definition.schema))
    else { return error }
    return write.name(error)
  }

  /// The storage of the table a plan was compiled for (its position in creation order, which
  /// the schema fingerprint fixes).
  private func storage(of position: Int, named name: @autoclosure () -> String) throws -> TableStorage {
    guard let table = catalog.table(at: position) else { throw EngineError.noSuchTable(name()) }
    return table
  }

  /// Runs a select and hands its rows to `body` as they are found: the rows
  /// ``execute(_:parameters:)`` returns, in one array overwritten for each row when the result
  /// columns are stored columns. Errors thrown by `body` are rethrown as they are.
  private func selectRows(
    _ statement: SelectStatement, parameters: [String: SqliteValue], eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    let description = trace.map { trace in
      let text = StatementDescription.describe(.select(statement))
      trace(text)
      return text
    }
    if !SelectPlan.runs(statement) {
      do {
        return try runRelational(statement, parameters, body)
      } catch let error as TandemError {
        throw error.with(statement: description ?? StatementDescription.describe(.select(statement)))
      }
    }
    let plan: SelectPlan
    do {
      plan = try selectPlan(statement, parameters)
    } catch let error as TandemError {
      throw error.with(statement: description ?? StatementDescription.describe(.select(statement)))
    }
    try run(plan, statement, .byName(parameters), description: description, eachRow: body)
  }

  /// Runs a prepared select: exactly ``select(_:parameters:eachRow:)`` on its statement with its
  /// values by name, but a query run again under the same schema finds its plan by identity,
  /// without comparing statements, and binds its values by position.
  private func selectRows(
    prepared query: PreparedStatement, _ bindings: StatementBindings, eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    let values: [SqliteValue]?
    switch bindings {
    case .positional(let positional):
      try query.checkCount(of: positional)
      values = positional
    default:
      values = nil
    }
    guard query.kind == .select else {
      throw TandemError.misuse("a prepared statement that is not a select reached the select path")
    }
    // Read out of the query only where needed: copying it retains every part of it.
    func selectStatement() -> SelectStatement {
      if case .select(let statement) = query.statement { return statement }
      return SelectStatement(table: "", columns: [])
    }
    // Only a one-table plan is remembered: one found needs no look at the statement's shape.
    let cached = plans.cachedPrepared(query, catalog: catalog)
    if let cached {
      let description = trace.map { trace in
        let text = StatementDescription.describe(query.statement)
        trace(text)
        return text
      }
      let binding: SelectPlan.ParameterBinding =
        if let values, let slots = cached.slots { .bySlot(values, slots) } else { .byName(try query.parameters(bindings)) }
      return try run(cached.plan, selectStatement(), binding, description: description, eachRow: body)
    }
    let statement = selectStatement()
    if statement.isRelational {
      return try selectRows(statement, parameters: try query.parameters(bindings), eachRow: body)
    }
    let description = trace.map { trace in
      let text = StatementDescription.describe(.select(statement))
      trace(text)
      return text
    }
    let prepared: PlanCache.PreparedPlan
    do {
      prepared = plans.rememberPrepared(query, plan: try selectPlan(statement, query.parameters(bindings)), catalog: catalog)
    } catch let error as TandemError {
      throw error.with(statement: description ?? StatementDescription.describe(.select(statement)))
    }
    let binding: SelectPlan.ParameterBinding =
      if let values, let slots = prepared.slots { .bySlot(values, slots) } else { .byName(try query.parameters(bindings)) }
    try run(prepared.plan, statement, binding, description: description, eachRow: body)
  }

  /// Runs a select's plan on its table, handing each row to `body`: the engine's errors name the
  /// statement, errors thrown by `body` are rethrown as they are.
  ///
  /// `statement` is read only for an error: a prepared query run again is not copied out of its
  /// ``PreparedStatement``.
  private func run(
    _ plan: SelectPlan, _ statement: @autoclosure () -> SelectStatement, _ binding: SelectPlan.ParameterBinding,
    description: String?, eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    var bodyError: (any Error)?
    // The row array of the last run, taken (a select run from inside `body` makes its own).
    var row = spareRow
    spareRow = []
    defer { spareRow = row }
    do {
      let table = try storage(of: plan.tablePosition, named: statement().table)
      if !plan.factoredConstants.isEmpty {
        try FactoredConstants.refuseFailing(plan.factoredConstants, parameters: binding.values(named: plan.parameterNames))
      }
      try plan.run(binding, table: table, reusing: &row) { row in
        do {
          try body(row)
        } catch {
          bodyError = error
          throw StoppedByCaller()
        }
      }
    } catch let error as TandemError {
      throw error.with(statement: description ?? StatementDescription.describe(.select(statement())))
    } catch is StoppedByCaller {
      if let bodyError { throw bodyError }
    }
  }

  /// Marks the end of a select that the caller's row closure stopped by throwing.
  private struct StoppedByCaller: Error {}

  /// Runs a select that joins tables or holds subqueries: compiled against this database's
  /// tables (see ``RelationalSelect``), or run on the plan kept from an earlier run of the same
  /// join (``PlanCache/RelationalPlan``, its compared literals lifted out as parameters), its rows
  /// handed to `body` as they come.
  private func runRelational(
    _ written: SelectStatement, _ parameters: [String: SqliteValue], _ body: ([SqliteValue]) throws -> Void
  ) throws {
    var statement = written
    var parameters = parameters
    let keepsPlan = plans.mayKeepPlan(of: written)
    if keepsPlan {
      let lifted = LiftedLiterals(written)
      statement = lifted.statement
      for (name, value) in lifted.values { parameters[name] = value }
    }
    let select: any RowSource
    let factoredConstants: [SQLExpression]
    if keepsPlan, let cached = plans.cachedRelational(statement, catalog: catalog) {
      // Compiled under this schema and this content: its shape checks passed, but for the values.
      try StatementValidation.checkParameters(cached.placeholderNames, parameters)
      select = cached.select
      factoredConstants = cached.factoredConstants
    } else {
      try checkShape(.select(statement), parameters)
      select = try RelationalQuery.compile(
        statement, catalog: catalog, outer: nil, prefix: .none, parameterNames: [], commonTables: nil)
      factoredConstants = FactoredConstants.candidates(in: .select(statement))
      if keepsPlan { plans.rememberRelational(statement, select, catalog: catalog) }
    }
    // Without ORDER BY, over a table SQLite may read through an index that covers it or over a
    // common table whose rows come in its plan's order (``CommonTable/rowsComeInPlanOrder``), the
    // rows come in an order this engine does not follow (an aggregate's groups come in the order
    // of their keys). SQL text fetched with `rowOrder: .unordered` takes them in any order, unless
    // LIMIT or OFFSET keeps some of them.
    if select.mayComeInPlanOrder, !statement.isAggregate,
      SQLTextMode.current?.rowOrderIsFree != true || statement.limit != nil || statement.offset != nil
    {
      throw EngineError.unsupported(
        "rows without ORDER BY from a table SQLite may read in an index's order, or from a common table made of a "
          + "join (SQLite may read them in that order, or in its plan's); add ORDER BY")
    }
    try FactoredConstants.refuseFailing(factoredConstants, parameters: parameters)
    var values: [SqliteValue] = []
    for name in select.parameterNames {
      guard let value = parameters[name] else { throw TandemError.misuse("missing value for parameter :\(name)") }
      values.append(ValueOperations.bound(value))
    }
    try values.withUnsafeBufferPointer { bound in
      var context = EvaluationContext()
      context.parameters = bound.baseAddress
      var bodyError: (any Error)?
      do {
        try select.forEachRow(context) { row in
          do {
            try body(row)
          } catch {
            bodyError = error
            throw StoppedByCaller()
          }
          return true
        }
      } catch is StoppedByCaller {
        if let bodyError { throw bodyError }
      }
    }
  }

  /// Refuses an UPDATE or DELETE whose subqueries read the table it writes (SQLite then decides
  /// by its plan whether they see rows already changed), or that holds an expression that can
  /// fail beside a subquery (SQLite codes terms with a correlated subquery last, so which rows
  /// the failing expression meets depends on its plan).
  private static func refusePlanDependentWrite(_ statement: Statement, catalog: Catalog) throws {
    // abs() is let through where the written table's data proves it cannot fail.
    var check = catalog.table(statement.table).map { table in
      AbsOverflowCheck(
        scope: SourceScope(sources: [(table.name, table.definition)], parent: nil), catalog: catalog, resultColumns: [])
    }
    switch statement {
    case .update(let update):
      try RelationalSelect.refuseFallible(update.assignments.map(\.value) + (update.filter.map { [$0] } ?? []), check: &check)
    case .delete(let delete): try RelationalSelect.refuseFallible(delete.filter.map { [$0] } ?? [], check: &check)
    case .select, .insert: break
    }
    let target = NameKey(statement.table)
    for query in statement.directSubqueries where Statement.select(query).tablesRead.contains(where: { NameKey($0) == target }) {
      throw EngineError.unsupported(
        "a subquery reading \(statement.table) in an UPDATE or DELETE of \(statement.table) (what it sees depends on SQLite's plan)")
    }
  }

  /// The tables whose rows the foreign key actions of an UPDATE or DELETE may change, following
  /// SQLite's actions: a DELETE runs its children's ON DELETE actions, an UPDATE the ON UPDATE
  /// actions of the keys it assigns; a CASCADE of a delete deletes the child row, any other action
  /// (SET NULL, SET DEFAULT, a CASCADE of an update) assigns its child column, and so on from
  /// there. A subquery of the statement may not read such a table through an automatic index
  /// (``RelationalSelect/tablesWriteActionsChange``).
  private static func tablesForeignKeyActionsMayChange(_ statement: Statement, catalog: Catalog) -> Set<NameKey> {
    // A change to a table: a deletion (`columns` nil) or an assignment of `columns`.
    struct Change: Hashable {
      let table: ObjectIdentifier
      let columns: Set<NameKey>?
    }
    let target: TableStorage
    let assigned: Set<NameKey>?
    switch statement {
    case .update(let update):
      guard let table = catalog.table(update.table) else { return [] }
      (target, assigned) = (table, Set(update.assignments.map { NameKey($0.column) }))
    case .delete(let delete):
      guard let table = catalog.table(delete.table) else { return [] }
      (target, assigned) = (table, nil)
    case .select, .insert: return []
    }
    var changed = Set<NameKey>()
    var seen: Set<Change> = [Change(table: ObjectIdentifier(target), columns: assigned)]
    var pending = [(target, assigned)]
    while let (parent, columns) = pending.popLast() {
      for incoming in catalog.incomingForeignKeys(of: parent) {
        let key = incoming.key
        // An assigned rowid may be the parent key's alias.
        if let columns, !columns.contains(NameKey(key.parentColumn)), !columns.contains(where: \.isRowidName) {
          continue
        }
        let action = key.action(columns == nil ? .delete : .update)
        guard action != .noAction && action != .restrict else { continue }
        let child = incoming.child
        let next: Set<NameKey>? =
          columns == nil && action == .cascade ? nil : [NameKey(child.definition.columnNames[key.column])]
        changed.insert(NameKey(child.definition.name))
        if seen.insert(Change(table: ObjectIdentifier(child), columns: next)).inserted { pending.append((child, next)) }
      }
    }
    return changed
  }

  /// The compiled plan of a select: cached (its shape was checked when it was compiled; the run
  /// checks the parameters first) or compiled after the shape checks.
  private func selectPlan(_ select: SelectStatement, _ parameters: [String: SqliteValue]) throws -> SelectPlan {
    if let cached = plans.cachedSelect(select, catalog: catalog) { return cached }
    try checkShape(.select(select), parameters)
    return try plans.select(select, catalog: catalog)
  }

  /// The checks the SQLite backend makes while rendering (misuse errors, missing parameters).
  private func checkShape(_ statement: Statement, _ parameters: [String: SqliteValue]) throws {
    try StatementValidation.check(statement, parameters: parameters) { rowidAvailable(statement.table) }
  }

  /// Whether the table's rowid has a name not taken by a column (unknown tables: yes).
  private func rowidAvailable(_ table: String) -> Bool {
    guard let definition = catalog.table(table)?.definition else { return true }
    return !["rowid", "_rowid_", "oid"].allSatisfy(definition.shadowsRowid)
  }

  /// How the engine runs a statement, in the words of SQLite's `EXPLAIN QUERY PLAN`: the loop
  /// it chose as SQLite would choose it, and the sorter an ORDER BY needs.
  public func queryPlan(for statement: Statement, parameters: [String: SqliteValue]) throws -> [String] {
    switch statement {
    case .select(let select) where !SelectPlan.runs(select):
      // The loops a relational query runs are not SQLite's plan: there is nothing to compare.
      return []
    case .select(let select):
      return try selectPlan(select, parameters).queryPlan(parameters, table: select.alias ?? select.table)
    case .insert:
      return []
    case .update, .delete:
      if statement.isRelational { return [] }
      try checkShape(statement, parameters)
      let plan = try plans.cachedWrite(statement, catalog: catalog) ?? plans.write(statement, catalog: catalog)
      return try plan.queryPlan(parameters, table: statement.table)
    }
  }

  /// Opens a savepoint; the outermost one begins the transaction.
  public func savepoint(_ name: String) throws {
    trace?("memory: savepoint \(name)")
    try SQLName.check(name)
    log.openSavepoint(name)
  }

  /// Releases a savepoint (and those opened after it); releasing the outermost commits.
  public func release(_ name: String) throws {
    trace?("memory: release \(name)")
    try SQLName.check(name)
    try log.release(name)
  }

  /// Whether a savepoint (and so a transaction) is open.
  public var isInTransaction: Bool { log.inTransaction }

  /// Rolls back to a savepoint and releases it: rows, indexes, AUTOINCREMENT counters and
  /// tables return to their state when it was opened.
  public func rollback(to name: String) throws {
    trace?("memory: rollback to \(name)")
    try SQLName.check(name)
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
    let session = self.session
    session.reset()
    let mark = log.mark()
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
    if checksInvariants { try checkInvariants() }
    return StatementResult(rows: [], lastInsertRowid: session.lastInsertRowid, changes: session.changes)
  }

  /// Whether every write then checks each table's storage: the rows in rowid order, each index
  /// in key order with exactly one entry per row. A full pass over every table, so it is off
  /// unless `TANDEM_MEMORY_CHECKS=1` is set; the differential fuzzer turns it on.
  ///
  /// ```swift
  /// let backend = MemoryBackend()
  /// backend.checksInvariants = true
  /// let db = Database(backend: backend)
  /// ```
  public var checksInvariants = MemoryBackend.checksInvariantsByDefault

  /// `TANDEM_MEMORY_CHECKS=1` in the environment turns the checks on for every new database.
  static let checksInvariantsByDefault = ProcessInfo.processInfo.environment["TANDEM_MEMORY_CHECKS"] == "1"

  /// Throws a misuse error naming the table and the first disagreement between its rows and indexes.
  func checkInvariants() throws {
    for table in catalog.allTables {
      if let problem = table.data.invariantViolation() {
        throw TandemError.misuse("memory engine invariant broken in table \(table.name): \(problem)")
      }
    }
  }
}
