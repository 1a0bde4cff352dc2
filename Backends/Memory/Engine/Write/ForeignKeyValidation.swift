import TandemCore

/// The foreign key errors SQLite raises while preparing a statement: a missing parent table
/// (`no such table: main.p`) or a parent column without a unique key (`foreign key mismatch`).
/// They depend only on the schema and on which foreign keys the statement touches.
enum ForeignKeyValidation {
  /// An INSERT: the table's own keys; parent keys only when the statement may write several rows.
  static func forInsert(_ table: TableStorage, multiWrite: Bool, catalog: Catalog) throws {
    try childKeys(table, table.definition.foreignKeys, catalog: catalog)
    if multiWrite { try parentKeys(table, catalog.incomingForeignKeys(of: table)) }
  }

  /// A DELETE: the table's keys as child and as parent, and what its ON DELETE actions run.
  static func forDelete(_ table: TableStorage, catalog: Catalog) throws {
    var visited = Set<ActionTarget>()
    try delete(table, catalog: catalog, visited: &visited)
  }

  /// An UPDATE assigning `changed` columns (and maybe the rowid), and what its ON UPDATE actions run.
  static func forUpdate(_ table: TableStorage, changed: Set<Int>, rowidChanged: Bool, catalog: Catalog) throws {
    var visited = Set<ActionTarget>()
    try update(table, changed: changed, rowidChanged: rowidChanged, catalog: catalog, visited: &visited)
  }

  /// A table, and the column an action's UPDATE assigns (`nil` for an action's DELETE): SQLite
  /// compiles each action's program once per statement.
  private struct ActionTarget: Hashable {
    let table: ObjectIdentifier
    let column: Int?
  }

  private static func update(
    _ table: TableStorage, changed: Set<Int>, rowidChanged: Bool, catalog: Catalog, visited: inout Set<ActionTarget>
  ) throws {
    let definition = table.definition
    let selfKey = NameKey(definition.name)
    let modified = { (column: Int) in
      changed.contains(column) || (rowidChanged && column == definition.rowidColumn)
    }
    let incoming = catalog.incomingForeignKeys(of: table)
    let touched = incoming.filter { reference in
      let wanted = NameKey(reference.key.parentColumn)
      if let alias = definition.rowidColumn, NameKey(definition.columnNames[alias]) == wanted {
        return rowidChanged || modified(alias)
      }
      return definition.columnNames.indices.contains { NameKey(definition.columnNames[$0]) == wanted && modified($0) }
    }
    // Foreign keys matter only when a child or parent key column changes (`sqlite3FkRequired`).
    guard !touched.isEmpty || definition.foreignKeys.contains(where: { modified($0.column) }) else { return }
    // SQLite first locates the parent key of every key referencing the table, changed or not, to
    // know which old columns to read (`sqlite3FkOldmask`), newest first: the last mismatch (the
    // oldest) is written; the checks and actions that follow may write over it.
    var error = incoming.last(where: { !Catalog.parentKeyExists($0.key, in: table) }).map(mismatch)
    let ownKeys = definition.foreignKeys.filter { NameKey($0.parentTable) == selfKey || modified($0.column) }
    try checksAndActions(table, ownKeys: ownKeys, incoming: touched, .update, error: &error, catalog: catalog, visited: &visited)
  }

  private static func delete(_ table: TableStorage, catalog: Catalog, visited: inout Set<ActionTarget>) throws {
    guard visited.insert(ActionTarget(table: ObjectIdentifier(table), column: nil)).inserted else { return }
    var error: TandemError?
    try checksAndActions(
      table, ownKeys: table.definition.foreignKeys, incoming: catalog.incomingForeignKeys(of: table), .delete,
      error: &error, catalog: catalog, visited: &visited)
  }

  /// The errors of SQLite's foreign key code for a changed row, each one written over the error
  /// before it (`sqlite3ErrorMsg`), thrown at the end: the check (`sqlite3FkCheck`) locates the
  /// table's own keys' parents, and stops at the first failure, else the parent key of each
  /// reference `incoming` (newest first), and stops at the first mismatch; then each reference
  /// with an action for `change` locates its parent key again (`fkActionTrigger`), and an action
  /// that does locate it compiles its program, whose own error counts only when there is none yet
  /// (`transferParseError`).
  private static func checksAndActions(
    _ table: TableStorage, ownKeys: [ForeignKeyDefinition], incoming: [IncomingForeignKey], _ change: ForeignKeyChange,
    error: inout TandemError?, catalog: Catalog, visited: inout Set<ActionTarget>
  ) throws {
    do {
      try childKeys(table, ownKeys, catalog: catalog)
      if let mismatched = incoming.first(where: { !Catalog.parentKeyExists($0.key, in: table) }) {
        error = mismatch(mismatched)
      }
    } catch let own as TandemError {
      error = own
    }
    for reference in incoming where reference.key.action(change) != .noAction {
      guard Catalog.parentKeyExists(reference.key, in: table) else {
        error = mismatch(reference)
        continue
      }
      guard error == nil else { continue }
      do { try action(reference, change, catalog: catalog, visited: &visited) } catch let nested as TandemError { error = nested }
    }
    if let error { throw error }
  }

  private static func mismatch(_ reference: IncomingForeignKey) -> TandemError {
    Catalog.mismatch(child: reference.child.name, parent: reference.key.parentTable)
  }

  /// What an action on the child rows of `reference` runs: a DELETE (ON DELETE CASCADE) or an
  /// UPDATE of the child's column.
  private static func action(
    _ reference: IncomingForeignKey, _ change: ForeignKeyChange, catalog: Catalog, visited: inout Set<ActionTarget>
  ) throws {
    switch reference.key.action(change) {
    case .noAction, .restrict:
      break
    case .cascade where change == .delete:
      try delete(reference.child, catalog: catalog, visited: &visited)
    case .cascade, .setNull, .setDefault:
      let column = reference.key.column
      guard visited.insert(ActionTarget(table: ObjectIdentifier(reference.child), column: column)).inserted else { return }
      try update(reference.child, changed: [column], rowidChanged: false, catalog: catalog, visited: &visited)
    }
  }

  private static func childKeys(_ table: TableStorage, _ keys: [ForeignKeyDefinition], catalog: Catalog) throws {
    for key in keys { _ = try catalog.resolveParent(of: key, child: table) }
  }

  private static func parentKeys(_ table: TableStorage, _ incoming: [IncomingForeignKey]) throws {
    for reference in incoming where Catalog.parentKeyExists(reference.key, in: table) == false {
      throw Catalog.mismatch(child: reference.child.name, parent: reference.key.parentTable)
    }
  }
}

extension Catalog {
  /// Whether `parent` has a key a foreign key can use.
  static func parentKeyExists(_ foreignKey: ForeignKeyDefinition, in parent: TableStorage) -> Bool {
    let definition = parent.definition
    let wanted = NameKey(foreignKey.parentColumn)
    if let alias = definition.rowidColumn, NameKey(definition.columnNames[alias]) == wanted { return true }
    return definition.uniqueConstraints.contains { $0.columns.count == 1 && NameKey($0.columnNames[0]) == wanted }
  }
}
