/// One table of the memory database: its resolved definition and its rows.
///
/// A class so that the catalog, the undo log and compiled plans can refer to the same table.
final class TableStorage {
  /// The resolved schema.
  let definition: TableDefinition
  /// The rows and indexes.
  ///
  /// Unchecked exclusivity: the engine never overlaps a write to a table's data with another
  /// access to it (readers scan before writers change anything), and every access happens on
  /// the backend's one serialized caller, so the runtime check would only cost time.
  @exclusivity(unchecked) var data: TableData

  init(definition: TableDefinition) {
    self.definition = definition
    data = TableData(definition: definition)
  }

  /// The table's declared name.
  var name: String { definition.name }
}
