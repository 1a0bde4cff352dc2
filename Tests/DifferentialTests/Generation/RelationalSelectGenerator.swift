import Tandem
import SeededRandomness

/// Random relational SELECTs: up to four sources joined by inner, left and cross joins (a table
/// may join itself under an alias), conditions in ON and in WHERE, qualified columns,
/// aggregates, GROUP BY, HAVING and DISTINCT over joins, subqueries — scalar, EXISTS and
/// IN, correlated or not — wherever an expression goes, compound selects (UNION, UNION ALL,
/// INTERSECT, EXCEPT) at the top level and as subqueries, and common table expressions (some
/// recursive) read as sources beside the tables.
///
/// Every statement, subqueries included, is made deterministic as `Select.statement` makes it:
/// its ORDER BY ends with the group keys, the result columns (DISTINCT) or every source's rowid.
struct RelationalSelectGenerator {
  var expressions: ExpressionGenerator
  let schemas: [TableSchema]
  /// How many query levels surround this one.
  let nesting: Int
  /// A table the subqueries should not read (the target of an UPDATE or DELETE), except rarely.
  let avoiding: String?

  /// Subqueries nest this deep at most.
  static let maxNesting = 2
  static let aliases = ["a", "b", "x y", "sel.ect", "Ö", "where", #"q"2"#, "T"]

  /// A generator for one query level inside `outer` (innermost level first).
  init(random: SplitMix64, schemas: [TableSchema], outer: [FuzzSource], nesting: Int, avoiding: String? = nil) {
    expressions = ExpressionGenerator(random: random, table: schemas[0])
    expressions.outerSources = outer
    expressions.unknownColumnRate = 0.001
    self.schemas = schemas
    self.nesting = nesting
    self.avoiding = avoiding
    if nesting < Self.maxNesting {
      expressions.subquery = Self.subqueryMaker(schemas: schemas, nesting: nesting, avoiding: avoiding)
      expressions.subqueryRate = nesting == 0 ? 0.1 : 0.05
    }
  }

  private var random: SplitMix64 {
    get { expressions.random }
    set { expressions.random = newValue }
  }

  // MARK: - Top-level SELECT

  /// A top-level select of 1–4 sources (one source only with subqueries, which make it relational).
  mutating func select() -> SelectStatement {
    if random.chance(0.08) { return compoundSelect() }
    let with = random.chance(0.08) ? commonTable() : nil
    let count = random.weighted([(2, 1), (5, 2), (3, 3), (2, 4)])
    if count == 1 && with == nil { expressions.subqueryRate = 0.3 }
    var statement = from(count, first: with?.source)
    statement.with = with?.clause
    switch random.weighted([(6, 0), (1, 1), (2, 2), (3, 3)]) {
    case 0: plain(&statement)
    case 1: distinct(&statement)
    case 2: aggregate(&statement)
    default: grouped(&statement)
    }
    if random.chance(0.2) { statement.limit = limitValue(anyValue: true) }
    if random.chance(0.12) { statement.offset = limitValue(anyValue: true) }
    statement.orderBy += SelectGenerator.tieBreakers(for: statement).map { OrderingTerm($0) }
    return statement
  }

  // MARK: - FROM

  /// `count` sources, each joined to those before it, and ``expressions`` set to name them.
  private mutating func from(_ count: Int, tables: [TableSchema]? = nil, first: TableSchema? = nil) -> SelectStatement {
    let pool = (tables ?? schemas) + (first.map { [$0] } ?? [])
    var sources: [FuzzSource] = []
    var joins: [JoinClause] = []
    var firstAlias: String?
    for position in 0..<count {
      let table = position == 0 ? first ?? random.pick(pool) : random.pick(pool)
      let alias = alias(for: table, among: sources)
      let source = FuzzSource(table: table, alias: alias ?? table.name)
      if position == 0 {
        firstAlias = alias
      } else {
        let kind = random.weighted([(5, JoinClause.Kind.inner), (3, .left), (2, .cross)])
        expressions.sources = sources + [source]
        var condition: SQLExpression?
        switch kind {
        case .cross: condition = random.chance(0.15) ? joinCondition(source, earlier: sources) : nil
        default: condition = random.chance(0.93) ? joinCondition(source, earlier: sources) : nil
        }
        joins.append(JoinClause(kind, table: table.name, alias: alias, on: condition))
      }
      sources.append(source)
    }
    expressions.sources = sources
    expressions.table = sources[0].table
    return SelectStatement(table: sources[0].table.name, alias: firstAlias, joins: joins, columns: [])
  }

  /// No alias (mostly), unless the table is already a source of this level: then a fresh one.
  private mutating func alias(for table: TableSchema, among sources: [FuzzSource]) -> String? {
    let taken = Set(sources.map { SchemaGenerator.fold($0.alias) })
    if !taken.contains(SchemaGenerator.fold(table.name)) && random.chance(0.8) { return nil }
    let candidates = (Self.aliases + [table.name + "_2", table.name + "_3"]).filter {
      !taken.contains(SchemaGenerator.fold($0))
    }
    return random.pick(candidates)
  }

  /// An ON condition: usually the foreign key between the new source and an earlier one (or an
  /// equality of two columns), sometimes with another condition AND-ed, sometimes any condition.
  private mutating func joinCondition(_ source: FuzzSource, earlier: [FuzzSource]) -> SQLExpression {
    if random.chance(0.1) { return expressions.predicate(depth: random.int(0...2)) }
    var condition = link(source, to: random.pick(earlier))
    if random.chance(0.3) {
      let extra = expressions.predicate(depth: random.int(0...2))
      condition = random.chance(0.5) ? .binary(.and, condition, extra) : .binary(.and, extra, condition)
    }
    return condition
  }

  /// `a.ref = b.key` when one references the other, else an equality of two of their columns.
  mutating func link(_ a: FuzzSource, to b: FuzzSource) -> SQLExpression {
    var links: [(SQLExpression, SQLExpression)] = []
    for (from, to) in [(a, b), (b, a)] {
      for column in from.table.columns {
        guard let key = column.references,
          SchemaGenerator.fold(key.table) == SchemaGenerator.fold(to.table.name)
        else { continue }
        links.append(
          (.qualifiedColumn(source: from.alias, name: column.name), .qualifiedColumn(source: to.alias, name: key.column)))
      }
    }
    var pair: (SQLExpression, SQLExpression)
    if !links.isEmpty && random.chance(0.8) {
      pair = random.pick(links)
    } else {
      pair = (reference(a), reference(b))
    }
    if random.chance(0.5) { pair = (pair.1, pair.0) }
    let op: BinaryOperator = random.weighted([(12, .equal), (1, .is), (1, .less), (1, .greaterOrEqual), (1, .notEqual)])
    return .binary(op, pair.0, pair.1)
  }

  /// A column (sometimes the rowid) of `source`, qualified.
  private mutating func reference(_ source: FuzzSource) -> SQLExpression {
    random.chance(0.15)
      ? .qualifiedRowid(source: source.alias)
      : .qualifiedColumn(source: source.alias, name: random.pick(source.table.columns).name)
  }

  // MARK: - Shapes

  private mutating func filter() -> SQLExpression? {
    random.chance(0.7) ? expressions.predicate(depth: random.int(0...3)) : nil
  }

  private mutating func plain(_ statement: inout SelectStatement) {
    if random.chance(0.1) {
      // Every column of one source, as `source.*` lists them.
      let source = random.pick(expressions.sources)
      statement.columns = source.table.columns.map { .qualifiedColumn(source: source.alias, name: $0.name) }
    }
    statement.columns += (0..<random.int(statement.columns.isEmpty ? 1...4 : 0...2)).map { _ in
      random.chance(0.4) ? expressions.columnLeaf() : expressions.expression(depth: random.int(1...3))
    }
    statement.filter = filter()
    statement.orderBy = (0..<random.weighted([(3, 0), (3, 1), (2, 2), (1, 3)])).map { _ in
      ordering(random.chance(0.5) ? expressions.columnLeaf() : expressions.expression(depth: 2))
    }
  }

  private mutating func distinct(_ statement: inout SelectStatement) {
    statement.distinct = true
    statement.columns = (0..<random.int(1...3)).map { _ in
      random.chance(0.6) ? expressions.columnLeaf() : expressions.expression(depth: 2)
    }
    statement.filter = filter()
    statement.orderBy = (0..<random.int(0...2)).map { _ in
      var term = random.pick(statement.columns)
      if random.chance(0.2) { term = .collate(term, random.pick([Collation.nocase, .rtrim])) }
      return ordering(term)
    }
  }

  private mutating func aggregate(_ statement: inout SelectStatement) {
    expressions.mode = .grouped(keys: [])
    statement.columns = (0..<random.int(1...3)).map { _ in groupedExpression() }
    if !statement.columns.contains(where: \.containsAggregate) { statement.columns.append(expressions.aggregate()) }
    if random.chance(0.2) { statement.having = expressions.predicate(depth: random.int(0...2)) }
    expressions.mode = .row
    statement.filter = filter()
  }

  private mutating func grouped(_ statement: inout SelectStatement) {
    let keys: [SQLExpression] = (0..<random.weighted([(5, 1), (2, 2)])).map { _ in
      switch random.weighted([(8, 0), (2, 1), (2, 2)]) {
      case 0: return expressions.columnLeaf()
      case 1: return .collate(expressions.columnLeaf(), random.pick([Collation.nocase, .rtrim, .binary]))
      default: return expressions.expression(depth: 2)
      }
    }
    statement.groupBy = keys
    expressions.mode = .grouped(keys: keys)
    var columns: [SQLExpression] = []
    for key in keys where random.chance(0.7) { columns.append(key) }
    columns += (0..<random.int(1...3)).map { _ in groupedExpression() }
    statement.columns = columns
    if random.chance(0.4) { statement.having = expressions.predicate(depth: random.int(0...2)) }
    statement.orderBy = (0..<random.int(0...2)).map { _ in
      ordering(random.chance(0.5) ? random.pick(keys) : groupedExpression())
    }
    if keys.allSatisfy(columns.contains) && random.chance(0.15) { statement.distinct = true }
    expressions.mode = .row
    statement.filter = filter()
  }

  private mutating func groupedExpression() -> SQLExpression {
    random.chance(0.4) ? expressions.aggregate() : expressions.expression(depth: random.int(1...2))
  }

  private mutating func ordering(_ expression: SQLExpression) -> OrderingTerm {
    let nulls: OrderingTerm.NullsOrder? = random.weighted([(6, nil), (1, .first), (1, .last)])
    return OrderingTerm(expression, descending: random.chance(0.4), nulls: nulls)
  }

  /// A LIMIT or OFFSET: a small integer, sometimes (`anyValue`) one SQLite converts or rejects.
  private mutating func limitValue(anyValue: Bool) -> SQLExpression {
    guard anyValue else { return .literal(.integer(Int64(random.int(0...3)))) }
    switch random.weighted([(10, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 5)]) {
    case 0: return .literal(.integer(Int64(random.int(-2...5))))
    case 1: return .literal(.text("2"))
    case 2: return .literal(.real(2.5))
    case 3: return .literal(.null)
    case 4: return .literal(.text("abc"))
    default: return expressions.parameter(.integer(Int64(random.int(0...3))))
    }
  }

  // MARK: - Compound selects

  /// A compound of two or three selects of one width, ordered by every result column (the order
  /// the typed API gives a compound), sometimes limited.
  private mutating func compoundSelect() -> SelectStatement {
    let width = random.weighted([(3, 1), (2, 2), (1, 3)])
    var statement = compoundMember(width: width, tables: schemas, correlated: false)
    statement.compound = (0..<random.weighted([(4, 1), (1, 2)])).map { _ in
      CompoundTerm(compoundOperator(), compoundMember(width: width, tables: schemas, correlated: false))
    }
    statement.orderBy = (1...width).map { ordering(.resultColumn($0)) }
    if random.chance(0.2) { statement.limit = limitValue(anyValue: true) }
    if random.chance(0.1) { statement.offset = limitValue(anyValue: true) }
    return statement
  }

  private mutating func compoundOperator() -> CompoundTerm.Operator {
    random.weighted([(3, .union), (3, .unionAll), (2, .intersect), (2, .except)])
  }

  /// One select of a compound: one or two sources (linked, when `correlated`, to a level around
  /// it), `width` result columns, a filter; sometimes an aggregate, grouped or DISTINCT.
  private mutating func compoundMember(width: Int, tables: [TableSchema], correlated: Bool) -> SelectStatement {
    var statement = from(random.weighted([(3, 1), (2, 2)]), tables: tables)
    switch random.weighted([(6, 0), (1, 1), (2, 2), (1, 3)]) {
    case 1:  // an aggregate: one row
      expressions.mode = .grouped(keys: [])
      statement.columns = (0..<width).map { _ in expressions.aggregate() }
      expressions.mode = .row
    case 2:  // grouped
      let key = expressions.columnLeaf()
      statement.groupBy = [key]
      expressions.mode = .grouped(keys: [key])
      statement.columns = [key] + (1..<max(width, 1)).map { _ in groupedExpression() }
      if random.chance(0.2) { statement.having = expressions.predicate(depth: random.int(0...1)) }
      expressions.mode = .row
    default:
      statement.columns = (0..<width).map { _ in
        random.chance(0.6) ? expressions.columnLeaf() : expressions.expression(depth: random.int(1...2))
      }
      statement.distinct = random.chance(0.1)
    }
    statement.filter = correlated ? subqueryFilter() : filter()
    return statement
  }

  /// A one-column compound as a subquery, its members often correlated with the levels around
  /// it; a scalar one is ordered by its column (it reads the first row).
  private mutating func compoundSubquery(_ kind: SubqueryKind, tables: [TableSchema]) -> SelectStatement {
    var statement = compoundMember(width: 1, tables: tables, correlated: true)
    statement.compound = [CompoundTerm(compoundOperator(), compoundMember(width: 1, tables: tables, correlated: true))]
    if kind == .scalar || random.chance(0.3) { statement.orderBy = [ordering(.resultColumn(1))] }
    if kind == .scalar && random.chance(0.3) { statement.limit = limitValue(anyValue: false) }
    return statement
  }

  // MARK: - Common table expressions

  /// Names a common table takes: none is a table's name (one would hide the table).
  static let commonTableNames = ["cte", "w ith", "Ñ"]

  /// A WITH clause of one common table — a select or a compound over the tables, or a recursive
  /// count — and the schema its rows are read by (columns without a declared type).
  private mutating func commonTable() -> (clause: WithClause, source: TableSchema) {
    let taken = Set(schemas.map { SchemaGenerator.fold($0.name) })
    let name = random.pick(Self.commonTableNames.filter { !taken.contains(SchemaGenerator.fold($0)) })
    let recursive = random.chance(0.35)
    let width = recursive ? 1 : random.weighted([(3, 1), (2, 2)])
    let columns = ["n", "v w"].prefix(width).map { $0 }
    var body: SelectStatement
    if recursive {
      body = recursiveCount(name: name, column: columns[0])
    } else if random.chance(0.25) {
      body = compoundMember(width: width, tables: schemas, correlated: false)
      body.compound = [CompoundTerm(compoundOperator(), compoundMember(width: width, tables: schemas, correlated: false))]
    } else {
      body = compoundMember(width: width, tables: schemas, correlated: false)
      if random.chance(0.15) {
        body.orderBy = SelectGenerator.tieBreakers(for: body).map { OrderingTerm($0) }
        body.limit = limitValue(anyValue: false)
      }
    }
    let table = CommonTableExpression(name: name, columns: columns, select: body)
    let schema = TableSchema(name, columns: columns.map { .column($0, .null(.blob)) })
    return (WithClause(recursive: recursive, tables: [table]), schema)
  }

  /// `SELECT <start> UNION [ALL] SELECT n + <step> FROM <name> WHERE n < <bound> LIMIT 20`: the
  /// start a constant or a table's column (any value: text, REAL, NULL), the LIMIT a safety net.
  private mutating func recursiveCount(name: String, column: String) -> SelectStatement {
    var start: SelectStatement
    if random.chance(0.5) {
      start = SelectStatement(table: "", columns: [.literal(.integer(Int64(random.int(-2...3))))])
      start.hasFromClause = false
    } else {
      start = from(1)
      start.columns = [expressions.columnLeaf()]
      start.filter = filter()
    }
    let value = SQLExpression.qualifiedColumn(source: name, name: column)
    let next: SQLExpression =
      switch random.weighted([(5, 0), (1, 1), (1, 2), (1, 3)]) {
      case 0: .binary(.add, value, .literal(.integer(Int64(random.int(1...2)))))
      case 1: .binary(.multiply, value, .literal(2))
      case 2: .binary(.add, .cast(value, as: .integer), .literal(0.5))
      default: .binary(.concatenate, value, .literal("1"))
      }
    let step = SelectStatement(
      table: name, columns: [next], filter: .binary(.less, value, .literal(.integer(Int64(random.int(2...6))))))
    start.compound = [CompoundTerm(random.chance(0.6) ? .union : .unionAll, step)]
    start.limit = .literal(.integer(20))
    return start
  }

  // MARK: - Subqueries

  /// What a subquery is used as.
  enum SubqueryKind { case scalar, exists, `in` }

  /// The ``ExpressionGenerator/subquery`` of a query level `nesting` levels deep: a scalar
  /// subquery, `[NOT] EXISTS` or `x [NOT] IN (SELECT …)` over the schemas, reading the levels
  /// around it (the generator's sources, or its table for a single-table statement).
  static func subqueryMaker(
    schemas: [TableSchema], nesting: Int, avoiding: String?
  ) -> (inout ExpressionGenerator, Int) -> SQLExpression {
    { outer, depth in
      let around =
        (outer.sources.isEmpty ? [FuzzSource(table: outer.table, alias: outer.table.name)] : outer.sources)
        + outer.outerSources
      var inner = RelationalSelectGenerator(
        random: outer.random, schemas: schemas, outer: around, nesting: nesting + 1, avoiding: avoiding)
      inner.expressions.parameters = outer.parameters
      let kind = inner.random.weighted([(4, SubqueryKind.scalar), (3, .exists), (3, .in)])
      let query = inner.subquerySelect(kind)
      outer.random = inner.expressions.random
      outer.parameters = inner.expressions.parameters
      switch kind {
      case .scalar:
        return .subquery(query)
      case .exists:
        return .exists(query, negated: outer.random.chance(0.35))
      case .in:
        let saved = outer.subqueryRate
        outer.subqueryRate = 0
        let operand = outer.random.chance(0.5) ? outer.columnLeaf() : outer.expression(depth: max(0, depth - 1))
        outer.subqueryRate = saved
        return .inSubquery(operand, query, negated: outer.random.chance(0.35))
      }
    }
  }

  /// The query of a subquery: one or two sources, often correlated with a level around it
  /// through a foreign key or a column equality; one result column unless under EXISTS.
  mutating func subquerySelect(_ kind: SubqueryKind) -> SelectStatement {
    var tables = schemas
    if let avoiding, tables.count > 1, random.chance(0.97) {
      tables.removeAll { SchemaGenerator.fold($0.name) == SchemaGenerator.fold(avoiding) }
    }
    if random.chance(0.06) { return compoundSubquery(kind, tables: tables) }
    var statement = from(random.weighted([(6, 1), (2, 2)]), tables: tables)
    let oneRow: Bool
    switch random.weighted([(kind == .scalar ? 6 : 2, 0), (kind == .scalar ? 3 : 6, 1), (1, 2), (1, 3)]) {
    case 0:  // an aggregate: one row
      expressions.mode = .grouped(keys: [])
      statement.columns = [random.chance(0.7) ? expressions.aggregate() : groupedExpression()]
      if !statement.columns[0].containsAggregate { statement.columns = [expressions.aggregate()] }
      if random.chance(0.1) { statement.having = expressions.predicate(depth: random.int(0...1)) }
      expressions.mode = .row
      oneRow = true
    case 1:  // plain
      statement.columns = [random.chance(0.6) ? expressions.columnLeaf() : expressions.expression(depth: random.int(1...2))]
      if kind == .exists && random.chance(0.3) { statement.columns.append(expressions.columnLeaf()) }
      statement.orderBy = (0..<random.int(0...1)).map { _ in ordering(expressions.expression(depth: 1)) }
      oneRow = false
    case 2:  // DISTINCT
      statement.distinct = true
      statement.columns = [expressions.columnLeaf()]
      oneRow = false
    default:  // grouped
      let key = expressions.columnLeaf()
      statement.groupBy = [key]
      expressions.mode = .grouped(keys: [key])
      statement.columns = [random.chance(0.5) ? key : groupedExpression()]
      if random.chance(0.3) { statement.having = expressions.predicate(depth: random.int(0...1)) }
      expressions.mode = .row
      oneRow = false
    }
    statement.filter = subqueryFilter()
    if !oneRow && random.chance(kind == .scalar ? 0.4 : 0.15) { statement.limit = limitValue(anyValue: false) }
    if !oneRow && random.chance(0.08) { statement.offset = limitValue(anyValue: false) }
    // A scalar subquery reads its first row, and LIMIT/OFFSET cut the rows: their order must be
    // determined. IN and EXISTS do not depend on the order otherwise, and get the tie-breakers
    // only sometimes (the typed API writes none).
    if kind == .scalar || statement.limit != nil || statement.offset != nil || random.chance(0.5) {
      statement.orderBy += SelectGenerator.tieBreakers(for: statement).map { OrderingTerm($0) }
    }
    return statement
  }

  /// Usually correlated: a source of this level linked to one around it, sometimes with a condition more.
  private mutating func subqueryFilter() -> SQLExpression? {
    var terms: [SQLExpression] = []
    if !expressions.outerSources.isEmpty && random.chance(0.65) {
      terms.append(link(random.pick(expressions.sources), to: random.pick(expressions.outerSources)))
    }
    if terms.isEmpty ? random.chance(0.6) : random.chance(0.4) {
      terms.append(expressions.predicate(depth: random.int(0...2)))
    }
    guard let first = terms.first else { return nil }
    return terms.dropFirst().reduce(first) { .binary(.and, $0, $1) }
  }
}
