import Tandem
import SeededRandomness

/// Random table schemas: every storage class, nullability, keys of every shape, UNIQUE, defaults,
/// indexes, hostile identifiers, and sometimes a second table with a foreign key.
struct SchemaGenerator {
  static let plainColumnNames = ["a", "b", "c", "d", "e", "x", "y", "v", "id", "n"]
  static let hostileColumnNames = [
    "order", "group", "select", "from", "where", "key", "index", "values", "table", "NULL", "excluded",
    #"we"ird"#, "spa ce", "naïve", "日本", "ÄB", "a.b", "1col", "it's", "rowid", "oid", "_rowid_", "Ⅸ",
  ]
  static let tableNames = ["t", "order", "select", "my table", "tëst", #"q"t"#, "Group", "ta'ble"]
  static let childTableNames = ["child", "kids", "values", "détail"]

  var random: SplitMix64

  /// One table (usually) or a parent and a child referencing it.
  mutating func schemas() -> [TableSchema] {
    let parentName = random.pick(Self.tableNames)
    if random.chance(0.12) {
      let parent = table(named: parentName, forceKey: true)
      let childName = random.pick(Self.childTableNames.filter { Self.fold($0) != Self.fold(parentName) })
      return [parent, child(named: childName, of: parent)]
    }
    return [table(named: parentName, forceKey: false)]
  }

  /// A table with 1–6 columns.
  mutating func table(named name: String, forceKey: Bool) -> TableSchema {
    let count = random.weighted([(2, 1), (4, 2), (4, 3), (3, 4), (2, 5), (1, 6)])
    var columns: [ColumnSchema] = []
    var taken: Set<String> = []
    for _ in 0..<count {
      let columnName = freshName(taken: &taken)
      columns.append(column(named: columnName))
    }
    assignPrimaryKey(&columns, force: forceKey)
    for index in columns.indices where columns[index].primaryKey == nil && random.chance(0.2) {
      columns[index].isUnique = true
    }
    return TableSchema(name, columns: columns, indexes: indexes(over: columns, table: name))
  }

  /// A table whose first column references the parent's key (or one of its UNIQUE columns).
  mutating func child(named name: String, of parent: TableSchema) -> TableSchema {
    var candidates = parent.primaryKeyColumns.count == 1 ? [parent.primaryKeyColumns[0]] : []
    candidates += parent.columns.filter { $0.isUnique && $0.primaryKey == nil }
    var schema = table(named: name, forceKey: false)
    guard let target = candidates.isEmpty ? nil : random.pick(candidates) else { return schema }
    let actions: [ForeignKey.Action] = [.noAction, .restrict, .setNull, .setDefault, .cascade]
    let action = random.pick(actions)
    let updateAction = random.pick(actions)
    var taken = Set(schema.columns.map { Self.fold($0.name) })
    let refName = taken.contains("ref") ? freshName(taken: &taken) : "ref"
    let refType: SqliteTypeName =
      random.chance(0.8) ? .null(target.type.storage) : random.pick([.integer, .null(.text)])
    var reference = ColumnSchema.column(
      refName, refType, references: .table(parent.name, column: target.name, onDelete: action, onUpdate: updateAction))
    if random.chance(0.2) { reference.defaultValue = NastyValues.any(&random, preferring: refType) }
    schema.columns.insert(reference, at: 0)
    return schema
  }

  private mutating func freshName(taken: inout Set<String>) -> String {
    while true {
      let name = random.chance(0.3) ? random.pick(Self.hostileColumnNames) : random.pick(Self.plainColumnNames)
      let folded = Self.fold(name)
      let rowidSpellings: Set<String> = ["rowid", "oid", "_rowid_"]
      // Keep at least two spellings of the rowid free, so that `.rowid` stays expressible.
      if rowidSpellings.contains(folded) && !taken.isDisjoint(with: rowidSpellings) { continue }
      if taken.insert(folded).inserted { return name }
    }
  }

  private mutating func column(named name: String) -> ColumnSchema {
    let storage = random.pick([SqliteTypeName.integer, .real, .text, .blob])
    let type: SqliteTypeName = random.chance(0.55) ? .null(storage) : storage
    var column = ColumnSchema.column(name, type)
    if random.chance(0.25) {
      column.defaultValue =
        random.chance(0.75) ? NastyValues.any(&random, preferring: storage) : NastyValues.any(&random)
    }
    return column
  }

  private mutating func assignPrimaryKey(_ columns: inout [ColumnSchema], force: Bool) {
    let shape = random.weighted([(force ? 0 : 4, 0), (4, 1), (2, 2), (2, 3)])
    switch shape {
    case 1:  // INTEGER PRIMARY KEY, the rowid alias
      let index = random.int(0...(columns.count - 1))
      columns[index].type = random.chance(0.5) ? .integer : .null(.integer)
      columns[index].primaryKey = random.chance(0.3) ? .autoincrement : .plain
      if random.chance(0.8) { columns[index].defaultValue = nil }
    case 2:  // a single key of any other type
      let index = random.int(0...(columns.count - 1))
      if columns[index].type.storage == .integer {
        columns[index].type = random.chance(0.5) ? .text : .null(.real)
      }
      columns[index].primaryKey = .plain
    case 3 where columns.count >= 2:  // a composite key
      for index in random.sample(Array(columns.indices), count: 2...min(3, columns.count)) {
        columns[index].primaryKey = .plain
      }
    case 3:
      columns[0].primaryKey = .plain
    default:
      break
    }
  }

  private mutating func indexes(over columns: [ColumnSchema], table: String) -> [IndexSchema] {
    var result: [IndexSchema] = []
    var seen: Set<[String]> = []
    let count = random.weighted([(6, 0), (3, 1), (1, 2)])
    for _ in 0..<count {
      let names = random.sample(columns.map(\.name), count: 1...2)
      guard seen.insert(names.map(Self.fold)).inserted else { continue }
      let name: String? = random.chance(0.2) ? "\(table) idx \(result.count) \"ü\"" : nil
      result.append(IndexSchema(name: name, columns: names, isUnique: random.chance(0.3)))
    }
    return result
  }

  /// SQLite compares identifiers case-insensitively for ASCII letters only.
  static func fold(_ name: String) -> String {
    String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
  }
}
