import TandemCore

/// Resolved table definitions and schema fingerprints, shared by every memory database in the
/// process.
///
/// A fresh database that declares the same tables as an earlier one reuses its resolved
/// ``TableDefinition``s and gets the same fingerprint, so ``SharedPlanCache`` can hand it the plans
/// the earlier database compiled. A fingerprint stands for one exact list of table schemas in
/// creation order: equal lists may get different fingerprints (after the bounded tables are
/// cleared), but a fingerprint never stands for two different lists.
///
/// ```swift
/// let definition = SchemaRegistry.definition(for: schema)
/// let fingerprint = SchemaRegistry.fingerprint(extending: SchemaRegistry.empty, with: definition)
/// ```
enum SchemaRegistry {
  /// The fingerprint of a database without tables.
  static let empty = 0

  private struct Extension: Hashable {
    let parent: Int
    let table: Int
  }

  /// A schema hashed by its name and its columns' name lengths and types (hashing every name,
  /// default and index costs more than the rest of a CREATE TABLE); equality compares the whole
  /// schema, names by their exact bytes.
  private struct SchemaKey: Hashable {
    let schema: TableSchema

    static func == (lhs: SchemaKey, rhs: SchemaKey) -> Bool {
      lhs.schema == rhs.schema && lhs.schema.hasSameSpelling(as: rhs.schema)
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(schema.name)
      hasher.combine(schema.columns.count)
      for column in schema.columns {
        hasher.combine(column.name.utf8.count)
        hasher.combine(column.type)
      }
    }
  }

  private struct State {
    var definitions: [SchemaKey: TableDefinition] = [:]
    var fingerprints: [Extension: Int] = [:]
    /// The last number handed out (to a definition or a fingerprint); never reused.
    var lastNumber = 0
  }

  /// How many definitions or fingerprints are kept before the table is emptied and refilled.
  private static let limit = 4096
  private static let state = LockedState(State())

  /// The resolved definition of `schema` (which ``TableSchema/checkCreation(ifNotExists:tableExists:indexExists:)``
  /// accepted), shared with every database that declares it.
  static func definition(for schema: TableSchema) -> TableDefinition {
    let key = SchemaKey(schema: schema)
    if let known = state.withLock({ $0.definitions[key] }) { return known }
    // Resolved outside the lock; if another thread raced ahead, its definition wins.
    let resolved = TableDefinition(schema, number: state.withLock { state in
      state.lastNumber += 1
      return state.lastNumber
    })
    return state.withLock { state in
      if let known = state.definitions[key] { return known }
      if state.definitions.count >= limit { state.definitions.removeAll() }
      state.definitions[key] = resolved
      return resolved
    }
  }

  /// The fingerprint of the table list `parent` stands for, followed by `table`.
  static func fingerprint(extending parent: Int, with table: TableDefinition) -> Int {
    let key = Extension(parent: parent, table: table.number)
    return state.withLock { state in
      if let known = state.fingerprints[key] { return known }
      if state.fingerprints.count >= limit { state.fingerprints.removeAll() }
      state.lastNumber += 1
      state.fingerprints[key] = state.lastNumber
      return state.lastNumber
    }
  }

  /// The fingerprint of a list of tables in creation order.
  static func fingerprint(of tables: [TableDefinition]) -> Int {
    tables.reduce(empty) { fingerprint(extending: $0, with: $1) }
  }
}
