import TandemCore
import TandemSQL

/// The tables and views of one memory database, looked up by name as SQLite does (ASCII
/// case-insensitive).
final class Catalog {
  private var tables: [NameKey: TableStorage] = [:]
  /// Views by name: SQL text reads them as subqueries (the typed API never names one).
  private var views: [NameKey: ViewDefinition] = [:]
  /// Explicit index names → the key of their table.
  private var indexOwners: [NameKey: NameKey] = [:]
  /// Tables in creation order (foreign keys of newer tables are processed first, as in SQLite).
  /// Read by every statement, always under the database's lock: the runtime's exclusivity
  /// check is left out.
  @exclusivity(unchecked) private var creationOrder: [TableStorage] = []
  /// Bumped on every schema change; foreign-key caches are tied to it.
  private(set) var version = 0
  /// Stands for the exact list of table schemas in creation order (see ``SchemaRegistry``):
  /// compiled plans are shared between databases with the same fingerprint.
  private(set) var fingerprint = SchemaRegistry.empty
  private var incomingCache: [ObjectIdentifier: [IncomingForeignKey]] = [:]
  /// Lookups by the exact spelling used, to skip building a case-folded key every time.
  private var spellingCache: [Spelling: TableStorage] = [:]

  /// The table called `name`, if any.
  func table(_ name: String) -> TableStorage? {
    let spelling = Spelling(name)
    if let table = spellingCache[spelling] { return table }
    guard let table = tables[NameKey(name)] else { return nil }
    spellingCache[spelling] = table
    return table
  }

  /// The table at `position` in creation order (positions come from ``creationPosition(of:)``
  /// under the same ``fingerprint``, which fixes the order).
  func table(at position: Int) -> TableStorage? {
    creationOrder.indices.contains(position) ? creationOrder[position] : nil
  }

  /// The table called `name`, or SQLite's `no such table` error.
  func requireTable(_ name: String) throws -> TableStorage {
    guard let table = tables[NameKey(name)] else { throw EngineError.noSuchTable(name) }
    return table
  }

  /// Every table, in creation order.
  var allTables: [TableStorage] { creationOrder }

  /// The view called `name`, if any.
  func view(_ name: String) -> ViewDefinition? { views[NameKey(name)] }

  /// Adds a view (its name checked against the tables, views and indexes).
  func add(_ view: ViewDefinition) {
    views[NameKey(view.name)] = view
    schemaChanged()
  }

  /// Removes the view called `name`.
  func removeView(_ name: String) {
    views[NameKey(name)] = nil
    schemaChanged()
  }

  /// Moves whenever a row of any table is inserted, deleted or changed (a rollback included):
  /// with ``version``, what a compiled plan that read the tables' content is tied to.
  var contentVersion: Int {
    var total = 0
    for table in creationOrder { total &+= table.data.rows.changeCount }
    return total
  }

  /// Whether an explicit index is called `name`.
  func hasIndex(_ name: String) -> Bool { indexOwners[NameKey(name)] != nil }

  /// Adds a table (already validated).
  func add(_ table: TableStorage) {
    let key = NameKey(table.name)
    tables[key] = table
    for name in table.definition.indexNames { indexOwners[NameKey(name)] = key }
    creationOrder.append(table)
    schemaChanged()
    fingerprint = SchemaRegistry.fingerprint(extending: fingerprint, with: table.definition)
  }

  /// Removes a table and its indexes.
  func remove(_ table: TableStorage) {
    let key = NameKey(table.name)
    guard tables[key] === table else { return }
    tables[key] = nil
    for name in table.definition.indexNames { indexOwners[NameKey(name)] = nil }
    creationOrder.removeAll { $0 === table }
    schemaChanged()
    fingerprint = SchemaRegistry.fingerprint(of: creationOrder.map(\.definition))
  }

  /// Puts back a table removed by ``remove(_:)`` (for rollback), in its original creation position.
  func restore(_ table: TableStorage, position: Int) {
    let key = NameKey(table.name)
    tables[key] = table
    for name in table.definition.indexNames { indexOwners[NameKey(name)] = key }
    creationOrder.insert(table, at: min(position, creationOrder.count))
    schemaChanged()
    fingerprint = SchemaRegistry.fingerprint(of: creationOrder.map(\.definition))
  }

  /// A table's position in creation order (for ``restore(_:position:)``).
  func creationPosition(of table: TableStorage) -> Int {
    creationOrder.firstIndex { $0 === table } ?? creationOrder.count
  }

  private func schemaChanged() {
    version &+= 1
    incomingCache.removeAll()
    spellingCache.removeAll()
  }

  /// Whether any foreign key names this table as child or as parent.
  func hasForeignKeys(_ table: TableStorage) -> Bool {
    !table.definition.foreignKeys.isEmpty || !incomingForeignKeys(of: table).isEmpty
  }

  /// Every foreign key (of any table) that references `table`, in SQLite's processing order:
  /// the most recently declared first.
  func incomingForeignKeys(of table: TableStorage) -> [IncomingForeignKey] {
    let id = ObjectIdentifier(table)
    if let cached = incomingCache[id] { return cached }
    let key = NameKey(table.name)
    var result: [IncomingForeignKey] = []
    for child in creationOrder.reversed() {
      for foreignKey in child.definition.foreignKeys where NameKey(foreignKey.parentTable) == key {
        result.append(IncomingForeignKey(child: child, key: foreignKey))
      }
    }
    incomingCache[id] = result
    return result
  }

  /// Resolves a foreign key's parent table and key, with SQLite's prepare-time errors.
  func resolveParent(of foreignKey: ForeignKeyDefinition, child: TableStorage) throws -> ResolvedParent {
    guard let parent = table(foreignKey.parentTable) else {
      throw EngineError.noSuchTable("main.\(foreignKey.parentTable)")
    }
    guard let key = parentKey(of: foreignKey, in: parent) else {
      throw Self.mismatch(child: child.name, parent: foreignKey.parentTable)
    }
    return ResolvedParent(table: parent, key: key)
  }

  /// The parent key a foreign key uses in `parent`: its rowid alias, or a single-column unique constraint.
  func parentKey(of foreignKey: ForeignKeyDefinition, in parent: TableStorage) -> ParentKey? {
    let definition = parent.definition
    if let alias = definition.rowidColumn,
      NameKey(definition.columnNames[alias]) == NameKey(foreignKey.parentColumn)
    {
      return .rowid
    }
    let wanted = NameKey(foreignKey.parentColumn)
    for (index, constraint) in definition.uniqueConstraints.enumerated()
    where constraint.columns.count == 1 && NameKey(constraint.columnNames[0]) == wanted {
      return .unique(constraint: index, column: constraint.columns[0])
    }
    return nil
  }

  /// `foreign key mismatch - "child" referencing "parent"`.
  static func mismatch(child: String, parent: String) -> TandemError {
    let quote = { (name: String) in name.replacingOccurrences(of: "\"", with: "\"\"") }
    return EngineError.sqlite(
      1, "foreign key mismatch - \"\(quote(child))\" referencing \"\(quote(parent))\"")
  }
}

/// A foreign key seen from its parent table.
struct IncomingForeignKey {
  /// The table holding the foreign key column.
  let child: TableStorage
  /// The foreign key.
  let key: ForeignKeyDefinition
}

/// How a parent row is found from a child value.
enum ParentKey {
  /// The parent column is the rowid alias.
  case rowid
  /// The parent column has a single-column unique constraint.
  case unique(constraint: Int, column: Int)
}

/// A foreign key's parent table and key.
struct ResolvedParent {
  let table: TableStorage
  let key: ParentKey
}
