import TandemCore

/// SQLite's constraint checks for a row about to be written (`sqlite3GenerateConstraintChecks`):
/// NOT NULL in column order, then the rowid, then the unique constraints (last declared first).
enum ConstraintCheck {
  /// One uniqueness check: the rowid or a unique constraint.
  enum Target: Equatable {
    case rowid
    case constraint(Int)
  }

  /// What to do when a check finds a conflicting row.
  enum Resolution {
    case abort, ignore, replace, update
  }

  /// What to do with a NULL in a NOT NULL column.
  enum NotNullResolution {
    case abort, ignore, replace
  }

  /// The error for a rowid conflict: `UNIQUE constraint failed: t.id` (or `t.rowid`).
  static func rowidConflict(_ definition: TableDefinition) -> TandemError {
    let column = definition.rowidColumn.map { definition.columnNames[$0] } ?? "rowid"
    return EngineError.unique(table: definition.name, columns: [column], primaryKey: true)
  }

  /// The error for a unique constraint conflict.
  static func uniqueConflict(_ definition: TableDefinition, _ constraint: Int) -> TandemError {
    let unique = definition.uniqueConstraints[constraint]
    return EngineError.unique(table: definition.name, columns: unique.columnNames, primaryKey: unique.isPrimaryKey)
  }

  /// The first NOT NULL column holding NULL, if any.
  static func firstNullViolation(_ definition: TableDefinition, _ values: [SqliteValue]) -> Int? {
    let notNull = definition.notNull
    var column = 0
    while column < notNull.count {
      if notNull[column], case .null = values[column] { return column }
      column += 1
    }
    return nil
  }

  /// The row (other than `selfRowid`) a check conflicts with, if any.
  static func conflict(
    _ target: Target, in table: TableStorage, rowid: Int64, values: [SqliteValue], selfRowid: Int64?
  ) -> Int64? {
    switch target {
    case .rowid:
      return rowid != selfRowid && table.data.contains(rowid) ? rowid : nil
    case .constraint(let index):
      guard let owner = table.data.owner(of: values, inConstraint: index), owner != selfRowid else { return nil }
      return owner
    }
  }

  /// The checks of an UPDATE of one row: NOT NULL, then the new rowid if it changed, then the
  /// unique constraints whose columns changed; every conflict aborts.
  static func checkUpdate(
    _ table: TableStorage, rowid: Int64, newRowid: Int64, values: [SqliteValue], changed: Set<Int>
  ) throws {
    let definition = table.definition
    if let column = firstNullViolation(definition, values) {
      throw EngineError.notNull(table: definition.name, column: definition.columnNames[column])
    }
    let rowidChanged = newRowid != rowid
    if rowidChanged, conflict(.rowid, in: table, rowid: newRowid, values: values, selfRowid: rowid) != nil {
      throw rowidConflict(definition)
    }
    for (index, constraint) in definition.uniqueConstraints.enumerated()
    where rowidChanged || constraint.columns.contains(where: changed.contains) {
      if conflict(.constraint(index), in: table, rowid: newRowid, values: values, selfRowid: rowid) != nil {
        throw uniqueConflict(definition, index)
      }
    }
  }
}
