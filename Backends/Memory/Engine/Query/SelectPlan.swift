import TandemCore

/// A compiled SELECT: every expression resolved and turned into closures once.
///
/// Immutable and bound to no database: it names its table by creation position, and the
/// caller hands it that table's storage at run time, so every database with the same schema
/// can run it (see ``SharedPlanCache``).
final class SelectPlan: Sendable {
  /// The grouped part of an aggregate query.
  struct AggregatePart: Sendable {
    let groupKeys: [ValueEvaluator]
    /// How groups are ordered: ascending, except that when ORDER BY has as many terms as GROUP BY,
    /// SQLite gives each GROUP BY term the ASC/DESC of the ORDER BY term at the same position.
    let groupTerms: [SortTerm]
    let having: ConditionEvaluator?
    let calls: [ExpressionCompiler.AggregateCall]
    /// SQLite's AggInfo entries in analysis order (result columns, ORDER BY, HAVING), the order
    /// in which it steps them for each row, as slots. Equal calls share an entry, but calls
    /// holding placeholders never match, so their slot may come again: the repeat steps a copy
    /// in the same state, which only replays its min()/max() decision.
    let stepOrder: [Int]
    /// Whether each position of `stepOrder` is its slot's first (the one that steps it).
    let stepsSlot: [Bool]
    /// Whether a min() or max() call decides which row bare columns read (else: the first row).
    let hasExtremum: Bool
    /// Whether ORDER BY repeats GROUP BY term for term, so groups already come out in order and
    /// SQLite drops the sort (and stops at LIMIT without touching later groups).
    let orderedByGroups: Bool
    /// Whether rows may come in another order than SQLite's (a join SQLite plans freely): sums
    /// are then checked to give the same answer in every order, and min()/max() never to meet a
    /// value equal to the one they hold but stored differently.
    var checksOrderFreedom = false
  }

  /// The table's position in the catalog's creation order.
  let tablePosition: Int
  let parameterNames: [String]
  /// The constants SQLite may evaluate at the statement's start (``FactoredConstants``), checked
  /// before each run.
  let factoredConstants: [SQLExpression]
  /// The parameter names in placeholder order, for the missing-value check of later runs.
  let placeholderNames: [String]
  let window: LimitClause
  /// How the rows are found (the WHERE clause, planned as SQLite plans it).
  let source: ScanSource
  /// How each result column is read: straight from the row when it is a plain column.
  let projection: [Projection]
  /// Whether the result columns are the table's columns in order (the rowid alias, which
  /// stores a copy of the rowid, at its own position): a result row is then a copy of the
  /// stored row.
  let copiesRows: Bool
  /// Whether some placeholder names a parameter that no compiled expression reads (SQLite's
  /// parser dropped it), which must still have a value.
  let hasUnreadPlaceholders: Bool
  let columnCollations: [Collation]
  let distinct: Bool
  /// Whether the DISTINCT is SQLite's GROUP BY of the result columns (its ORDER BY is the result
  /// list: ``orderIsResultList(_:compiler:)``), whose rows go out one late.
  let distinctIsGroupBy: Bool
  let orderKeys: [ValueEvaluator]
  let orderTerms: [SortTerm]
  let aggregate: AggregatePart?

  /// Whether the single-table planner runs `select`: one table without joins, compound terms,
  /// CTEs or subqueries. In SQL text also one under an alias (`FROM t AS x`), which SQLite plans
  /// as it plans the table itself; the typed API's aliased table runs as a ``RelationalSelect``,
  /// as the SQLite backend renders it.
  ///
  /// ```swift
  /// SelectPlan.runs(SelectStatement(table: "t", columns: [.column("a")]))  // true
  /// ```
  static func runs(_ select: SelectStatement) -> Bool {
    guard select.isRelational else { return true }
    guard SQLTextMode.current != nil, select.alias != nil else { return false }
    var plain = select
    plain.alias = nil
    return !plain.isRelational
  }

  /// Compiles `statement` against the table `definition`, found at `tablePosition`.
  init(_ written: SelectStatement, definition: TableDefinition, tablePosition: Int) throws {
    let statement = QualifiedNames.unqualified(written)
    self.tablePosition = tablePosition
    let compiler = ExpressionCompiler(table: definition)
    compiler.qualifier = written.alias
    let isAggregate = !statement.groupBy.isEmpty || statement.columns.contains(where: Self.hasAggregate)

    // SQLite resolves LIMIT/OFFSET (which may name no column), the result columns, HAVING,
    // WHERE, ORDER BY and GROUP BY in this order; the first error wins.
    compiler.hidesColumns = true
    window = try LimitClause(limit: statement.limit, offset: statement.offset, compiler: compiler)
    compiler.hidesColumns = false

    compiler.aggregatePolicy = isAggregate ? .collect : .forbidden
    let compiledColumns = try statement.columns.map(compiler.compile)
    var having: ConditionEvaluator?
    // SQLite propagates constants through the WHERE before HAVING terms move into it.
    var whereClause = statement.filter
    let propagated = statement.filter.flatMap { filter in
      ConstantPropagation.propagated(WherePlan.parseRewritten(filter), table: definition)
    }
    if let propagated { whereClause = propagated }
    if let clause = statement.having {
      guard isAggregate else { throw ExpressionCompiler.havingWithoutAggregate }
      having = try compiler.condition(clause).test
      if !statement.groupBy.isEmpty {
        // SQLite moves HAVING terms that only read GROUP BY terms into WHERE.
        let (kept, moved) = try Self.splitHaving(clause, groupBy: statement.groupBy, compiler: compiler) { term in
          try ExpressionCompiler(table: compiler.table).compile(term).collation
        }
        for term in moved {
          whereClause = whereClause.map { Self.conjoined($0, term, compiler) } ?? term
        }
        having = try kept.map { try compiler.condition($0).test }
        if let filter = statement.filter, !moved.isEmpty, whereClause.map(ExpressionCompiler.isFoldedFalse) == true {
          // SQLite resolved the WHERE clause before folding it away: its errors still come.
          _ = try compiler.condition(filter)
        }
      }
    }
    compiler.aggregatePolicy = .forbidden
    let request = Self.whereRequest(statement, isAggregate: isAggregate, definition: definition, compiler: compiler)
    try compiler.resolveWholeClause(statement.filter)
    compiler.readsFixedColumns = propagated != nil
    // Rows are decoded only as far as the last column the statement reads (the rowid alias's
    // slot, which a copied row holds, included).
    let rowWidth = (request.loops.exactColumnsUsed.union([definition.rowidColumn ?? -1]).max() ?? -1) + 1
    source = try ScanSource(
      filter: whereClause, table: definition, request: request, compiler: compiler, rowWidth: rowWidth)
    compiler.readsFixedColumns = false
    compiler.aggregatePolicy = isAggregate ? .collect : .deferredMisuse
    let compiledOrder = try Self.compileTerms(
      statement.orderBy.map(\.expression), clause: "ORDER", columns: statement.columns.count, compiler: compiler)
    compiler.aggregatePolicy = .groupBy
    let compiledGroups = try Self.compileTerms(
      statement.groupBy, clause: "GROUP", columns: statement.columns.count, compiler: compiler)
    if let error = compiler.deferredError { throw error }

    parameterNames = compiler.parameterNames
    placeholderNames = StatementValidation.placeholderNames(.select(statement))
    let projection = zip(statement.columns, compiledColumns).map { expression, compiled in
      Projection(expression, table: definition, fallback: compiled.evaluate)
    }
    self.projection = projection
    copiesRows =
      projection.count == definition.columnCount
      && projection.indices.allSatisfy { index in
        switch projection[index] {
        case .column(let column): column == index
        case .rowid: index == definition.rowidColumn
        case .computed: false
        }
      }
    hasUnreadPlaceholders = !Set(placeholderNames).isSubset(of: parameterNames)
    factoredConstants = FactoredConstants.candidates(in: .select(statement))
    columnCollations = compiledColumns.map { $0.collation ?? .binary }
    distinct = statement.distinct
    distinctIsGroupBy = statement.distinct && !isAggregate && Self.orderIsResultList(statement, compiler: compiler)
    orderKeys = compiledOrder.map(\.evaluate)
    orderTerms = zip(statement.orderBy, compiledOrder).map { term, compiled in
      SortTerm(descending: term.descending, nulls: term.nulls, collation: compiled.collation ?? .binary)
    }
    if isAggregate {
      aggregate = Self.aggregatePart(statement, compiler: compiler, compiledGroups: compiledGroups, having: having)
      if !statement.groupBy.isEmpty, !statement.orderBy.isEmpty, aggregate?.orderedByGroups != true {
        let outputs = statement.columns + statement.orderBy.map(\.expression) + [statement.having].compactMap { $0 }
        let context = WhereContext(table: definition)
        if outputs.contains(where: { Self.retypesGroupColumn($0, context) }) {
          throw EngineError.unsupported(
            "IN with three or more values on a REAL column outside aggregates, in a grouped query sorted "
              + "after grouping (SQLite then returns that column's whole numbers as INTEGER)")
        }
      }
    } else {
      aggregate = nil
    }
  }

  /// The grouped part of an aggregate query, from its compiled GROUP BY terms and HAVING: the
  /// aggregate calls in SQLite's analysis order (result columns, ORDER BY, HAVING) and how groups
  /// are ordered.
  static func aggregatePart(
    _ statement: SelectStatement, compiler: ExpressionCompiler, compiledGroups: [CompiledExpression],
    having: ConditionEvaluator?
  ) -> AggregatePart {
    let analysisOrder = statement.columns + statement.orderBy.map(\.expression) + [statement.having].compactMap { $0 }
    var stepOrder: [Int] = []
    for call in Self.aggregateCalls(in: analysisOrder) {
      guard let slot = compiler.aggregateSlot(for: call) else { continue }
      if !stepOrder.contains(slot) || !ExpressionCompiler.isComparable(call) { stepOrder.append(slot) }
    }
    for slot in compiler.aggregates.indices where !stepOrder.contains(slot) { stepOrder.append(slot) }
    let stepsSlot = stepOrder.indices.map { !stepOrder[..<$0].contains(stepOrder[$0]) }
    let sameLength = statement.orderBy.count == statement.groupBy.count
    let groupTerms = compiledGroups.enumerated().map { index, compiled in
      SortTerm(
        descending: sameLength && statement.orderBy[index].descending, nulls: nil,
        collation: compiled.collation ?? .binary)
    }
    return AggregatePart(
      groupKeys: compiledGroups.map(\.evaluate), groupTerms: groupTerms,
      having: having, calls: compiler.aggregates, stepOrder: stepOrder, stepsSlot: stepsSlot,
      hasExtremum: compiler.aggregates.contains { $0.function == .min || $0.function == .max },
      orderedByGroups: ordersByGroups(statement, compiler: compiler))
  }

  /// Whether ORDER BY repeats GROUP BY term for term, nulls where their direction puts them
  /// (SQLite's `orderByGrp`): the groups' own order may then serve as the ORDER BY.
  static func ordersByGroups(_ statement: SelectStatement, compiler: ExpressionCompiler) -> Bool {
    !statement.groupBy.isEmpty && statement.orderBy.count == statement.groupBy.count
      && zip(statement.orderBy, statement.groupBy).allSatisfy { term, group in
        compiler.comparisonKey(group).map { $0 == compiler.comparisonKey(term.expression) } == true
          && (term.nulls == nil || (term.nulls == .last) == term.descending)
      }
  }

  /// `lhs AND rhs` as SQLite's `sqlite3ExprAnd` builds it after names are resolved: the
  /// constant false (written as the parser's `x IN ()`) when either side is always false
  /// (``ExpressionCompiler/isResolvedAlwaysFalse(_:)``).
  static func conjoined(_ lhs: SQLExpression, _ rhs: SQLExpression, _ compiler: ExpressionCompiler) -> SQLExpression {
    if compiler.isResolvedAlwaysFalse(lhs) || compiler.isResolvedAlwaysFalse(rhs) { return ExpressionCompiler.foldedFalse }
    return .binary(.and, lhs, rhs)
  }

  /// Whether the expression holds, outside aggregate calls, `x IN (…)` with three or more
  /// constant values on a column `x` of REAL affinity.
  ///
  /// SQLite codes such an IN with an ephemeral table and applies the column's affinity in place
  /// to the register holding the group's value of `x`: a whole number becomes an integer that
  /// knows it is REAL (`MEM_IntReal`), which the ORDER BY sorter's record stores as an INTEGER.
  /// Which later reads see the change depends on SQLite's code order, so the memory engine
  /// refuses the query rather than guess.
  static func retypesGroupColumn(_ expression: SQLExpression, _ context: WhereContext) -> Bool {
    if case .aggregate = expression { return false }
    if case .inList(let operand, let list, _) = expression, list.count >= 3,
      let column = context.column(operand), column >= 0, context.table.affinities[column] == .real,
      !list.contains(where: context.readsTable)
    {
      return true
    }
    return expression.children.contains { retypesGroupColumn($0, context) }
  }

  /// Whether an aggregate call survives SQLite's parse-time folding (see
  /// ``ExpressionCompiler/foldsToZero(_:)``) somewhere in the expression.
  static func hasAggregate(_ expression: SQLExpression) -> Bool {
    !aggregateCalls(in: [expression]).isEmpty
  }

  /// The ORDER BY or GROUP BY terms compiled one by one, each checked as an ordinal first: SQLite
  /// resolves the terms in order (`resolveOrderGroupBy`), so an error in an earlier term's
  /// expression comes before a later term that is out of range.
  static func compileTerms(
    _ terms: [SQLExpression], clause: String, columns: Int, compiler: ExpressionCompiler
  ) throws -> [CompiledExpression] {
    try terms.enumerated().map { index, term in
      try compileTerm(term, position: index, clause: clause, columns: columns, compiler: compiler)
    }
  }

  /// One ORDER BY or GROUP BY term, at `position` in its clause (see ``compileTerms(_:clause:columns:compiler:)``).
  static func compileTerm(
    _ term: SQLExpression, position: Int, clause: String, columns: Int, compiler: ExpressionCompiler
  ) throws -> CompiledExpression {
    try checkOrdinal(term, position: position, clause: clause, columns: columns)
    return try compiler.compile(term)
  }

  /// A term that SQLite's parser folded to the integer 0 reads as the column ordinal 0, which is
  /// out of range.
  private static func checkOrdinal(_ term: SQLExpression, position: Int, clause: String, columns: Int) throws {
    if ExpressionCompiler.isFoldedInteger(term.withoutCollate) {
      throw EngineError.sqlite(
        1, "\(ordinal(position + 1)) \(clause) BY term out of range - should be between 1 and \(columns)")
    }
  }

  /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`… as SQLite's `%r` writes them.
  static func ordinal(_ number: Int) -> String {
    let lastTwo = number % 100
    let suffix: String
    if (11...13).contains(lastTwo) {
      suffix = "th"
    } else {
      switch number % 10 {
      case 1: suffix = "st"
      case 2: suffix = "nd"
      case 3: suffix = "rd"
      default: suffix = "th"
      }
    }
    return "\(number)\(suffix)"
  }

  /// Splits HAVING into the part that stays and the terms SQLite moves to WHERE (those without
  /// aggregates whose column references all sit inside a BINARY-collated GROUP BY term that
  /// `sqlite3ExprCompare` matches — see ``ExpressionCompiler/isComparable(_:)`` — or inside an
  /// `IS [NOT] NULL` the resolver folds, and that are not always false).
  /// `collation` gives a GROUP BY term's collation (`nil`: none).
  static func splitHaving(
    _ having: SQLExpression, groupBy: [SQLExpression], compiler: ExpressionCompiler,
    collation: (SQLExpression) throws -> Collation?
  ) throws -> (kept: SQLExpression?, moved: [SQLExpression]) {
    let binaryGroups = try groupBy.filter { term in
      let collation = try collation(term)
      return collation == nil || collation == .binary
    }.compactMap { compiler.comparisonKey($0.withoutCollate) }
    func readsOnlyGroups(_ expression: SQLExpression) -> Bool {
      if let key = compiler.comparisonKey(expression.withoutCollate), binaryGroups.contains(key) {
        return true
      }
      // The parser folds `x IN ()` (and an AND holding it) to a constant, dropping `x`.
      if ExpressionCompiler.foldsToZero(expression) { return true }
      // The resolver replaces `x IS [NOT] NULL` by a constant where x cannot be NULL (a NOT NULL
      // column, the rowid), dropping `x`.
      if case .isNull(let operand, _) = expression, compiler.cannotBeNull(operand) { return true }
      if case .inList(_, let list, _) = expression, list.isEmpty { return true }
      switch expression {
      case .column, .rowid, .excluded, .aggregate, .qualifiedColumn, .qualifiedRowid: return false
      case .subquery, .exists, .inSubquery, .resultColumn: return false
      case .literal, .parameter: return true
      case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): return readsOnlyGroups(e)
      case .binary(_, let a, let b): return readsOnlyGroups(a) && readsOnlyGroups(b)
      case .function(_, let arguments): return arguments.allSatisfy(readsOnlyGroups)
      case .inList(let e, let list, _): return readsOnlyGroups(e) && list.allSatisfy(readsOnlyGroups)
      case .between(let a, let b, let c, _): return readsOnlyGroups(a) && readsOnlyGroups(b) && readsOnlyGroups(c)
      case .like(let a, let b, let c, _): return readsOnlyGroups(a) && readsOnlyGroups(b) && (c.map(readsOnlyGroups) ?? true)
      case .glob(let a, let b, _): return readsOnlyGroups(a) && readsOnlyGroups(b)
      case .caseWhen(let base, let branches, let otherwise):
        return (base.map(readsOnlyGroups) ?? true)
          && branches.allSatisfy { readsOnlyGroups($0.when) && readsOnlyGroups($0.then) }
          && (otherwise.map(readsOnlyGroups) ?? true)
      }
    }
    var moved: [SQLExpression] = []
    func rewrite(_ expression: SQLExpression) -> SQLExpression {
      // A term that is always false stays: the groups are still formed and their aggregates
      // finalized (an overflowing sum() fails), and the WHERE is not cut short.
      if compiler.isResolvedAlwaysFalse(expression) { return expression }
      if case .binary(.and, let lhs, let rhs) = expression { return .binary(.and, rewrite(lhs), rewrite(rhs)) }
      if !hasAggregate(expression) && readsOnlyGroups(expression) {
        moved.append(expression)
        return .literal(.integer(1))
      }
      return expression
    }
    let kept = rewrite(having)
    return (kept, moved)
  }


  /// One result column: a stored column, the rowid, or anything else.
  enum Projection: Sendable {
    case column(Int)
    case rowid
    case computed(ValueEvaluator)

    init(_ expression: SQLExpression, table: TableDefinition, fallback: @escaping ValueEvaluator) {
      switch expression {
      case .rowid:
        self = .rowid
      case .column(let name):
        if let index = table.columnIndex(name) {
          self = index == table.rowidColumn ? .rowid : .column(index)
        } else {
          self = NameKey(name).isRowidName ? .rowid : .computed(fallback)
        }
      default:
        self = .computed(fallback)
      }
    }
  }

  /// Aggregate calls in the order SQLite's analysis meets them (pre-order, operands left to right).
  static func aggregateCalls(in expressions: [SQLExpression]) -> [SQLExpression] {
    var result: [SQLExpression] = []
    func walk(_ expression: SQLExpression) {
      if ExpressionCompiler.foldsToZero(expression) { return }
      if case .inList(_, let list, _) = expression, list.isEmpty { return }
      switch expression {
      case .aggregate: result.append(expression)
      case .column, .rowid, .excluded, .literal, .parameter, .qualifiedColumn, .qualifiedRowid, .resultColumn: break
      // A subquery's aggregates belong to the subquery.
      case .subquery, .exists: break
      case .inSubquery(let e, _, _): walk(e)
      case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): walk(e)
      case .binary(_, let a, let b): walk(a); walk(b)
      case .function(_, let arguments): arguments.forEach(walk)
      case .inList(let e, let list, _): walk(e); list.forEach(walk)
      case .between(let a, let b, let c, _): walk(a); walk(b); walk(c)
      case .like(let value, let pattern, let escape, _): walk(pattern); walk(value); escape.map(walk)
      case .glob(let value, let pattern, _): walk(pattern); walk(value)
      case .caseWhen(let base, let branches, let otherwise):
        base.map(walk)
        for branch in branches { walk(branch.when); walk(branch.then) }
        otherwise.map(walk)
      }
    }
    expressions.forEach(walk)
    return result
  }

  /// The WHERE request SQLite's planner works from for this select: NOT INDEXED when the FROM
  /// clause says so, and for aggregates and DISTINCT (as the SQLite backend renders them), the
  /// ORDER BY — or GROUP BY, or the min/max optimization's one term — and the columns the
  /// statement reads.
  private static func whereRequest(
    _ statement: SelectStatement, isAggregate: Bool, definition: TableDefinition, compiler: ExpressionCompiler
  ) -> WherePlan.Request {
    var request = WherePlan.Request()
    // The SQLite backend pins a typed aggregate or DISTINCT to a rowid-order scan (NOT INDEXED);
    // SQL text is planned by SQLite freely, so its plan is followed as for any other select. A
    // FROM clause's own NOT INDEXED holds either way.
    request.loops.notIndexed =
      statement.notIndexed || ((statement.isAggregate || statement.distinct) && SQLTextMode.current == nil)
    let context = WhereContext(table: definition)
    var expressions = statement.columns + statement.groupBy + statement.orderBy.map(\.expression)
    if let filter = statement.filter { expressions.append(filter) }
    if let having = statement.having { expressions.append(having) }
    for column in ColumnUsage.columns(in: expressions, table: definition) {
      request.loops.columnsUsed |= TableStatistics.usedBit(column)
      request.loops.exactColumnsUsed.insert(column)
    }
    if isAggregate {
      if !statement.groupBy.isEmpty {
        // SQLite gives the GROUP BY terms the ORDER BY's directions when both have as many
        // terms, and asks the loop to deliver them in that order too where ORDER BY repeats
        // GROUP BY (`WHERE_SORTBYGROUP`).
        let directed = statement.orderBy.count == statement.groupBy.count
        request.orderBy = statement.groupBy.indices.map { position in
          .init(
            expression: statement.groupBy[position], descending: directed && statement.orderBy[position].descending,
            nullsReversed: false)
        }
        request.purpose = .groupBy
        request.sortsByGroup = ordersByGroups(statement, compiler: compiler)
      } else if statement.having == nil, let extremum = minMaxCall(statement, compiler: compiler) {
        let isMax = extremum.function == .max
        request.orderBy = [
          .init(
            expression: extremum.argument, descending: isMax,
            nullsReversed: !isMax && context.canBeNull(extremum.argument))
        ]
        request.purpose = .minMax
      } else if let argument = distinctAggregateArgument(statement, compiler: compiler) {
        // One aggregate over DISTINCT values, and no column read outside it: SQLite asks the
        // loop for rows in the order of its argument (`WHERE_DISTINCTBY`), so that repeats
        // follow each other — unless the rows found cannot repeat it (see
        // ``WherePlan/Request/ordersByDistinctList``).
        request.orderBy = [.init(expression: argument, descending: false, nullsReversed: false)]
        request.purpose = .distinctBy
        request.wantsDistinct = true
        request.ordersByDistinctList = true
      }
    } else if statement.distinct && orderIsResultList(statement, compiler: compiler) {
      // SQLite rewrites `SELECT DISTINCT cols … ORDER BY cols` as a GROUP BY of the columns,
      // which it plans as a DISTINCT clause.
      request.orderBy = statement.columns.map { .init(expression: $0, descending: false, nullsReversed: false) }
      request.purpose = .distinctBy
    } else if statement.distinct && statement.orderBy.isEmpty {
      // Without an ORDER BY, SQLite asks the loop for the result columns' order
      // (`WHERE_DISTINCTBY`), so that repeats follow each other, unless no row can repeat them.
      request.orderBy = statement.columns.map { .init(expression: $0, descending: false, nullsReversed: false) }
      request.purpose = .distinctBy
      request.wantsDistinct = true
      request.ordersByDistinctList = true
    } else {
      request.orderBy = statement.orderBy.map { term in
        let reversedNulls = term.nulls.map { ($0 == .last) != term.descending } ?? false
        return .init(expression: term.expression, descending: term.descending, nullsReversed: reversedNulls)
      }
      request.wantsDistinct = statement.distinct
    }
    request.loops.orderBy = request.orderBy.map(\.expression)
    return request
  }

  /// Whether the ORDER BY is the result column list itself (`sqlite3ExprListCompare`): the same
  /// expressions, as `sqlite3ExprCompare` sees them, in the same order, each ascending without
  /// NULLS LAST.
  ///
  /// A term written with COLLATE never is: SQLite replaces a term that names a result column
  /// with a copy of that column's expression and puts the term's COLLATE back around it
  /// (`resolveAlias`), so `ORDER BY (y COLLATE BINARY)` becomes `(y COLLATE BINARY) COLLATE
  /// BINARY`, which differs from the result column `y COLLATE BINARY`.
  private static func orderIsResultList(_ statement: SelectStatement, compiler: ExpressionCompiler) -> Bool {
    guard statement.orderBy.count == statement.columns.count else { return false }
    return zip(statement.orderBy, statement.columns).allSatisfy { term, column in
      if case .collate = term.expression { return false }
      guard !term.descending, term.nulls != .last, let key = compiler.comparisonKey(term.expression) else { return false }
      return key == compiler.comparisonKey(column)
    }
  }

  /// The argument of a statement's only aggregate call (calls alike count once) when that call
  /// takes DISTINCT values and no column is read outside aggregate calls — SQLite's test for
  /// handing its WHERE planner a DISTINCT list (`nAccumulator == 0 && nFunc == 1` and the call's
  /// `iDistinct`). A subquery outside the call counts as reading a column (it may be correlated).
  ///
  /// ```sql
  /// SELECT count(DISTINCT b) FROM t WHERE …       -- b
  /// SELECT count(DISTINCT b), c FROM t WHERE …    -- nil: c is read outside the call
  /// ```
  static func distinctAggregateArgument(_ statement: SelectStatement, compiler: ExpressionCompiler) -> SQLExpression? {
    let expressions = statement.columns + statement.orderBy.map(\.expression) + (statement.having.map { [$0] } ?? [])
    let calls = distinctAggregateCalls(in: expressions, compiler: compiler)
    guard calls.count == 1, case .aggregate(_, let argument?, distinct: true, _) = calls[0] else { return nil }
    func readsOutsideCalls(_ expression: SQLExpression) -> Bool {
      if ExpressionCompiler.foldsToZero(expression) { return false }
      if case .inList(_, let list, _) = expression, list.isEmpty { return false }
      switch expression {
      case .aggregate: return false
      case .column, .rowid, .qualifiedColumn, .qualifiedRowid, .resultColumn, .subquery, .exists, .inSubquery: return true
      default: return expression.children.contains(where: readsOutsideCalls)
      }
    }
    return expressions.contains(where: readsOutsideCalls) ? nil : argument
  }

  /// The one aggregate call of a statement that SQLite's min/max optimization serves: the only
  /// aggregate of the statement (calls holding a bound value count separately), min() or max()
  /// of one argument.
  static func minMaxCall(
    _ statement: SelectStatement, compiler: ExpressionCompiler
  ) -> (function: AggregateFunction, argument: SQLExpression)? {
    let calls = distinctAggregateCalls(in: statement.columns + statement.orderBy.map(\.expression), compiler: compiler)
    guard calls.count == 1, case .aggregate(let function, let argument?, _, _) = calls[0], function == .min || function == .max
    else { return nil }
    return (function, argument)
  }

  /// The aggregate calls of `expressions`, each once: calls alike as `sqlite3ExprCompare` sees
  /// them count as one (SQLite's `AggInfo.aFunc`), calls holding a bound value separately.
  private static func distinctAggregateCalls(in expressions: [SQLExpression], compiler: ExpressionCompiler) -> [SQLExpression] {
    var keys: [SQLExpression] = []
    var calls: [SQLExpression] = []
    for call in aggregateCalls(in: expressions) {
      if let key = compiler.comparisonKey(call) {
        if keys.contains(key) { continue }
        keys.append(key)
      }
      calls.append(call)
    }
    return calls
  }
}

/// The columns an expression reads, by position (the rowid and its alias are not columns):
/// by name, qualified by the table's name, and from inside subqueries (correlated references;
/// a name there counts even when an inner table has it too or is named like the table — SQLite
/// looks further out for the columns that inner table lacks — a superset that only decodes more).
///
/// Parts SQLite's parser drops before names are resolved (`x IN ()`, an AND with an operand that
/// is always false) read nothing.
enum ColumnUsage {
  static func columns(in expressions: [SQLExpression], table: TableDefinition) -> Set<Int> {
    var result = Set<Int>()
    func walk(_ expression: SQLExpression) {
      if ExpressionCompiler.foldsToZero(expression) { return }
      if case .inList(_, let list, _) = expression, list.isEmpty { return }
      switch expression {
      case .column(let name):
        if let index = table.columnIndex(name), index != table.rowidColumn { result.insert(index) }
      case .qualifiedColumn(let source, let name) where NameKey(source) == NameKey(table.name):
        if let index = table.columnIndex(name), index != table.rowidColumn { result.insert(index) }
      case .subquery(let query), .exists(let query, _), .inSubquery(_, let query, _):
        // A source of the subquery named like the table hides it only for the columns that
        // source has (SQLite looks further out for the others): count them all.
        query.memberSelects.flatMap(\.expressions).forEach(walk)
      default: break
      }
      // SQLite's parser replaces `x IN ()`, and an AND with such an operand, by a constant,
      // dropping their operands before any column is counted.
      if case .inList(_, let list, _) = expression, list.isEmpty { return }
      if ExpressionCompiler.foldsToZero(expression) { return }
      expression.children.forEach(walk)
    }
    expressions.forEach(walk)
    return result
  }
}
