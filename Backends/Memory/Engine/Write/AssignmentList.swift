import TandemCore

/// The SET list of an UPDATE or upsert, resolved: for each column (or the rowid) the expression
/// that computes its new value. A column assigned twice takes the last assignment, as in SQLite.
struct AssignmentList: Sendable {
  /// The new rowid, if assigned (through the alias or a rowid name).
  let rowid: ValueEvaluator?
  /// Assigned columns in column order (the order SQLite evaluates them).
  let columns: [(column: Int, evaluate: ValueEvaluator)]

  /// Resolves and compiles assignments; unknown columns are `no such column` errors.
  init(_ assignments: [Assignment], table: TableDefinition, compiler: ExpressionCompiler) throws {
    var rowid: ValueEvaluator?
    var byColumn: [Int: ValueEvaluator] = [:]
    for assignment in assignments {
      let evaluate = try compiler.compile(assignment.value).evaluate
      if let index = table.columnIndex(assignment.column) {
        if index == table.rowidColumn { rowid = evaluate } else { byColumn[index] = evaluate }
      } else if NameKey(assignment.column).isRowidName {
        rowid = evaluate
      } else {
        throw EngineError.noSuchColumn(assignment.column)
      }
    }
    self.rowid = rowid
    columns = byColumn.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// The row after the assignments: new values (with affinity), new rowid and the columns
  /// assigned. `context` points at the old row.
  func apply(
    to old: [SqliteValue], rowid oldRowid: Int64, table: TableDefinition, _ context: EvaluationContext
  ) throws -> (values: [SqliteValue], rowid: Int64, changed: Set<Int>) {
    var values = old
    var changed = Set<Int>()
    var newRowid = oldRowid
    if let rowid {
      guard let integer = ValueOperations.mustBeInteger(try rowid(context)) else {
        throw EngineError.datatypeMismatch
      }
      newRowid = integer
      if let alias = table.rowidColumn {
        values[alias] = .integer(integer)
        changed.insert(alias)
      }
    }
    for (column, evaluate) in columns {
      values[column] = try evaluate(context).applyingStorageAffinity(table.affinities[column])
      changed.insert(column)
    }
    return (values, newRowid, changed)
  }
}
