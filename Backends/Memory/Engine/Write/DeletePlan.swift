import TandemCore

/// A compiled DELETE, bound to no database (see ``SelectPlan``).
final class DeletePlan: Sendable {
  /// The table's position in the catalog's creation order.
  let tablePosition: Int
  let source: ScanSource
  let parameterNames: [String]
  /// The parameter names in placeholder order, for the missing-value check of later runs.
  let placeholderNames: [String]
  /// Whether the WHERE clause calls a function (which SQLite counts as a possible abort).
  private let callsFunction: Bool
  /// Whether foreign keys name the table (as child or parent): SQLite then collects the rows first.
  private let involvesForeignKeys: Bool
  /// Whether the statement deletes every row without a loop (SQLite's truncate: no WHERE, no
  /// foreign keys).
  private let truncates: Bool

  /// Compiles `statement` against `table`, found at `tablePosition` in `catalog`.
  init(_ written: DeleteStatement, table: TableStorage, tablePosition: Int, catalog: Catalog) throws {
    let statement = QualifiedNames.unqualified(written)
    self.tablePosition = tablePosition
    let definition = table.definition
    let compiler = ExpressionCompiler(table: definition)
    compiler.catalog = catalog
    compiler.expandsSubqueriesFirst = false
    involvesForeignKeys = catalog.hasForeignKeys(table)
    truncates = statement.filter == nil && !involvesForeignKeys
    var request = WherePlan.Request()
    request.loops.wantsOnePass = true
    request.onePass = involvesForeignKeys ? .singleRow : .multiRow(allowsMultiOr: true)
    for column in ColumnUsage.columns(in: statement.filter.map { [$0] } ?? [], table: definition) {
      request.loops.columnsUsed |= TableStatistics.usedBit(column)
      request.loops.exactColumnsUsed.insert(column)
    }
    try compiler.resolveWholeClause(statement.filter)
    // Rows a multi-index OR finds twice are tolerated (SQLite's WHERE_DUPLICATES_OK); rows
    // are removed while the scan walks their indexes.
    source = try ScanSource(
      filter: statement.filter, table: definition, request: request, compiler: compiler, skipsDuplicates: false,
      tracksChanges: true)
    try compiler.throwPendingRefusal()
    try SubqueryDrivenLookup.refuseFallible(statement.filter, singleTable: definition)
    parameterNames = compiler.parameterNames
    placeholderNames = StatementValidation.placeholderNames(.delete(statement))
    callsFunction = statement.filter.map(StatementJournal.callsFunction) ?? false
  }

  /// The plan's EXPLAIN QUERY PLAN lines, for a table named `table` (none for a truncation).
  func queryPlan(_ parameters: [String: SqliteValue], table: String) throws -> [String] {
    if truncates { return [] }
    let bound = try ExpressionCompiler.bind(parameterNames, parameters)
    return try bound.withUnsafeBufferPointer { buffer in
      var context = EvaluationContext()
      context.parameters = buffer.baseAddress
      return try source.scan(context).plan.explanation(tableName: table)
    }
  }

  /// Runs the DELETE: each row as the scan finds it, or — when foreign keys are involved — the
  /// rows collected first, then deleted in rowid order. Rows removed by foreign key actions are
  /// not counted.
  func run(_ parameters: [String: SqliteValue], table: TableStorage, session: WriteSession) throws {
    try ForeignKeyValidation.forDelete(table, catalog: session.catalog)
    // SQLite keeps a statement journal when the WHERE clause calls a function or foreign key
    // processing may abort the delete.
    session.usesStatementJournal =
      callsFunction || StatementJournal.deleteMayAbort(table, catalog: session.catalog)
    let bound = try ExpressionCompiler.bind(parameterNames, parameters)
    try bound.withUnsafeBufferPointer { buffer in
      var context = EvaluationContext()
      context.parameters = buffer.baseAddress
      let scan = try source.scan(context)
      if scan.plan.onePass == .off {
        var rowids = Set<Int64>()
        try scan.forEachRow(in: table, context) { row in
          rowids.insert(row.rowid)
          return .next
        }
        for rowid in rowids.sorted() where table.data.contains(rowid) {
          try session.deleteRow(table, rowid, depth: 0)
          session.changes += 1
        }
        return
      }
      try scan.forEachRow(in: table, context) { row in
        try session.deleteRow(table, row.rowid, depth: 0)
        session.changes += 1
        return .next
      }
    }
  }
}
