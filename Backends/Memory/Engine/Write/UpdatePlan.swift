import TandemCore

/// A compiled UPDATE, bound to no database (see ``SelectPlan``).
final class UpdatePlan: Sendable {
  /// The table's position in the catalog's creation order.
  let tablePosition: Int
  let assignments: AssignmentList
  let source: ScanSource
  let parameterNames: [String]
  /// The parameter names in placeholder order, for the missing-value check of later runs.
  let placeholderNames: [String]
  /// Assigned column positions (the alias included), for the foreign key checks.
  private let changed: Set<Int>
  private let assignsRowid: Bool
  /// Whether foreign key processing is needed (SQLite's `sqlite3FkRequired`).
  private let touchesKeys: Bool

  /// SQLite's `sqlite3FkRequired` for an UPDATE: a child key or a parent key column is assigned.
  static func touchesForeignKeys(_ table: TableStorage, changed: Set<Int>, catalog: Catalog) -> Bool {
    let definition = table.definition
    if definition.foreignKeys.contains(where: { changed.contains($0.column) }) { return true }
    return catalog.incomingForeignKeys(of: table).contains { reference in
      let wanted = NameKey(reference.key.parentColumn)
      return changed.contains { NameKey(definition.columnNames[$0]) == wanted }
    }
  }

  /// The column positions a SET list assigns, the rowid's alias included when it assigns the rowid.
  static func changedColumns(_ assignments: AssignmentList, definition: TableDefinition) -> Set<Int> {
    var changed = Set(assignments.columns.map(\.column))
    if assignments.rowid != nil, let alias = definition.rowidColumn { changed.insert(alias) }
    return changed
  }

  /// Compiles `statement` against `table`, found at `tablePosition` in `catalog`.
  init(_ written: UpdateStatement, table: TableStorage, tablePosition: Int, catalog: Catalog) throws {
    let statement = QualifiedNames.unqualified(written)
    self.tablePosition = tablePosition
    let definition = table.definition
    let compiler = ExpressionCompiler(table: definition)
    compiler.catalog = catalog
    compiler.expandsSubqueriesFirst = false
    // SQLite resolves the SET list before the WHERE clause.
    assignments = try AssignmentList(statement.assignments, table: definition, compiler: compiler)
    assignsRowid = assignments.rowid != nil
    let changed = Self.changedColumns(assignments, definition: definition)
    self.changed = changed
    touchesKeys = Self.touchesForeignKeys(table, changed: changed, catalog: catalog)

    // SQLite changes rows as it finds them unless foreign keys, or a new rowid, are involved.
    var request = WherePlan.Request()
    request.loops.wantsOnePass = true
    request.onePass = touchesKeys || assignsRowid ? .singleRow : .multiRow(allowsMultiOr: false)
    for column in ColumnUsage.columns(in: statement.filter.map { [$0] } ?? [], table: definition) {
      request.loops.columnsUsed |= TableStatistics.usedBit(column)
      request.loops.exactColumnsUsed.insert(column)
    }
    try compiler.resolveWholeClause(statement.filter)
    source = try ScanSource(filter: statement.filter, table: definition, request: request, compiler: compiler)
    try compiler.throwPendingRefusal()
    try SubqueryDrivenLookup.refuseFallible(statement.filter, singleTable: definition)
    parameterNames = compiler.parameterNames
    placeholderNames = StatementValidation.placeholderNames(.update(statement))
  }

  /// Runs the UPDATE. Like SQLite, it changes each row as the scan finds it when it can (the
  /// scan then sees the rows as they are at that moment); otherwise — foreign keys, a new
  /// rowid, or an index walk over columns the UPDATE changes — it first collects the rows the
  /// WHERE clause selects, then updates them in rowid order. Which rows are visited, and in
  /// which order, decides which error a failing statement reports.
  func run(_ parameters: [String: SqliteValue], table: TableStorage, session: WriteSession) throws {
    try ForeignKeyValidation.forUpdate(table, changed: changed, rowidChanged: assignsRowid, catalog: session.catalog)
    let bound = try ExpressionCompiler.bind(parameterNames, parameters)
    let definition = table.definition
    // Every error an UPDATE can raise after writing a row (a function call, a rowid that is not an
    // integer, a constraint) makes SQLite open a statement journal whenever several rows may change.
    session.usesStatementJournal = true
    try bound.withUnsafeBufferPointer { buffer in
      var context = EvaluationContext()
      context.parameters = buffer.baseAddress
      let scan = try source.scan(context)
      var onePass = scan.plan.onePass
      if onePass == .multi, let index = scan.plan.loop.index,
        definition.indexes[index].columns.contains(where: changed.contains)
      {
        onePass = .off
      }
      if onePass == .off {
        var rowids = Set<Int64>()
        try scan.forEachRow(in: table, context) { row in
          rowids.insert(row.rowid)
          return .next
        }
        for rowid in rowids.sorted() {
          guard let old = table.data.row(rowid) else { continue }
          try update(old, rowid: rowid, table: table, context, session: session)
        }
        return
      }
      try scan.forEachRow(in: table, context) { row in
        let old = Array(UnsafeBufferPointer(start: row.row, count: definition.columnCount))
        try update(old, rowid: row.rowid, table: table, context, session: session)
        return .next
      }
    }
  }

  /// The plan's EXPLAIN QUERY PLAN lines, for a table named `table`.
  func queryPlan(_ parameters: [String: SqliteValue], table: String) throws -> [String] {
    let bound = try ExpressionCompiler.bind(parameterNames, parameters)
    return try bound.withUnsafeBufferPointer { buffer in
      var context = EvaluationContext()
      context.parameters = buffer.baseAddress
      return try source.scan(context).plan.explanation(tableName: table)
    }
  }

  private func update(
    _ old: [SqliteValue], rowid: Int64, table: TableStorage, _ context: EvaluationContext, session: WriteSession
  ) throws {
    let update = try old.withUnsafeBufferPointer { row in
      var rowContext = context
      rowContext.row = row.baseAddress
      rowContext.rowid = rowid
      return try assignments.apply(to: old, rowid: rowid, table: table.definition, rowContext)
    }
    try session.updateRow(
      table, rowid, newRowid: update.rowid, values: update.values, changed: update.changed, assignsRowid: assignsRowid)
    session.changes += 1
  }
}
