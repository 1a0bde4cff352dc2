/// One table of the memory database: its resolved definition and its rows.
///
/// A class so that the catalog, the undo log and compiled plans can refer to the same table.
final class TableStorage {
  /// The resolved schema.
  let definition: TableDefinition
  /// The rows and indexes.
  let data: TableData

  init(definition: TableDefinition) {
    self.definition = definition
    data = TableData(definition: definition)
  }

  /// The table's declared name.
  var name: String { definition.name }
}
