import TandemCore

/// A compiled SELECT that reads several tables (joins) or holds subqueries: `select.c` over
/// `where.c`'s nested loops, one loop per source.
///
/// Rows are produced over one combined row (see ``SourceScope``). Each loop finds its candidate
/// rows with the best lookup it has — the rowid, an index whose first column the join compares,
/// or a transient hash table (SQLite's automatic index) — always in rowid order, and tests each
/// candidate with every condition that applies there.
///
/// The order rows are visited in decides an aggregate's or DISTINCT's answer (floating-point
/// sums, which of two equal values represents a group, bare columns). For those queries the loops
/// run in FROM order, each source in rowid order, and the SQLite backend pins SQLite to the same
/// order (`CROSS JOIN`, `NOT INDEXED`). Other queries may run their loops in any order: their
/// ORDER BY ends with every source's rowid, so the rows come out the same. Expressions that can
/// fail (`abs()`, `LIKE … ESCAPE`) would fail on rows that depend on the plan; such statements
/// are refused with `.unsupported`, unless ``AbsOverflowCheck`` proves from the data that their
/// `abs()` cannot fail on any row.
///
/// It is compiled for one run of one statement against one database (never cached), so it may
/// keep what it learned during the run: transient indexes and uncorrelated subqueries' answers.
final class RelationalSelect: RowSource, @unchecked Sendable {
  /// How the values of the query around a subquery reach its combined row.
  enum Prefix {
    /// No outer row.
    case none
    /// A single-table statement's row: its columns, then its rowid.
    case single(columns: Int)
    /// A relational query's combined row, copied whole.
    case combined(width: Int)
  }

  /// One nested loop.
  struct Loop {
    let source: Int
    let isLeft: Bool
    let lookup: Lookup?
    /// Tested on each candidate; for a LEFT JOIN, whether it matches.
    let conditions: [ConditionEvaluator]
    /// The first condition again, tested on the stored record before it is decoded, when it
    /// compares a column with text (see ``TextEqualityFilter``).
    var textFilter: TextEqualityFilter? = nil
  }

  /// The tables the foreign key actions of the UPDATE or DELETE being compiled or run may change
  /// (empty for any other statement): a subquery may not read one through an automatic index.
  @TaskLocal static var tablesWriteActionsChange: Set<NameKey> = []

  /// A table this query reads through a transient index that the running UPDATE's or DELETE's
  /// foreign key actions may change: refused when the query runs (after every name was resolved).
  private let indexedTableActionsChange: String?

  /// How a loop finds its candidates from the rows of the loops before it.
  enum Lookup {
    /// The rowid equals the probe (after numeric conversion); `joinsSources` when the probe
    /// reads another source of this query.
    case rowid(ValueEvaluator, joinsSources: Bool)
    /// The first column of an index equals the probe, converted with `affinity` first.
    case index(Int, ValueEvaluator, affinity: Affinity)
    /// A column equals the probe under a comparison's `affinity` and `collation`.
    case hash(column: Int, ValueEvaluator, affinity: Affinity, collation: Collation, cache: Int)
  }

  let scope: SourceScope
  private let storages: [TableStorage]
  private let loops: [Loop]
  /// The statement, for ``mayScanIndexOnceFlattened(readingColumns:)``.
  private let statement: SelectStatement
  private let finalConditions: [ConditionEvaluator]
  private let initialConditions: [ConditionEvaluator]
  private let isAlwaysFalse: Bool
  private let window: LimitClause
  private let projection: [ValueEvaluator]
  private let columnCollations: [Collation]
  private let distinct: Bool
  /// Whether result rows are computed: EXISTS only counts them (`selectInnerLoop` codes no
  /// result column for `SRT_Exists`).
  private let evaluatesColumns: Bool
  private let orderKeys: [ValueEvaluator]
  /// Whether the only loop finds at most one row (a rowid lookup, or one by a one-column UNIQUE
  /// index): SQLite counts any ORDER BY as satisfied (`WHERE_ONEROW`) and never computes its terms.
  private let findsOneRow: Bool
  /// Whether the only loop's rowid-order scan delivers the whole ORDER BY, ascending (see
  /// ``rowidOrderDeliversAll(_:_:correlates:scope:)``): SQLite then uses no sorter.
  private let streamsInScanOrder: Bool
  /// The ORDER BY terms SQLite takes as sorted already, a column an equality of the WHERE clause
  /// holds to a value read before this query's loops (see ``equalityPinnedOrderTerms(_:scope:)``).
  private let equalityPinnedOrderTerms: [Int]
  private let orderTerms: [SortTerm]
  private let aggregate: SelectPlan.AggregatePart?
  /// Whether SQLite's min/max optimization ends the loop after its first row
  /// (``minMaxEndsAtFirstRow(_:scope:compiler:)``).
  private let minMaxEndsAtFirstRow: Bool
  /// In a join, the argument of a lone min() or max() that SQLite's min/max optimization may end
  /// at the first row of its plan (``minMaxArgumentHeldInJoin(_:scope:compiler:)``): its rows
  /// must all hold the same value.
  private let minMaxHeldArgument: CompiledExpression?
  private let prefix: Prefix
  /// Whether rows tying in ORDER BY may come in any order (SQL text whose caller does not depend
  /// on the order; see ``SQLTextMode``).
  private let orderIsFree: Bool
  /// Whether DISTINCT must find every row it drops identical to the one it keeps, and GROUP BY
  /// every row of a group to have the keys of its first (over a plan SQLite chooses freely).
  private let checksDistinctRows: Bool
  /// The statement's parameter names in slot order, this query's included.
  let parameterNames: [String]
  /// Whether the query reads the row of a query around it (a correlated subquery).
  var isCorrelated: Bool { scope.readsOuter }
  let mayComeInPlanOrder: Bool
  private(set) var holdsCorrelatedSubquery = false
  let firstColumn: CompiledExpression
  /// Each result column's collation, when it has one (a compound's members pick theirs from it).
  let resultCollations: [Collation?]
  /// Whether each result column is a bare column (under `+` or CAST at most) of a subquery in
  /// FROM, a view or a common table: SQLite gives it that table's column collation, BINARY,
  /// where it keeps the subquery as a table, and the expression's own — none for the rowid or
  /// `a + 1` — where its query flattener substitutes the expression. Its plan decides, so a
  /// compound does not let such a column choose (``CompoundSelect``).
  let resultCollationsDependOnFlattening: [Bool]
  let columnCount: Int
  /// The slots of the group's row that a subquery in the outputs compares and SQLite may
  /// convert in place, each with whether TEXT affinity may convert it too (see
  /// ``groupSlotsSubqueriesMayRetype(_:scope:)``).
  private let retypableGroupSlots: [(slot: Int, mayBecomeText: Bool)]
  /// Transient indexes built during this run, by lookup.
  private var hashes: [Int: [ValueEqualityKey: [Int64]]] = [:]
  /// The common table each source reads, if it reads one.
  private let commonSources: [CommonTable?]
  /// Whether this is an aggregate without GROUP BY over a common table (or a view, or a subquery
  /// in FROM) that reads a row outside its aggregates: over no rows, SQLite's answer for such a
  /// bare column is NULL, or the column's expression where it flattens the table into the query.
  private let readsCommonTableBare: Bool
  /// Whether an aggregate reads a row outside its aggregates over a common table whose rows
  /// come in plan order (``CommonTable/hasPlanOrder``).
  private let readsBareRowOfPlanOrderedTable: Bool

  /// Forgets the transient indexes (a recursive member's table changes between runs).
  func resetTransientIndexes() { hashes.removeAll(keepingCapacity: true) }

  /// Whether every source is a stored table (no common table, view or subquery in FROM, whose
  /// rows a run computes and keeps).
  var readsStoredTablesOnly: Bool { commonSources.allSatisfy { $0 == nil } }

  /// Each result column's affinity.
  var resultAffinities: [Affinity] { compiledAffinities }
  private let compiledAffinities: [Affinity]

  /// Compiles `statement` against `catalog`'s tables, inside the query level `outer` (whose row
  /// reaches this one as `prefix`), continuing the parameter slots of `parameterNames`;
  /// `forExistence` compiles it for `EXISTS` (see ``RelationalQuery``).
  ///
  /// A refusal found before every name is resolved (an aggregate that belongs to the query
  /// around) waits until they are: SQLite reports a bad name anywhere in the query, so the
  /// memory engine reports it too, before refusing.
  convenience init(
    _ statement: SelectStatement, catalog: Catalog, outer: SourceScope?, prefix: Prefix, parameterNames: [String],
    commonTables: CommonTableScope?, forExistence: Bool = false
  ) throws {
    var refusal: TandemError?
    let compiler = ExpressionCompiler(table: nil, parameterNames: parameterNames)
    do {
      try self.init(
        compiling: statement, catalog: catalog, outer: outer, prefix: prefix, compiler: compiler,
        commonTables: commonTables, forExistence: forExistence, refusal: &refusal)
    } catch let error as TandemError {
      if let pending = refusal ?? compiler.pendingRefusal, !ExpressionCompiler.outranks(error, pending: pending),
        !compiler.isSubqueryError(error)
      {
        throw pending
      }
      throw error
    }
    if let refusal { throw refusal }
  }

  private init(
    compiling statement: SelectStatement, catalog: Catalog, outer: SourceScope?, prefix: Prefix,
    compiler: ExpressionCompiler, commonTables: CommonTableScope?, forExistence: Bool, refusal: inout TandemError?
  ) throws {
    // EXISTS resolves the ORDER BY, then deletes it and DISTINCT (`sqlite3Select`'s
    // IgnorableOrderby): the query runs as if they had never been written.
    let deletedOrder = forExistence ? statement.orderBy : []
    var statement = statement
    if forExistence {
      statement.orderBy = []
      statement.distinct = false
    }
    evaluatesColumns = !forExistence
    guard statement.with == nil, statement.compound.isEmpty else {
      throw TandemError.misuse("a WITH clause or compound reached a single select")  // RelationalQuery splits them off
    }
    var sources: [(String, TableDefinition)] = []
    var storages: [TableStorage] = []
    var common: [CommonTable?] = []
    for (table, alias) in statement.sources {
      let commonTable = commonTables?.lookup(table)
      common.append(commonTable)
      let storage = try commonTable?.storage ?? catalog.requireTable(table)
      sources.append((alias, storage.definition))
      storages.append(storage)
    }
    let leftJoined = Set(statement.joins.indices.filter { statement.joins[$0].kind == .left }.map { $0 + 1 })
    let scope = SourceScope(sources: sources, parent: outer, nullable: leftJoined)
    self.scope = scope
    self.storages = storages
    commonSources = common
    let isAggregate = !statement.groupBy.isEmpty || statement.columns.contains(where: SelectPlan.hasAggregate)
    let readsBare = statement.groupOutputs.contains { Self.readsBareRow($0) }
    readsCommonTableBare = statement.groupBy.isEmpty && common.contains { $0 != nil } && isAggregate && readsBare
    let groupsInIndexOrder = Self.groupsCommonTableInIndexOrder(statement, scope: scope, common: common)
    self.prefix = prefix
    guard !statement.columns.isEmpty else { throw TandemError.misuse("a select needs at least one result column") }

    compiler.scope = scope
    compiler.catalog = catalog
    compiler.commonTables = commonTables

    compiler.hidesColumns = true
    window = try LimitClause(limit: statement.limit, offset: statement.offset, compiler: compiler)
    compiler.hidesColumns = false

    compiler.aggregatePolicy = isAggregate ? .collect : .forbidden
    compiler.compiledCorrelatedSubquery = false
    let compiledColumns = try statement.columns.map(compiler.compile)
    // Whether this level aggregates at all is known once its result columns are resolved.
    if outer != nil { refusal = try Self.outerAggregateRefusal(statement, scope: scope, catalog: catalog) }
    var having: ConditionEvaluator?
    // The statement the loops run: SQLite moves HAVING terms that read only GROUP BY terms into
    // WHERE (`havingToWhere`), so they filter rows before any group forms.
    var planned = statement
    if let clause = statement.having {
      // A refused subquery may hold this level's aggregate: the refusal stands then.
      guard isAggregate || compiler.pendingRefusal != nil else { throw ExpressionCompiler.havingWithoutAggregate }
      having = try compiler.condition(clause).test
      if !statement.groupBy.isEmpty {
        let probe = Self.probe(over: scope, like: compiler)
        // A GROUP BY term holding a subquery is not compiled twice (that would mark the levels
        // it reads): no HAVING term moves on its account, the others still do. A term that does
        // not compile fails the statement later, in SQLite's order.
        let plainGroups = statement.groupBy.filter { !$0.containsSubquery }
        let compiled = plainGroups.map { try? probe.compile($0) }
        let (kept, moved) =
          compiled.contains(where: { $0 == nil })
          ? (clause, [])
          : try SelectPlan.splitHaving(clause, groupBy: plainGroups, compiler: compiler) { term in
            plainGroups.firstIndex(of: term).flatMap { compiled[$0]?.collation }
          }
        if !moved.isEmpty {
          for term in moved { planned.filter = planned.filter.map { .binary(.and, $0, term) } ?? term }
          planned.having = kept
          having = try kept.map { try compiler.condition($0).test }
        }
      }
    }
    compiler.aggregatePolicy = .forbidden
    var outputsReadRowInSubquery = compiler.compiledCorrelatedSubquery
    // A join's visiting order is pinned (in FROM order, each source in rowid order) only when it
    // can change the answer; one table's aggregate or DISTINCT is always read in rowid order, as
    // the SQLite backend reads it (NOT INDEXED).
    let traits: (String, String) -> ColumnTraits? = { table, column in
      guard let definition = storages.first(where: { NameKey($0.name) == NameKey(table) })?.definition,
        !definition.isEphemeral
      else { return nil }
      return SQLTextMode.traits(definition, column)
    }
    var pinned =
      statement.joins.isEmpty
      ? isAggregate || statement.distinct
      : statement.answerDependsOnVisitOrder(traits)
    if let mode = SQLTextMode.current {
      // SQLite plans SQL text freely: nothing pins its visiting order. Refused once every name
      // is resolved, as the other refusals are: a bad name is SQLite's error.
      do {
        try mode.checkVisitOrder(
          statement, storages: storages,
          dependsOnOrder: statement.answerOfAnySourcesDependsOnVisitOrder(distinctRowsChecked: true, traits))
      } catch let error as TandemError where error.kind == .unsupported {
        if refusal == nil { refusal = error }
      }
      // Pinned only where SQLite's own order is the pinned one.
      let keepsPinnedOrder = SQLTextMode.visitsInPinnedOrder(statement, storages: storages)
      pinned = pinned && keepsPinnedOrder
      if outer == nil, !forExistence, statement.orderBy.isEmpty, !isAggregate, storages.count > 1 || statement.distinct,
        !(storages.count == 1 && keepsPinnedOrder)
      {
        do {
          try mode.checkOpenOrder(limited: statement.limit != nil || statement.offset != nil)
        } catch let error as TandemError where error.kind == .unsupported {
          if refusal == nil { refusal = error }
        }
      }
    }
    // Unpinned, SQLite plans freely in SQL text and in the typed API alike: an INTEGER column
    // holds the REAL -2⁶³ beside the integer it equals, so the typed API's rule that integer
    // columns need no pinning still needs this check.
    // The pin fixes the loops, not the order of a common table's own rows: one whose rows come in
    // an order SQLite's plan chooses (a join, a compound, an index it may scan) is checked as an
    // unpinned join is.
    // SQLite may read a source branch by branch of an OR, out of rowid order; pinned, it reads
    // every source NOT INDEXED, by its rowid alone.
    let orTerms = ((planned.filter?.conjuncts ?? []) + planned.joins.compactMap(\.condition).flatMap(\.conjuncts))
      .filter { if case .binary(.or, _, _) = $0 { true } else { false } }
    let visitsThroughMultiIndexOr = !orTerms.isEmpty && scope.sources.indices.contains { source in
      let notIndexed = source == 0 ? statement.notIndexed : statement.joins[source - 1].notIndexed
      return Self.mayVisitThroughMultiIndexOr(
        orTerms, source: source, scope: scope, indexesUsable: !notIndexed && !(pinned && SQLTextMode.current == nil))
    }
    // A common table SQLite flattens into this query keeps only the columns read here, and an
    // index may then cover it.
    let readsIndexOrderedTable = Set(
      common.indices.filter { position in
        common[position]?.mayScanIndexOnceFlattened(
          readingColumns: Self.columnsRead(of: position, statement, scope: scope)) == true
      })
    readsBareRowOfPlanOrderedTable =
      isAggregate
      && (readsBare && (common.contains { $0?.hasPlanOrder == true } || !readsIndexOrderedTable.isEmpty)
        || (groupsInIndexOrder || visitsThroughMultiIndexOr)
          && statement.groupOutputs.contains { Self.readsBareRow($0, besides: statement.groupBy) })
    let readsPlanOrderedTable =
      common.contains { $0?.hasPlanOrder == true } || !readsIndexOrderedTable.isEmpty || groupsInIndexOrder
      || visitsThroughMultiIndexOr
    let visitOrderIsKnown = pinned && !readsPlanOrderedTable
    checksDistinctRows = !visitOrderIsKnown
    orderIsFree = outer == nil && SQLTextMode.current?.rowOrderIsFree == true
      && statement.limit == nil && statement.offset == nil
    let plan = try JoinPlanner(
      planned, written: statement, scope: scope, storages: storages, compiler: compiler, pinned: pinned)
    loops = plan.loops
    let changedByActions = Self.tablesWriteActionsChange
    indexedTableActionsChange = changedByActions.isEmpty ? nil : plan.loops.lazy.compactMap { loop -> String? in
      let table = scope.sources[loop.source].definition.name
      guard case .hash = loop.lookup, changedByActions.contains(NameKey(table)) else { return nil }
      return table
    }.first
    findsOneRow =
      switch plan.loops.count == 1 ? plan.loops[0].lookup : nil {
      case .rowid?: true
      case .index(let index, _, _)?:
        storages[plan.loops[0].source].definition.indexes[index].isUnique
          && storages[plan.loops[0].source].definition.indexes[index].columns.count == 1
      default: false
      }
    finalConditions = plan.finalConditions
    initialConditions = plan.initialConditions
    mayComeInPlanOrder = statement.orderBy.isEmpty && plan.loops.contains { loop in
      common[loop.source]?.rowsComeInPlanOrder == true || readsIndexOrderedTable.contains(loop.source)
        || loop.lookup == nil && Self.mayScanCoveringIndex(statement, source: loop.source, scope: scope)
        || Self.maySearchIndexInKeyOrder(statement, source: loop.source, scope: scope)
    } || statement.orderBy.isEmpty && visitsThroughMultiIndexOr
    isAlwaysFalse = plan.isAlwaysFalse
    self.statement = statement
    // ORDER BY and GROUP BY may not name the levels around this one (`resolveSelectStep`).
    scope.hidesOuter = true
    compiler.aggregatePolicy = isAggregate ? .collect : .deferredMisuse
    var compiledOrder: [CompiledExpression] = []
    // Whether each term reads this query's row through a correlated subquery.
    var orderTermCorrelates: [Bool] = []
    for (position, term) in statement.orderBy.enumerated() {
      compiler.compiledCorrelatedSubquery = false
      compiledOrder.append(
        try SelectPlan.compileTerm(
          term.expression, position: position, clause: "ORDER", columns: statement.columns.count, compiler: compiler))
      orderTermCorrelates.append(compiler.compiledCorrelatedSubquery)
    }
    compiler.compiledCorrelatedSubquery = orderTermCorrelates.contains(true)
    if !deletedOrder.isEmpty {
      try compiler.resolvingOnly {
        _ = try SelectPlan.compileTerms(
          deletedOrder.map(\.expression), clause: "ORDER", columns: statement.columns.count, compiler: compiler)
      }
    }
    outputsReadRowInSubquery = outputsReadRowInSubquery || compiler.compiledCorrelatedSubquery
    retypableGroupSlots =
      isAggregate && outputsReadRowInSubquery ? Self.groupSlotsSubqueriesMayRetype(statement, scope: scope) : []
    compiler.aggregatePolicy = .groupBy
    let compiledGroups = try SelectPlan.compileTerms(
      statement.groupBy, clause: "GROUP", columns: statement.columns.count, compiler: compiler)
    scope.hidesOuter = false
    if let error = compiler.deferredError { throw error }

    self.parameterNames = compiler.parameterNames
    // SQLite's `exprSelectUsage` looks into the tables a query reads too (a common table is a
    // copy of its select there).
    holdsCorrelatedSubquery =
      compiler.compiledCorrelationAnywhere || common.contains { $0?.holdsCorrelatedSubquery == true }
    projection = compiledColumns.map(\.evaluate)
    columnCount = compiledColumns.count
    columnCollations = compiledColumns.map { $0.collation ?? .binary }
    firstColumn = compiledColumns[0]
    compiledAffinities = compiledColumns.map(\.affinity)
    resultCollations = compiledColumns.map(\.collation)
    resultCollationsDependOnFlattening = statement.columns.map { Self.readsDerivedColumn($0, scope: scope) }
    distinct = statement.distinct
    // SQLite computes only the terms it sorts by: none past a first term the rowid scan delivers.
    let scanDeliversOrder =
      !isAggregate && plan.loops.count == 1 && plan.loops[0].lookup == nil
      && Self.rowidOrderDeliversAll(statement, compiledOrder, correlates: orderTermCorrelates, scope: scope)
    let computedTerms = scanDeliversOrder ? 1 : statement.orderBy.count
    // Ascending, the scan's own order is the ORDER BY: the rows stream as they are found.
    streamsInScanOrder = scanDeliversOrder && statement.orderBy.first?.descending == false
    let mayGoUncomputed = isAggregate ? [] : Self.orderTermsLoopsMaySatisfy(statement, scope: scope)
    orderKeys = compiledOrder.prefix(computedTerms).enumerated().map { position, compiled in
      let evaluate = compiled.evaluate
      guard mayGoUncomputed.contains(position) else { return evaluate }
      return { context in
        do {
          return try evaluate(context)
        } catch let error as TandemError where error.kind != .unsupported {
          throw Self.uncomputedOrderTermFailed
        }
      }
    }
    equalityPinnedOrderTerms =
      isAggregate ? [] : Self.equalityPinnedOrderTerms(statement, scope: scope).filter { $0 < computedTerms }
    orderTerms = zip(statement.orderBy, compiledOrder).prefix(computedTerms).map { term, compiled in
      SortTerm(descending: term.descending, nulls: term.nulls, collation: compiled.collation ?? .binary)
    }
    if isAggregate {
      var part = SelectPlan.aggregatePart(statement, compiler: compiler, compiledGroups: compiledGroups, having: having)
      // The group's column is read again after the IN converted it, in the same row or by the
      // sorter (with or without GROUP BY: one group is a group): whether it shows depends on
      // SQLite's code.
      if statement.groupOutputs.contains(where: Self.mayRetypeGroupValue) {
        throw EngineError.unsupported(
          "IN on a column outside aggregates, in an aggregate join or subquery (SQLite may "
            + "convert the group's value in place)")
      }
      if compiler.convertsAggregateInPlace {
        throw EngineError.unsupported(
          "an aggregate as the operand of IN (SELECT …) under an affinity that converts it (SQLite converts the "
            + "aggregate's value in place, and later reads of it may see the change)")
      }
      // Bare columns are read from the last row a min() or max() did not skip, and a DISTINCT
      // duplicate does not run it at all: which rows count as duplicates follows how SQLite checks
      // distinctness, which its plan decides for a join (a table of the values seen, or a
      // comparison with the previous row when it takes the loops to deliver them in order).
      if !statement.joins.isEmpty,
        compiler.aggregates.contains(where: { ($0.function == .min || $0.function == .max) && $0.distinct }),
        statement.groupOutputs.contains(where: { Self.readsBareRow($0) })
      {
        throw EngineError.unsupported(
          "min() or max() of DISTINCT values beside bare columns in a join (which row those read depends on how "
            + "SQLite's plan checks distinctness)")
      }
      // Values joined in the order they come, which no check at run time can vouch for.
      if readsPlanOrderedTable, compiler.aggregates.contains(where: { $0.function == .groupConcat }) {
        throw EngineError.unsupported(
          "group_concat() over rows that come in an order SQLite's plan chooses (a common table made of a join, a "
            + "compound, or a table SQLite may read in an index's order; an OR SQLite may answer branch by branch)")
      }
      part.checksOrderFreedom = !visitOrderIsKnown
      aggregate = part
      minMaxEndsAtFirstRow = Self.minMaxEndsAtFirstRow(statement, scope: scope, compiler: compiler)
      minMaxHeldArgument = Self.minMaxArgumentHeldInJoin(statement, scope: scope, compiler: compiler)
      if minMaxEndsAtFirstRow && !visitOrderIsKnown && refusal == nil {
        refusal = EngineError.unsupported(
          "min() or max() of a column a WHERE term holds to one value, over rows SQLite's plan orders (its min/max "
            + "optimization keeps the first row it visits)")
      }
    } else {
      aggregate = nil
      minMaxEndsAtFirstRow = false
      minMaxHeldArgument = nil
    }
    // Refused after name resolution: a statement with a bad name reports that error first.
    if refusal == nil, let pending = compiler.pendingRefusal { refusal = pending }
    if refusal == nil, Self.comparesColumnOfMixedAffinity(statement, scope: scope, common: common) {
      refusal = EngineError.unsupported(
        "a comparison with a column of a compound common table expression, view or subquery in FROM whose "
          + "members' expressions differ in affinity (SQLite may push the comparison into each member, where it "
          + "takes that member's affinity)")
    }
    if refusal == nil, !isAggregate, !statement.distinct, Self.indexOrderMaySkipASubquery(statement, scope: scope) {
      refusal = EngineError.unsupported(
        "a subquery in the ORDER BY or result columns of a query SQLite may read in the order of an index: it then "
          + "computes them for fewer rows, and whether they fail depends on its plan")
    }
    if refusal == nil, Self.omittedLeftJoinMayMisorder(statement, scope: scope) {
      refusal = EngineError.unsupported(
        "an ORDER BY with DESC over a join whose LEFT JOIN table nothing else reads (SQLite 3.40 drops that table "
          + "from its plan and may then scan a later table in the wrong direction)")
    }
    try Self.refuseFallible(statement, scope: scope, catalog: catalog)
  }

  /// Whether an expression of this level compares a column of a common table that a member of
  /// its compound gives another affinity (``CommonTable/columnsOfMixedAffinity``).
  ///
  /// ```sql
  /// -- c(v) AS (SELECT t.text_column … UNION ALL SELECT trim(x) …): TEXT affinity, but SQLite
  /// -- pushes the term into the second member, where trim() has none: 12.0 > '1.5' is false there
  /// WITH c(v) AS (…) SELECT 1 FROM c WHERE 12.0 > c.v
  /// ```
  static func comparesColumnOfMixedAffinity(_ statement: SelectStatement, scope: SourceScope, common: [CommonTable?]) -> Bool {
    guard common.contains(where: { $0?.columnsOfMixedAffinity.isEmpty == false }) else { return false }
    func isMixed(_ operand: SQLExpression) -> Bool {
      switch operand {
      case .collate(let inner, _), .unary(.plus, let inner): return isMixed(inner)
      default:
        guard let reference = scope.reference(to: operand), reference.depth == 0, let column = reference.column,
          let table = common[reference.source]
        else { return false }
        return table.columnsOfMixedAffinity.contains(column)
      }
    }
    func compares(_ expression: SQLExpression) -> Bool {
      switch expression {
      case .binary(let op, let lhs, let rhs) where ComparisonOperator(op) != nil:
        if isMixed(lhs) || isMixed(rhs) { return true }
      case .between(let operand, let low, let high, _):
        if isMixed(operand) || isMixed(low) || isMixed(high) { return true }
      case .inList(let operand, let list, _):
        if isMixed(operand) || list.contains(where: isMixed) { return true }
      case .inSubquery(let operand, _, _):
        if isMixed(operand) { return true }
      default:
        break
      }
      return expression.children.contains(where: compares)
    }
    return statement.expressions.contains(where: compares)
  }

  /// Whether SQLite, flattening this select into a query that reads only its result columns at
  /// `positions`, may scan an index of one of its tables that covers what is left.
  func mayScanIndexOnceFlattened(readingColumns positions: Set<Int>) -> Bool {
    guard statement.orderBy.isEmpty else { return false }
    var flattened = statement
    flattened.columns = statement.columns.indices.filter(positions.contains).map { statement.columns[$0] }
    return loops.contains { $0.lookup == nil && Self.mayScanCoveringIndex(flattened, source: $0.source, scope: scope) }
  }

  /// The positions of the columns of `source` (a common table) the statement reads, outside its
  /// subqueries (a subquery's reads are left out: fewer columns only make
  /// ``mayScanIndexOnceFlattened(readingColumns:)`` answer `true` more often).
  private static func columnsRead(of source: Int, _ statement: SelectStatement, scope: SourceScope) -> Set<Int> {
    var read = Set<Int>()
    func walk(_ expression: SQLExpression) {
      switch expression {
      case .column, .qualifiedColumn:
        if let reference = scope.reference(to: expression), reference.depth == 0, reference.source == source,
          let column = reference.column
        {
          read.insert(column)
        }
      default:
        break
      }
      expression.children.forEach(walk)
    }
    statement.expressions.forEach(walk)
    return read
  }

  /// Whether SQLite may scan an index of `source` instead of its table: an index holding every
  /// column the query reads of it (the rowid aside), which SQLite prefers when it is narrower
  /// than the table (`whereLoopAddBtree`'s full scan of a covering index). Its rows then come in
  /// the index's order, where this engine's scan delivers them in rowid order. Names are matched
  /// by spelling: unqualified, or qualified by the source's alias, in every clause; in a
  /// subquery, only qualified by that alias where no source of the subquery takes it (an inner
  /// `t.c` over a table also named `t` is the inner table's). Fewer names only make the answer
  /// `true` more often, as the index's width (not compared) does.
  ///
  /// ```sql
  /// -- t(a, b) with an index on a: SQLite returns the first row in the order of a
  /// SELECT (SELECT rowid FROM t)
  /// ```
  static func mayScanCoveringIndex(_ statement: SelectStatement, source: Int, scope: SourceScope) -> Bool {
    let definition = scope.sources[source].definition
    guard !definition.isEphemeral, !definition.indexes.isEmpty else { return false }
    let alias = NameKey(scope.sources[source].alias)
    var read = Set<Int>()
    func walk(_ expression: SQLExpression, inSubquery: Bool, hidden: Bool) {
      switch expression {
      case .column(let name) where !inSubquery:
        if let column = definition.columnIndex(name) { read.insert(column) }
      case .qualifiedColumn(let qualifier, let name) where !hidden && NameKey(qualifier) == alias:
        if let column = definition.columnIndex(name) { read.insert(column) }
      case .subquery(let query), .exists(let query, _), .inSubquery(_, let query, _):
        let selects = query.memberSelects + (query.with?.tables.flatMap(\.select.memberSelects) ?? [])
        let hides = hidden || selects.contains { $0.sources.contains { NameKey($0.alias) == alias } }
        for part in query.expressionsWithCommonTables { walk(part, inSubquery: true, hidden: hides) }
      default:
        break
      }
      for child in expression.children { walk(child, inSubquery: inSubquery, hidden: hidden) }
    }
    for expression in statement.expressions { walk(expression, inSubquery: false, hidden: false) }
    if let rowid = definition.rowidColumn { read.remove(rowid) }
    return definition.indexes.contains { read.isSubset(of: $0.columns) }
  }

  /// Whether SQLite may read the source through an index whose order is not the rowid's, to
  /// answer a WHERE or ON term: a range, IN, LIKE or NULL test on a column leading an index (the
  /// rows then come in key order), or an equality on the first of an index's several columns
  /// (in the order of the others). This engine's loops read such a table in rowid order.
  ///
  /// ```sql
  /// -- an index on child(ref): SQLite answers '1.5' (ref 3) before 'x' (ref 4, the first rowid)
  /// SELECT b, (SELECT 1) FROM child WHERE ref > 0
  /// ```
  static func maySearchIndexInKeyOrder(_ statement: SelectStatement, source: Int, scope: SourceScope) -> Bool {
    let definition = scope.sources[source].definition
    guard !definition.isEphemeral, !definition.indexes.isEmpty else { return false }
    // Whether the operand is a column of this source that leads an index, and whether some index
    // it leads has further columns.
    func leads(_ operand: SQLExpression) -> (leads: Bool, hasMoreColumns: Bool) {
      var operand = operand
      while case .collate(let inner, _) = operand { operand = inner }
      switch operand {
      case .column, .qualifiedColumn: break
      default: return (false, false)
      }
      guard let reference = scope.reference(to: operand), reference.depth == 0, reference.source == source,
        let column = reference.column, column != definition.rowidColumn
      else { return (false, false) }
      let led = definition.indexes.filter { $0.columns.first == column }
      return (!led.isEmpty, led.contains { $0.columns.count > 1 })
    }
    func searches(_ term: SQLExpression) -> Bool {
      switch term {
      case .binary(.and, let lhs, let rhs), .binary(.or, let lhs, let rhs):
        return searches(lhs) || searches(rhs)
      case .binary(let op, let lhs, let rhs) where [.equal, .is].contains(op):
        return leads(lhs).hasMoreColumns || leads(rhs).hasMoreColumns
      case .binary(let op, let lhs, let rhs) where [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(op):
        return leads(lhs).leads || leads(rhs).leads
      case .isNull(let operand, let negated):
        return negated ? leads(operand).leads : leads(operand).hasMoreColumns
      case .between(let operand, _, _, negated: false), .inList(let operand, _, negated: false),
        .inSubquery(let operand, _, negated: false), .like(let operand, _, _, negated: false),
        .glob(let operand, _, negated: false):
        return leads(operand).leads
      default:
        return false
      }
    }
    let terms = (statement.filter.map { [$0] } ?? []) + statement.joins.compactMap(\.condition)
    return terms.contains(where: searches)
  }

  /// Whether SQLite may read the source through a `MULTI-INDEX OR` (`whereLoopAddOr`): one of
  /// `orTerms` (the WHERE and ON terms that are ORs) has, in each of its branches, a term a
  /// lookup on this source can use (a rowid comparison, IN or BETWEEN; with `indexesUsable`, the
  /// same on a column that leads one of its indexes). SQLite then visits the rows each branch
  /// finds, branch after branch, where this engine's loop reads them in rowid order. An OR of
  /// rowid equalities is not one: SQLite makes it an IN, sought in rowid order. Errs toward
  /// `true`: SQLite weighs that plan against a scan, and makes an IN of equalities on one indexed
  /// column too.
  ///
  /// ```sql
  /// -- SQLite visits rowid 3, then rowid 1: group_concat answers 'c,a'
  /// SELECT group_concat(y) FROM t NOT INDEXED WHERE rowid = 3 OR rowid IS 1
  /// ```
  static func mayVisitThroughMultiIndexOr(
    _ orTerms: [SQLExpression], source: Int, scope: SourceScope, indexesUsable: Bool
  ) -> Bool {
    let definition = scope.sources[source].definition
    guard !definition.isEphemeral else { return false }
    let indexed = indexesUsable ? Set(definition.indexes.compactMap(\.columns.first)) : []
    // Whether the operand is this source's rowid, or a column leading a usable index.
    func isKey(_ operand: SQLExpression) -> Bool {
      guard let reference = scope.reference(to: operand.withoutCollate), reference.depth == 0,
        reference.source == source
      else { return false }
      return reference.isRowid || reference.column.map(indexed.contains) == true
    }
    // A subquery counts as reading no source: SQLite seeks with one that reads none of this
    // query's rows (`rowid = (SELECT 3)`), and one that does (which it cannot seek with) only
    // makes the engine refuse more than it must.
    func readsSource(_ expression: SQLExpression) -> Bool {
      (try? JoinPlanner.sourcesRead(expression, scope: scope, subqueriesReadRow: false).contains(source)) ?? true
    }
    func usable(_ term: SQLExpression) -> Bool {
      switch term {
      case .binary(let op, let lhs, let rhs)
      where [.equal, .is, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op):
        return isKey(lhs) && !readsSource(rhs) || isKey(rhs) && !readsSource(lhs)
      case .isNull(let operand, _), .like(let operand, _, _, negated: false), .glob(let operand, _, negated: false):
        return isKey(operand)
      case .between(let operand, _, _, negated: false), .inList(let operand, _, negated: false),
        .inSubquery(let operand, _, negated: false):
        return isKey(operand)
      default:
        return false
      }
    }
    func disjuncts(_ term: SQLExpression) -> [SQLExpression] {
      if case .binary(.or, let lhs, let rhs) = term { return disjuncts(lhs) + disjuncts(rhs) }
      return [term]
    }
    // `rowid = a OR rowid = b` becomes `rowid IN (a, b)` (`exprAnalyzeOrTerm`), sought in rowid order.
    func isRowidEquality(_ term: SQLExpression) -> Bool {
      guard case .binary(.equal, let lhs, let rhs) = term else { return false }
      func isRowid(_ side: SQLExpression) -> Bool {
        scope.reference(to: side.withoutCollate).map {
          $0.depth == 0 && $0.source == source && $0.isRowid
        } ?? false
      }
      return isRowid(lhs) && !readsSource(rhs) || isRowid(rhs) && !readsSource(lhs)
    }
    return orTerms.contains { term in
      let branches = disjuncts(term)
      return !branches.allSatisfy(isRowidEquality) && branches.allSatisfy { $0.conjuncts.contains(where: usable) }
    }
  }

  /// Whether SQLite 3.40 may hand out this query's rows out of its ORDER BY: it drops from its
  /// plan the right table of a LEFT JOIN that nothing but its ON clause reads
  /// (`whereOmitNoopJoin`), but keeps the other loops' directions by their old positions
  /// (`revMask` is not shifted), so with a loop run backwards for a `DESC` term, a table after
  /// the dropped one may be scanned the wrong way (a 3.40 bug). The relational path always
  /// sorts, so it refuses where that could happen: a `DESC` term, and such a LEFT JOIN table
  /// with a table after it.
  ///
  /// ```sql
  /// SELECT t.a, u.a FROM t LEFT JOIN t AS x ON t.a = x.rowid JOIN t AS u ORDER BY t.a, u.a DESC
  /// -- SQLite 3.40 answers u.a ascending
  /// ```
  private static func omittedLeftJoinMayMisorder(_ statement: SelectStatement, scope: SourceScope) -> Bool {
    guard statement.orderBy.contains(where: \.descending), scope.sources.count > 2 else { return false }
    for (position, join) in statement.joins.enumerated() where join.kind == .left {
      let source = position + 1
      guard source < scope.sources.count - 1, !scope.sources[source].definition.isEphemeral else { continue }
      let alias = scope.sources[source].alias
      func reads(_ expression: SQLExpression) -> Bool {
        switch expression {
        case .qualifiedColumn(let name, _), .qualifiedRowid(let name):
          if NameKey(name) == NameKey(alias) { return true }
        case .column, .rowid:
          if let reference = scope.reference(to: expression), reference.depth == 0, reference.source == source {
            return true
          }
        default: break
        }
        if expression.directSubqueries.contains(where: { $0.memberSelects.flatMap(\.expressions).contains(where: reads) }) {
          return true
        }
        return expression.children.contains(where: reads)
      }
      var elsewhere = statement.columns + statement.orderBy.map(\.expression) + statement.groupBy
      elsewhere += [statement.filter, statement.having].compactMap { $0 }
      elsewhere += statement.joins.enumerated().filter { $0.offset != position }.compactMap(\.element.condition)
      if !elsewhere.contains(where: reads) { return true }
    }
    return false
  }

  /// Runs the query with `outer` as the row around it (parameters included) and hands each
  /// result row to `body`, which returns whether to go on.
  func forEachRow(_ outer: EvaluationContext, _ body: ([SqliteValue]) throws -> Bool) throws {
    if let table = indexedTableActionsChange {
      throw EngineError.unsupported(
        "a subquery reading \(table) through an automatic index, in an UPDATE or DELETE whose foreign key actions "
          + "change \(table) (SQLite builds that index once, before an earlier row's action changes the table)")
    }
    let width = scope.width
    let buffer = UnsafeMutablePointer<SqliteValue>.allocate(capacity: max(width, 1))
    buffer.initialize(repeating: .null, count: max(width, 1))
    defer {
      buffer.deinitialize(count: max(width, 1))
      buffer.deallocate()
    }
    switch prefix {
    case .none: break
    case .single(let columns):
      if let row = outer.row {
        for index in 0..<columns { buffer[index] = row[index] }
        buffer[columns] = .integer(outer.rowid)
      }
    case .combined(let count):
      if let row = outer.row { for index in 0..<count { buffer[index] = row[index] } }
    }
    var context = EvaluationContext()
    context.row = UnsafePointer(buffer)
    context.parameters = outer.parameters
    // The common tables first: a LIMIT that fails, or is 0, ends the query after them.
    let window: (limit: Int?, offset: Int)?
    do {
      window = try self.window.evaluate(context)
    } catch {
      try fillCommonTables(context)
      throw error
    }
    try fillCommonTables(context)
    guard let window else { return }
    var stopped = false
    func emit(_ row: [SqliteValue]) throws {
      if stopped { return }
      if try !body(row) { stopped = true }
    }
    if let aggregate {
      try runAggregate(aggregate, buffer: buffer, context, window: window) { row in
        try emit(row)
        return !stopped
      }
    } else {
      try runPlain(buffer: buffer, context, window: window) { row in
        try emit(row)
        return !stopped
      }
    }
  }

  /// Computes the common tables (views, subqueries in FROM) this query reads, and refuses one
  /// whose computation fails.
  ///
  /// This engine computes every row of each table before the query runs; SQLite may compute
  /// fewer, or none: it flattens a table into the query (computing its columns only for the rows
  /// and columns the query reads), pushes WHERE terms down into it, runs a table read once only
  /// when its loop needs a row — after LIMIT 0, or a false term reading none of the query's
  /// tables, has ended the query — and a table read twice before anything else. Which, is its
  /// plan's choice, so whether the failure happens there is too. A table that computes without
  /// error gives the same rows either way.
  ///
  /// ```sql
  /// -- SQLite: no row; c (its sum() overflows) is never run
  /// WITH c(n) AS (SELECT sum(x) FROM big) SELECT * FROM c JOIN u WHERE X'31' IS NULL
  /// -- SQLite: 1; the overflowing s is computed for no row
  /// WITH c(k, s) AS (SELECT k, (SELECT sum(w) FROM v AS v2 WHERE v2.k <= v.k) FROM v) SELECT k FROM c WHERE k = 1
  /// ```
  private func fillCommonTables(_ context: EvaluationContext) throws {
    do {
      for table in commonSources { try table?.fill(context) }
    } catch let error as TandemError where error.kind != .unsupported {
      throw EngineError.unsupported(
        "a common table expression, view or subquery in FROM whose computation fails (SQLite may compute fewer of "
          + "its rows, or none, as its plan decides)")
    }
  }

  /// A query without aggregates: rows projected as the loops find them (the first of equal rows
  /// kept, for DISTINCT), then sorted. Without ORDER BY they stream, and LIMIT stops the loops.
  private func runPlain(
    buffer: UnsafeMutablePointer<SqliteValue>, _ context: EvaluationContext, window: (limit: Int?, offset: Int),
    _ emit: ([SqliteValue]) throws -> Bool
  ) throws {
    var seen: [[ValueEqualityKey]: [SqliteValue]] = [:]
    func isNew(_ row: [SqliteValue]) throws -> Bool {
      guard distinct else { return true }
      let key = zip(row, columnCollations).map { ValueEqualityKey($0, collation: $1) }
      guard let kept = seen[key] else {
        seen[key] = row
        return true
      }
      // DISTINCT over a free plan keeps the first of equal rows SQLite's plan meets:
      // only when they are identical can the engine's choice not matter.
      if checksDistinctRows && kept != row {
        throw EngineError.unsupported(
          "DISTINCT over rows that compare equal but are stored differently (1 and 1.0, 'a' and 'A' under "
            + "NOCASE): which one SQLite keeps depends on its plan")
      }
      return false
    }
    if orderKeys.isEmpty || findsOneRow || streamsInScanOrder {
      var skipped = 0
      var delivered = 0
      try visit(0, buffer: buffer, context) {
        // Without a sorter or DISTINCT, SQLite skips the OFFSET's rows before it computes their
        // result columns (`codeOffset` in `selectInnerLoop`).
        if !distinct && skipped < window.offset {
          skipped += 1
          return true
        }
        let row = evaluatesColumns ? try projection.map { try $0(context) } : []
        guard try isNew(row) else { return true }
        if skipped < window.offset {
          skipped += 1
          return true
        }
        if let limit = window.limit, delivered >= limit { return false }
        delivered += 1
        return try emit(row) && !(window.limit.map { delivered >= $0 } ?? false)
      }
      return
    }
    var rows = SorterRows(width: evaluatesColumns ? projection.count : 0, keyWidth: orderKeys.count)
    // With a LIMIT (and no DISTINCT), SQLite keeps only the LIMIT+OFFSET first rows in its sorter
    // as it goes, and computes a row's sort key before its result columns: a row whose key is not
    // smaller than the largest kept one is dropped unprojected, so a result column that would fail
    // on it never runs (`pushOntoSorter`: OP_IfNotZero, OP_Last, OP_IdxLE, then the row).
    // (A sum past Int64.max keeps every row, as SQLite's OP_OffsetLimit makes it -1.)
    let kept = distinct ? nil : window.limit.flatMap { limit in
      let (sum, overflows) = limit.addingReportingOverflow(window.offset)
      return overflows ? nil : sum
    }
    // A join's loops may deliver its whole ORDER BY (`wherePathSatisfiesOrderBy`; a join ordered
    // by its sources' rowids, scanned in that order, is): SQLite then uses no sorter, skips the
    // OFFSET's rows before it computes their result columns and stops its loops at the LIMIT, so
    // an error met on another row may never happen there. The engine does not know which plan
    // SQLite takes: with a window, such an error is refused rather than reported.
    let loopsMayDeliverWindow = scope.sources.count > 1 && (window.offset > 0 || window.limit != nil)
    do {
      try visit(0, buffer: buffer, context) {
        guard let kept else {
          guard distinct else {
            try rows.append(evaluating: evaluatesColumns ? projection : nil, keys: orderKeys, context)
            return true
          }
          let row = evaluatesColumns ? try projection.map { try $0(context) } : []
          guard try isNew(row) else { return true }
          rows.append(row: row, key: try orderKeys.map { try $0(context) })
          return true
        }
        let key = try orderKeys.map { try $0(context) }
        if rows.count >= kept, rows.count > 0 {
          let order = rows.compareKey(rows.count - 1, with: key, orderTerms)
          if order <= 0 {
            // A row tying with the last kept one is dropped unseen: which of the two SQLite keeps
            // depends on which its plan met first.
            if order == 0 && !orderIsFree { throw Self.tieAtTheLimit }
            return true
          }
          rows.removeLast()
        }
        let row = evaluatesColumns ? try projection.map { try $0(context) } : []
        // After the kept rows of keys not larger: a later row of an equal key sorts after them.
        let position = (0..<rows.count).first { rows.compareKey($0, with: key, orderTerms) > 0 } ?? rows.count
        rows.insert(row: row, key: key, at: position)
        return true
      }
    } catch let error as TandemError where loopsMayDeliverWindow && error.kind != .unsupported {
      throw EngineError.unsupported(
        "an error on a row of a join with ORDER BY and LIMIT or OFFSET: SQLite meets it if its plan sorts the rows, "
          + "not if its loops deliver them in order (it then skips the OFFSET's rows uncomputed and stops at the LIMIT)")
    }
    // SQLite does not sort by a column an equality holds to one value; if that value takes
    // several forms among the rows ('-0' and 0 both equal 0), its order shows.
    for term in equalityPinnedOrderTerms
    where (0..<rows.count).contains(where: { rows.keyValue($0, term: term) != rows.keyValue(0, term: term) }) {
      throw EngineError.unsupported(
        "ORDER BY a column that an equality in WHERE holds to one value, whose rows store it differently (such as "
          + "'-0' and 0): SQLite does not sort by that column, so the rows come in its plan's order")
    }
    let sorted = rows.sortedIndices(orderTerms)
    // Rows that tie in the ORDER BY yet differ come in the order SQLite's plan found them,
    // which the memory engine does not know.
    for (previous, next) in zip(sorted, sorted.dropFirst())
    where !orderIsFree && rows.compareKeys(previous, next, orderTerms) == 0 && !rows.rowsAreIdentical(previous, next) {
      throw EngineError.unsupported(
        "rows that tie in ORDER BY but differ, in a join, subquery or common table expression: their order depends on SQLite's plan")
    }
    // One array handed out for every row: a caller that keeps a row keeps its own copy.
    var row: [SqliteValue] = []
    row.reserveCapacity(rows.width)
    var delivered = 0
    for index in sorted.dropFirst(window.offset) {
      if let limit = window.limit, delivered >= limit { return }
      row.removeAll(keepingCapacity: true)
      row.append(contentsOf: rows.row(index))
      guard try emit(row) else { return }
      delivered += 1
    }
  }

  /// The refusal of a group whose rows' keys compare equal but are stored differently.
  private static var retypedGroupKey: TandemError {
    EngineError.unsupported(
      "GROUP BY over a join whose rows' keys compare equal but are stored differently (the INTEGER and the REAL "
        + "-2^63 in an INTEGER column): which one the group shows depends on SQLite's plan")
  }

  /// The refusal of a row SQLite's LIMIT sorter drops for tying with the last row it keeps.
  private static var tieAtTheLimit: TandemError {
    EngineError.unsupported(
      "rows that tie in ORDER BY at the LIMIT, in a join, subquery or common table expression: which SQLite keeps "
        + "depends on its plan")
  }

  /// A query with aggregates: groups formed and finished in order, each output row handed to
  /// `emit`, which returns whether to go on; once it stops, no later group is computed (SQLite
  /// steps a group's aggregates only after the groups before it were output, so an EXISTS or a
  /// scalar subquery never meets a later group's overflow).
  private func runAggregate(
    _ aggregate: SelectPlan.AggregatePart, buffer: UnsafeMutablePointer<SqliteValue>, _ context: EvaluationContext,
    window: (limit: Int?, offset: Int), _ emitting: ([SqliteValue]) throws -> Bool
  ) throws {
    var goesOn = true
    func emit(_ row: [SqliteValue]) throws { if try !emitting(row) { goesOn = false } }
    let sorts = !orderKeys.isEmpty && !(aggregate.orderedByGroups && !aggregate.groupKeys.isEmpty)
    var collector = OutputCollector(
      distinct: distinct ? columnCollations : nil, order: sorts ? .sorted(orderTerms) : .none, window: window)
    let width = scope.width
    func finish(_ group: inout GroupAccumulation, representative: [SqliteValue]?) throws -> Bool {
      let results = try group.finish()
      return try results.withUnsafeBufferPointer { values in
        try (representative ?? [SqliteValue](repeating: .null, count: width)).withUnsafeBufferPointer { row in
          var groupContext = context
          if representative != nil {
            try refuseRetypableGroupValues(row)
            groupContext.row = row.baseAddress
          } else {
            // No row: the outer values stay readable, this level's columns are NULL.
            groupContext.row = context.row
            for index in scope.prefixWidth..<width { buffer[index] = .null }
          }
          groupContext.aggregates = values.baseAddress
          if let having = aggregate.having, try !having(groupContext) { return true }
          let step = try collector.offer(
            project: { self.evaluatesColumns ? try self.projection.map { try $0(groupContext) } : [] },
            keys: { try self.orderKeys.map { try $0(groupContext) } }, emit: emit)
          return step != .stop && goesOn
        }
      }
    }
    // A row read outside the aggregates is the group's last one, in an order the plan of a
    // common table decides when it is made of a join or a compound, or of a table an index
    // covers (SQLite may flatten it into this query).
    if readsBareRowOfPlanOrderedTable {
      throw EngineError.unsupported(
        "a column read outside aggregates, over rows that come in the order of SQLite's plan (a common table "
          + "expression, view or subquery in FROM made of a join, a compound, or a table SQLite may read in an "
          + "index's order; an OR SQLite may answer branch by branch)")
    }
    if aggregate.groupKeys.isEmpty {
      var group = GroupAccumulation(aggregate)
      var representative: [SqliteValue]?
      var heldValue: SqliteValue?
      try visit(0, buffer: buffer, context) {
        if let held = minMaxHeldArgument {
          let value = try held.evaluate(context)
          if !value.isNull {
            if let first = heldValue, first != value {
              throw EngineError.unsupported(
                "min() or max() in a join, of a column an equality holds to one value stored in several forms (such "
                  + "as 3.0 and '3'): SQLite's min/max optimization may keep the first row its plan meets")
            }
            heldValue = value
          }
        }
        if try group.step(context) { representative = Array(UnsafeBufferPointer(start: buffer, count: width)) }
        return !minMaxEndsAtFirstRow
      }
      if representative == nil && readsCommonTableBare {
        throw EngineError.unsupported(
          "a column read outside aggregates, over no rows of a common table expression, view or subquery in FROM "
            + "(SQLite gives NULL, or the column's expression where it flattens the table into the query)")
      }
      _ = try finish(&group, representative: representative)
      try collector.finish(emit: emit)
      return
    }
    var rows: [(values: [SqliteValue], keys: [SqliteValue])] = []
    try visit(0, buffer: buffer, context) {
      let keys = try aggregate.groupKeys.map { try $0(context) }
      rows.append((Array(UnsafeBufferPointer(start: buffer, count: width)), keys))
      return true
    }
    for members in Ordering.groups(rows.map(\.keys), terms: aggregate.groupTerms) {
      // Over a free plan, which of a group's rows SQLite meets first decides the keys the group
      // shows: only when they are identical can the engine's choice not matter.
      if checksDistinctRows, let first = members.first,
        members.dropFirst().contains(where: { rows[$0].keys != rows[first].keys })
      {
        throw Self.retypedGroupKey
      }
      var group = GroupAccumulation(aggregate)
      var representative: Int?
      for member in members {
        let chosen = try rows[member].values.withUnsafeBufferPointer { values -> Bool in
          var row = context
          row.row = values.baseAddress
          return try group.step(row)
        }
        if chosen { representative = member }
      }
      if try !finish(&group, representative: representative.map { rows[$0].values }) { break }
    }
    try collector.finish(emit: emit)
  }

  /// Runs loop `depth` and the loops inside it; `body` is called with each combined row that
  /// passes every condition, and returns whether to go on. Returns whether to go on.
  @discardableResult
  private func visit(
    _ depth: Int, buffer: UnsafeMutablePointer<SqliteValue>, _ context: EvaluationContext, _ body: () throws -> Bool
  ) throws -> Bool {
    if depth == 0 {
      if isAlwaysFalse { return true }
      for condition in initialConditions where try !condition(context) { return true }
    }
    if depth == loops.count {
      for condition in finalConditions where try !condition(context) { return true }
      return try body()
    }
    let loop = loops[depth]
    let source = scope.sources[loop.source]
    let data = storages[loop.source].data
    let offset = source.offset
    var matched = false
    var goOn = true
    let columnCount = data.columnCount
    let rowidAlias = data.rowidColumn.map { offset + $0 }
    let textFilter = loop.textFilter?.resolved(context)
    func consider(_ record: UnsafeRawPointer, _ rowid: Int64) throws -> Bool {
      if let textFilter, !textFilter.matches(record, count: columnCount) { return true }
      Record.decode(record, count: columnCount, into: buffer + offset)
      if let rowidAlias { buffer[rowidAlias] = .integer(rowid) }
      buffer[source.rowidSlot] = .integer(rowid)
      for condition in loop.conditions where try !condition(context) { return true }
      matched = true
      goOn = try visit(depth + 1, buffer: buffer, context, body)
      return goOn
    }
    if case .index(let index, let probe, let affinity)? = loop.lookup, data.indexes[index].keyFields == 1 {
      // Walked as the rows are visited, so a loop that stops early (EXISTS, LIMIT) reads no
      // more of the index than it needs. (A longer key's entries that agree on the first column
      // are in the order of the rest of the key: `candidates` sorts them into rowid order.)
      var matches = try IndexMatches(index, probe, affinity: affinity, data: data, context)
      while let rowid = matches.next() {
        guard let position = data.rows.find(rowid: rowid) else { continue }
        if try !consider(data.rows.record(at: position), rowid) { break }
      }
    } else if let lookup = loop.lookup {
      for rowid in try candidates(lookup, data: data, context) {
        guard let position = data.rows.find(rowid: rowid) else { continue }
        if try !consider(data.rows.record(at: position), rowid) { break }
      }
    } else {
      // Page by page: no row changes while a select runs.
      scan: for page in data.rows.pages {
        let count = page.count
        var slot = 0
        while slot < count {
          if try !consider(page.record(slot), page.rowids[slot]) { break scan }
          slot += 1
        }
      }
    }
    if goOn && loop.isLeft && !matched {
      for index in offset...source.rowidSlot { buffer[index] = .null }
      goOn = try visit(depth + 1, buffer: buffer, context, body)
    }
    return goOn
  }

  /// The rowids a lookup finds for the current outer rows, in ascending order.
  private func candidates(_ lookup: Lookup, data: TableData, _ context: EvaluationContext) throws -> [Int64] {
    switch lookup {
    case .rowid(let probe, let joinsSources):
      switch ComparisonOperands.operand(try probe(context), under: .numeric) {
      case .integer(let rowid): return [rowid]
      // OP_SeekRowid: an exact integer, but neither extreme (-2⁶³ as a REAL finds no row)...
      case .real(let r):
        // ...though a plan comparing instead would find the smallest rowid equal to it.
        if joinsSources, JoinPlanner.isExtremeRowidProbe(.real(r)), data.contains(Int64.min) {
          throw JoinPlanner.extremeRowidMatch
        }
        return TableScan.seekableRowid(.real(r)).map { [$0] } ?? []
      default: return []
      }
    case .index(let index, let probe, let affinity):
      var matches = try IndexMatches(index, probe, affinity: affinity, data: data, context)
      var rowids: [Int64] = []
      while let rowid = matches.next() { rowids.append(rowid) }
      // The loop visits a key's rows in rowid order, as a scan of the table would.
      return rowids.sorted()
    case .hash(let column, let probe, let affinity, let collation, let cache):
      let value = try probe(context)
      if value.isNull { return [] }
      if hashes[cache] == nil {
        var table: [ValueEqualityKey: [Int64]] = [:]
        data.scan { row, rowid in
          let stored = row[column]
          if !stored.isNull {
            table[ValueEqualityKey(ComparisonOperands.operand(stored, under: affinity), collation: collation), default: []]
              .append(rowid)
          }
          return true
        }
        hashes[cache] = table
      }
      return hashes[cache]?[ValueEqualityKey(ComparisonOperands.operand(value, under: affinity), collation: collation)]
        ?? []
    }
  }

  /// The rowids of the index entries whose first column equals a probe, in index order (rowid
  /// order for a one-column index), read one at a time as they are asked for.
  private struct IndexMatches {
    let tree: RecordTree
    var key: SqliteValue
    var position: RecordTree.Position?

    init(
      _ index: Int, _ probe: ValueEvaluator, affinity: Affinity, data: TableData, _ context: EvaluationContext
    ) throws {
      tree = data.indexes[index]
      key = ComparisonOperands.operand(try probe(context), under: affinity)
      position = nil
      if key.isNull { return }
      position = withUnsafePointer(to: &key) { tree.seek(UnsafeBufferPointer(start: $0, count: 1), orEqual: true) }
    }

    mutating func next() -> Int64? {
      guard let current = position else { return nil }
      let rowid = tree.rowid(at: current)
      let tree = self.tree
      let matches = withUnsafePointer(to: &key) {
        tree.compare(at: current, UnsafeBufferPointer(start: $0, count: 1))
          == 0
      }
      position = matches ? tree.next(current) : nil
      return matches ? rowid : nil
    }
  }

  /// Whether a scan of the one source in rowid order delivers the whole ORDER BY to SQLite
  /// (`wherePathSatisfiesOrderBy`): the first term is its rowid, in either direction (SQLite
  /// scans backwards for DESC), and every later term — past a unique key — reads the source
  /// (directly or through a correlated subquery) or is a constant. SQLite then uses no sorter
  /// and computes no ORDER BY term; a later term that reads nothing but holds a subquery makes it
  /// sort, computing every term.
  ///
  /// ```sql
  /// SELECT s FROM t ORDER BY id, (SELECT sum(id) FROM t AS u) = s   -- the sum is never computed
  /// SELECT s FROM t ORDER BY id, (SELECT sum(id) FROM t AS u)       -- it is (and may overflow)
  /// ```
  private static func rowidOrderDeliversAll(
    _ statement: SelectStatement, _ compiled: [CompiledExpression], correlates: [Bool], scope: SourceScope
  ) -> Bool {
    // NULLS LAST ascending (NULLS FIRST descending) does not change that: SQLite's
    // `wherePathSatisfiesOrderBy` takes such a term on the first column of a scan (marking the
    // loop WHERE_BIGNULL_SORT), and the rowid is never NULL.
    guard let first = statement.orderBy.first else { return false }
    let key = first.expression.withoutCollate
    let reference: SourceScope.Reference?
    switch key {
    case .rowid: reference = try? scope.resolveRowid(source: nil, marking: false)
    case .qualifiedRowid(let source): reference = try? scope.resolveRowid(source: source, marking: false)
    case .column(let name): reference = try? scope.resolve(column: name, source: nil, marking: false)
    case .qualifiedColumn(let source, let name): reference = try? scope.resolve(column: name, source: source, marking: false)
    default: reference = nil
    }
    guard let reference, reference.isRowid, reference.depth == 0 else { return false }
    return statement.orderBy.indices.dropFirst().allSatisfy { position in
      let term = statement.orderBy[position].expression
      if correlates[position] || readsRowOutsideSubqueries(term) { return true }
      return !term.containsSubquery && compiled[position].isConstant
    }
  }

  /// The ORDER BY terms of a join that SQLite may never compute, where they are not plain
  /// columns: when its loops deliver the whole ORDER BY (`wherePathSatisfiesOrderBy`), it uses
  /// no sorter and computes no term. A term is delivered that way when every source it reads is
  /// "order-distinct" by then: a source that finds one row (an equality on its rowid or on a
  /// column of one of its unique indexes), or one an earlier plain-column term orders. A term
  /// reading another source needs the sorter, which computes every term: the set is empty then.
  /// Errs toward more terms; the caller turns an error of such a term into a refusal.
  ///
  /// ```sql
  /// -- b.a is b's rowid: SQLite scans b, then t, in order, and never computes the sum
  /// SELECT … FROM t JOIN t AS b ORDER BY b.a, (SELECT sum(a) FROM t WHERE b.a >= t.a), t.rowid, b.rowid
  /// ```
  private static func orderTermsLoopsMaySatisfy(_ statement: SelectStatement, scope: SourceScope) -> Set<Int> {
    guard scope.sources.count > 1 else { return [] }
    func plainReference(_ expression: SQLExpression) -> SourceScope.Reference? {
      var expression = expression.withoutCollate
      while case .unary(.plus, let inner) = expression { expression = inner.withoutCollate }
      return scope.reference(to: expression)
    }
    // Only a term that is not a plain column can fail (and be left out).
    guard statement.orderBy.contains(where: { plainReference($0.expression) == nil }) else { return [] }
    // The sources of this level an expression names, its subqueries' qualified names included
    // (those their own sources do not shadow). Unqualified names inside a subquery are left out:
    // fewer sources only make more terms count as delivered.
    func reads(_ expression: SQLExpression, shadowed: Set<NameKey> = []) -> Set<Int> {
      var result = Set<Int>()
      func source(named qualifier: String) -> Int? {
        let key = NameKey(qualifier)
        guard !shadowed.contains(key) else { return nil }
        return scope.sources.indices.first { NameKey(scope.sources[$0].alias) == key }
      }
      switch expression {
      case .column, .rowid:
        if shadowed.isEmpty, let reference = scope.reference(to: expression), reference.depth == 0 {
          result.insert(reference.source)
        }
      case .qualifiedColumn(let qualifier, _), .qualifiedRowid(let qualifier):
        if let found = source(named: qualifier) { result.insert(found) }
      case .subquery(let query), .exists(let query, _), .inSubquery(_, let query, _):
        let inner = shadowed.union(query.memberSelects.flatMap(\.sources).map { NameKey($0.alias) })
        for part in query.expressionsWithCommonTables { result.formUnion(reads(part, shadowed: inner)) }
      default:
        break
      }
      for child in expression.children { result.formUnion(reads(child, shadowed: shadowed)) }
      return result
    }
    // Sources an equality may hold to one row.
    var ordered = Set<Int>()
    let terms = (statement.filter?.conjuncts ?? []) + statement.joins.compactMap(\.condition).flatMap(\.conjuncts)
    for term in terms {
      guard case .binary(let op, let lhs, let rhs) = term, op == .equal || op == .is else { continue }
      for (side, other) in [(lhs, rhs), (rhs, lhs)] {
        guard let reference = plainReference(side), reference.depth == 0, !reads(other).contains(reference.source)
        else { continue }
        let definition = scope.sources[reference.source].definition
        if reference.isRowid
          || reference.column.map({ column in definition.indexes.contains { $0.isUnique && $0.columns.contains(column) } })
            == true
        {
          ordered.insert(reference.source)
        }
      }
    }
    var result = Set<Int>()
    for (position, term) in statement.orderBy.enumerated() {
      if let reference = plainReference(term.expression) {
        if reference.depth == 0 { ordered.insert(reference.source) }
        continue
      }
      guard reads(term.expression).isSubset(of: ordered) else { return [] }
      result.insert(position)
    }
    return result
  }

  /// The refusal of an ORDER BY term of a join that failed where SQLite may never compute it.
  private static var uncomputedOrderTermFailed: TandemError {
    EngineError.unsupported(
      "an ORDER BY term of a join that fails, where SQLite's loops may deliver that order and never compute it")
  }

  /// Whether SQLite may deliver the ORDER BY of this one-table query by scanning an index, which
  /// the relational path does not model, and so compute a subquery that can fail (one holding a
  /// `sum()`, which overflows) for fewer rows than the engine: when a unique index of NOT NULL
  /// columns leads the ORDER BY, no later term is computed (`isOrderDistinct`, no sorter); under
  /// LIMIT or OFFSET, rows past the limit compute no result column.
  private static func indexOrderMaySkipASubquery(_ statement: SelectStatement, scope: SourceScope) -> Bool {
    guard statement.joins.isEmpty, scope.sources.count == 1, !scope.sources[0].definition.isEphemeral else { return false }
    let definition = scope.sources[0].definition
    var leading: [Int] = []
    for term in statement.orderBy {
      guard let reference = scope.reference(to: term.expression.withoutCollate), reference.depth == 0,
        !reference.isRowid, let column = reference.column
      else { break }
      leading.append(column)
    }
    guard let first = leading.first else { return false }
    for index in definition.indexes where index.isUnique && index.columns.count <= leading.count {
      guard Array(leading.prefix(index.columns.count)) == index.columns,
        index.columns.allSatisfy({ $0 >= 0 && definition.notNull[$0] })
      else { continue }
      if statement.orderBy.dropFirst(index.columns.count).contains(where: { holdsFailingSubquery($0.expression) }) {
        return true
      }
    }
    return (statement.limit != nil || statement.offset != nil)
      && definition.leadsAnIndex(first)
      && statement.columns.contains(where: holdsFailingSubquery)
  }

  /// Whether a subquery in the expression (at any depth) holds a `sum()`, which raises `integer
  /// overflow` (the other failing calls, `abs()` and `LIKE … ESCAPE`, are refused in subqueries).
  private static func holdsFailingSubquery(_ expression: SQLExpression) -> Bool {
    func holdsSum(_ query: SelectStatement) -> Bool {
      func sums(_ expression: SQLExpression) -> Bool {
        if case .aggregate(.sum, _, _, _) = expression { return true }
        return expression.children.contains(where: sums) || expression.directSubqueries.contains(where: holdsSum)
      }
      return query.expressions.contains(where: sums) || query.compound.contains { holdsSum($0.select) }
    }
    return expression.directSubqueries.contains(where: holdsSum)
  }

  /// Whether the expression names a column or rowid outside its subqueries (an ORDER BY term
  /// may name only this query's sources).
  private static func readsRowOutsideSubqueries(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .column, .rowid, .qualifiedColumn, .qualifiedRowid: true
    default: expression.children.contains(where: readsRowOutsideSubqueries)
    }
  }

  /// The argument of a lone min() or max() (no GROUP BY, no HAVING; ``SelectPlan/minMaxCall(_:compiler:)``)
  /// that is a column of this query, and the WHERE and ON terms that hold that column to one
  /// value read before its loop: `=` or `IS` a value that reads no column of its source (a
  /// constant, a parameter, a query around, another source), given as both operands, or
  /// `IS NULL`, given as `nil`. The parser writes `x IN (constant)` as `x = +constant`.
  private static func minMaxColumnHeld(
    _ statement: SelectStatement, scope: SourceScope, compiler: ExpressionCompiler
  ) -> (argument: SQLExpression, terms: [(lhs: SQLExpression, rhs: SQLExpression)?])? {
    guard statement.groupBy.isEmpty, statement.having == nil,
      let call = SelectPlan.minMaxCall(statement, compiler: compiler),
      let argument = scope.reference(to: call.argument.withoutCollate), argument.depth == 0
    else { return nil }
    func isArgument(_ expression: SQLExpression) -> Bool {
      guard let reference = scope.reference(to: expression.withoutCollate) else { return false }
      return reference.depth == 0 && reference.slot == argument.slot
    }
    func isHeldBy(_ column: SQLExpression, _ other: SQLExpression) -> Bool {
      guard isArgument(column), let read = try? JoinPlanner.sourcesRead(other, scope: scope) else { return false }
      return !read.contains(argument.source)
    }
    var terms: [(lhs: SQLExpression, rhs: SQLExpression)?] = []
    let clauses = ([statement.filter] + statement.joins.map(\.condition)).compactMap { $0 }
    for term in clauses.flatMap({ WherePlan.parseRewritten($0).conjuncts }) {
      switch term {
      case .binary(let op, let lhs, let rhs) where (op == .equal || op == .is) && (isHeldBy(lhs, rhs) || isHeldBy(rhs, lhs)):
        terms.append((lhs, rhs))
      case .isNull(let operand, negated: false) where isArgument(operand):
        terms.append(nil)
      default:
        break
      }
    }
    return (call.argument, terms)
  }

  /// A compiler resolving names over `scope` as `compiler` does, sharing its parameter slots: it
  /// compiles parts of the statement again without marking what `compiler` records.
  private static func probe(over scope: SourceScope, like compiler: ExpressionCompiler) -> ExpressionCompiler {
    let probe = ExpressionCompiler(table: nil, parameterNames: compiler.parameterNames)
    probe.scope = scope
    probe.catalog = compiler.catalog
    probe.commonTables = compiler.commonTables
    return probe
  }

  /// Whether SQLite's min/max optimization ends this query's loop after the first row it steps:
  /// the query reads one source, and a term holds the lone min() or max()'s column to one value
  /// (``minMaxColumnHeld(_:scope:compiler:)``) under the argument's collation (`IS NULL` under
  /// any). `wherePathSatisfiesOrderBy` then counts the argument's order as given, and
  /// `sqlite3WhereMinMaxOptEarlyOut` leaves the loop: of `3.0` and `'3'`, both equal to the rowid
  /// 3 under a BLOB column's comparison, max() keeps the first row's.
  ///
  /// ```sql
  /// SELECT (SELECT max(c) FROM child WHERE c = x.rowid) FROM child AS x
  /// ```
  private static func minMaxEndsAtFirstRow(
    _ statement: SelectStatement, scope: SourceScope, compiler: ExpressionCompiler
  ) -> Bool {
    guard statement.joins.isEmpty, let held = minMaxColumnHeld(statement, scope: scope, compiler: compiler) else {
      return false
    }
    let probe = probe(over: scope, like: compiler)
    probe.aggregatePolicy = .deferredMisuse
    guard let order = try? probe.compile(held.argument) else { return false }
    return held.terms.contains { term in
      guard let (lhs, rhs) = term else { return true }
      guard let left = try? probe.compile(lhs), let right = try? probe.compile(rhs) else { return false }
      return ExpressionCompiler.comparisonCollation(left, right) == (order.collation ?? .binary)
    }
  }

  /// In a join, the argument of a lone min() or max(), compiled, when a term holds its column to
  /// one value (``minMaxColumnHeld(_:scope:compiler:)``). SQLite's min/max optimization then stops
  /// at the first row when the loops before that column's are one row each, as its plan decides:
  ///
  /// ```sql
  /// SELECT max(u.c) FROM t JOIN u ON u.c = t.x WHERE t.rowid = 1  -- 3.0 of 3.0 and '3'
  /// ```
  ///
  /// The answer is the same either way when every row holds the same value, which the run checks.
  private static func minMaxArgumentHeldInJoin(
    _ statement: SelectStatement, scope: SourceScope, compiler: ExpressionCompiler
  ) -> CompiledExpression? {
    guard !statement.joins.isEmpty, let held = minMaxColumnHeld(statement, scope: scope, compiler: compiler),
      !held.terms.isEmpty
    else { return nil }
    return try? probe(over: scope, like: compiler).compile(held.argument.withoutCollate)
  }

  /// The ORDER BY terms that are a column of this query (under COLLATE or not) which a term of
  /// the WHERE clause (or of an inner join's ON) compares with `=` or `IS` to a value that reads
  /// no source of this query, or tests with `IS NULL`: `wherePathSatisfiesOrderBy` counts such a
  /// term as sorted whatever the plan, so SQLite never sorts by it.
  private static func equalityPinnedOrderTerms(_ statement: SelectStatement, scope: SourceScope) -> [Int] {
    func slot(_ expression: SQLExpression) -> Int? {
      guard let reference = scope.reference(to: expression.withoutCollate), reference.depth == 0
      else { return nil }
      return reference.slot
    }
    let hasLeft = statement.joins.contains { $0.kind == .left }
    let conditions = [statement.filter] + (hasLeft ? [] : statement.joins.map(\.condition))
    var pinned = Set<Int>()
    for term in conditions.compactMap({ $0 }).flatMap(\.conjuncts) {
      switch term {
      case .binary(let op, let lhs, let rhs) where op == .equal || op == .is:
        for (column, other) in [(lhs, rhs), (rhs, lhs)] {
          guard let slot = slot(column), (try? JoinPlanner.sourcesRead(other, scope: scope))?.isEmpty == true else {
            continue
          }
          pinned.insert(slot)
        }
      case .isNull(let operand, negated: false):
        if let slot = slot(operand) { pinned.insert(slot) }
      default:
        break
      }
    }
    return statement.orderBy.indices.filter { index in slot(statement.orderBy[index].expression).map(pinned.contains) ?? false }
  }

  /// Refuses statements whose answer would depend on which rows SQLite's plan evaluates an
  /// expression that can fail on.
  static func refuseFallible(_ statement: SelectStatement, scope: SourceScope, catalog: Catalog) throws {
    var check: AbsOverflowCheck? = AbsOverflowCheck(scope: scope, catalog: catalog, resultColumns: statement.columns)
    try refuseFallible(statement.expressions, check: &check)
    // A name of this level's table, as its position (`-1` for the rowid), for one-table rules.
    let ownColumn = { (operand: SQLExpression) -> Int? in
      guard let reference = scope.reference(to: operand), reference.depth == 0 else { return nil }
      return reference.isRowid ? -1 : reference.column
    }
    if statement.joins.isEmpty, let storage = scope.sources.first, !storage.definition.isEphemeral {
      try SubqueryDrivenLookup.refuseFallible(statement.filter, definition: storage.definition, column: ownColumn)
    }
    // A seek value that can fail is computed before SQLite's loop (see `refuseFallibleBounds`).
    // One table's WHERE clause may make a column searchable through another it equates it with.
    let terms = ([statement.filter] + statement.joins.map(\.condition)).flatMap(SubqueryDrivenLookup.seekTerms(of:))
    let equivalence = statement.joins.isEmpty
      ? scope.sources.first.map {
        SubqueryDrivenLookup.ColumnEquivalence(statement.filter, definition: $0.definition, column: ownColumn)
      } : nil
    try SubqueryDrivenLookup.refuseFallibleBounds(terms) { column in
      guard let reference = scope.reference(to: column), reference.depth == 0 else { return false }
      let definition = scope.sources[reference.source].definition
      let position = reference.isRowid ? -1 : reference.column ?? -1
      return equivalence?.isSearchable(position, in: definition) ?? definition.isSearchable(by: position)
    }
    // SQLite 3.40 loses a LEFT JOIN's row of NULLs when its ON clause holds `rowid LIKE 'a%'`
    // (the LIKE optimization seeks the rowid with text bounds and skips the NULL row): the
    // memory engine refuses rather than answer otherwise.
    for (position, join) in statement.joins.enumerated() where join.kind == .left {
      for term in join.condition.map(\.conjuncts) ?? [] {
        guard case .like(let subject, _, nil, negated: false) = term else { continue }
        if let reference = scope.reference(to: subject.withoutCollate), reference.depth == 0,
          reference.isRowid, reference.source == position + 1
        {
          throw EngineError.unsupported(
            "LIKE on the rowid of a LEFT JOIN's table in its ON clause (SQLite 3.40 loses the row of NULLs)")
        }
      }
    }
    if statement.joins.isEmpty, let source = scope.sources.first, !source.definition.isEphemeral {
      try SubqueryDrivenLookup.refuseReorderedFallibleTerms(statement.filter, definition: source.definition, column: ownColumn)
    }
    // A join's conditions are evaluated at the loop SQLite's plan puts them in: whether a
    // subquery there runs at all (an outer loop may find no row) depends on that plan, and a
    // sum() inside it can fail with `integer overflow`.
    guard !statement.joins.isEmpty else { return }
    let conditions = statement.joins.compactMap(\.condition) + (statement.filter.map { [$0] } ?? [])
    if conditions.flatMap(\.directSubqueries).contains(where: Self.hasSum) {
      throw EngineError.unsupported(
        "a subquery computing sum() in a join's ON or WHERE (whether it runs, and fails, depends on SQLite's plan)")
    }
  }

  /// The slots of the group's row that a subquery in the result columns, HAVING or ORDER BY of
  /// an aggregate query compares, where SQLite may convert its register of the value in place.
  ///
  /// Sought in an index (a declared or an automatic one) of a column with a numeric affinity,
  /// or made the operand of an IN, the group's value takes that affinity ('12' becomes 12, 3.0
  /// becomes 3), and the result columns then show it, depending on SQLite's plan. A column of
  /// INTEGER or NUMERIC affinity (or the rowid) holds no value such a conversion changes. A
  /// TEXT index's affinity reaches only a value without affinity (a common table's column made
  /// of an expression): SQLite then seeks with the group's number made text (0 becomes '0',
  /// in place). Names the subquery's own tables may take count as the group's too: the check
  /// errs toward refusing.
  private static func groupSlotsSubqueriesMayRetype(
    _ statement: SelectStatement, scope: SourceScope
  ) -> [(slot: Int, mayBecomeText: Bool)] {
    var slots: [(slot: Int, mayBecomeText: Bool)] = []
    func strip(_ operand: SQLExpression) -> SQLExpression {
      switch operand {
      case .unary(.plus, let inner), .collate(let inner, _): strip(inner)
      default: operand
      }
    }
    // Whether the operand may be a column of an index, whose affinity a seek applies to the key.
    func isIndexable(_ operand: SQLExpression) -> Bool {
      switch strip(operand) {
      case .column, .qualifiedColumn: true
      default: false
      }
    }
    func note(_ operand: SQLExpression, comparedWith others: [SQLExpression]) {
      note(operand, mayMeetIndex: others.contains(where: isIndexable))
    }
    func note(_ operand: SQLExpression, mayMeetIndex: Bool) {
      guard let reference = scope.reference(to: strip(operand)), reference.depth == 0, !reference.isRowid,
        reference.affinity != .integer && reference.affinity != .numeric
      else { return }
      let mayBecomeText = reference.affinity == .none && mayMeetIndex
      if let known = slots.firstIndex(where: { $0.slot == reference.slot }) {
        slots[known].mayBecomeText = slots[known].mayBecomeText || mayBecomeText
      } else {
        slots.append((reference.slot, mayBecomeText))
      }
    }
    func compares(_ expression: SQLExpression) {
      switch expression {
      case .binary(let op, let lhs, let rhs)
      where [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .is, .isNot].contains(op):
        note(lhs, comparedWith: [rhs])
        note(rhs, comparedWith: [lhs])
      case .inList(let operand, let list, _):
        note(operand, comparedWith: [])
        list.forEach { note($0, comparedWith: []) }
      case .inSubquery(let operand, _, _):
        // The subquery's column may be a TEXT column.
        note(operand, mayMeetIndex: true)
      case .between(let operand, let low, let high, _):
        note(operand, comparedWith: [low, high])
        note(low, comparedWith: [operand])
        note(high, comparedWith: [operand])
      default:
        break
      }
      expression.children.forEach(compares)
      for query in expression.directSubqueries { query.expressionsWithCommonTables.forEach(compares) }
    }
    for output in statement.groupOutputs {
      for query in output.directSubqueries { query.expressionsWithCommonTables.forEach(compares) }
    }
    return slots
  }

  /// Refuses a group whose row holds, in a slot a subquery compares, a value an index's affinity
  /// would change in place (a whole REAL or a TEXT that reads as a number under a numeric one, a
  /// number without affinity under TEXT): what the outputs then show depends on SQLite's plan.
  private func refuseRetypableGroupValues(_ row: UnsafeBufferPointer<SqliteValue>) throws {
    for (slot, mayBecomeText) in retypableGroupSlots {
      let value = row[slot]
      let becomesText: Bool
      switch value {
      case .integer, .real: becomesText = mayBecomeText
      default: becomesText = false
      }
      guard becomesText || TableScan.applying(.numeric, to: value) != value else { continue }
      throw EngineError.unsupported(
        "a subquery comparing a group's column that holds a value an index's affinity converts (a number or "
          + "numeric text under a numeric one, a number without affinity under TEXT), in an aggregate query's "
          + "result columns, HAVING or ORDER BY (SQLite may convert the group's value in place)")
    }
  }

  /// Whether the query groups or deduplicates by a column of a common table that SQLite may read
  /// in an index's order once it flattens the table into the query
  /// (``CommonTable/columnsInAnIndex``): the rows of a group then come in that order, where the
  /// engine reads them in rowid order. Only a column read as it is counts (an index serves no
  /// expression, and no collation but its own).
  ///
  /// ```sql
  /// -- t has PRIMARY KEY (c, v): SQLite scans that index, and meets c = 7.0 (v = 'a') before c = 7 (v = X'00')
  /// WITH w(n) AS (SELECT c FROM t) SELECT n FROM w GROUP BY n
  /// ```
  private static func groupsCommonTableInIndexOrder(
    _ statement: SelectStatement, scope: SourceScope, common: [CommonTable?]
  ) -> Bool {
    guard common.contains(where: { $0?.columnsInAnIndex.isEmpty == false }) else { return false }
    let keys = !statement.groupBy.isEmpty ? statement.groupBy : statement.distinct ? statement.columns : []
    return keys.contains { key in
      switch key {
      case .column, .qualifiedColumn: break
      default: return false
      }
      guard let reference = scope.reference(to: key), reference.depth == 0, let column = reference.column else {
        return false
      }
      return common[reference.source]?.columnsInAnIndex.contains(column) == true
    }
  }

  /// Whether an output of an aggregate query reads a row outside any aggregate call (a bare
  /// column), or may (a subquery, which may read the query's row); inside one of `keys` (GROUP BY
  /// terms, whose value is the group's own) does not count.
  static func readsBareRow(_ expression: SQLExpression, besides keys: [SQLExpression] = []) -> Bool {
    if keys.contains(expression) { return false }
    switch expression {
    case .aggregate: return false
    case .column, .qualifiedColumn, .rowid, .qualifiedRowid, .subquery, .exists, .inSubquery: return true
    default: return expression.children.contains { readsBareRow($0, besides: keys) }
    }
  }

  /// Whether a select, or a subquery inside it, computes `sum()` (which can overflow).
  static func hasSum(_ query: SelectStatement) -> Bool {
    func holdsSum(_ expression: SQLExpression) -> Bool {
      if case .aggregate(.sum, _, _, _) = expression { return true }
      if expression.directSubqueries.contains(where: hasSum) { return true }
      return expression.children.contains(where: holdsSum)
    }
    return query.expressionsWithCommonTables.contains(where: holdsSum)
  }

  /// Refuses expressions (of one query level) that can fail, where the rows they are evaluated on
  /// depend on SQLite's plan: in a join, or beside a subquery whose terms SQLite moves last.
  /// `abs()` is refused only where `check` (over the level's data) cannot prove it never fails.
  static func refuseFallible(_ expressions: [SQLExpression], check: inout AbsOverflowCheck?) throws {
    func refuse(_ expression: SQLExpression) throws {
      switch expression {
      case .function(.abs, let arguments):
        guard let argument = arguments.first, arguments.count == 1, check?.mayFail(onArgument: argument) == false else {
          throw EngineError.unsupported("abs() in a join or subquery (whether it fails depends on SQLite's plan)")
        }
      case .like(_, _, let escape?, _) where !Self.isSingleCharacter(escape):
        throw EngineError.unsupported("LIKE … ESCAPE in a join or subquery (whether it fails depends on SQLite's plan)")
      default: break
      }
      for child in expression.children { try refuse(child) }
    }
    for expression in expressions { try refuse(expression) }
  }

  /// Whether `expression` is a column of a subquery in FROM, a view or a common table, bare or
  /// under `+` or CAST (which keep a column's collation), at this level or one around it.
  private static func readsDerivedColumn(_ expression: SQLExpression, scope: SourceScope) -> Bool {
    switch expression {
    case .unary(.plus, let inner), .cast(let inner, _):
      return readsDerivedColumn(inner, scope: scope)
    case .column, .qualifiedColumn:
      guard let reference = scope.reference(to: expression) else { return false }
      return scope.source(of: reference)?.definition.isEphemeral ?? false
    default:
      return false
    }
  }

  /// The refusal of an aggregate whose argument reads a level around this one and nothing of
  /// this one: SQLite computes it in that outer query (`SELECT (SELECT count(t.a) FROM u) FROM t`
  /// makes the outer query an aggregate of one row), which this engine does not model. Throws
  /// SQLite's HAVING error, which comes first.
  private static func outerAggregateRefusal(
    _ statement: SelectStatement, scope: SourceScope, catalog: Catalog
  ) throws -> TandemError? {
    // The tables of the subqueries inside an argument, innermost last, with their aliases.
    typealias Level = [(alias: String, definition: TableDefinition, isNullable: Bool)]
    func levels(_ query: SelectStatement) -> Level {
      query.sources.enumerated().compactMap { position, source in
        let isNullable = position > 0 && query.joins[position - 1].kind == .left
        return catalog.table(source.table).map { (source.alias, $0.definition, isNullable) }
      }
    }
    // Whether the reference resolves inside the argument's own subqueries.
    func isInner(_ name: String?, source: String?, _ inner: [Level]) -> Bool {
      let namesInnerSource = inner.contains { level in
        level.contains { entry in
          if let source, NameKey(source) != NameKey(entry.alias) { return false }
          guard let name else { return true }
          return entry.definition.columnIndex(name) != nil || (source != nil && NameKey(name).isRowidName)
        }
      }
      if namesInnerSource { return true }
      // An unqualified rowid is the rowid of the first table counted, innermost level first, when
      // it is the only one once its level is passed (SQLite's `cntTab`; a level holds only
      // stored tables); otherwise the name is looked up around, where a column may take it.
      guard source == nil, let name, NameKey(name).isRowidName else { return false }
      var counted = 0
      for level in inner.reversed() {
        counted += level.count
        if counted > 0 { return counted == 1 }
      }
      return false
    }
    // `x IS [NOT] NULL` of a column that is never NULL: SQLite's resolver replaces it by its
    // answer, and drops the reference, before it decides which query an aggregate belongs to.
    // A name looked up through the argument's own subqueries may be marked NULL-able there.
    func passesNullableSource(_ source: String?, _ inner: [Level]) -> Bool {
      inner.contains { SourceScope.marksNullable($0, lookingFor: source) }
    }
    func isAnsweredUpFront(_ operand: SQLExpression, _ inner: [Level]) -> Bool {
      let reference: SourceScope.Reference?
      switch operand {
      case .unary(.plus, let operand), .unary(.negate, let operand): return isAnsweredUpFront(operand, inner)
      case .column(let name) where !isInner(name, source: nil, inner):
        if passesNullableSource(nil, inner) { return false }
        reference = try? scope.resolve(column: name, source: nil, marking: false)
      case .qualifiedColumn(let source, let name) where !isInner(name, source: source, inner):
        if passesNullableSource(source, inner) { return false }
        reference = try? scope.resolve(column: name, source: source, marking: false)
      case .rowid where inner.isEmpty:
        reference = try? scope.resolveRowid(source: nil, marking: false)
      case .qualifiedRowid(let source) where !isInner(nil, source: source, inner):
        reference = try? scope.resolveRowid(source: source, marking: false)
      default:
        return false
      }
      return reference.map(scope.cannotBeNull) ?? false
    }
    /// Notes whether the expression reads this level (`here`), a level around it (`around`) or
    /// a level of its own subqueries (`inside`).
    func reads(_ expression: SQLExpression, _ inner: [Level], here: inout Bool, around: inout Bool, inside: inout Bool) {
      if case .isNull(let operand, _) = expression, isAnsweredUpFront(operand, inner) { return }
      // Parts SQLite's parser folds away (`x IN ()`, an AND with a false operand) read nothing.
      if ExpressionCompiler.foldsToZero(expression) { return }
      if case .inList(_, let list, _) = expression, list.isEmpty { return }
      func note(_ reference: () throws -> SourceScope.Reference) {
        guard let found = try? reference() else { return }
        if found.depth == 0 { here = true } else { around = true }
      }
      switch expression {
      case .column(let name):
        if isInner(name, source: nil, inner) {
          inside = true
        } else if NameKey(name).isRowidName, inner.contains(where: { !$0.isEmpty }) {
          // SQLite counted the tables of the levels passed inside (`cntTab`): the name is no
          // rowid of this level, only a column of it or of a level around.
          var level: SourceScope? = scope
          var depth = 0
          while let current = level {
            if current.sources.contains(where: { $0.definition.columnIndex(name) != nil }) {
              if depth == 0 { here = true } else { around = true }
              break
            }
            level = current.parent
            depth += 1
          }
        } else {
          note { try scope.resolve(column: name, source: nil) }
        }
      case .qualifiedColumn(let source, let name):
        if isInner(name, source: source, inner) {
          inside = true
        } else {
          note { try scope.resolve(column: name, source: source) }
        }
      case .rowid:
        if inner.isEmpty { note { try scope.resolveRowid(source: nil) } } else { inside = true }
      case .qualifiedRowid(let source):
        if isInner(nil, source: source, inner) { inside = true } else { note { try scope.resolveRowid(source: source) } }
      case .subquery(let query), .exists(let query, _), .inSubquery(_, let query, _):
        // Each member of a compound is a level of its own.
        for member in query.memberSelects {
          for part in Self.resolvedExpressions(member) {
            reads(part, inner + [levels(member)], here: &here, around: &around, inside: &inside)
          }
        }
      default: break
      }
      for child in expression.children { reads(child, inner, here: &here, around: &around, inside: &inside) }
    }
    func belongsAround(_ argument: SQLExpression, _ separator: SQLExpression?) -> Bool {
      var here = false
      var around = false
      var inside = false
      reads(argument, [], here: &here, around: &around, inside: &inside)
      if let separator { reads(separator, [], here: &here, around: &around, inside: &inside) }
      return around && !here
    }
    // A query whose result columns hold no aggregate of its own (and that has no GROUP BY) is no
    // aggregate query: SQLite refuses its HAVING first, right after resolving those columns.
    if statement.having != nil && statement.groupBy.isEmpty {
      func holdsOwnAggregate(_ expression: SQLExpression) -> Bool {
        // What the parser folds away (`x IN ()`, an AND holding it) holds no aggregate.
        if ExpressionCompiler.foldsToZero(expression) { return false }
        if case .inList(_, let list, _) = expression, list.isEmpty { return false }
        if case .aggregate(_, let argument, _, let separator) = expression {
          guard let argument else { return true }
          if !belongsAround(argument, separator) { return true }
        }
        switch expression {
        case .subquery(let query), .exists(let query, _), .inSubquery(_, let query, _):
          if holdsAggregateOfThisLevel(query, []) { return true }
        default: break
        }
        return expression.children.contains(where: holdsOwnAggregate)
      }
      // An aggregate in a subquery whose argument reads this level and none of the subquery's
      // own levels is this level's: it makes this query an aggregate one.
      func holdsAggregateOfThisLevel(_ query: SelectStatement, _ inner: [Level]) -> Bool {
        query.memberSelects.contains { holdsAggregateOfThisLevel(member: $0, inner) }
      }
      func holdsAggregateOfThisLevel(member query: SelectStatement, _ inner: [Level]) -> Bool {
        let levels = inner + [levels(query)]
        func holds(_ expression: SQLExpression) -> Bool {
          if case .aggregate(_, let argument?, _, let separator) = expression {
            var here = false
            var around = false
            var inside = false
            reads(argument, levels, here: &here, around: &around, inside: &inside)
            if let separator { reads(separator, levels, here: &here, around: &around, inside: &inside) }
            if here && !inside { return true }
          }
          switch expression {
          case .subquery(let nested), .exists(let nested, _), .inSubquery(_, let nested, _):
            if holdsAggregateOfThisLevel(nested, levels) { return true }
          default: break
          }
          return expression.children.contains(where: holds)
        }
        return Self.resolvedExpressions(query).contains(where: holds)
      }
      if !statement.columns.contains(where: holdsOwnAggregate) {
        throw ExpressionCompiler.havingWithoutAggregate
      }
    }
    func belongsAround(_ expression: SQLExpression) -> Bool {
      if case .aggregate(_, let argument?, _, let separator) = expression, belongsAround(argument, separator) {
        return true
      }
      return expression.children.contains(where: belongsAround)
    }
    guard statement.expressions.contains(where: belongsAround) else { return nil }
    return EngineError.unsupported(
      "an aggregate in a subquery that reads only the query around it (SQLite computes it in that query)")
  }

  /// The expressions of a query level SQLite resolves: all of them, unless its parser folded the
  /// WHERE clause or an inner join's ON clause to false, which drops the WHERE and every inner
  /// join's ON clause unresolved (``ExpressionCompiler/foldsWhereToFalse(_:)``).
  private static func resolvedExpressions(_ query: SelectStatement) -> [SQLExpression] {
    guard ExpressionCompiler.foldsWhereToFalse(query) else { return query.expressions }
    var kept = query
    kept.filter = nil
    for index in kept.joins.indices where kept.joins[index].kind != .left { kept.joins[index].condition = nil }
    return kept.expressions
  }

  private static func isSingleCharacter(_ expression: SQLExpression) -> Bool {
    if case .literal(.text(let text)) = expression { return text.count == 1 }
    return false
  }

  /// Whether the expression holds, outside aggregate calls, `column IN (SELECT …)` or `column IN
  /// (three or more values)`: SQLite applies the comparison's affinity to the register holding
  /// the group's value of the column, in place, and later reads of the group may see it changed
  /// (see ``SelectPlan/retypesGroupColumn(_:_:)`` for one table).
  static func mayRetypeGroupValue(_ expression: SQLExpression) -> Bool {
    func isColumn(_ expression: SQLExpression) -> Bool {
      switch expression {
      case .column, .qualifiedColumn: true
      case .collate(let inner, _), .unary(.plus, let inner): isColumn(inner)
      default: false
      }
    }
    switch expression {
    case .aggregate: return false
    case .inSubquery(let operand, _, _) where isColumn(operand): return true
    case .inList(let operand, let list, _) where isColumn(operand) && list.count >= 3: return true
    default: return expression.children.contains(where: mayRetypeGroupValue)
    }
  }
}
