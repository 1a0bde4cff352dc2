import TandemCore

/// The state of one data-changing statement: the logged row operations, SQLite's immediate
/// foreign key counter, and the number of rows it reports as `changes`.
final class WriteSession {
  /// SQLite's trigger depth limit (`SQLITE_MAX_TRIGGER_DEPTH`), which foreign key actions obey.
  static let maximumActionDepth = 1000

  let catalog: Catalog
  let log: UndoLog
  /// SQLite's statement counter of immediate foreign key violations; must be ≤ 0 at the end.
  var foreignKeyViolations = 0
  /// Rows inserted, updated or deleted by the statement itself (not by foreign key actions).
  var changes = 0
  /// The rowid of the last row the statement's INSERT inserted (0 when none).
  var lastInsertRowid: Int64 = 0
  /// True while dropping a table: a missing parent table then reads as empty (SQLite's isIgnoreErrors).
  var ignoresMissingParents = false
  /// Whether SQLite runs the statement with a statement journal (it writes several rows and may
  /// abort). Without one, `database or disk is full` rolls back the whole transaction.
  var usesStatementJournal = true
  /// Whether an INSERT already applied its columns' affinities to a row. SQLite computes a
  /// constant default once, into the row's own register, and converts it there in place: from
  /// then on, an upsert's `excluded` reads the converted default.
  var defaultsTookAffinity = false

  init(catalog: Catalog, log: UndoLog) {
    self.catalog = catalog
    self.log = log
  }

  /// Makes the session ready for the next statement (a backend reuses one session).
  func reset() {
    foreignKeyViolations = 0
    changes = 0
    lastInsertRowid = 0
    ignoresMissingParents = false
    usesStatementJournal = true
    defaultsTookAffinity = false
  }

  /// Throws SQLite's end-of-statement foreign key error if violations remain.
  func finish() throws {
    if foreignKeyViolations > 0 { throw EngineError.foreignKey }
  }

  // MARK: - Logged primitives

  func storeInsert(_ table: TableStorage, _ rowid: Int64, _ values: [SqliteValue]) {
    table.data.insert(rowid, values: values)
    log.recordInsert(table, rowid: rowid)
  }

  @discardableResult
  func storeDelete(_ table: TableStorage, _ rowid: Int64) -> [SqliteValue]? {
    guard let old = table.data.remove(rowid) else { return nil }
    log.record(.deleted(table, rowid: rowid, values: old))
    return old
  }

  func storeReplace(_ table: TableStorage, _ rowid: Int64, _ values: [SqliteValue]) {
    if let old = table.data.replace(rowid, values: values) {
      log.record(.updated(table, rowid: rowid, values: old))
    }
  }

  func storeSequence(_ table: TableStorage, _ value: Int64) {
    guard table.data.sequence != value else { return }
    log.record(.sequence(table, previous: table.data.sequence))
    table.data.sequence = value
  }

  // MARK: - Row operations with foreign key processing

  /// Inserts a row whose constraints were checked (SQLite's FkCheck on the new row, then the insert).
  /// `incoming`: the foreign keys referencing the table, looked up by the caller once per
  /// statement, when the statement may write several rows (a new parent key may then resolve
  /// violations counted earlier in the statement); otherwise empty.
  /// `omitting`: the table's own foreign key whose parent SQLite does not look up (see
  /// ``InsertPlan/parentCheckSQLiteOmits(checks:suppliesRowid:upsert:table:catalog:)``).
  /// Returns the row as SQLite's registers hold it afterwards: a scan for its children may have
  /// converted a key in place (see ``keyAfterIndexSeek(_:_:parent:column:)``).
  @discardableResult
  func insertRow(
    _ table: TableStorage, _ rowid: Int64, _ values: [SqliteValue], incoming: [IncomingForeignKey],
    omitting: ForeignKeyDefinition? = nil
  ) throws -> [SqliteValue] {
    if !table.definition.foreignKeys.isEmpty {
      try childRowAdded(table, rowid, values, keys: table.definition.foreignKeys, skip: omitting)
    }
    var registers = values
    if !incoming.isEmpty { registers = try parentRowAdded(table, rowid, values, incoming) }
    storeInsert(table, rowid, values)
    return registers
  }

  /// Deletes a row with SQLite's foreign key processing: counters for the row as child and as
  /// parent, the delete, then the ON DELETE actions (at `depth`, the trigger nesting level).
  func deleteRow(_ table: TableStorage, _ rowid: Int64, depth: Int) throws {
    guard let old = table.data.row(rowid) else { return }
    let incoming = catalog.incomingForeignKeys(of: table)
    if !table.definition.foreignKeys.isEmpty {
      try childRowRemoved(table, old, keys: table.definition.foreignKeys)
    }
    // The old row as SQLite's registers hold it: each indexed child scan may convert its key
    // in place (see ``keyAfterIndexSeek(_:_:parent:column:)``), and the actions read it too.
    var registers = old
    for reference in incoming {
      guard let key = catalog.parentKey(of: reference.key, in: table) else { continue }
      let parentValue = Self.parentValue(key, rowid: rowid, values: registers)
      foreignKeyViolations += try children(
        of: reference, parent: table, key: key, value: parentValue, excluding: rowid
      ).count
      if case .unique(_, let parentColumn) = key {
        registers[parentColumn] = Self.keyAfterIndexSeek(parentValue, reference, parent: table, column: parentColumn)
      }
    }
    storeDelete(table, rowid)
    try runActions(.delete, table, rowid, registers, newRow: nil, incoming, depth: depth)
  }

  /// SQLite's foreign key action triggers, run once the parent row is written: after a delete
  /// (`newRow` is `nil`) each reference's ON DELETE action; after an update that assigned the
  /// references' parent keys, the ON UPDATE action of each reference whose key value changed
  /// (SQLite's `WHEN NOT (old.key IS new.key)`). The child rows are those whose column equals
  /// the old key (`old.key = child.column`), found before the action changes any of them.
  private func runActions(
    _ change: ForeignKeyChange, _ table: TableStorage, _ rowid: Int64, _ old: [SqliteValue],
    newRow: (rowid: Int64, values: [SqliteValue])?, _ incoming: [IncomingForeignKey], depth: Int
  ) throws {
    let actions = incoming.filter { $0.key.action(change) != .noAction }
    guard !actions.isEmpty else { return }
    if depth >= Self.maximumActionDepth { throw EngineError.triggerRecursion }
    for reference in actions {
      guard let key = catalog.parentKey(of: reference.key, in: table) else { continue }
      let oldKey = Self.parentValue(key, rowid: rowid, values: old)
      let newKey = newRow.map { Self.parentValue(key, rowid: $0.rowid, values: $0.values) }
      if let newKey, ValueOrder.compare(oldKey, newKey, collation: .binary) == 0 { continue }
      let matches = try children(
        of: reference, parent: table, key: key, value: oldKey, excluding: nil, forAction: true)
      let child = reference.child
      let action = reference.key.action(change)
      switch action {
      case .noAction:
        break
      case .restrict:
        if !matches.isEmpty { throw EngineError.restrictViolation }
      case .cascade where newKey == nil:
        for childRowid in matches { try deleteRow(child, childRowid, depth: depth + 1) }
      case .cascade, .setNull, .setDefault:
        let column = reference.key.column
        let replacement: SqliteValue =
          switch action {
          case .setNull: .null
          case .setDefault: child.definition.defaults[column] ?? .null
          default: newKey ?? .null
          }
        for childRowid in matches {
          guard var values = child.data.row(childRowid) else { continue }
          values[column] = replacement.applyingStorageAffinity(child.definition.affinities[column])
          var newRowid = childRowid
          if column == child.definition.rowidColumn {
            guard let integer = ValueOperations.mustBeInteger(values[column]) else {
              throw EngineError.datatypeMismatch
            }
            newRowid = integer
            values[column] = .integer(integer)
          }
          try updateRow(
            child, childRowid, newRowid: newRowid, values: values, changed: [column],
            setNullKey: action == .setNull ? reference.key : nil, depth: depth + 1)
        }
      }
    }
  }

  /// Writes an updated row after checking its constraints (SQLite's UPDATE of one row):
  /// NOT NULL, rowid and unique conflicts abort; then the foreign key counters; then the write.
  /// `changed` lists the assigned columns; `assignsRowid`, whether the statement's SET list
  /// assigns the rowid (whatever its value); `setNullKey`, the key whose parent SQLite does not
  /// look up for the new row (in a SET NULL action's own update, and in an upsert's DO UPDATE
  /// coded after that action's program: see ``InsertPlan/firstCodedUpsert``);
  /// `depth` is the trigger nesting level of the ON UPDATE actions the write runs last.
  func updateRow(
    _ table: TableStorage, _ rowid: Int64, newRowid: Int64, values: [SqliteValue], changed: Set<Int>,
    assignsRowid: Bool = false, setNullKey: ForeignKeyDefinition? = nil, depth: Int = 0
  ) throws {
    try ConstraintCheck.checkUpdate(table, rowid: rowid, newRowid: newRowid, values: values, changed: changed)
    guard let old = table.data.row(rowid) else { return }
    let definition = table.definition
    let rowidChanged = newRowid != rowid
    let isModified = { (column: Int) in changed.contains(column) || (rowidChanged && column == definition.rowidColumn) }
    let selfKey = NameKey(definition.name)
    let incoming = catalog.incomingForeignKeys(of: table).filter { reference in
      guard let key = catalog.parentKey(of: reference.key, in: table) else { return false }
      switch key {
      case .rowid: return rowidChanged || definition.rowidColumn.map(isModified) == true
      case .unique(_, let column): return isModified(column)
      }
    }
    // SQLite processes foreign keys only when the UPDATE changes a child or parent key column
    // (`sqlite3FkRequired`); then it checks every key of a table that is its own parent.
    let required = !incoming.isEmpty || definition.foreignKeys.contains { isModified($0.column) }
    let childKeys =
      required ? definition.foreignKeys.filter { NameKey($0.parentTable) == selfKey || isModified($0.column) } : []
    if childKeys.isEmpty && incoming.isEmpty {
      if rowidChanged {
        storeDelete(table, rowid)
        storeInsert(table, newRowid, values)
      } else {
        storeReplace(table, rowid, values)
      }
      return
    }
    if !childKeys.isEmpty { try childRowRemoved(table, old, keys: childKeys) }
    // The old row as SQLite's registers hold it (see `deleteRow`).
    var registers = old
    for reference in incoming {
      guard let key = catalog.parentKey(of: reference.key, in: table) else { continue }
      let parentValue = Self.parentValue(key, rowid: rowid, values: registers)
      foreignKeyViolations += try children(
        of: reference, parent: table, key: key, value: parentValue, excluding: rowid
      ).count
      if case .unique(_, let parentColumn) = key {
        registers[parentColumn] = Self.keyAfterIndexSeek(parentValue, reference, parent: table, column: parentColumn)
      }
    }
    storeDelete(table, rowid)
    if !childKeys.isEmpty {
      try childRowAdded(table, newRowid, values, keys: childKeys, skip: setNullKey)
    }
    // The new row as SQLite's registers hold it once its key scans ran: the ON UPDATE actions
    // compare it with the old one (and CASCADE writes it).
    var newRegisters = values
    if !incoming.isEmpty {
      // SQLite leaves the old record in the table while it checks the new key unless the rowid
      // changes or `sqlite3FkRequired` returns 2 (a self-referencing key's child column
      // changes, or a changed parent key has an ON UPDATE action): only the entries of the
      // indexes holding a changed column are gone, so a scan of this table for children of the
      // new key may meet the old row and count it (its own reference resolved).
      let oldRowStays =
        !rowidChanged && !assignsRowid && definition.rowidColumn.map(isModified) != true
        && !definition.foreignKeys.contains { NameKey($0.parentTable) == selfKey && isModified($0.column) }
        && !incoming.contains { $0.key.action(.update) != .noAction }
      newRegisters = try parentRowAdded(
        table, newRowid, values, incoming, oldRow: oldRowStays ? (old, isModified) : nil)
    }
    storeInsert(table, newRowid, values)
    try runActions(.update, table, rowid, registers, newRow: (newRowid, newRegisters), incoming, depth: depth)
  }

  // MARK: - Foreign key counters

  /// The value of a parent row's key.
  static func parentValue(_ key: ParentKey, rowid: Int64, values: [SqliteValue]) -> SqliteValue {
    switch key {
    case .rowid: .integer(rowid)
    case .unique(_, let column): values[column]
    }
  }

  /// A child row appeared: count it if its parent is missing (SQLite's fkLookupParent, +1).
  private func childRowAdded(
    _ table: TableStorage, _ rowid: Int64, _ values: [SqliteValue], keys: [ForeignKeyDefinition],
    skip: ForeignKeyDefinition?
  ) throws {
    for foreignKey in keys {
      if let skip, skip.column == foreignKey.column && NameKey(skip.parentTable) == NameKey(foreignKey.parentTable) {
        continue
      }
      let value = values[foreignKey.column]
      if value.isNull { continue }
      guard let parent = try resolvedParent(foreignKey, child: table) else { continue }
      if !parentExists(parent, value, child: table, newRow: (rowid, values)) { foreignKeyViolations += 1 }
    }
  }

  /// A child row went away: if the counter is non-zero and its parent is missing, one violation
  /// is resolved (SQLite's fkLookupParent, −1).
  private func childRowRemoved(_ table: TableStorage, _ values: [SqliteValue], keys: [ForeignKeyDefinition]) throws {
    for foreignKey in keys {
      if foreignKeyViolations == 0 { continue }
      let value = values[foreignKey.column]
      if value.isNull { continue }
      guard let parent = try resolvedParent(foreignKey, child: table) else {
        foreignKeyViolations -= 1  // dropping a table: a missing parent table reads as empty
        continue
      }
      if !parentExists(parent, value, child: table, newRow: nil) { foreignKeyViolations -= 1 }
    }
  }

  /// A parent key appeared: children that were counted as orphans now have a parent
  /// (SQLite's fkScanChildren, −1 each; skipped while the counter is zero). Returns the row as
  /// SQLite's registers then hold it: an indexed child scan converts the key in place.
  /// `oldRow`: an UPDATE's old version of the row, when SQLite has not yet removed it from the
  /// table, with the test of which columns the UPDATE changed.
  @discardableResult
  private func parentRowAdded(
    _ table: TableStorage, _ rowid: Int64, _ values: [SqliteValue], _ incoming: [IncomingForeignKey],
    oldRow: (values: [SqliteValue], isModified: (Int) -> Bool)? = nil
  ) throws -> [SqliteValue] {
    // The new row's values as SQLite's registers hold them: a scan may convert one in place.
    var registers = values
    for reference in incoming {
      if foreignKeyViolations == 0 { continue }
      guard let key = catalog.parentKey(of: reference.key, in: table) else {
        throw Catalog.mismatch(child: reference.child.name, parent: reference.key.parentTable)
      }
      let parentValue = Self.parentValue(key, rowid: rowid, values: registers)
      var staleRow: (rowid: Int64, values: [SqliteValue])? = nil
      if let oldRow, reference.child === table,
        try Self.childScanMeetsOldRow(table.definition, column: reference.key.column, isModified: oldRow.isModified)
      {
        staleRow = (rowid, oldRow.values)
      }
      foreignKeyViolations -= try children(
        of: reference, parent: table, key: key, value: parentValue, excluding: nil, alsoSeeing: staleRow
      ).count
      if case .unique(_, let parentColumn) = key {
        registers[parentColumn] = Self.keyAfterIndexSeek(parentValue, reference, parent: table, column: parentColumn)
      }
    }
    return registers
  }

  /// Whether SQLite's scan of `definition`'s table for the children of a new key meets the old
  /// record an UPDATE left in place: a scan of the table or by rowid does; a seek of an index
  /// on the child column does only when the UPDATE kept that index's entries (it changes none
  /// of its columns). Indexes on the column that disagree leave the answer to SQLite's planner.
  static func childScanMeetsOldRow(
    _ definition: TableDefinition, column: Int, isModified: (Int) -> Bool
  ) throws -> Bool {
    if column == definition.rowidColumn { return true }
    let seekable = definition.indexes.filter { $0.columns.first == column }
    if seekable.isEmpty { return true }
    let kept = seekable.filter { !$0.columns.contains(where: isModified) }
    if kept.count == seekable.count { return true }
    if kept.isEmpty { return false }
    throw EngineError.unsupported(
      "an UPDATE of a parent key in table \(definition.name) whose self-referencing child column has indexes it changes and indexes it keeps: which one SQLite's foreign key scan uses decides whether the old row counts")
  }

  private func resolvedParent(_ foreignKey: ForeignKeyDefinition, child: TableStorage) throws -> ResolvedParent? {
    do {
      return try catalog.resolveParent(of: foreignKey, child: child)
    } catch {
      if ignoresMissingParents { return nil }
      throw error
    }
  }

  /// Whether the parent row for a child value exists. `newRow` is the row being written, which
  /// may be its own parent.
  private func parentExists(
    _ parent: ResolvedParent, _ value: SqliteValue, child: TableStorage, newRow: (rowid: Int64, values: [SqliteValue])?
  ) -> Bool {
    switch parent.key {
    case .rowid:
      guard let rowid = ValueOperations.mustBeInteger(value) else { return false }
      if let newRow, parent.table === child, newRow.rowid == rowid { return true }
      return parent.table.data.contains(rowid)
    case .unique(let constraint, let column):
      if let newRow, parent.table === child {
        let own = newRow.values[column]
        if !own.isNull && ValueOrder.compare(value, own, collation: .binary) == 0 { return true }
      }
      // SQLite probes the parent index with the index affinity applied as for a comparison (an
      // integer stays exact even against a REAL column), then compares exactly.
      let affinity = parent.table.definition.affinities[column]
      let converted = ComparisonOperands.prepare(value, .none, .null, affinity).0
      let index = parent.table.definition.uniqueConstraints[constraint].index
      return parent.table.data.owner(of: [converted], index: index) != nil
    }
  }

  /// The parent key's register after SQLite scanned a child table for it (`fkScanChildren`).
  ///
  /// When the child table has an index on its key column, SQLite seeks it with the parent row's
  /// own register as the key and applies the index column's affinity to that register in place
  /// (when the comparison is numeric): numeric text such as `'12'` becomes the INTEGER 12, as
  /// does the REAL 12.0 (`sqlite3VdbeIntegerAffinity`), whatever the index column's numeric
  /// affinity. Every later scan for the same row — another referencing table, the table itself —
  /// and every action compares or writes that number, which no TEXT or BLOB child value equals.
  /// The row stored is not changed (Docs/SQLiteSemantics.md §14.1).
  ///
  /// A parent column with REAL affinity keeps its REAL: a later scan compares it as a number
  /// anyway, and an action trigger reads `old.key`/`new.key` of a REAL column through
  /// `OP_RealAffinity`, so a cascade writes `3.0`, and a TEXT child `'3.0'`.
  static func keyAfterIndexSeek(
    _ value: SqliteValue, _ reference: IncomingForeignKey, parent: TableStorage, column: Int
  ) -> SqliteValue {
    switch value {
    case .text, .real: break
    default: return value
    }
    let parentAffinity = parent.definition.affinities[column]
    guard parentAffinity != .real else { return value }
    let child = reference.child.definition
    let childColumn = reference.key.column
    guard childColumn != child.rowidColumn, child.leadsAnIndex(childColumn) else {
      return value
    }
    let childAffinity = child.affinities[childColumn]
    guard childAffinity.isNumeric, ComparisonOperands.combined(parentAffinity, childAffinity).isNumeric else {
      return value
    }
    return value.applyingStorageAffinity(.numeric)
  }

  /// The rowids (ascending) of the child rows whose key equals a parent key value, compared as
  /// `parent.key = child.column` (Docs/SQLiteSemantics.md §3.3 affinities, BINARY). `excluding` skips the parent row
  /// itself in a self-referencing table. (An UPDATE has deleted its old row before it scans for
  /// the new key: the old version is not among the children.)
  ///
  /// `forAction`: the rows an ON DELETE/ON UPDATE action's `WHERE old.key = child.column` finds.
  /// There a unique parent key's value is compared under the child column's affinity alone (a
  /// REAL key 5.0 is '5.0' to a TEXT child, which '5' is not), where the counting scans compare
  /// under both columns' affinities; a rowid key compares as an integer either way.
  ///
  /// `alsoSeeing`: a row the scan meets though the table no longer holds it (see
  /// ``childScanMeetsOldRow(_:column:isModified:)``).
  func children(
    of reference: IncomingForeignKey, parent: TableStorage, key: ParentKey, value: SqliteValue, excluding: Int64?,
    forAction: Bool = false, alsoSeeing staleRow: (rowid: Int64, values: [SqliteValue])? = nil
  ) throws -> [Int64] {
    if value.isNull { return [] }
    let child = reference.child
    let column = reference.key.column
    let childAffinity = child.definition.affinities[column]
    let parentAffinity: Affinity =
      switch key {
      case .rowid: .integer
      case .unique(_, let parentColumn): forAction ? .none : parent.definition.affinities[parentColumn]
      }
    let sameTable = child === parent
    func matches(_ childValue: SqliteValue) -> Bool {
      !childValue.isNull
        && ValueOperations.ordering(value, parentAffinity, childValue, childAffinity, .binary) == 0
    }
    var result: [Int64] = []
    let isAlias = column == child.definition.rowidColumn
    child.data.scan { row, rowid in
      if sameTable, rowid == excluding { return true }
      if matches(isAlias ? .integer(rowid) : row[column]) { result.append(rowid) }
      return true
    }
    if let staleRow, matches(isAlias ? .integer(staleRow.rowid) : staleRow.values[column]) {
      result.append(staleRow.rowid)
      result.sort()
    }
    return result
  }
}
