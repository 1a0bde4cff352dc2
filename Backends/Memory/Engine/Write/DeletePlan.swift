import TandemCore

/// A compiled DELETE.
final class DeletePlan {
  let table: TableStorage
  let filter: FilterPlan
  let parameterNames: [String]
  /// The parameter names in placeholder order, for the missing-value check of later runs.
  var placeholderNames: [String] = []
  /// Whether the WHERE clause calls a function (which SQLite counts as a possible abort).
  private let callsFunction: Bool

  init(_ statement: DeleteStatement, table: TableStorage) throws {
    self.table = table
    let compiler = ExpressionCompiler(table: table.definition)
    filter = try FilterPlan(statement.filter, compiler: compiler)
    parameterNames = compiler.parameterNames
    callsFunction = statement.filter.map(StatementJournal.callsFunction) ?? false
  }

  /// Runs the DELETE in rowid order; rows removed by foreign key actions are not counted.
  func run(_ parameters: [String: SqliteValue], session: WriteSession) throws {
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
