import TandemCore

/// A ``TableSchema`` resolved into what the engine needs at run time: column positions,
/// affinities, defaults, the rowid alias, and the uniqueness constraints in the order SQLite
/// checks them.
///
/// Immutable, so one definition serves every database that declares the same schema (see
/// ``SchemaRegistry``).
final class TableDefinition: Sendable {
  /// The schema as declared.
  let schema: TableSchema
  /// A number no other definition in the process has (for ``SchemaRegistry``'s fingerprints).
  let number: Int
  /// The table's declared name (used in error messages).
  let name: String
  /// Column names in declaration order.
  let columnNames: [String]
  /// Column affinities (all non-STRICT: from the declared type).
  let affinities: [Affinity]
  /// Whether each column is `NOT NULL` (never true for the rowid alias).
  let notNull: [Bool]
  /// Each column's DEFAULT value as SQLite reads it from the DDL, before affinity; `nil` when none.
  let defaults: [SqliteValue?]
  /// The `INTEGER PRIMARY KEY` column, if any.
  let rowidColumn: Int?
  /// Whether the rowid alias is `AUTOINCREMENT`.
  let isAutoincrement: Bool
  /// UNIQUE and non-integer PRIMARY KEY constraints, in SQLite's checking order (last declared first).
  let uniqueConstraints: [UniqueConstraint]
  /// Every index SQLite keeps for the table (the constraints' automatic ones and the declared
  /// ones), in the order of its index list: the most recently created first.
  let indexes: [IndexDefinition]
  /// Names of the explicit indexes (`IndexSchema`), for name collisions.
  let indexNames: [String]
  /// Foreign keys declared on this table's columns, in the order SQLite processes them.
  let foreignKeys: [ForeignKeyDefinition]
  private let columnLookup: [NameKey: Int]

  /// The number of columns.
  var columnCount: Int { columnNames.count }

  /// Whether one of the table's indexes begins with column `column`.
  func leadsAnIndex(_ column: Int) -> Bool {
    indexes.contains { $0.columns.first == column }
  }

  /// Whether SQLite can seek the table by `column` (its position, or -1 for the rowid): the
  /// rowid, the column aliasing it, or the first column of an index.
  ///
  /// ```swift
  /// definition.isSearchable(by: -1)  // true: the rowid
  /// ```
  func isSearchable(by column: Int) -> Bool {
    column < 0 || column == rowidColumn || leadsAnIndex(column)
  }

  /// The position of a column by name (case-insensitive), or `nil`.
  func columnIndex(_ name: String) -> Int? {
    // Names are unique case-insensitively, so a byte-for-byte spelling match is the answer
    // (bytes, not `==`, which would equate canonically equivalent Unicode); comparing a few
    // short strings costs less than building a case-folded key.
    if columnNames.count <= 32, let exact = columnNames.firstIndex(where: { UTF8Bytes.equal($0, name) }) {
      return exact
    }
    return columnLookup[NameKey(name)]
  }

  /// Whether a user column shadows one of the rowid's names.
  func shadowsRowid(_ name: String) -> Bool { columnLookup[NameKey(name)] != nil }

  /// Resolves a schema that ``TableSchema/checkCreation(ifNotExists:tableExists:indexExists:)``
  /// accepted (so its names are unique and its indexes name its columns). `number` must be unique
  /// in the process.
  convenience init(_ schema: TableSchema, number: Int) {
    self.init(schema, number: number, ephemeralAffinities: nil)
  }

  /// The table SQLite materializes for a common table expression: columns named `columns`,
  /// carrying the affinities of the select's result columns (`.none` for an expression), with no
  /// constraint, no index and no rowid a query may name — unless it is a derived table (a
  /// subquery in FROM, a view), whose rowid SQLite lets a query name (see ``namesRowid``).
  static func ephemeral(name: String, columns: [String], affinities: [Affinity], isDerivedTable: Bool = false)
    -> TableDefinition
  {
    TableDefinition(
      TableSchema(name, columns: columns.map { .column($0, .null(.blob)) }), number: isDerivedTable ? -2 : -1,
      ephemeralAffinities: affinities)
  }

  /// Whether this is a common table expression's table (``ephemeral(name:columns:affinities:isDerivedTable:)``).
  var isEphemeral: Bool { number < 0 }

  /// Whether a query may name the rowid of this table's rows (SQLite's `VisibleRowid`): a stored
  /// table's, or a derived table's — whose value the memory engine cannot know (SQLite reads NULL
  /// from a subquery it runs as a co-routine or flattens, the row's position from one it
  /// materializes) — but never a common table expression's (`TF_NoVisibleRowid`).
  var namesRowid: Bool { number != -1 }

  private init(_ schema: TableSchema, number: Int, ephemeralAffinities: [Affinity]?) {
    self.schema = schema
    self.number = number
    name = schema.name
    var lookup: [NameKey: Int] = [:]
    for (index, column) in schema.columns.enumerated() where lookup[NameKey(column.name)] == nil {
      lookup[NameKey(column.name)] = index
    }
    columnLookup = lookup
    columnNames = schema.columns.map(\.name)
    affinities = ephemeralAffinities ?? schema.columns.map { Affinity(columnType: $0.type) }

    let keys = schema.primaryKeyColumns
    let alias: Int? =
      if let rowid = schema.rowidColumn { schema.columns.firstIndex { $0.name == rowid.name } } else { nil }
    rowidColumn = alias
    isAutoincrement = alias.map { schema.columns[$0].primaryKey == .autoincrement } ?? false
    notNull = schema.columns.indices.map { $0 != alias && !schema.columns[$0].type.isNullable }
    defaults = schema.columns.map { $0.defaultValue.map(Self.valueAsParsedFromDDL) }

    // Indexes in creation order: column constraints in column order, then the table-level
    // composite PRIMARY KEY, then the explicit indexes. SQLite checks the most recent first.
    var created: [IndexDefinition] = []
    func addAutomatic(_ columns: [Int], isPrimaryKey: Bool) {
      created.append(
        IndexDefinition(
          name: "sqlite_autoindex_\(schema.name)_\(created.count + 1)", columns: columns,
          columnNames: columns.map { schema.columns[$0].name }, descending: columns.map { _ in false },
          isUnique: true, isPrimaryKey: isPrimaryKey, isAutomatic: true))
    }
    for (index, column) in schema.columns.enumerated() {
      let isSingleKey = column.primaryKey != nil && keys.count == 1
      if isSingleKey && index != alias { addAutomatic([index], isPrimaryKey: true) }
      if column.isUnique && !isSingleKey { addAutomatic([index], isPrimaryKey: false) }
    }
    if keys.count > 1 {
      addAutomatic(keys.compactMap { key in schema.columns.firstIndex { $0.name == key.name } }, isPrimaryKey: true)
    }
    var names: [String] = []
    for index in schema.indexes {
      let indexName = index.name(in: schema.name)
      names.append(indexName)
      let listed = index.columns.indices.compactMap { position in
        lookup[NameKey(index.columns[position])].map { (column: $0, descending: index.isDescending(at: position)) }
      }
      created.append(
        IndexDefinition(
          name: indexName, columns: listed.map(\.column), columnNames: listed.map { schema.columns[$0.column].name },
          descending: listed.map(\.descending), isUnique: index.isUnique, isPrimaryKey: false, isAutomatic: false))
    }
    let ordered = Array(created.reversed())
    indexes = ordered
    uniqueConstraints = ordered.indices.compactMap { position in
      let index = ordered[position]
      guard index.isUnique else { return nil }
      return UniqueConstraint(
        columns: index.columns, columnNames: index.columnNames, isPrimaryKey: index.isPrimaryKey, index: position)
    }
    indexNames = names

    // SQLite prepends each foreign key to the table's list, so the last declared comes first.
    foreignKeys = schema.columns.enumerated().compactMap { index, column in
      column.references.map { ForeignKeyDefinition(column: index, reference: $0) }
    }.reversed()
  }

  /// A DEFAULT as SQLite stores it after parsing `DEFAULT <literal>` from the emitted DDL: REALs
  /// go through SQLite's own (not correctly rounded) text-to-double conversion.
  static func valueAsParsedFromDDL(_ value: SqliteValue) -> SqliteValue {
    guard case .real(let number) = value else { return value }
    if number.isNaN { return .null }
    if number.isInfinite { return value }
    let literal = SqliteValue.real(number.magnitude).sqlLiteral
    let parsed = Conversion.textToReal(literal)
    return .real(number.sign == .minus ? -parsed : parsed)
  }
}

/// One UNIQUE or non-integer PRIMARY KEY constraint.
struct UniqueConstraint: Sendable {
  /// Column positions, in index order.
  let columns: [Int]
  /// Column names, in index order (for the error message).
  let columnNames: [String]
  /// Whether this is the PRIMARY KEY (reported as a primary key violation).
  let isPrimaryKey: Bool
  /// The position of the index that enforces it in ``TableDefinition/indexes``.
  let index: Int
}

/// One index of a table: a constraint's automatic index or a declared one.
struct IndexDefinition: Sendable {
  /// Its name (`sqlite_autoindex_<table>_<n>` for a constraint's index, as SQLite names it).
  let name: String
  /// Column positions, in index order.
  let columns: [Int]
  /// Column names, in index order.
  let columnNames: [String]
  /// Whether each column's entries are in descending order (`DESC`), in index order.
  let descending: [Bool]
  /// Whether the index enforces uniqueness.
  let isUnique: Bool
  /// Whether it is a non-integer PRIMARY KEY's index.
  let isPrimaryKey: Bool
  /// Whether SQLite made it for a constraint (rather than a `CREATE INDEX`).
  let isAutomatic: Bool
}

/// A foreign key from one column of a child table.
struct ForeignKeyDefinition: Sendable {
  /// The child column's position.
  let column: Int
  /// The referenced (parent) table's name.
  let parentTable: String
  /// The referenced column's name.
  let parentColumn: String
  /// What deleting the parent row does.
  let onDelete: ForeignKey.Action
  /// What changing the parent row's key does.
  let onUpdate: ForeignKey.Action

  init(column: Int, reference: ForeignKey) {
    self.column = column
    parentTable = reference.table
    parentColumn = reference.column
    onDelete = reference.onDelete
    onUpdate = reference.onUpdate
  }

  /// The action for a parent row that is deleted, or whose key changes.
  func action(_ change: ForeignKeyChange) -> ForeignKey.Action {
    switch change {
    case .delete: onDelete
    case .update: onUpdate
    }
  }
}
