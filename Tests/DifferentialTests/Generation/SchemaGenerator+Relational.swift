import Tandem

/// Schemas for the relational cases: 2–4 tables, most referencing an earlier one (sometimes two,
/// sometimes themselves) through foreign keys, with indexes, many on the referencing columns.
extension SchemaGenerator {
  static let relationalTableNames = [
    "t", "order", "select", "my table", "tëst", #"q"t"#, "Group", "child", "kids", "values", "détail", "u",
  ]

  /// 2–4 tables in creation order (a referenced table comes before the one referencing it,
  /// except a table referencing itself).
  mutating func relationalSchemas() -> [TableSchema] {
    let count = random.weighted([(5, 2), (4, 3), (2, 4)])
    var names: [String] = []
    while names.count < count {
      let name = random.pick(Self.relationalTableNames)
      if !names.contains(where: { Self.fold($0) == Self.fold(name) }) { names.append(name) }
    }
    var schemas: [TableSchema] = []
    for name in names {
      var schema: TableSchema
      if let parent = schemas.isEmpty || random.chance(0.2) ? nil : random.pick(schemas) {
        schema = child(named: name, of: parent)
        // Keys of their own, so that later tables can reference them too.
        if schema.primaryKeyColumns.isEmpty && random.chance(0.6) { makeRowidAlias(&schema) }
      } else {
        schema = table(named: name, forceKey: true)
      }
      if schemas.count >= 2 && random.chance(0.25) { addReference(to: random.pick(schemas), in: &schema, named: "ref2") }
      if random.chance(0.12) { addReference(to: schema, in: &schema, named: "up") }
      indexReferences(&schema)
      schemas.append(schema)
    }
    return schemas
  }

  /// Gives a table without a key an INTEGER PRIMARY KEY column of its own.
  private mutating func makeRowidAlias(_ schema: inout TableSchema) {
    var taken = Set(schema.columns.map { Self.fold($0.name) })
    let name = taken.contains("id") ? freshRelationalName(&taken) : "id"
    schema.columns.append(.column(name, random.chance(0.5) ? .integer : .null(.integer), primaryKey: .plain))
  }

  /// Adds a nullable column referencing `parent`'s key or one of its UNIQUE columns (when it has one).
  private mutating func addReference(to parent: TableSchema, in schema: inout TableSchema, named preferred: String) {
    var candidates = parent.primaryKeyColumns.count == 1 ? [parent.primaryKeyColumns[0]] : []
    candidates += parent.columns.filter { $0.isUnique && $0.primaryKey == nil }
    guard !candidates.isEmpty else { return }
    let target = random.pick(candidates)
    var taken = Set(schema.columns.map { Self.fold($0.name) })
    let name = taken.contains(preferred) ? freshRelationalName(&taken) : preferred
    let actions: [ForeignKey.Action] = [.noAction, .restrict, .setNull, .cascade]
    schema.columns.append(
      .column(
        name, .null(target.type.storage),
        references: .table(parent.name, column: target.name, onDelete: random.pick(actions), onUpdate: random.pick(actions))))
  }

  /// Indexes most referencing columns (a plain index, sometimes with a second column).
  private mutating func indexReferences(_ schema: inout TableSchema) {
    for column in schema.columns where column.references != nil && random.chance(0.6) {
      guard !schema.indexes.contains(where: { $0.columns.first.map(Self.fold) == Self.fold(column.name) }) else {
        continue
      }
      var columns = [column.name]
      if random.chance(0.25), let other = schema.columns.first(where: { $0.name != column.name }) {
        columns.append(other.name)
      }
      schema.indexes.append(IndexSchema(columns: columns, isUnique: random.chance(0.1)))
    }
  }

  private mutating func freshRelationalName(_ taken: inout Set<String>) -> String {
    var counter = 1
    while true {
      let name = "k\(counter)"
      if taken.insert(Self.fold(name)).inserted { return name }
      counter += 1
    }
  }
}
