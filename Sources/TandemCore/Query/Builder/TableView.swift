/// The columns of one source of a query, as query closures see them: `$0.title` is the column
/// `title` of this source, qualified by its alias wherever the query needs it (joins, subqueries
/// that read the query around them).
///
/// ```swift
/// RemindersList.where { list in
///   Reminder.where { $0.listID == list.id }.exists()   // list.id is "remindersLists"."id"
/// }
/// ```
@dynamicMemberLookup
public struct TableView<Source: Table>: Sendable {
  /// The name the source's columns are qualified by.
  public let alias: String

  /// The view of the source named `alias`.
  public init(alias: String) { self.alias = alias }

  /// A column of this source.
  public subscript<Value>(dynamicMember keyPath: KeyPath<Source.Columns, ColumnExpression<Value>>) -> ColumnExpression<Value> {
    ColumnExpression(Source.columns[keyPath: keyPath].name, source: alias)
  }

  /// The source's rowid.
  ///
  /// ```swift
  /// Reminder.order { $0.rowid.desc() }   // ORDER BY rowid DESC
  /// ```
  public var rowid: TypedExpression<Int> { TypedExpression(.qualifiedRowid(source: alias)) }
}

/// The columns of the right side of a LEFT JOIN: each is optional in Swift, as a row without a
/// match reads NULL in every column.
///
/// ```swift
/// RemindersList.leftJoin(Reminder.self) { $0.id == $1.listID }
///   .select { list, reminder in (list.name, reminder.title) }   // (String, String?)
/// ```
@dynamicMemberLookup
public struct NullableTableView<Source: Table>: Sendable {
  /// The name the source's columns are qualified by.
  public let alias: String

  /// The view of the source named `alias`.
  public init(alias: String) { self.alias = alias }

  /// A column of this source, optional.
  public subscript<Value>(dynamicMember keyPath: KeyPath<Source.Columns, ColumnExpression<Value>>) -> TypedExpression<Value?> {
    TypedExpression(.qualifiedColumn(source: alias, name: Source.columns[keyPath: keyPath].name))
  }

  /// A column of this source that is already optional.
  public subscript<Value>(dynamicMember keyPath: KeyPath<Source.Columns, ColumnExpression<Value>>) -> TypedExpression<Value>
  where Value: _OptionalQueryValue {
    TypedExpression(.qualifiedColumn(source: alias, name: Source.columns[keyPath: keyPath].name))
  }

  /// The source's rowid: NULL for a row without a match.
  public var rowid: TypedExpression<Int?> { TypedExpression(.qualifiedRowid(source: alias)) }
}

/// Something a `select { }` closure can return: an expression (one result column) or a whole
/// source (its record, or `nil` for a LEFT JOIN's row without a match).
public protocol ResultSelection: Sendable {
  /// The Swift value one result row decodes to.
  associatedtype Decoded
  /// The result columns it adds.
  var resultExpressions: [SQLExpression] { get }
  /// Reads its values from the decoder.
  static func decode(_ decoder: inout RowDecoder) throws -> Decoded
}

extension ColumnExpression: ResultSelection {
  public var resultExpressions: [SQLExpression] { [expression] }
  @inlinable public static func decode(_ decoder: inout RowDecoder) throws -> QueryValue { try decoder.decode(QueryValue.self) }
}

extension TypedExpression: ResultSelection where QueryValue: ColumnType {
  public var resultExpressions: [SQLExpression] { [expression] }
  @inlinable public static func decode(_ decoder: inout RowDecoder) throws -> QueryValue { try decoder.decode(QueryValue.self) }
}

extension TableView: ResultSelection {
  public var resultExpressions: [SQLExpression] {
    Source.schema.columns.map { .qualifiedColumn(source: alias, name: $0.name) }
  }
  @inlinable public static func decode(_ decoder: inout RowDecoder) throws -> Source { try Source(row: &decoder) }
}

extension NullableTableView: ResultSelection {
  /// The rowid first (NULL exactly when there was no match), then the columns.
  public var resultExpressions: [SQLExpression] {
    [.qualifiedRowid(source: alias)] + Source.schema.columns.map { .qualifiedColumn(source: alias, name: $0.name) }
  }
  @inlinable public static func decode(_ decoder: inout RowDecoder) throws -> Source? {
    guard try decoder.decode(Int?.self) != nil else {
      decoder.skip(Source.schema.columns.count)
      return nil
    }
    return try Source(row: &decoder)
  }
}
