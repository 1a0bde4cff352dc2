/// What a ``RowDecoder`` names in its errors: the table and result columns of the rows it reads.
///
/// One context is shared by every row of a query, so making a decoder per row copies a single
/// reference instead of a whole ``TableSchema``.
///
/// ```swift
/// let context = RowDecodingContext(Reminder.schema)
/// var decoder = RowDecoder(values: [.integer(1)], context: context)
/// ```
public final class RowDecodingContext: Sendable {
  private let names: Names

  /// What the context names: a table's schema, or a projection's result columns (named only
  /// when an error needs them, so that a query built for every call does not build a schema).
  private enum Names {
    case schema(TableSchema)
    case resultColumns(table: String, [SQLExpression])
  }

  /// A context naming `schema`'s table and columns.
  public init(_ schema: TableSchema) { names = .schema(schema) }

  /// A context naming `table` and the result columns `columns` of a projection: a plain column
  /// by its name, any other result column by its position (`#0`, `#1`…).
  init(table: String, resultColumns columns: [SQLExpression]) { names = .resultColumns(table: table, columns) }

  /// The table and columns named in errors (column `i` names the row's value `i`).
  public var schema: TableSchema {
    switch names {
    case .schema(let schema):
      return schema
    case .resultColumns(let table, let columns):
      return TableSchema(
        table,
        columns: columns.enumerated().map { index, expression in
          if case .column(let name) = expression { return .column(name, .blob) }
          if case .qualifiedColumn(_, let name) = expression { return .column(name, .blob) }
          return .column("#\(index)", .blob)
        })
    }
  }
}
