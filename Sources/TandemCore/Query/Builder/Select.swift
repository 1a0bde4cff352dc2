/// A typed SELECT over the table `Root`, producing values of type `Output` (whole records, one
/// column, or a tuple of columns).
///
/// ```swift
/// let open = Reminder.where { !$0.isCompleted }.order { $0.dueDate.desc() }.limit(10)
/// let titles = Reminder.all.select { $0.title }           // Select<Reminder, String>
/// let pairs = Reminder.all.select { ($0.id, $0.title) }   // Select<Reminder, (Int, String)>
/// ```
public struct Select<Root: Table, Output>: Sendable {
  /// The statement as written, before Tandem adds its deterministic tie-breakers.
  public var base: SelectStatement {
    didSet { runs = PreparedRuns() }
  }
  /// The statements this query runs, made once (a changed `base` starts afresh).
  @usableFromInline var runs = PreparedRuns()
  @usableFromInline let decodeRow: @Sendable (inout RowDecoder) throws -> Output
  /// Names the table and result columns in decoding errors (shared by every row decoded).
  @usableFromInline let decodingContext: RowDecodingContext
  /// The schemas of the other tables a join reads (for rendering its SQL on its own).
  public internal(set) var joinedSchemas: [TableSchema] = []

  init(base: SelectStatement, isRecord: Bool, decodeRow: @escaping @Sendable (inout RowDecoder) throws -> Output) {
    self.base = base
    self.decodeRow = decodeRow
    self.decodingContext =
      isRecord ? RowDecodingContext(Root.schema) : RowDecodingContext(table: Root.tableName, resultColumns: base.columns)
  }

  /// The statement a backend runs, with a deterministic order: without ORDER BY, rows come in
  /// rowid order (group-key order when grouped, result order when DISTINCT); every ORDER BY ends
  /// with the rowid (or the group keys / result columns) as the last tie-breaker.
  ///
  /// ```swift
  /// Reminder.order { $0.title }.statement.orderBy  // [title ASC, rowid ASC]
  /// ```
  public var statement: SelectStatement {
    var statement = base
    let tieBreakers: [SQLExpression]
    if !statement.compound.isEmpty {
      tieBreakers = statement.columns.indices.map { .resultColumn($0 + 1) }
    } else if !statement.groupBy.isEmpty {
      tieBreakers = statement.groupBy
    } else if statement.isAggregate {
      tieBreakers = []
    } else if statement.distinct {
      tieBreakers = statement.columns
    } else if statement.with == nil && statement.hasFromClause {
      // Every source is a table (the common case, made without the arrays of the general one).
      statement.orderBy.reserveCapacity(statement.orderBy.count + 1 + statement.joins.count)
      guard !statement.joins.isEmpty else {
        statement.orderBy.append(OrderingTerm(.rowid))
        return statement
      }
      statement.orderBy.append(Self.rowidTieBreaker(of: statement.alias ?? statement.table))
      for join in statement.joins { statement.orderBy.append(Self.rowidTieBreaker(of: join.alias ?? join.table)) }
      return statement
    } else {
      // A common table expression's rows have no rowid: its result columns order them instead.
      let sources = statement.sources
      let tables = statement.with.map { with in sources.filter { source in !with.tables.contains { $0.name == source.table } } }
        ?? sources
      let rowids: [SQLExpression] =
        statement.joins.isEmpty
        ? (tables.isEmpty ? [] : [.rowid]) : tables.map { Self.rowidTieBreaker(of: $0.alias).expression }
      tieBreakers = rowids + (tables.count < sources.count ? statement.columns : [])
    }
    statement.orderBy += tieBreakers.map { OrderingTerm($0) }
    return statement
  }

  /// The tie-breaker of a joined source named `alias`: its rowid, written `+"t".rowid`, which
  /// gives the same order but one SQLite cannot get by reading a table in rowid order, so it
  /// plans the join for its WHERE clause and sorts the rows found, instead of scanning the first
  /// table to skip the sort.
  private static func rowidTieBreaker(of alias: String) -> OrderingTerm {
    OrderingTerm(.unary(.plus, .qualifiedRowid(source: alias)))
  }

  /// ``statement`` prepared once, for `fetchAll`.
  @_spi(TandemBackend) @usableFromInline package var preparedForAll: PreparedStatement { runs.forAll { statement } }

  /// ``statement`` with `LIMIT 1` when it has no limit, prepared once, for `fetchOne`.
  @_spi(TandemBackend) @usableFromInline package var preparedForFirst: PreparedStatement {
    runs.forFirst {
      var first = statement
      if first.limit == nil { first.limit = .literal(.integer(1)) }
      return first
    }
  }

  /// Decodes one result row.
  ///
  /// ```swift
  /// try backend.select(query.statement, parameters: [:]) { row in records.append(try query.decode(row)) }
  /// ```
  @inlinable
  public func decode(_ values: [SqliteValue]) throws -> Output {
    var decoder = RowDecoder(values: values, context: decodingContext)
    return try decodeRow(&decoder)
  }
}

extension Table {
  /// Every row of the table.
  ///
  /// ```swift
  /// try db.fetchAll(Reminder.all)
  /// ```
  public static var all: Select<Self, Self> {
    Select(base: allStatement, isRecord: true, decodeRow: { try Self(row: &$0) })
  }

  /// The statement of ``all``: every column of every row, under the alias the queries around
  /// it leave this table.
  @usableFromInline static var allStatement: SelectStatement {
    SelectStatement(
      table: tableName, alias: SourceAliases.alias(for: tableName), columns: schema.columns.map { .column($0.name) })
  }

  /// Rows matching a predicate.
  ///
  /// ```swift
  /// Reminder.where { $0.isCompleted == false }
  /// ```
  public static func `where`<P: QueryExpression>(_ predicate: (TableView<Self>) -> P) -> Select<Self, Self>
  where P.QueryValue: _BooleanQueryValue {
    all.where(predicate)
  }

  /// Every row, in the given order.
  ///
  /// ```swift
  /// Reminder.order { ($0.isCompleted, $0.title) }   // ORDER BY "is_completed" ASC, "title" ASC, rowid ASC
  /// ```
  public static func order<First: OrderingConvertible, each Rest: OrderingConvertible>(
    _ ordering: (TableView<Self>) -> (First, repeat each Rest)
  ) -> Select<Self, Self> {
    all.order(ordering)
  }

  /// One row per group of equal keys.
  ///
  /// ```swift
  /// Reminder.group { $0.priority }   // GROUP BY "priority"
  /// ```
  public static func group<First: QueryExpression, each Rest: QueryExpression>(
    by keys: (TableView<Self>) -> (First, repeat each Rest)
  ) -> Select<Self, Self>
  where
    First.QueryValue: ColumnType, First.QueryValue._QueryEquality: _EqualityMatchesSwift,
    repeat (each Rest).QueryValue: ColumnType, repeat (each Rest).QueryValue._QueryEquality: _EqualityMatchesSwift
  {
    all.group(by: keys)
  }
}

extension Select {
  /// The name this query's source is qualified by.
  var alias: String { base.alias ?? base.table }

  /// The view closures receive; queries built inside them (subqueries) take other aliases.
  var view: TableView<Root> { TableView(alias: alias) }

  /// An expression of a closure, with this query's own columns unqualified when it reads one
  /// table (so its SQL reads as before); references to the queries around a subquery, and
  /// every reference of a join, stay qualified.
  func own(_ expression: SQLExpression) -> SQLExpression {
    guard base.joins.isEmpty else { return expression }
    let alias = self.alias
    return expression.unqualifyingColumns { $0 == alias }
  }

  /// Adds a predicate (combined with AND when called again).
  ///
  /// ```swift
  /// Reminder.all.where { $0.priority == .high }.where { !$0.isCompleted }
  /// ```
  public func `where`<P: QueryExpression>(_ predicate: (TableView<Root>) -> P) -> Select
  where P.QueryValue: _BooleanQueryValue {
    var copy = self
    let condition = own(SourceAliases.inside([alias]) { predicate(view) }.expression)
    copy.base.filter = base.filter.map { .binary(.and, $0, condition) } ?? condition
    return copy
  }

  /// Appends ORDER BY terms: an expression (ascending), `.asc()`/`.desc()`, or a tuple of them.
  ///
  /// The closure returns at least one term, of a ``QueryComparable`` type: a body that returns
  /// nothing (`{ $0.rating.desc(); $0.title }`, two statements) does not compile.
  ///
  /// ```swift
  /// Reminder.all.order { ($0.isCompleted, $0.dueDate.desc(nulls: .last)) }
  /// ```
  public func order<First: OrderingConvertible, each Rest: OrderingConvertible>(
    _ ordering: (TableView<Root>) -> (First, repeat each Rest)
  ) -> Select {
    var copy = self
    copy.base.orderBy += SourceAliases.inside([alias]) { orderingTerms(ordering, view) }.map { term in
      var term = term
      term.expression = own(term.expression)
      return term
    }
    return copy
  }

  /// `LIMIT count OFFSET offset`.
  ///
  /// ```swift
  /// Reminder.all.limit(10, offset: 20)
  /// ```
  public func limit(_ count: Int, offset: Int? = nil) -> Select {
    var copy = self
    copy.base.limit = .literal(.integer(Int64(count)))
    copy.base.offset = offset.map { .literal(.integer(Int64($0))) }
    return copy
  }

  /// `SELECT DISTINCT`.
  public func distinct(_ isDistinct: Bool = true) -> Select {
    var copy = self
    copy.base.distinct = isDistinct
    return copy
  }

  /// `GROUP BY keys`: one key or a tuple of them, each of a type whose stored equality is Swift's
  /// `==` (not JSON).
  ///
  /// ```swift
  /// Reminder.group { $0.priority }.select { ($0.priority, .countAll) }
  /// ```
  public func group<First: QueryExpression, each Rest: QueryExpression>(
    by keys: (TableView<Root>) -> (First, repeat each Rest)
  ) -> Select
  where
    First.QueryValue: ColumnType, First.QueryValue._QueryEquality: _EqualityMatchesSwift,
    repeat (each Rest).QueryValue: ColumnType, repeat (each Rest).QueryValue._QueryEquality: _EqualityMatchesSwift
  {
    var copy = self
    copy.base.groupBy += SourceAliases.inside([alias]) { expressions(keys, view) }.map(own)
    return copy
  }

  /// `HAVING predicate` (combined with AND when called again).
  public func having<P: QueryExpression>(_ predicate: (TableView<Root>) -> P) -> Select where P.QueryValue: _BooleanQueryValue {
    var copy = self
    let condition = own(SourceAliases.inside([alias]) { predicate(view) }.expression)
    copy.base.having = base.having.map { .binary(.and, $0, condition) } ?? condition
    return copy
  }

  /// Chooses one result column.
  ///
  /// ```swift
  /// let titles: Select<Reminder, String> = Reminder.all.select { $0.title }
  /// let total = Item.all.select { $0.stock.sum() }   // Select<Item, Int?>
  /// ```
  public func select<E: QueryExpression>(_ column: (TableView<Root>) -> E) -> Select<Root, E.QueryValue>
  where E.QueryValue: ColumnType {
    var statement = base
    statement.columns = [own(SourceAliases.inside([alias]) { column(view) }.expression)]
    return Select<Root, E.QueryValue>(
      base: statement, isRecord: false, decodeRow: { decoder in try decoder.decode(E.QueryValue.self) })
  }

  /// Chooses the result columns: a tuple of expressions.
  ///
  /// A body that returns nothing (`{ $0.a; $0.b }`, two statements) selects no column and fails
  /// with a ``TandemError/Kind/misuse`` when it runs, on every engine. (`order` and `group`
  /// reject such a body at compile time; `select` cannot without losing the inference of
  /// `results.map { $0.2 }`, which the compiler does not resolve through a leading generic.)
  ///
  /// ```swift
  /// let pairs = Reminder.all.select { ($0.id, $0.title) }   // Select<Reminder, (Int, String)>
  /// let stats = Reminder.group { $0.priority }.select { ($0.priority, TypedExpression.countAll) }
  /// ```
  public func select<each E: QueryExpression>(_ columns: (TableView<Root>) -> (repeat each E)) -> Select<Root, (repeat (each E).QueryValue)>
  where repeat (each E).QueryValue: ColumnType {
    var statement = base
    statement.columns = SourceAliases.inside([alias]) { expressions(columns, view) }.map(own)
    return Select<Root, (repeat (each E).QueryValue)>(
      base: statement, isRecord: false,
      decodeRow: { decoder in (repeat try decoder.decode((each E).QueryValue.self)) })
  }
}

// Builders take closures returning `(First, repeat each Rest)`, so that a body returning nothing
// (`()`, as two statements without `return` do) does not compile. These read such a closure's
// terms as one pack: the closure converts to `(C) -> (repeat each T)`.

/// The expressions a builder closure returns, in order.
func expressions<C, each T: QueryExpression>(_ body: (C) -> (repeat each T), _ columns: C) -> [SQLExpression] {
  let terms = body(columns)
  var list: [SQLExpression] = []
  for term in repeat each terms { list.append(term.expression) }
  return list
}

/// The ORDER BY terms an `order { }` closure returns, in order.
func orderingTerms<C, each T: OrderingConvertible>(_ body: (C) -> (repeat each T), _ columns: C) -> [OrderingTerm] {
  let terms = body(columns)
  var list: [OrderingTerm] = []
  for term in repeat each terms { list.append(term.orderingTerm) }
  return list
}
