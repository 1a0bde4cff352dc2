import Tandem

/// The columns of a generated table that SQLite can look rows up by, for the generator's
/// plan-dependent shapes and for the coverage that counts them.
extension TableSchema {
  /// The columns other than the rowid that SQLite can seek, each once (names folded as SQLite
  /// folds them): the first column of a key that is not the rowid, UNIQUE columns and the first
  /// column of every index; `isUnique` when one of them is a unique index.
  var seekableKeys: [(name: String, isUnique: Bool)] {
    var keys: [(name: String, isUnique: Bool)] = []
    func add(_ name: String, unique: Bool) {
      if let position = keys.firstIndex(where: { SchemaGenerator.fold($0.name) == SchemaGenerator.fold(name) }) {
        keys[position].isUnique = keys[position].isUnique || unique
      } else {
        keys.append((name, unique))
      }
    }
    if rowidColumn == nil, let first = primaryKeyColumns.first { add(first.name, unique: primaryKeyColumns.count == 1) }
    for column in columns where column.isUnique { add(column.name, unique: true) }
    for index in indexes { if let first = index.columns.first { add(first, unique: index.isUnique && index.columns.count == 1) } }
    return keys
  }

  /// Integer columns whose values must be unique on their own (the rowid alias, a single-column
  /// key, a UNIQUE column, a single-column unique index): where an UPDATE that shifts values
  /// meets a transient conflict or not depending on the order it visits rows.
  var uniqueIntegerColumns: [ColumnSchema] {
    let keys = primaryKeyColumns
    let uniqueIndexed = Set(
      indexes.filter { $0.isUnique && $0.columns.count == 1 }.map { SchemaGenerator.fold($0.columns[0]) })
    return columns.filter { column in
      column.type.storage == .integer
        && ((keys.count == 1 && keys[0] == column) || column.isUnique
          || uniqueIndexed.contains(SchemaGenerator.fold(column.name)))
    }
  }
}
