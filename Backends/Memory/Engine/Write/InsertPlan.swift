import TandemCore

/// A compiled INSERT shape (table, column list and conflict clause); the rows' values are read
/// per execution, literals and parameters directly, other expressions compiled once per call.
///
/// Bound to no database (see ``SelectPlan``): it depends only on the schema.
final class InsertPlan: Sendable {
  /// What identifies a reusable insert plan.
  struct Shape: Hashable, Sendable {
    let table: String
    let columns: [String]
    let conflict: InsertStatement.ConflictResolution
    /// Whether the rows hold no values (`DEFAULT VALUES`): SQLite then writes no rowid, where a
    /// row without a column list writes every column, the rowid alias included.
    let writesDefaultValues: Bool

    init(table: String, columns: [String], conflict: InsertStatement.ConflictResolution, firstRow: [some Any]?) {
      self.table = table
      self.columns = columns
      self.conflict = conflict
      writesDefaultValues = columns.isEmpty && firstRow?.isEmpty == true
    }
  }

  /// Where one value of the column list goes.
  enum Target: Equatable, Sendable {
    case column(Int)
    case rowid
    /// A repeated column: SQLite uses the first occurrence.
    case ignored
  }

  /// The table's position in the catalog's creation order.
  let tablePosition: Int
  /// The name the statement used for the table (SQLite's messages echo it).
  let writtenName: String
  /// One target per value of a row; `nil` when the statement names no columns.
  let targets: [Target]?
  /// Whether the values of a row are the table's columns in order, each once (the rowid alias
  /// at its own position): a row then needs no rearranging.
  let targetsAreColumns: Bool
  /// Whether some column is NOT NULL (else the check is skipped).
  let hasNotNull: Bool
  /// Defaults for every column, as stored before affinity.
  let defaults: [SqliteValue]
  let notNull: ConstraintCheck.NotNullResolution
  /// The uniqueness checks in the order SQLite runs them, each with its resolution.
  let checks: [(target: ConstraintCheck.Target, resolution: ConstraintCheck.Resolution)]
  /// The upsert's DO UPDATE assignments.
  let upsertAssignments: AssignmentList?
  /// Whether the DO UPDATE answers a rowid conflict (its `excluded` values then have no affinity).
  let upsertsOnRowid: Bool
  let upsertParameterNames: [String]
  /// Whether a REPLACE or upsert may change other rows (SQLite then processes parent keys).
  let mayChangeOtherRows: Bool
  /// The table's own foreign key whose parent lookup SQLite leaves out for the new rows (see
  /// ``parentCheckSQLiteOmits(checks:suppliesRowid:upsert:table:catalog:)``).
  let omittedParentCheck: ForeignKeyDefinition?
  /// The check whose DO UPDATE SQLite codes first. A DO UPDATE coded after it (an upsert
  /// without a conflict target codes one per check) comes after the first one's ON UPDATE action
  /// programs, so it too leaves out ``omittedParentCheck`` for the row it updates.
  let firstCodedUpsert: ConstraintCheck.Target?
  /// Whether SQLite's code for the statement's shape contains a check that may abort it, which
  /// with several rows (or a function call in the values) makes it use a statement journal.
  let mayAbort: Bool

  /// Resolves a shape. `rows` are the first statement's values: SQLite resolves them after the
  /// column list and before the ON CONFLICT clause, so their errors come in between.
  init(
    _ shape: Shape, writtenName: String, table: TableStorage, tablePosition: Int, catalog: Catalog,
    rows: [[SQLExpression]]
  ) throws {
    self.tablePosition = tablePosition
    self.writtenName = writtenName
    let definition = table.definition
    defaults = definition.defaults.map { $0 ?? .null }

    if shape.columns.isEmpty {
      targets = nil
    } else {
      var seen = Set<Int>()
      var seenRowid = false
      targets = try shape.columns.map { name in
        if let index = definition.columnIndex(name) {
          if index == definition.rowidColumn {
            defer { seenRowid = true }
            return seenRowid ? .ignored : .rowid
          }
          return seen.insert(index).inserted ? .column(index) : .ignored
        }
        if NameKey(name).isRowidName {
          defer { seenRowid = true }
          return seenRowid ? .ignored : .rowid
        }
        throw EngineError.sqlite(1, "table \(writtenName) has no column named \(name)")
      }
    }

    targetsAreColumns =
      targets.map { targets in
        targets.count == definition.columnCount
          && targets.indices.allSatisfy { targets[$0] == ($0 == definition.rowidColumn ? .rowid : .column($0)) }
      } ?? false
    hasNotNull = definition.notNull.contains(true)
    // SQLite codes a check of the rowid only when the statement supplies it.
    let suppliesRowid =
      targets.map { $0.contains(.rowid) } ?? (definition.rowidColumn != nil && !shape.writesDefaultValues)

    let valueCompiler = ExpressionCompiler(table: nil)
    valueCompiler.expandsSubqueriesFirst = false
    for row in rows {
      for value in row where Self.needsCompiling(value) { _ = try valueCompiler.compile(value) }
    }

    var order: [ConstraintCheck.Target] = [.rowid] + definition.uniqueConstraints.indices.map { .constraint($0) }
    var assignments: AssignmentList?
    var parameterNames: [String] = []
    switch shape.conflict {
    case .abort:
      notNull = .abort
      checks = order.map { ($0, .abort) }
    case .ignore:
      notNull = .ignore
      checks = order.map { ($0, .ignore) }
    case .replace:
      notNull = .replace
      checks = order.map { ($0, .replace) }
    case .nothing(let target), .update(let target, _):
      notNull = .abort
      let isUpdate = if case .update = shape.conflict { true } else { false }
      let onTarget: ConstraintCheck.Resolution = isUpdate ? .update : .ignore
      if target.isEmpty {
        checks = order.map { ($0, onTarget) }
      } else {
        let matched = try Self.conflictTarget(target, in: definition)
        // SQLite checks the target first, then the rowid, then the other constraints.
        order.removeAll { $0 == matched || $0 == .rowid }
        order.insert(contentsOf: matched == .rowid ? [.rowid] : [matched, .rowid], at: 0)
        checks = order.map { ($0, $0 == matched ? onTarget : .abort) }
      }
      // SQLite resolves the DO UPDATE (in the UPDATE it codes for each check it resolves) only
      // when such a check is coded: a rowid check exists only if the statement supplies the rowid.
      let coded = checks.contains { $0.resolution == .update && ($0.target != .rowid || suppliesRowid) }
      if coded, case .update(_, let set) = shape.conflict {
        let compiler = ExpressionCompiler(table: definition)
        compiler.allowsExcluded = true
        compiler.expandsSubqueriesFirst = false
        assignments = try AssignmentList(set, table: definition, compiler: compiler)
        parameterNames = compiler.parameterNames
      }
    }
    upsertAssignments = assignments
    upsertsOnRowid = assignments != nil && checks.contains { $0.target == .rowid && $0.resolution == .update }
    upsertParameterNames = parameterNames
    switch shape.conflict {
    case .replace:
      // SQLite counts the statement as writing several rows only where it codes a REPLACE: for
      // the rowid when the statement supplies it, for each unique index (`sqlite3MultiWrite`).
      mayChangeOtherRows =
        catalog.hasForeignKeys(table)
        && checks.contains { $0.resolution == .replace && ($0.target != .rowid || suppliesRowid) }
    case .update:
      // The DO UPDATE is coded as an UPDATE, which counts as writing several rows only when it
      // needs foreign key processing (`sqlite3FkRequired`): when it assigns a key column.
      mayChangeOtherRows =
        assignments.map { set in
          UpdatePlan.touchesForeignKeys(
            table, changed: UpdatePlan.changedColumns(set, definition: definition), catalog: catalog)
        } ?? false
    default: mayChangeOtherRows = false
    }
    firstCodedUpsert =
      checks.first { $0.resolution == .update && ($0.target != .rowid || suppliesRowid) }?.target
    omittedParentCheck = Self.parentCheckSQLiteOmits(
      checks: checks, suppliesRowid: suppliesRowid, upsert: assignments, table: table, catalog: catalog)
    // SQLite's `mayAbort` for the statement (see ``StatementJournal``): a NOT NULL check not
    // resolved by IGNORE (REPLACE aborts on its second pass), a uniqueness check resolved by ABORT
    // (the rowid's only when the statement supplies it), a child key, REPLACE's recheck when
    // foreign keys are involved, and what the DO UPDATE's own UPDATE checks or calls.
    var aborting = definition.notNull.contains(true) && notNull != .ignore
    aborting = aborting || checks.contains { check in
      check.resolution == .abort && (check.target != .rowid || suppliesRowid)
    }
    aborting = aborting || !definition.foreignKeys.isEmpty
    switch shape.conflict {
    case .replace:
      // With foreign keys, SQLite rechecks every replaced constraint with ABORT after the deletes.
      if suppliesRowid || !definition.uniqueConstraints.isEmpty {
        aborting = aborting || catalog.hasForeignKeys(table)
      }
    case .update(_, let set):
      if let assignments {
        aborting = aborting || StatementJournal.updateMayAbort(
          table, changed: Set(assignments.columns.map(\.column)), changesRowid: assignments.rowid != nil,
          catalog: catalog)
      }
      if assignments != nil { aborting = aborting || set.contains { StatementJournal.callsFunction($0.value) } }
    default:
      break
    }
    mayAbort = aborting
  }

  /// The check an ON CONFLICT target names: the rowid, or the unique constraint on exactly those columns.
  private static func conflictTarget(_ target: [String], in definition: TableDefinition) throws -> ConstraintCheck.Target {
    var positions = Set<Int>()
    var namesRowid = false
    for name in target {
      if let index = definition.columnIndex(name) {
        if index == definition.rowidColumn { namesRowid = true } else { positions.insert(index) }
      } else if NameKey(name).isRowidName {
        namesRowid = true
      } else {
        throw EngineError.noSuchColumn(name)
      }
    }
    if namesRowid && target.count == 1 { return .rowid }
    if !namesRowid {
      for (index, constraint) in definition.uniqueConstraints.enumerated()
      where constraint.columns.count == target.count && Set(constraint.columns) == positions {
        return .constraint(index)
      }
    }
    throw EngineError.sqlite(1, "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint")
  }

  /// The foreign key of the table itself whose parent lookup SQLite omits for a new row.
  ///
  /// SQLite skips that lookup inside the program of a foreign key's own SET NULL action, which
  /// it recognizes (`isSetNullAction`) by the newest action program coded in the whole statement.
  /// An INSERT whose REPLACE codes a row delete (ON DELETE actions of the keys referencing the
  /// table), or whose DO UPDATE assigns referenced columns (their ON UPDATE actions), codes those
  /// programs before the new row's own checks: when the newest is the SET NULL action of a key
  /// from the table to itself, the new row's value of that key is never looked up.
  static func parentCheckSQLiteOmits(
    checks: [(target: ConstraintCheck.Target, resolution: ConstraintCheck.Resolution)], suppliesRowid: Bool,
    upsert: AssignmentList?, table: TableStorage, catalog: Catalog
  ) -> ForeignKeyDefinition? {
    let incoming = catalog.incomingForeignKeys(of: table)
    guard !incoming.isEmpty else { return nil }
    let change: ForeignKeyChange
    let coded: [IncomingForeignKey]
    if checks.contains(where: { $0.resolution == .replace && ($0.target != .rowid || suppliesRowid) }) {
      change = .delete
      coded = incoming
    } else if let upsert {
      change = .update
      let definition = table.definition
      let assigned = Set(upsert.columns.map { NameKey(definition.columnNames[$0.column]) })
      coded = incoming.filter { reference in
        let parent = NameKey(reference.key.parentColumn)
        return assigned.contains(parent)
          || (upsert.rowid != nil && definition.rowidColumn.map { NameKey(definition.columnNames[$0]) == parent } == true)
      }
    } else {
      return nil
    }
    guard let newest = coded.last(where: { $0.key.action(change) != .noAction }),
      newest.key.action(change) == .setNull, newest.child === table
    else { return nil }
    return newest.key
  }
}
