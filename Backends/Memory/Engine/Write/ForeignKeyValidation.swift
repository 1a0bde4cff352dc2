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
    var visited = Set<ObjectIdentifier>()
    try delete(table, catalog: catalog, visited: &visited)
  }

  /// An UPDATE assigning `changed` columns (and maybe the rowid).
  static func forUpdate(_ table: TableStorage, changed: Set<Int>, rowidChanged: Bool, catalog: Catalog) throws {
    let definition = table.definition
    let selfKey = NameKey(definition.name)
    let modified = { (column: Int) in
      changed.contains(column) || (rowidChanged && column == definition.rowidColumn)
    }
    try childKeys(table, definition.foreignKeys.filter { NameKey($0.parentTable) == selfKey || modified($0.column) }, catalog: catalog)
    let touched = catalog.incomingForeignKeys(of: table).filter { reference in
      let wanted = NameKey(reference.key.parentColumn)
      if let alias = definition.rowidColumn, NameKey(definition.columnNames[alias]) == wanted {
        return rowidChanged || modified(alias)
      }
      return definition.columnNames.indices.contains { NameKey(definition.columnNames[$0]) == wanted && modified($0) }
    }
    try parentKeys(table, touched)
  }

  private static func delete(_ table: TableStorage, catalog: Catalog, visited: inout Set<ObjectIdentifier>) throws {
    guard visited.insert(ObjectIdentifier(table)).inserted else { return }
    try childKeys(table, table.definition.foreignKeys, catalog: catalog)
    let incoming = catalog.incomingForeignKeys(of: table)
    try parentKeys(table, incoming)
    for reference in incoming {
      switch reference.key.onDelete {
      case .noAction, .restrict:
        break
      case .cascade:
        try delete(reference.child, catalog: catalog, visited: &visited)
      case .setNull, .setDefault:
        try forUpdate(reference.child, changed: [reference.key.column], rowidChanged: false, catalog: catalog)
      }
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
