/// One statement of the query model, as handed to a backend.
public enum Statement: Sendable, Hashable {
  case select(SelectStatement)
  case insert(InsertStatement)
  case update(UpdateStatement)
  case delete(DeleteStatement)

  /// The table the statement reads or writes.
  public var table: String {
    switch self {
    case .select(let s): s.table
    case .insert(let s): s.table
    case .update(let s): s.table
    case .delete(let s): s.table
    }
  }
}

/// `SELECT` over one table, or over several joined (``joins``).
///
/// The query builder makes the order deterministic before a backend sees it: without ORDER BY the
/// rows come in rowid order — of each source in FROM order, for a join — (group-key order when
/// grouped, result order when DISTINCT), and those rowids end every ORDER BY as the last
/// tie-breakers.
///
/// ```swift
/// // SELECT "reminders"."title", "lists"."name" FROM "reminders" JOIN "lists" ON …
/// SelectStatement(
///   table: "reminders",
///   joins: [JoinClause(.inner, table: "lists", on: .binary(.equal,
///     .qualifiedColumn(source: "reminders", name: "listID"), .qualifiedColumn(source: "lists", name: "id")))],
///   columns: [.qualifiedColumn(source: "reminders", name: "title"), .qualifiedColumn(source: "lists", name: "name")])
/// ```
public struct SelectStatement: Sendable, Hashable {
  /// The first source's table (empty when ``hasFromClause`` is false).
  public var table: String
  /// Whether the select reads a table; `false` for a select without FROM (`SELECT 1 + 1`), which
  /// reads one row of no columns.
  public var hasFromClause = true
  /// The first source's alias, when it is not the table's name.
  public var alias: String?
  /// Whether the first source is read without its indexes (`FROM "t" NOT INDEXED`): by its rowid
  /// only, as SQLite then plans it.
  public var notIndexed = false
  /// The sources joined to the first, in FROM order.
  public var joins: [JoinClause] = []
  /// The selects combined with this one (`UNION`, `UNION ALL`, `INTERSECT`, `EXCEPT`), left to
  /// right. When there are any, ``orderBy``, ``limit`` and ``offset`` apply to the whole
  /// compound, and its ORDER BY names result columns by position (``SQLExpression/resultColumn(_:)``).
  public var compound: [CompoundTerm] = []
  /// Common table expressions (`WITH [RECURSIVE] name(columns) AS (…)`) that this select and the
  /// queries inside it may read as tables.
  public var with: WithClause?
  /// The result columns.
  public var columns: [SQLExpression]
  public var distinct: Bool = false
  public var filter: SQLExpression?
  public var groupBy: [SQLExpression] = []
  public var having: SQLExpression?
  public var orderBy: [OrderingTerm] = []
  public var limit: SQLExpression?
  public var offset: SQLExpression?

  public init(
    table: String, alias: String? = nil, joins: [JoinClause] = [], columns: [SQLExpression], distinct: Bool = false,
    filter: SQLExpression? = nil, groupBy: [SQLExpression] = [], having: SQLExpression? = nil,
    orderBy: [OrderingTerm] = [], limit: SQLExpression? = nil, offset: SQLExpression? = nil
  ) {
    self.table = table
    self.alias = alias
    self.joins = joins
    self.columns = columns
    self.distinct = distinct
    self.filter = filter
    self.groupBy = groupBy
    self.having = having
    self.orderBy = orderBy
    self.limit = limit
    self.offset = offset
  }

  /// Whether the result columns contain an aggregate (so the query returns one row per group).
  public var isAggregate: Bool {
    !groupBy.isEmpty || columns.contains(where: \.containsAggregate) || (having?.containsAggregate ?? false)
  }

  /// The sources in FROM order: each one's table and the name it is qualified by.
  ///
  /// ```swift
  /// SelectStatement(table: "reminders", columns: [.column("id")]).sources  // [("reminders", "reminders")]
  /// ```
  public var sources: [(table: String, alias: String)] {
    (hasFromClause ? [(table, alias ?? table)] : []) + joins.map { ($0.table, $0.alias ?? $0.table) }
  }

  /// Whether the statement reads more than one table, holds a subquery, a compound or a WITH
  /// clause, or names its table by an alias: a relational query, rather than a scan of one table.
  public var isRelational: Bool {
    !hasFromClause || !joins.isEmpty || !compound.isEmpty || with != nil || (alias.map { $0 != table } ?? false)
      || expressions.contains(where: \.containsSubquery)
  }

  /// The selects a compound combines, left to right: this one (with the compound's ORDER BY and
  /// LIMIT) and each term's. A walk of a query's expressions visits each member's, over that
  /// member's own sources.
  ///
  /// ```swift
  /// // SELECT "a" FROM "t" UNION SELECT "b" FROM "u": the selects of "t" and of "u"
  /// select.memberSelects.flatMap(\.expressions)
  /// ```
  public var memberSelects: [SelectStatement] { [self] + compound.map(\.select) }

  /// The expressions of every member of this query and of every common table its WITH clause
  /// defines (and theirs, at any depth): what a walk over a subquery visits before it goes into
  /// the subqueries those expressions hold.
  ///
  /// ```swift
  /// // WITH c(n) AS (SELECT "x" FROM "t") SELECT "n" FROM "c": ["n", "x"]
  /// select.expressionsWithCommonTables
  /// ```
  package var expressionsWithCommonTables: [SQLExpression] {
    memberSelects.flatMap(\.expressions) + (with?.tables.flatMap(\.select.expressionsWithCommonTables) ?? [])
  }

  /// This select without its compound terms, ORDER BY, LIMIT and OFFSET: one member of a compound.
  public var compoundMember: SelectStatement {
    var member = self
    member.compound = []
    member.orderBy = []
    member.limit = nil
    member.offset = nil
    return member
  }

  /// The expressions an aggregate query evaluates once per group, after grouping: result
  /// columns, ORDER BY and HAVING.
  ///
  /// ```swift
  /// // SELECT "k", count(*) FROM "t" GROUP BY "k" HAVING count(*) > 1 ORDER BY "k": ["k", count(*), "k", count(*) > 1]
  /// select.groupOutputs
  /// ```
  package var groupOutputs: [SQLExpression] {
    columns + orderBy.map(\.expression) + (having.map { [$0] } ?? [])
  }

  /// Every expression of this query level: result columns, join conditions, WHERE, GROUP BY,
  /// HAVING, ORDER BY, LIMIT and OFFSET.
  public var expressions: [SQLExpression] {
    var list = columns + joins.compactMap(\.condition) + groupBy + orderBy.map(\.expression)
    for clause in [filter, having, limit, offset] { if let clause { list.append(clause) } }
    return list
  }
}

/// `WITH [RECURSIVE] …`: the common table expressions a select reads as tables.
///
/// ```swift
/// // WITH RECURSIVE "counter"("n") AS (SELECT 1 UNION ALL SELECT ("n" + 1) FROM "counter" WHERE ("n" < 5)) …
/// WithClause(recursive: true, tables: [CommonTableExpression(name: "counter", columns: ["n"], select: counting)])
/// ```
public struct WithClause: Sendable, Hashable {
  /// Whether a table may read itself (`WITH RECURSIVE`).
  public var recursive: Bool
  /// The tables, in order; each may read those before it.
  public var tables: [CommonTableExpression]

  public init(recursive: Bool = false, tables: [CommonTableExpression]) {
    self.recursive = recursive
    self.tables = tables
  }
}

/// One common table expression: a named table whose rows a select computes.
///
/// A recursive one is a compound: its first members (not reading the table) give the first rows,
/// its last member (reading the table, once per row found) the rows that follow.
public struct CommonTableExpression: Sendable, Hashable {
  public var name: String
  /// The names of its columns, one per result column of `select`.
  public var columns: [String]
  public var select: SelectStatement
  /// Whether it stands for a subquery written in FROM, or a view read there (a derived table):
  /// SQLite gives a derived table's rows a rowid a query may name — NULL, or the row's position,
  /// as its plan decides — where a common table expression's rows have none.
  public var isDerivedTable: Bool

  /// A common table expression, or with `isDerivedTable` a subquery read in FROM.
  ///
  /// ```swift
  /// CommonTableExpression(name: "open", columns: ["id"], select: SelectStatement(table: "reminders", columns: [.column("id")]))
  /// ```
  public init(name: String, columns: [String], select: SelectStatement, isDerivedTable: Bool = false) {
    self.name = name
    self.columns = columns
    self.select = select
    self.isDerivedTable = isDerivedTable
  }
}

/// One select of a compound, with the operator that combines it with the selects before it.
///
/// ```swift
/// // SELECT "name" FROM "lists" UNION SELECT "title" FROM "reminders" ORDER BY 1
/// var statement = SelectStatement(table: "lists", columns: [.column("name")], orderBy: [OrderingTerm(.resultColumn(1))])
/// statement.compound = [CompoundTerm(.union, SelectStatement(table: "reminders", columns: [.column("title")]))]
/// ```
public struct CompoundTerm: Sendable, Hashable {
  /// How a compound combines two selects.
  public enum Operator: String, Sendable, Hashable {
    /// The distinct rows of either.
    case union = "UNION"
    /// Every row of both.
    case unionAll = "UNION ALL"
    /// The distinct rows of the left that the right has too.
    case intersect = "INTERSECT"
    /// The distinct rows of the left that the right does not have.
    case except = "EXCEPT"
  }

  public var `operator`: Operator
  public var select: SelectStatement

  public init(_ operator: Operator, _ select: SelectStatement) {
    self.operator = `operator`
    self.select = select
  }
}

/// One table joined to the sources before it.
///
/// ```swift
/// JoinClause(.left, table: "reminders", on: .binary(.equal,
///   .qualifiedColumn(source: "lists", name: "id"), .qualifiedColumn(source: "reminders", name: "listID")))
/// ```
public struct JoinClause: Sendable, Hashable {
  /// How rows of this table combine with the rows before it.
  public enum Kind: String, Sendable, Hashable {
    /// `JOIN … ON`: the pairs that satisfy the condition.
    case inner = "JOIN"
    /// `LEFT JOIN … ON`: as inner, plus each earlier row without a match, with NULLs for this table.
    case left = "LEFT JOIN"
    /// `CROSS JOIN`: every pair (a condition, if any, filters them like an inner join's).
    case cross = "CROSS JOIN"
  }

  public var kind: Kind
  /// The joined table.
  public var table: String
  /// The name its columns are qualified by, when it is not the table's name (a self-join).
  public var alias: String?
  /// The ON condition.
  public var condition: SQLExpression?
  /// Whether the table is read without its indexes (`JOIN "t" NOT INDEXED`): by its rowid only.
  public var notIndexed = false

  /// A join of `table` (named `alias` in the query, if given) on `condition`.
  public init(_ kind: Kind, table: String, alias: String? = nil, on condition: SQLExpression? = nil) {
    self.kind = kind
    self.table = table
    self.alias = alias
    self.condition = condition
  }
}

/// One ORDER BY term.
public struct OrderingTerm: Sendable, Hashable {
  public var expression: SQLExpression
  public var descending: Bool
  /// Where NULLs go; `nil` is SQLite's default (first when ascending, last when descending).
  public var nulls: NullsOrder?

  public init(_ expression: SQLExpression, descending: Bool = false, nulls: NullsOrder? = nil) {
    self.expression = expression
    self.descending = descending
    self.nulls = nulls
  }

  /// NULLS FIRST or NULLS LAST.
  public enum NullsOrder: String, Sendable, Hashable {
    case first = "NULLS FIRST"
    case last = "NULLS LAST"
  }
}

/// `INSERT` of one or more rows.
public struct InsertStatement: Sendable, Hashable {
  public var table: String
  /// The columns given values; the others take their defaults (or a new rowid).
  public var columns: [String]
  /// One expression list per row, each as long as `columns`.
  public var rows: [[SQLExpression]]
  /// What to do when a row conflicts with a uniqueness constraint.
  public var conflict: ConflictResolution

  public init(table: String, columns: [String], rows: [[SQLExpression]], conflict: ConflictResolution = .abort) {
    self.table = table
    self.columns = columns
    self.rows = rows
    self.conflict = conflict
  }

  /// Conflict handling for inserts.
  public enum ConflictResolution: Sendable, Hashable {
    /// Fail the statement (the default).
    case abort
    /// `INSERT OR REPLACE`: delete the conflicting rows, then insert.
    case replace
    /// `INSERT OR IGNORE`: skip the conflicting row.
    case ignore
    /// `ON CONFLICT (target) DO UPDATE SET …` (an upsert); `excluded.x` names the proposed values.
    case update(target: [String], assignments: [Assignment])
    /// `ON CONFLICT (target) DO NOTHING`.
    case nothing(target: [String])
  }
}

/// `column = expression` in an UPDATE or an upsert.
public struct Assignment: Sendable, Hashable {
  public var column: String
  public var value: SQLExpression
  public init(column: String, value: SQLExpression) {
    self.column = column
    self.value = value
  }
}

/// `UPDATE table SET … [WHERE …]`.
public struct UpdateStatement: Sendable, Hashable {
  public var table: String
  public var assignments: [Assignment]
  public var filter: SQLExpression?
  public init(table: String, assignments: [Assignment], filter: SQLExpression? = nil) {
    self.table = table
    self.assignments = assignments
    self.filter = filter
  }
}

/// `DELETE FROM table [WHERE …]`.
public struct DeleteStatement: Sendable, Hashable {
  public var table: String
  public var filter: SQLExpression?
  public init(table: String, filter: SQLExpression? = nil) {
    self.table = table
    self.filter = filter
  }
}

extension SQLExpression {
  /// Whether an aggregate call appears anywhere in the expression.
  public var containsAggregate: Bool {
    switch self {
    case .aggregate: true
    // An aggregate inside a subquery aggregates the subquery's rows.
    case .column, .rowid, .excluded, .literal, .parameter, .qualifiedColumn, .qualifiedRowid, .subquery, .exists,
      .resultColumn:
      false
    case .inSubquery(let e, _, _): e.containsAggregate
    case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): e.containsAggregate
    case .binary(_, let a, let b): a.containsAggregate || b.containsAggregate
    case .function(_, let args): args.contains(where: \.containsAggregate)
    case .inList(let e, let list, _): e.containsAggregate || list.contains(where: \.containsAggregate)
    case .between(let a, let b, let c, _): a.containsAggregate || b.containsAggregate || c.containsAggregate
    case .like(let a, let b, let c, _): a.containsAggregate || b.containsAggregate || (c?.containsAggregate ?? false)
    case .glob(let a, let b, _): a.containsAggregate || b.containsAggregate
    case .caseWhen(let base, let branches, let otherwise):
      (base?.containsAggregate ?? false)
        || branches.contains { $0.when.containsAggregate || $0.then.containsAggregate }
        || (otherwise?.containsAggregate ?? false)
    }
  }
}

extension Statement {
  /// Whether the statement reads more than one table or holds a subquery.
  ///
  /// ```swift
  /// Statement.select(SelectStatement(table: "t", columns: [.column("a")])).isRelational  // false
  /// ```
  public var isRelational: Bool {
    switch self {
    case .select(let s): s.isRelational
    case .insert: false
    case .update(let s): s.filter?.containsSubquery == true || s.assignments.contains { $0.value.containsSubquery }
    case .delete(let s): s.filter?.containsSubquery == true
    }
  }

  /// The subqueries of the statement's own clauses (not those nested inside them).
  public var directSubqueries: [SelectStatement] {
    switch self {
    case .select(let s):
      s.expressions.flatMap(\.directSubqueries) + s.compound.flatMap { Statement.select($0.select).directSubqueries }
    case .insert: []
    case .update(let s): ((s.filter.map { [$0] } ?? []) + s.assignments.map(\.value)).flatMap(\.directSubqueries)
    case .delete(let s): s.filter?.directSubqueries ?? []
    }
  }

  /// Every table the statement names, its subqueries' included, each once, in order of appearance.
  ///
  /// ```swift
  /// // SELECT … FROM "lists" WHERE EXISTS (SELECT … FROM "reminders" …)
  /// statement.tablesRead  // ["lists", "reminders"]
  /// ```
  public var tablesRead: [String] {
    var names: [String] = [table]
    if case .select(let s) = self {
      names += s.joins.map(\.table)
      for term in s.compound { names += Statement.select(term.select).tablesRead }
      for table in s.with?.tables ?? [] { names += Statement.select(table.select).tablesRead }
    }
    for query in directSubqueries {
      names += Statement.select(query).tablesRead
    }
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }
}
