/// An expression whose result has the Swift type `QueryValue`.
///
/// Columns (``ColumnExpression``) and everything built from them (``TypedExpression``) conform,
/// so the compiler rejects `$0.title == 3`: `title` is a `String` expression.
///
/// ```swift
/// let isOverdue: some QueryExpression<Bool> = Reminder.columns.priority > 2
/// ```
public protocol QueryExpression<QueryValue>: Sendable {
  /// The Swift type of the expression's value.
  associatedtype QueryValue
  /// The untyped expression tree.
  var expression: SQLExpression { get }
}

/// A typed wrapper over an expression tree; the result of operators and functions.
///
/// ```swift
/// let doubled: TypedExpression<Int> = Reminder.columns.priority * 2
/// ```
public struct TypedExpression<QueryValue>: QueryExpression {
  public let expression: SQLExpression
  /// Wraps an untyped expression, asserting its Swift type.
  public init(_ expression: SQLExpression) { self.expression = expression }
  /// Re-types any expression.
  public init<E: QueryExpression>(_ other: E) { self.expression = other.expression }
}

/// One column of a table, typed by the Swift type stored in it (a ``ColumnType``).
///
/// `@Table` generates one per stored property; the query builder hands them to closures as `$0`.
///
/// ```swift
/// ColumnExpression<String>("title")
/// ColumnExpression<Date.UnixTimeRepresentation>("createdAt")
/// ```
public struct ColumnExpression<QueryValue: ColumnType>: QueryExpression {
  /// The column's name.
  public let name: String
  /// The alias of the source it belongs to, when the query names it (a join, a subquery).
  public let source: String?
  /// A column of the statement's table.
  public init(_ name: String) {
    self.name = name
    self.source = nil
  }
  /// A column of the source named `source`: `"source"."name"`.
  public init(_ name: String, source: String?) {
    self.name = name
    self.source = source
  }
  public var expression: SQLExpression {
    if let source { return .qualifiedColumn(source: source, name: name) }
    return .column(name)
  }
}

/// An insertable form of a ``Table`` whose integer primary key may be left `nil`, so SQLite
/// assigns it. `@Table` generates `Draft` for tables with a single integer primary key.
///
/// ```swift
/// let reminder = try db.insert(Reminder.Draft(title: "Milk"))  // returns the inserted Reminder
/// reminder.id                                                   // assigned by the database
/// ```
public protocol TableDraft: Sendable {
  /// The table this draft inserts into.
  associatedtype Record: Table
  /// Encodes the draft's values in `Record`'s column order, with `NULL` for an unassigned key.
  func encode(to row: inout RowEncoder)
}
