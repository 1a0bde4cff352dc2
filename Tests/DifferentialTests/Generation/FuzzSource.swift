import Tandem

/// One source of a generated relational query: a table and the alias its columns are qualified by.
struct FuzzSource: Sendable, Hashable {
  var table: TableSchema
  /// The name the query qualifies the table's columns by (the table's name when not aliased).
  var alias: String
}
