import TandemCore

extension SQLTextWriter {
  /// Writes a SELECT: its sources and joins, then its clauses; subqueries are written by the same
  /// method, one query level deeper.
  ///
  /// Aggregates and DISTINCT can depend on the order rows are visited in (floating-point sums,
  /// which of two equal values represents a group, bare columns). The memory engine visits the
  /// rows of such a query in one documented order — sources in FROM order, each in rowid order —
  /// and this method pins SQLite to the same order: every source `NOT INDEXED` (rowid lookups stay
  /// allowed) and inner joins written as `CROSS JOIN`, which SQLite never reorders. A single
  /// table's aggregate or DISTINCT is always pinned; a join's only when its answer can depend on
  /// the order (``SelectStatement/answerDependsOnVisitOrder(_:)``). Other joins are written as
  /// `JOIN`, and SQLite plans them freely: their rows are then sorted by an ORDER BY that ends
  /// with every source's rowid, so the plan cannot change the answer. A join ordered by nothing
  /// but those rowids, without LIMIT or OFFSET, is sorted by the caller when it allows it
  /// (``writeJoinLeavingRowidOrder(_:)``), when it is the statement itself (`isStatement`): a
  /// subquery's rows are read by SQLite, which would meet the rowid columns.
  mutating func writeSelect(_ select: SelectStatement, isStatement: Bool = false) throws {
    if isStatement, leavesRowidOrderToCaller, writesOrderedSubqueries, select.with == nil, select.compound.isEmpty,
      !select.joins.isEmpty, !select.isAggregate, !select.distinct, !select.columns.isEmpty, select.limit == nil,
      select.offset == nil, isOrderedByRowidsAlone(select)
    {
      return try writeJoinLeavingRowidOrder(select)
    }
    if writesOrderedSubqueries, scopes.isEmpty, select.with == nil, select.compound.isEmpty, !select.joins.isEmpty,
      !select.isAggregate,
      !select.distinct, !select.orderBy.isEmpty, !select.columns.isEmpty, select.limit == nil, select.offset == nil,
      select.orderBy.allSatisfy({ resolvesSurely($0.expression, in: select) })
    {
      return try writeSortedJoin(select)
    }
    if writesOrderedSubqueries, scopes.isEmpty, select.with == nil, select.compound.isEmpty, !select.joins.isEmpty,
      select.isAggregate || select.distinct, visitOrderMatters(select), !havingTestsNeverNull(select),
      let references = orderedRowsReferences(select)
    {
      return try writeOverOrderedRows(select, references: references)
    }
    if let clause = select.with {
      try writeWith(clause)
    }
    defer { if select.with != nil { commonTableNames.removeLast() } }
    try writeSelectCore(select)
    for term in select.compound {
      guard term.select.compound.isEmpty, term.select.orderBy.isEmpty, term.select.limit == nil,
        term.select.offset == nil
      else {
        throw TandemError.misuse("a select inside a compound cannot have its own ORDER BY, LIMIT, OFFSET or compound")
      }
      self += " "
      self += term.operator.rawValue
      self += " "
      try writeSelectCore(term.select)
    }
    try writeOrderAndLimit(select, isCompound: !select.compound.isEmpty)
  }

  /// Whether the select's ORDER BY is its sources' rowids alone (`+"t".rowid`, as
  /// ``Select/statement`` orders a join that has no ORDER BY of its own, or `"t".rowid`), each
  /// ascending with NULLs first (a LEFT JOIN's missing row has a NULL rowid).
  private func isOrderedByRowidsAlone(_ select: SelectStatement) -> Bool {
    !select.orderBy.isEmpty
      && select.orderBy.allSatisfy { term in
        guard !term.descending, term.nulls == nil || term.nulls == .first else { return false }
        switch term.expression {
        case .unary(.plus, .qualifiedRowid), .qualifiedRowid: return resolvesSurely(term.expression, in: select)
        default: return false
        }
      }
  }

  /// A join ordered by its sources' rowids alone, written without its ORDER BY and with those
  /// rowids as its last result columns; the caller sorts the rows by them (integers, NULLs
  /// first) and drops them (``rowidSortKeyCount``):
  ///
  /// ```sql
  /// SELECT "r"."title", "l"."name", (+"r".rowid), (+"l".rowid) FROM "reminders" AS "r"
  ///   JOIN "lists" AS "l" ON ("r"."listID" = "l"."id") WHERE ("l"."name" = ?)
  /// ```
  ///
  /// SQLite plans it as it plans the subquery of ``writeSortedJoin(_:)`` (for the WHERE clause
  /// alone), and so visits the same rows in the same order, but hands them over without copying
  /// them into a sorter first: sorting a few integers in Swift costs less.
  ///
  /// A rowid that the rows of the sources ordered before it fix is not written
  /// (``rowidTermsTheRowsDifferIn(_:)``): above, `"l".rowid` is `"t"."listID"`'s list.
  private mutating func writeJoinLeavingRowidOrder(_ select: SelectStatement) throws {
    var plain = select
    plain.orderBy = []
    let terms = rowidTermsTheRowsDifferIn(select)
    if terms.count < select.orderBy.count {
      // The errors writing each rowid would raise are raised still.
      var whole = self
      plain.columns = select.columns + select.orderBy.map(\.expression)
      try whole.writeSelectCore(plain)
    }
    plain.columns = select.columns + terms.map(\.expression)
    try writeSelectCore(plain)
    rowidSortKeyCount = terms.count
  }

  /// The terms of an ORDER BY of rowids alone (``isOrderedByRowidsAlone(_:)``) that the rows can
  /// differ in: a source's rowid is left out when the rows of the sources ordered before it fix
  /// it — a condition every row meets (of WHERE, of an inner or cross join's ON, or of the
  /// source's own LEFT JOIN ON) equates it, by `=` or `IS`, with a column or rowid of one of
  /// those sources, or with a value. A value equals at most one integer, whatever affinity and
  /// collation the comparison applies, and a LEFT JOIN's source is then that row or its missing
  /// row: the rows that tie on the terms before it are one row, so sorting by the rest gives
  /// the same order.
  ///
  /// ```sql
  /// -- FROM "tasks" AS "t" JOIN "lists" AS "l" ON ("t"."listID" = "l"."id") ORDER BY +"t".rowid, +"l".rowid
  /// -- → +"t".rowid alone: each task has at most one list
  /// ```
  private func rowidTermsTheRowsDifferIn(_ select: SelectStatement) -> [OrderingTerm] {
    let sources = select.sources
    // An alias named twice (in any case) leaves SQLite to refuse the ambiguous rowid.
    let folded = Set(sources.map { SQLRenderer.asciiLowercased($0.alias) })
    guard folded.count == sources.count else { return select.orderBy }
    var everyRowMeets = select.filter?.conjuncts ?? []
    for join in select.joins where join.kind != .left {
      everyRowMeets += join.condition?.conjuncts ?? []
    }
    var before: Set<String> = []
    var kept: [OrderingTerm] = []
    for term in select.orderBy {
      guard let alias = Self.rowidSource(term.expression),
        let index = sources.firstIndex(where: { $0.alias == alias })
      else { return select.orderBy }
      var conditions = everyRowMeets
      if index > 0, select.joins[index - 1].kind == .left {
        conditions += select.joins[index - 1].condition?.conjuncts ?? []
      }
      let table = sources[index].table
      if !conditions.contains(where: { equatesRowid(of: alias, table: table, in: $0, withOneOf: before) }) {
        kept.append(term)
      }
      before.insert(alias)
    }
    return kept
  }

  /// The source whose rowid an ORDER BY term of ``isOrderedByRowidsAlone(_:)`` is.
  private static func rowidSource(_ term: SQLExpression) -> String? {
    if case .qualifiedRowid(let source) = withoutPlusOrCollate(term) { return source }
    return nil
  }

  /// The expression without the unary `+` and COLLATE clauses around it, which change neither
  /// the value nor the column it names.
  private static func withoutPlusOrCollate(_ expression: SQLExpression) -> SQLExpression {
    switch expression {
    case .unary(.plus, let inner), .collate(let inner, _): return withoutPlusOrCollate(inner)
    default: return expression
    }
  }

  /// Whether `condition` is `rowid = value` for the source `alias` of `table`, where the value
  /// is a literal, a parameter, or a column or rowid of a source in `sources` (either side).
  private func equatesRowid(
    of alias: String, table: String, in condition: SQLExpression, withOneOf sources: Set<String>
  ) -> Bool {
    guard case .binary(let op, let lhs, let rhs) = condition, op == .equal || op == .is else { return false }
    func isRowid(_ expression: SQLExpression) -> Bool {
      switch Self.withoutPlusOrCollate(expression) {
      case .qualifiedRowid(alias): return true
      case .qualifiedColumn(alias, let name):
        let traits = columnTraits[SQLRenderer.asciiLowercased(table)]?[SQLRenderer.asciiLowercased(name)]
        return traits?.isRowidAlias == true
      default: return false
      }
    }
    func isFixed(_ expression: SQLExpression) -> Bool {
      switch Self.withoutPlusOrCollate(expression) {
      case .literal, .parameter: return true
      case .qualifiedRowid(let source), .qualifiedColumn(let source, _): return sources.contains(source)
      default: return false
      }
    }
    return (isRowid(lhs) && isFixed(rhs)) || (isRowid(rhs) && isFixed(lhs))
  }

  /// A statement's join with an ORDER BY and no LIMIT or OFFSET, written so that SQLite plans the
  /// join for its WHERE clause alone and sorts what it finds:
  ///
  /// ```sql
  /// SELECT "tandem_c0", … FROM (SELECT <column> AS "tandem_c0", …, <term> AS "tandem_o0", …
  ///   FROM … WHERE … LIMIT -1 OFFSET 0) ORDER BY "tandem_o0" ASC, … LIMIT … OFFSET …
  /// ```
  ///
  /// Without stored statistics SQLite takes every table for a million rows, and an ORDER BY (the
  /// rowid tie-breakers above all) leads it to read the first table whole in rowid order rather
  /// than follow the foreign key's index from a filtered table. The OFFSET keeps the subquery
  /// from being flattened back into the statement. The rows, their values and their order are
  /// those of the plain statement: a subquery's columns keep their expressions' collations. A
  /// LIMIT or OFFSET keeps the plain form: SQLite computes no result column of a row its LIMIT
  /// sorter drops (or of a row its loops deliver past the LIMIT, or skip for the OFFSET), where
  /// the subquery would compute every row's, and fail on one the statement never computes.
  private mutating func writeSortedJoin(_ select: SelectStatement) throws {
    var inner = select
    inner.orderBy = []
    inner.limit = nil
    inner.offset = nil
    self += "SELECT "
    try writeList(Array(select.columns.indices)) { writer, index in writer += "\"tandem_c\(index)\"" }
    self += " FROM ("
    // A scalar subquery's column takes the affinity of the subquery's (last member's) column,
    // COLLATE or not, and SQLite reads a REAL one back with REAL affinity: `+` keeps a
    // compound's INTEGER value from turning into a REAL on its way out (the plain statement
    // hands it over as it is; `+` keeps the collation).
    func asWritten(_ column: SQLExpression) -> SQLExpression {
      if case .subquery = column.withoutCollate { return .unary(.plus, column) }
      return column
    }
    let named =
      select.columns.enumerated().map { (asWritten($0.element), "tandem_c\($0.offset)") }
      + select.orderBy.enumerated().map { ($0.element.expression, "tandem_o\($0.offset)") }
    try writeSelectCore(inner, namedColumns: named)
    self += " LIMIT -1 OFFSET 0)"
    var outer = select
    outer.orderBy = select.orderBy.enumerated().map { index, term in
      OrderingTerm(.column("tandem_o\(index)"), descending: term.descending, nulls: term.nulls)
    }
    try writeOrderAndLimit(outer, isCompound: false)
  }

  /// Whether the answer of the select (a join) depends on the order its rows are visited in
  /// (``SelectStatement/answerDependsOnVisitOrder(_:)``, with the traits of the tables read).
  private func visitOrderMatters(_ select: SelectStatement) -> Bool {
    select.answerDependsOnVisitOrder { table, column in
      let name = SQLRenderer.asciiLowercased(table)
      // A common table expression's columns have no declared type.
      if commonTableNames.last?.contains(name) == true { return nil }
      return columnTraits[name]?[SQLRenderer.asciiLowercased(column)]
    }
  }

  /// The column references of an aggregate or DISTINCT join's result columns, GROUP BY, HAVING
  /// and ORDER BY, each once, when all are columns or rowids of its sources that surely exist and
  /// no subquery appears there; `nil` otherwise.
  private func orderedRowsReferences(_ select: SelectStatement) -> [SQLExpression]? {
    var references: [SQLExpression] = []
    var valid = true
    func walk(_ expression: SQLExpression) {
      switch expression {
      case .qualifiedColumn, .qualifiedRowid:
        if !resolvesSurely(expression, in: select) { valid = false }
        if !references.contains(expression) { references.append(expression) }
      case .column, .rowid, .subquery, .exists, .inSubquery, .resultColumn, .excluded:
        valid = false
      default:
        expression.children.forEach(walk)
      }
    }
    let outputs = select.columns + select.groupBy + (select.having.map { [$0] } ?? []) + select.orderBy.map(\.expression)
    outputs.forEach(walk)
    return valid ? references : nil
  }

  /// An aggregate or DISTINCT join whose answer depends on the order its rows are visited in,
  /// written over a subquery that delivers the joined rows in that order — each source's rowid,
  /// in FROM order, the order the memory engine visits them in — while SQLite plans the join
  /// itself freely (with its indexes):
  ///
  /// ```sql
  /// SELECT "tandem_v0", total("tandem_v1") FROM (SELECT "lists"."name" AS "tandem_v0",
  ///   "tasks"."estimate" AS "tandem_v1" FROM "lists" JOIN "tasks" ON … WHERE …
  ///   ORDER BY "lists".rowid, "tasks".rowid LIMIT -1 OFFSET 0) GROUP BY "tandem_v0" …
  /// ```
  ///
  /// The OFFSET keeps SQLite from flattening the subquery; its columns keep their expressions'
  /// affinities and collations, so the outer query compares and groups as the plain one would.
  /// They lose their NOT NULL: `x IS [NOT] NULL` of a column that is never NULL, which SQLite's
  /// resolver answers up front in the plain query, is written as that answer.
  private mutating func writeOverOrderedRows(_ select: SelectStatement, references: [SQLExpression]) throws {
    var columns = references
    if columns.isEmpty, let first = select.sources.first { columns = [.qualifiedRowid(source: first.alias)] }
    func name(_ index: Int) -> String { "tandem_v\(index)" }
    func rewritten(_ expression: SQLExpression) -> SQLExpression {
      expression.mapped { node in
        if case .isNull(let operand, let negated) = node, isNeverNull(operand, in: select) {
          return .literal(.integer(negated ? 1 : 0))
        }
        return node
      }.mapped { node in
        if let index = columns.firstIndex(of: node) { return .column(name(index)) }
        return node
      }
    }
    var inner = select
    inner.columns = columns
    inner.distinct = false
    inner.groupBy = []
    inner.having = nil
    inner.orderBy = select.sources.map { OrderingTerm(.qualifiedRowid(source: $0.alias)) }
    inner.limit = nil
    inner.offset = nil

    self += select.distinct ? "SELECT DISTINCT " : "SELECT "
    try writeList(select.columns.map(rewritten)) { try $0.write($1) }
    self += " FROM ("
    try writeSelectCore(inner, namedColumns: columns.enumerated().map { ($0.element, name($0.offset)) })
    try writeOrderAndLimit(inner, isCompound: false)
    self += " LIMIT -1 OFFSET 0)"
    if !select.groupBy.isEmpty {
      self += " GROUP BY "
      try writeList(select.groupBy.map(rewritten)) { try $0.write($1) }
    }
    if let having = select.having {
      self += " HAVING "
      try write(rewritten(having))
    }
    var outer = select
    outer.orderBy = select.orderBy.map { term in
      var term = term
      term.expression = rewritten(term.expression)
      return term
    }
    try writeOrderAndLimit(outer, isCompound: false)
  }

  /// Whether the select's HAVING clause tests a reference that SQLite's resolver knows is never
  /// NULL with `IS [NOT] NULL`.
  ///
  /// The resolver answers such a test with a constant that SQLite takes for always false (or
  /// true), and SQLite leaves an always-false HAVING term in HAVING, where it moves another
  /// constant term into WHERE: with `HAVING "a" IS NULL` every group is still aggregated (and an
  /// overflowing `sum()` fails). Over the ordered-rows subquery the answer could only be written
  /// as a bound value, which SQLite moves into WHERE, or as a literal `0`, which the parser folds
  /// with the terms AND-ed to it (those would then stay in HAVING too). Such a select is written
  /// plainly instead, its visiting order pinned.
  private func havingTestsNeverNull(_ select: SelectStatement) -> Bool {
    guard let having = select.having else { return false }
    func tests(_ expression: SQLExpression) -> Bool {
      if case .isNull(let operand, _) = expression, isNeverNull(operand, in: select) { return true }
      return expression.children.contains(where: tests)
    }
    return tests(having)
  }

  /// Whether SQLite's resolver knows the reference is never NULL (`sqlite3ExprCanBeNull`): the
  /// rowid or a NOT NULL column of a table source that is not the right side of a LEFT JOIN,
  /// under any `+` or `-`.
  private func isNeverNull(_ operand: SQLExpression, in select: SelectStatement) -> Bool {
    let alias: String
    var column: String?
    switch operand {
    case .unary(.plus, let inner), .unary(.negate, let inner): return isNeverNull(inner, in: select)
    case .qualifiedRowid(let source): alias = source
    case .qualifiedColumn(let source, let name):
      alias = source
      column = name
    default: return false
    }
    let sources = select.sources
    guard let position = sources.firstIndex(where: { $0.alias == alias }) else { return false }
    if position > 0 && select.joins[position - 1].kind == .left { return false }
    let table = SQLRenderer.asciiLowercased(sources[position].table)
    if commonTableNames.last?.contains(table) == true { return false }
    guard let traits = columnTraits[table] else { return false }
    guard let column else { return true }
    return traits[SQLRenderer.asciiLowercased(column)]?.isNotNull == true
  }

  /// Whether an ORDER BY term is a column or rowid of one of the select's sources, qualified by
  /// its alias, that exists (under `+` or COLLATE): such a term can fail nowhere, so moving it
  /// into the subquery of ``writeSortedJoin(_:)`` changes no error SQLite reports.
  private func resolvesSurely(_ term: SQLExpression, in select: SelectStatement) -> Bool {
    switch Self.withoutPlusOrCollate(term) {
    case .qualifiedRowid(let alias):
      return select.sources.contains { $0.alias == alias }
    case .qualifiedColumn(let alias, let name):
      guard let table = select.sources.first(where: { $0.alias == alias })?.table else { return false }
      return columnTraits[SQLRenderer.asciiLowercased(table)]?[SQLRenderer.asciiLowercased(name)] != nil
    default:
      return false
    }
  }

  /// `WITH [RECURSIVE] "name"("column", …) AS (SELECT …), … ` (its names stay in scope until the
  /// select that holds the clause is written).
  private mutating func writeWith(_ clause: WithClause) throws {
    guard !clause.tables.isEmpty else { throw TandemError.misuse("a WITH clause needs at least one table") }
    self += clause.recursive ? "WITH RECURSIVE " : "WITH "
    var names = commonTableNames.last ?? []
    for (index, table) in clause.tables.enumerated() {
      guard !table.columns.isEmpty else {
        throw TandemError.misuse("common table expression \(table.name) needs its column names")
      }
      if index > 0 { self += ", " }
      try writeIdentifier(table.name)
      self += "("
      try writeList(table.columns) { try $0.writeIdentifier($1) }
      self += ") AS ("
      names.insert(SQLRenderer.asciiLowercased(table.name))
      commonTableNames.append(names)
      defer { commonTableNames.removeLast() }
      try writeSelect(table.select)
      self += ")"
    }
    self += " "
    commonTableNames.append(names)
  }

  /// The result columns, sources, WHERE, GROUP BY and HAVING of one select; with
  /// `namedColumns`, those are the result columns, each written `expression AS "name"`.
  private mutating func writeSelectCore(
    _ written: SelectStatement, namedColumns writtenColumns: [(SQLExpression, String)]? = nil
  ) throws {
    guard !written.columns.isEmpty else {
      throw TandemError.misuse("a select needs at least one result column")
    }
    var scope: [String: String] = [:]
    for source in written.sources { scope[source.alias] = source.table }
    scopes.append(scope)
    defer { scopes.removeLast() }

    let pinsOrder = written.joins.isEmpty ? written.isAggregate || written.distinct : visitOrderMatters(written)
    // SQLite turns a LEFT JOIN whose WHERE rejects the right table's row of NULLs into an inner
    // join, which it may then reorder: a pinned one is written as the inner join it is. (Unless
    // its ON clause folds to false: as an inner join's, that would make SQLite drop the query's
    // every condition unresolved; and no row is joined then, so no order shows.)
    // Written as an inner join, a LEFT JOIN's ON clause becomes one SQLite's test reads for the
    // LEFT JOINs before it (`… LEFT JOIN c … CROSS JOIN q ON c.ref` plans `c` as inner too): the
    // set grows until no other LEFT JOIN becomes inner.
    var innerLeftJoins = Set<Int>()
    while pinsOrder {
      var asWritten = written
      for index in innerLeftJoins { asWritten.joins[index].kind = .cross }
      let more = written.joins.indices.filter { index in
        !innerLeftJoins.contains(index) && written.joins[index].kind == .left
          && leftJoinBecomesInner(index, in: asWritten) && written.joins[index].condition?.isAlwaysFalse != true
      }
      if more.isEmpty { break }
      innerLeftJoins.formUnion(more)
    }
    var select = written
    var namedColumns = writtenColumns
    if !innerLeftJoins.isEmpty && written.testsForNull {
      let tests = NullTestsOfJoinedTables(
        joined: innerLeftJoins.map { written.sources[$0 + 1].alias }, columnTraits: columnTraits,
        commonTables: commonTableNames.last ?? [])
      select = tests.keptFromFolding(written)
      namedColumns = writtenColumns?.map { (tests.keptFromFolding($0.0, [written.sources]), $0.1) }
    }
    self += select.distinct ? "SELECT DISTINCT " : "SELECT "
    if let namedColumns {
      try writeList(namedColumns) { writer, column in
        try writer.write(column.0)
        writer += " AS "
        try writer.writeIdentifier(column.1)
      }
    } else {
      try writeList(select.columns) { try $0.write($1) }
    }
    // A select without FROM (`SELECT 1 + 1`) reads one row, from no source.
    if select.hasFromClause {
      self += " FROM "
      try writeSource(table: select.table, alias: select.alias, notIndexed: pinsOrder || select.notIndexed)
    }
    for (index, join) in select.joins.enumerated() {
      switch join.kind {
      case .inner: self += pinsOrder ? " CROSS JOIN " : " JOIN "
      case .cross: self += " CROSS JOIN "
      case .left:
        self += innerLeftJoins.contains(index) ? " CROSS JOIN " : " LEFT JOIN "
      }
      try writeSource(table: join.table, alias: join.alias, notIndexed: pinsOrder || join.notIndexed)
      if let condition = join.condition {
        self += " ON "
        try write(condition)
      }
    }
    if let filter = select.filter {
      self += " WHERE "
      try write(filter)
    }
    if !select.groupBy.isEmpty {
      self += " GROUP BY "
      try writeList(select.groupBy) { try $0.write($1) }
    }
    if let having = select.having {
      self += " HAVING "
      try write(having)
    }
  }

  /// ORDER BY, LIMIT and OFFSET (of the whole compound, for a compound select).
  private mutating func writeOrderAndLimit(_ select: SelectStatement, isCompound: Bool) throws {
    var scope: [String: String] = [:]
    for source in select.sources { scope[source.alias] = source.table }
    scopes.append(scope)
    defer { scopes.removeLast() }
    if !select.orderBy.isEmpty {
      self += " ORDER BY "
      try writeList(select.orderBy) { writer, term in
        switch (term.expression, isCompound) {
        case (.resultColumn(let position), true):
          guard position >= 1 else { throw TandemError.misuse("result column positions start at 1") }
          // A position, not a value: SQLite reads only a literal integer as a column position.
          writer += String(position)
        case (_, true):
          throw TandemError.misuse("the ORDER BY of a compound select names its result columns by position")
        default:
          try writer.write(term.expression)
        }
        writer += term.descending ? " DESC" : " ASC"
        if let nulls = term.nulls {
          writer += " "
          writer += nulls.rawValue
        }
      }
    }
    if let limit = select.limit {
      self += " LIMIT "
      try write(limit)
    } else if select.offset != nil {
      // SQLite has no OFFSET without LIMIT; a negative limit means "no limit".
      self += " LIMIT -1"
    }
    if let offset = select.offset {
      self += " OFFSET "
      try write(offset)
    }
  }

  /// `"table" [AS "alias"] [NOT INDEXED]`.
  private mutating func writeSource(table: String, alias: String?, notIndexed: Bool) throws {
    try writeIdentifier(table)
    if let alias, alias != table {
      self += " AS "
      try writeIdentifier(alias)
    }
    if notIndexed { self += " NOT INDEXED" }
  }

  /// Whether SQLite plans the LEFT JOIN `select.joins[index]` as an inner join
  /// (``SelectStatement/leftJoinBecomesInner(at:readsJoinedTable:)``): a reference reads the
  /// joined table when it is qualified by its alias (and the table has that column: otherwise
  /// SQLite looks for it in the query around), or names one of its columns and no other source's.
  func leftJoinBecomesInner(_ index: Int, in select: SelectStatement) -> Bool {
    let sources = select.sources
    guard sources.indices.contains(index + 1) else { return false }
    let joined = sources[index + 1]
    func columns(of table: String) -> [String: ColumnTraits]? {
      let name = SQLRenderer.asciiLowercased(table)
      // A common table expression's columns are not among the tables' traits.
      return commonTableNames.last?.contains(name) == true ? nil : columnTraits[name]
    }
    return select.leftJoinBecomesInner(at: index) { node in
      switch node {
      case .qualifiedColumn(let source, let name):
        guard SQLName.same(source, joined.alias) else { return false }
        return columns(of: joined.table).map { $0[SQLRenderer.asciiLowercased(name)] != nil } ?? true
      case .qualifiedRowid(let source):
        return SQLName.same(source, joined.alias)
      case .column(let name):
        let key = SQLRenderer.asciiLowercased(name)
        return columns(of: joined.table)?[key] != nil
          && sources.indices.allSatisfy { $0 == index + 1 || columns(of: sources[$0].table)?[key] == nil }
      default:
        return false
      }
    }
  }

  /// The rowid spelling of the source named `alias`, in the innermost query level that has it.
  func rowidSpelling(ofSource alias: String) throws -> String {
    // The source SQLite finds for `alias`: the innermost level's, its name compared without ASCII
    // case (`sqlite3StrICmp`), the same spelling first where a level has two.
    let folded = SQLRenderer.asciiLowercased(alias)
    let table =
      scopes.reversed().lazy.compactMap { scope in
        scope[alias] ?? scope.first { SQLRenderer.asciiLowercased($0.key) == folded }?.value
      }.first ?? alias
    let spelling: String? = otherRowidNames[table] ?? (otherRowidNames.isEmpty ? rowidName : "rowid")
    guard let spelling else {
      throw TandemError.unsupported(
        "the rowid of a table whose columns are named rowid, _rowid_ and oid", backend: "sqlite")
    }
    return spelling
  }
}
