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
  /// The table and columns named in errors (column `i` names the row's value `i`).
  public let schema: TableSchema

  /// A context naming `schema`'s table and columns.
  public init(_ schema: TableSchema) { self.schema = schema }
}
