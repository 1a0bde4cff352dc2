import TandemCore

/// A compiled UPDATE, bound to no database (see ``SelectPlan``).
final class UpdatePlan: Sendable {
  /// The table's position in the catalog's creation order.
  let tablePosition: Int
  let assignments: AssignmentList
  let filter: FilterPlan
  let parameterNames: [String]
  /// The parameter names in placeholder order, for the missing-value check of later runs.
  let placeholderNames: [String]
  /// Assigned column positions (the alias included), for the foreign key checks.
  private let changed: Set<Int>
  private let assignsRowid: Bool

  /// SQLite's `sqlite3FkRequired` for an UPDATE: a child key or a parent key column is assigned.
  private static func touchesForeignKeys(_ table: TableStorage, changed: Set<Int>, catalog: Catalog) -> Bool {
    let definition = table.definition
    if definition.foreignKeys.contains(where: { changed.contains($0.column) }) { return true }
    return catalog.incomingForeignKeys(of: table).contains { reference in
      let wanted = NameKey(reference.key.parentColumn)
      return changed.contains { NameKey(definition.columnNames[$0]) == wanted }
    }
  }

  /// Compiles `statement` against the table `definition`, found at `tablePosition`.
  init(_ statement: UpdateStatement, definition: TableDefinition, tablePosition: Int) throws {
    self.tablePosition = tablePosition
    let compiler = ExpressionCompiler(table: definition)
    // SQLite resolves the SET list before the WHERE clause.
    assignments = try AssignmentList(statement.assignments, table: definition, compiler: compiler)
    filter = try FilterPlan(statement.filter, compiler: compiler)
    parameterNames = compiler.parameterNames
    placeholderNames = StatementShape.placeholderNames(.update(statement))
    assignsRowid = assignments.rowid != nil
    var changed = Set(assignments.columns.map(\.column))
    if assignsRowid, let alias = definition.rowidColumn { changed.insert(alias) }
    self.changed = changed
  }

  /// Runs the UPDATE, row by row in rowid order, each row checked against the rows as they are at
  /// that moment (SQLite's row-by-row checks). Like SQLite, it first collects the matching rows
  /// when the rowid or a foreign key changes (two passes); otherwise it tests and updates each
  /// row in turn (one pass), which decides which error a failing statement reports.
  func run(_ parameters: [String: SqliteValue], table: TableStorage, session: WriteSession) throws {
    try ForeignKeyValidation.forUpdate(table, changed: changed, rowidChanged: assignsRowid, catalog: session.catalog)
    let bound = try ExpressionCompiler.bind(parameterNames, parameters)
    let definition = table.definition
    let touchesKeys = Self.touchesForeignKeys(table, changed: changed, catalog: session.catalog)
    let twoPass = assignsRowid || touchesKeys
    // Every error an UPDATE can raise after writing a row (a function call, a rowid that is not an
    // integer, a constraint) makes SQLite open a statement journal whenever several rows may change.
    session.usesStatementJournal = true
    try bound.withUnsafeBufferPointer { buffer in
      var context = EvaluationContext()
      context.parameters = buffer.baseAddress
      guard try filter.constantsHold(context) else { return }
      let rowids =
        twoPass
        ? try filter.matchingRowids(in: table, context) : try filter.candidateRowids(in: table, context)
      for rowid in rowids {
        if !twoPass, try !filter.passes(rowid, in: table, context) { continue }
        guard let old = table.data.row(rowid) else { continue }
        let update = try old.withUnsafeBufferPointer { row in
          var rowContext = context
          rowContext.row = row.baseAddress
          rowContext.rowid = rowid
          return try assignments.apply(to: old, rowid: rowid, table: definition, rowContext)
        }
        try session.updateRow(table, rowid, newRowid: update.rowid, values: update.values, changed: update.changed)
        session.changes += 1
      }
    }
  }
}
