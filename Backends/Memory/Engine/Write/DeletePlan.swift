import TandemCore

/// A compiled DELETE, bound to no database (see ``SelectPlan``).
final class DeletePlan: Sendable {
  /// The table's position in the catalog's creation order.
  let tablePosition: Int
  let filter: FilterPlan
  let parameterNames: [String]
  /// The parameter names in placeholder order, for the missing-value check of later runs.
  let placeholderNames: [String]
  /// Whether the WHERE clause calls a function (which SQLite counts as a possible abort).
  private let callsFunction: Bool

  /// Compiles `statement` against the table `definition`, found at `tablePosition`.
  init(_ statement: DeleteStatement, definition: TableDefinition, tablePosition: Int) throws {
    self.tablePosition = tablePosition
    let compiler = ExpressionCompiler(table: definition)
    filter = try FilterPlan(statement.filter, compiler: compiler)
    parameterNames = compiler.parameterNames
    placeholderNames = StatementShape.placeholderNames(.delete(statement))
    callsFunction = statement.filter.map(StatementJournal.callsFunction) ?? false
  }

  /// Runs the DELETE in rowid order; rows removed by foreign key actions are not counted.
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
      guard try filter.constantsHold(context) else { return }
      if session.catalog.hasForeignKeys(table) {
        // Two passes, as SQLite does when foreign keys are involved: rows first, then deletes.
        for rowid in try filter.matchingRowids(in: table, context) where table.data.contains(rowid) {
          try session.deleteRow(table, rowid, depth: 0)
          session.changes += 1
        }
        return
      }
      // One pass: each row is tested and deleted in turn.
      for rowid in try filter.candidateRowids(in: table, context) where try filter.passes(rowid, in: table, context) {
        try session.deleteRow(table, rowid, depth: 0)
        session.changes += 1
      }
    }
  }
}
