/// The view a query closure receives for one source of a join: ``TableView`` for a table joined
/// with `join`, ``NullableTableView`` for the right side of a `leftJoin`.
public protocol SourceView: Sendable {
  /// The view of a source named `alias`.
  init(alias: String)
}

extension TableView: SourceView {}
extension NullableTableView: SourceView {}

/// A SELECT over two or more joined tables, before its result columns are chosen with `select`.
///
/// Closures receive one view per source, in FROM order (`Views` is their tuple); the right side
/// of a LEFT JOIN has optional columns. Up to four tables join.
///
/// ```swift
/// Reminder.join(RemindersList.self) { $0.listID == $1.id }
///   .where { reminder, list in !reminder.isCompleted && list.name == "Work" }
///   .order { reminder, list in (list.name, reminder.title) }
///   .select { reminder, list in (reminder.title, list.name) }
/// // SELECT "reminders"."title", "remindersLists"."name" FROM "reminders"
/// //   JOIN "remindersLists" ON ("reminders"."listID" = "remindersLists"."id") WHERE … ORDER BY …
/// ```
public struct JoinSelect<First: Table, Views: Sendable>: Sendable {
  /// The statement so far (its result columns are the first table's until `select`).
  public var base: SelectStatement {
    get { statement }
    set {
      statement = newValue
      aliases = newValue.sources.map(\.alias)
    }
  }
  /// ``base``, which the builders below change without listing the aliases again: only joining
  /// adds a source, and it makes a new query.
  @usableFromInline var statement: SelectStatement
  @usableFromInline let views: Views
  /// The schemas of the joined tables after the first.
  @usableFromInline var joinedSchemas: [TableSchema] = []
  /// Every alias the query uses, in FROM order, for closures that build subqueries.
  @usableFromInline private(set) var aliases: [String]

  /// A query of `statement`, whose sources take `aliases` in FROM order.
  @inlinable
  init(statement: SelectStatement, aliases: [String], views: Views, joinedSchemas: [TableSchema] = []) {
    self.statement = statement
    self.aliases = aliases
    self.views = views
    self.joinedSchemas = joinedSchemas
  }

  /// The alias a newly joined `table` takes: its name, or its name numbered when taken.
  @usableFromInline func newAlias(_ table: String) -> String {
    SourceAliases.alias(for: table, avoiding: SourceAliases.taken(with: aliases)) ?? table
  }

  /// The statement with `table` joined on the condition `on` computes for its alias, that alias,
  /// and the aliases of every source.
  @inlinable
  func joining<T: Table>(
    _ table: T.Type, kind: JoinClause.Kind, on: (String) -> SQLExpression
  ) -> (statement: SelectStatement, alias: String, aliases: [String]) {
    let alias = newAlias(T.tableName)
    let aliases = aliases + [alias]
    let condition = SourceAliases.inside(aliases) { on(alias) }
    var statement = statement
    statement.joins.append(JoinClause(kind, table: T.tableName, alias: alias == T.tableName ? nil : alias, on: condition))
    return (statement, alias, aliases)
  }

  /// Adds a predicate (combined with AND when called again).
  @inlinable
  public func `where`<P: QueryExpression>(_ predicate: (Views) -> P) -> JoinSelect where P.QueryValue: _BooleanQueryValue {
    var copy = self
    let condition = SourceAliases.inside(aliases) { predicate(views).expression }
    copy.statement.filter = statement.filter.map { .binary(.and, $0, condition) } ?? condition
    return copy
  }

  /// Appends ORDER BY terms; every source's rowid ends the ORDER BY as the last tie-breakers.
  public func order<Term: OrderingConvertible, each Rest: OrderingConvertible>(
    _ ordering: (Views) -> (Term, repeat each Rest)
  ) -> JoinSelect {
    var copy = self
    copy.statement.orderBy += SourceAliases.inside(aliases) { orderingTerms(ordering, views) }
    return copy
  }

  /// `GROUP BY keys`.
  ///
  /// ```swift
  /// RemindersList.leftJoin(Reminder.self) { $0.id == $1.listID }
  ///   .group { list, _ in list.id }
  ///   .select { list, reminder in (list.name, reminder.id.count()) }
  /// ```
  public func group<Key: QueryExpression, each Rest: QueryExpression>(
    by keys: (Views) -> (Key, repeat each Rest)
  ) -> JoinSelect {
    var copy = self
    copy.statement.groupBy += SourceAliases.inside(aliases) { expressions(keys, views) }
    return copy
  }

  /// `HAVING predicate` (combined with AND when called again).
  public func having<P: QueryExpression>(_ predicate: (Views) -> P) -> JoinSelect where P.QueryValue: _BooleanQueryValue {
    var copy = self
    let condition = SourceAliases.inside(aliases) { predicate(views).expression }
    copy.statement.having = statement.having.map { .binary(.and, $0, condition) } ?? condition
    return copy
  }

  /// `SELECT DISTINCT`.
  public func distinct(_ isDistinct: Bool = true) -> JoinSelect {
    var copy = self
    copy.statement.distinct = isDistinct
    return copy
  }

  /// `LIMIT count OFFSET offset`.
  public func limit(_ count: Int, offset: Int? = nil) -> JoinSelect {
    var copy = self
    copy.statement.limit = .literal(.integer(Int64(count)))
    copy.statement.offset = offset.map { .literal(.integer(Int64($0))) }
    return copy
  }

  /// Chooses one result: an expression, or a whole source.
  ///
  /// ```swift
  /// Reminder.join(RemindersList.self) { $0.listID == $1.id }.select { _, list in list.name }   // String
  /// ```
  @inlinable
  public func select<E: ResultSelection>(_ body: (Views) -> E) -> Select<First, E.Decoded> {
    // Inlinable, so that the row decoder is made for the caller's concrete types: a generic one
    // would look up its result type's metadata on every row.
    selecting(resultColumns { views in body(views).resultExpressions }) { decoder in try E.decode(&decoder) }
  }

  /// Chooses the results: a tuple of expressions and whole sources.
  ///
  /// ```swift
  /// Reminder.join(RemindersList.self) { $0.listID == $1.id }.select { ($0, $1) }   // (Reminder, RemindersList)
  /// RemindersList.leftJoin(Reminder.self) { $0.id == $1.listID }.select { ($0, $1) }  // (RemindersList, Reminder?)
  /// ```
  @inlinable @_disfavoredOverload
  public func select<each E: ResultSelection>(_ body: (Views) -> (repeat each E)) -> Select<First, (repeat (each E).Decoded)> {
    let columns = resultColumns { views in
      var columns: [SQLExpression] = []
      for selection in repeat each body(views) { columns += selection.resultExpressions }
      return columns
    }
    return selecting(columns) { decoder in (repeat try (each E).decode(&decoder)) }
  }

  /// Chooses every source whole, in FROM order: `select { ($0, $1) }` for any number of sources.
  ///
  /// ```swift
  /// Reminder.join(RemindersList.self) { $0.listID == $1.id }.selectingSources()   // (Reminder, RemindersList)
  /// ```
  @inlinable
  public func selectingSources<each Source: ResultSelection>() -> Select<First, (repeat (each Source).Decoded)>
  where Views == (repeat each Source) {
    select { (views: (repeat each Source)) in views }
  }

  /// Chooses two results (``select(_:)-(Views)->(repeat each E)`` for two, made for the caller's
  /// concrete types: the variadic form is not specialized, and looks its row type up on every row).
  ///
  /// ```swift
  /// Reminder.join(RemindersList.self) { $0.listID == $1.id }.select { r, l in (r.title, l.name) }  // (String, String)
  /// ```
  @inlinable
  public func select<A: ResultSelection, B: ResultSelection>(_ body: (Views) -> (A, B)) -> Select<First, (A.Decoded, B.Decoded)> {
    let columns = resultColumns { views in
      let (a, b) = body(views)
      return a.resultExpressions + b.resultExpressions
    }
    return selecting(columns) { decoder in (try A.decode(&decoder), try B.decode(&decoder)) }
  }

  /// Chooses three results, as ``select(_:)-(Views)->(A,B)`` chooses two.
  ///
  /// ```swift
  /// Reminder.join(RemindersList.self) { $0.listID == $1.id }.select { r, l in (r.id, r.title, l.name) }
  /// ```
  @inlinable
  public func select<A: ResultSelection, B: ResultSelection, C: ResultSelection>(
    _ body: (Views) -> (A, B, C)
  ) -> Select<First, (A.Decoded, B.Decoded, C.Decoded)> {
    let columns = resultColumns { views in
      let (a, b, c) = body(views)
      return a.resultExpressions + b.resultExpressions + c.resultExpressions
    }
    return selecting(columns) { decoder in (try A.decode(&decoder), try B.decode(&decoder), try C.decode(&decoder)) }
  }

  /// The result columns `body` chooses, computed with the query's aliases taken.
  @inlinable
  func resultColumns(_ body: (Views) -> [SQLExpression]) -> [SQLExpression] {
    SourceAliases.inside(aliases) { body(views) }
  }

  /// The query with these result columns, each row decoded by `decodeRow`.
  @usableFromInline
  func selecting<Output>(
    _ columns: [SQLExpression], decodeRow: @escaping @Sendable (inout RowDecoder) throws -> Output
  ) -> Select<First, Output> {
    var selected = statement
    selected.columns = columns
    var query = Select<First, Output>(base: selected, isRecord: false, decodeRow: decodeRow)
    query.joinedSchemas = joinedSchemas
    return query
  }

  // MARK: - Joining more tables

  /// Joins a third table: `JOIN "table" ON condition`.
  ///
  /// ```swift
  /// Reminder.join(RemindersList.self) { $0.listID == $1.id }
  ///   .join(Tag.self) { reminder, _, tag in reminder.id == tag.reminderID }
  /// ```
  public func join<A, B, T: Table, P: QueryExpression>(
    _ table: T.Type, on condition: ((A, B, TableView<T>)) -> P
  ) -> JoinSelect<First, (A, B, TableView<T>)> where Views == (A, B), P.QueryValue: _BooleanQueryValue {
    let (statement, alias, aliases) = joining(table, kind: .inner) { alias in
      condition((views.0, views.1, TableView<T>(alias: alias))).expression
    }
    return JoinSelect<First, (A, B, TableView<T>)>(
      statement: statement, aliases: aliases, views: (views.0, views.1, TableView<T>(alias: alias)), joinedSchemas: joinedSchemas + [T.schema])
  }

  /// Joins a third table with `LEFT JOIN … ON condition`.
  public func leftJoin<A, B, T: Table, P: QueryExpression>(
    _ table: T.Type, on condition: ((A, B, TableView<T>)) -> P
  ) -> JoinSelect<First, (A, B, NullableTableView<T>)> where Views == (A, B), P.QueryValue: _BooleanQueryValue {
    let (statement, alias, aliases) = joining(table, kind: .left) { alias in
      condition((views.0, views.1, TableView<T>(alias: alias))).expression
    }
    return JoinSelect<First, (A, B, NullableTableView<T>)>(
      statement: statement, aliases: aliases, views: (views.0, views.1, NullableTableView<T>(alias: alias)), joinedSchemas: joinedSchemas + [T.schema])
  }

  /// Joins a fourth table: `JOIN "table" ON condition`.
  public func join<A, B, C, T: Table, P: QueryExpression>(
    _ table: T.Type, on condition: ((A, B, C, TableView<T>)) -> P
  ) -> JoinSelect<First, (A, B, C, TableView<T>)> where Views == (A, B, C), P.QueryValue: _BooleanQueryValue {
    let (statement, alias, aliases) = joining(table, kind: .inner) { alias in
      condition((views.0, views.1, views.2, TableView<T>(alias: alias))).expression
    }
    return JoinSelect<First, (A, B, C, TableView<T>)>(
      statement: statement, aliases: aliases, views: (views.0, views.1, views.2, TableView<T>(alias: alias)),
      joinedSchemas: joinedSchemas + [T.schema])
  }

  /// Joins a fourth table with `LEFT JOIN … ON condition`.
  public func leftJoin<A, B, C, T: Table, P: QueryExpression>(
    _ table: T.Type, on condition: ((A, B, C, TableView<T>)) -> P
  ) -> JoinSelect<First, (A, B, C, NullableTableView<T>)> where Views == (A, B, C), P.QueryValue: _BooleanQueryValue {
    let (statement, alias, aliases) = joining(table, kind: .left) { alias in
      condition((views.0, views.1, views.2, TableView<T>(alias: alias))).expression
    }
    return JoinSelect<First, (A, B, C, NullableTableView<T>)>(
      statement: statement, aliases: aliases, views: (views.0, views.1, views.2, NullableTableView<T>(alias: alias)),
      joinedSchemas: joinedSchemas + [T.schema])
  }
}

extension Table {
  /// Joins a table: `FROM self JOIN table ON condition`.
  ///
  /// ```swift
  /// Reminder.join(RemindersList.self) { $0.listID == $1.id }.select { ($0, $1) }
  /// ```
  @inlinable
  public static func join<T: Table, P: QueryExpression>(
    _ table: T.Type, on condition: (TableView<Self>, TableView<T>) -> P
  ) -> JoinSelect<Self, (TableView<Self>, TableView<T>)> where P.QueryValue: _BooleanQueryValue {
    joined(table, kind: .inner, condition) { TableView<T>(alias: $0) }
  }

  /// Joins a table with `LEFT JOIN … ON condition`: rows of `self` without a match are kept.
  ///
  /// ```swift
  /// RemindersList.leftJoin(Reminder.self) { $0.id == $1.listID }.select { ($0, $1) }  // [(RemindersList, Reminder?)]
  /// ```
  @inlinable
  public static func leftJoin<T: Table, P: QueryExpression>(
    _ table: T.Type, on condition: (TableView<Self>, TableView<T>) -> P
  ) -> JoinSelect<Self, (TableView<Self>, NullableTableView<T>)> where P.QueryValue: _BooleanQueryValue {
    joined(table, kind: .left, condition) { NullableTableView<T>(alias: $0) }
  }

  /// Inlinable with the two builders above, so that a join is built for the caller's tables
  /// (generic, it instantiates its types' metadata on every call).
  @inlinable
  static func joined<T: Table, P: QueryExpression, V: SourceView>(
    _ table: T.Type, kind: JoinClause.Kind, _ condition: (TableView<Self>, TableView<T>) -> P, view: (String) -> V
  ) -> JoinSelect<Self, (TableView<Self>, V)> {
    let base = Self.allStatement
    let firstAlias = base.alias ?? tableName
    let first = JoinSelect<Self, TableView<Self>>(statement: base, aliases: [firstAlias], views: TableView(alias: firstAlias))
    let (statement, alias, aliases) = first.joining(table, kind: kind) { alias in
      condition(first.views, TableView<T>(alias: alias)).expression
    }
    return JoinSelect<Self, (TableView<Self>, V)>(
      statement: statement, aliases: aliases, views: (first.views, view(alias)), joinedSchemas: [T.schema])
  }
}
