import TandemCore

/// Chooses the loop order of a relational query and, for each loop, its lookup and the
/// conditions it tests (`where.c` for several sources).
///
/// A query whose visiting order decides its answer (aggregates, DISTINCT: `pinned`) and any
/// query with a LEFT JOIN keep the FROM order. Others start from the source that is cheapest to
/// enumerate (a lookup by a constant, else the fewest rows) and then take, at each step, the
/// source the placed ones reach most cheaply: by rowid, by an index on the compared column, by a
/// transient hash table, or — with no equality to follow — the smallest. A source the FROM
/// clause reads `NOT INDEXED` is looked up by its rowid only (SQLite builds no automatic index
/// for it either).
///
/// Every condition is still tested on each candidate a lookup finds, so a lookup only has to
/// find a superset of the matching rows in rowid order; in practice it finds exactly them.
struct JoinPlanner {
  let loops: [RelationalSelect.Loop]
  /// Conditions tested once every loop has a row (the WHERE of a query with a LEFT JOIN).
  let finalConditions: [ConditionEvaluator]
  /// Conditions that read no row of this query, tested once before the loops, in order (SQLite
  /// codes a term without prerequisites before its first loop).
  let initialConditions: [ConditionEvaluator]
  /// Whether SQLite's parser folded the WHERE clause, or an inner join's ON clause, to false:
  /// it then drops the WHERE and every ON clause unresolved, and no row comes out.
  let isAlwaysFalse: Bool

  /// `statement` with each LEFT JOIN's ON clause that SQLite's parser folds to 0 (an AND holding
  /// an always-false operand) replaced by that 0: what it held is never resolved (an inner
  /// join's are dropped with the WHERE, ``ExpressionCompiler/foldsWhereToFalse(_:)``).
  private static func folded(_ statement: SelectStatement) -> SelectStatement {
    var statement = statement
    for index in statement.joins.indices where statement.joins[index].kind == .left {
      if let condition = statement.joins[index].condition, ExpressionCompiler.foldsToZero(condition) {
        statement.joins[index].condition = ExpressionCompiler.foldedFalse
      }
    }
    return statement
  }

  /// Throws the name error SQLite reports for the WHERE and ON clauses of `statement`. SQLite
  /// appends each ON clause to the WHERE clause, in join order, before it resolves names, and
  /// resolves that merged clause in one walk, which goes on from the WHERE into the ON clauses
  /// past some errors (after `x IS NULL`, a function call), a later error replacing the first.
  /// Nothing is resolved when the parser folded the merged clause to false.
  private static func resolveNames(of statement: SelectStatement, compiler: ExpressionCompiler) throws {
    guard !ExpressionCompiler.foldsWhereToFalse(statement) else { return }
    let clauses = [statement.filter].compactMap { $0 } + statement.joins.compactMap(\.condition)
    let merged = clauses.first.map { first in clauses.dropFirst().reduce(first) { .binary(.and, $0, $1) } }
    try compiler.resolveWholeClause(merged)
  }

  /// A `column = expression` term a loop can look its rows up by.
  private struct Equality {
    let source: Int
    let column: SourceScope.Reference
    let columnSide: SQLExpression
    let other: SQLExpression
    /// Whether the column is the term's left operand.
    let columnIsLeft: Bool
    /// The sources of this level the other side reads.
    let reads: Set<Int>
  }

  /// Plans `statement`'s loops; `written` is the statement as written, before the HAVING terms
  /// SQLite moves into the WHERE clause (`havingToWhere`) were moved: SQLite resolves names
  /// before it moves them, so the name errors come from the written clauses.
  init(
    _ statement: SelectStatement, written: SelectStatement, scope: SourceScope, storages: [TableStorage],
    compiler: ExpressionCompiler, pinned: Bool
  ) throws {
    try Self.resolveNames(of: Self.folded(written), compiler: compiler)
    let statement = Self.folded(statement)
    let count = scope.sources.count
    let hasLeft = statement.joins.contains { $0.kind == .left }
    // SQLite's parser appends each ON clause to the WHERE clause with `sqlite3ExprAnd`, which
    // drops both sides when either is always false (an inner join's ON, not a LEFT JOIN's).
    guard !ExpressionCompiler.foldsWhereToFalse(statement) else {
      isAlwaysFalse = true
      loops = (0..<count).map { RelationalSelect.Loop(source: $0, isLeft: false, lookup: nil, conditions: []) }
      finalConditions = []
      initialConditions = []
      return
    }
    isAlwaysFalse = false
    var compiled: [SQLExpression: ConditionEvaluator] = [:]
    var correlated = Set<SQLExpression>()
    var testedLast = Set<SQLExpression>()
    for term in (statement.filter.map(\.conjuncts) ?? []) + statement.joins.compactMap(\.condition).flatMap(\.conjuncts)
    where compiled[term] == nil {
      let (test, isCorrelated, isVarSelect) = try compiler.conditionNotingCorrelation(term)
      compiled[term] = test
      if isCorrelated { correlated.insert(term) }
      if isVarSelect { testedLast.insert(term) }
    }
    let allTerms = (statement.filter.map(\.conjuncts) ?? []) + statement.joins.compactMap(\.condition).flatMap(\.conjuncts)
    func evaluator(_ term: SQLExpression) throws -> ConditionEvaluator {
      let test = try Self.refusingLengthFilteredMatch(
        term, compiled[term] ?? compiler.condition(term).test, scope: scope, compiler: compiler)
      return try Self.refusingExtremeRowidMatch(term, test, terms: allTerms, scope: scope, compiler: compiler)
    }
    // The terms in the order of SQLite's merged WHERE clause: WHERE's, then each ON clause's.
    var pool: [SQLExpression] = []
    var onTerms = [[SQLExpression]](repeating: [], count: count)
    var final: [SQLExpression] = []
    if let filter = statement.filter {
      if hasLeft { final = filter.conjuncts } else { pool += filter.conjuncts }
    }
    for (position, join) in statement.joins.enumerated() {
      guard let condition = join.condition else { continue }
      if hasLeft { onTerms[position + 1] = condition.conjuncts } else { pool += condition.conjuncts }
    }
    // Terms reading no row of this query are tested once, before the loops; but not one holding
    // a subquery, which SQLite never counts as constant (`sqlite3SelectWalkFail`): it is tested
    // in the outermost loop, so an empty table never runs it. A select without FROM has no loop:
    // SQLite tests all its terms up front (`nTabList==0` in `sqlite3WhereBegin`).
    var initial: [SQLExpression] = []
    func hoisted(_ terms: inout [SQLExpression]) throws {
      var kept: [SQLExpression] = []
      for term in terms {
        let reads = try Self.sourcesRead(term, scope: scope, subqueriesReadRow: correlated.contains(term))
        if reads.isEmpty && (count == 0 || !term.containsSubquery) { initial.append(term) } else { kept.append(term) }
      }
      terms = kept
    }
    if hasLeft {
      try hoisted(&final)
      // An inner join's ON terms join the WHERE clause as well (a LEFT JOIN's depend on its table).
      for source in 1..<max(count, 1) where !Self.isLeft(source, statement) { try hoisted(&onTerms[source]) }
    } else {
      try hoisted(&pool)
    }

    let notIndexed = Set(Self.notIndexedSources(statement))
    let equalities = try (pool + onTerms.flatMap { $0 }).flatMap { try Self.equalities($0, scope: scope) }
      .filter { !notIndexed.contains($0.source) || $0.column.isRowid }

    // The loop order.
    var order: [Int] = []
    if pinned || hasLeft {
      order = Array(0..<count)
    } else {
      var remaining = Array(0..<count)
      while !remaining.isEmpty {
        let placed = Set(order)
        let costs = remaining.map { source in
          Self.cost(of: source, placed: placed, equalities: equalities, storages: storages, scope: scope)
        }
        let best = costs.indices.min { costs[$0] < costs[$1] } ?? 0
        order.append(remaining.remove(at: best))
      }
    }

    // Each loop tests its terms without a correlated subquery first, then those with one, each
    // in WHERE order (`codeOneLoopStart` leaves TERM_VARSELECT terms to its last pass; see
    // ``ExpressionCompiler/conditionNotingCorrelation(_:)`` for which terms those are).
    func correlatedLast(_ terms: [SQLExpression]) -> [SQLExpression] {
      terms.filter { !testedLast.contains($0) } + terms.filter { testedLast.contains($0) }
    }
    final = correlatedLast(final)
    for source in onTerms.indices { onTerms[source] = correlatedLast(onTerms[source]) }
    pool = correlatedLast(pool)

    // Each loop's lookup and conditions.
    var positionOf = [Int](repeating: 0, count: count)
    for (position, source) in order.enumerated() { positionOf[source] = position }
    var conditions = [[ConditionEvaluator]](repeating: [], count: count)
    var firstTerms = [SQLExpression?](repeating: nil, count: count)
    if hasLeft {
      for source in 0..<count {
        conditions[positionOf[source]] = try onTerms[source].map { try evaluator($0) }
        firstTerms[positionOf[source]] = onTerms[source].first
      }
    } else {
      for term in pool {
        let reads = try Self.sourcesRead(term, scope: scope)
        let position = reads.map { positionOf[$0] }.max() ?? 0
        conditions[position].append(try evaluator(term))
        if firstTerms[position] == nil { firstTerms[position] = term }
      }
    }
    var loops: [RelationalSelect.Loop] = []
    for (position, source) in order.enumerated() {
      let placed = Set(order[..<position])
      let usable = equalities.filter { equality in
        equality.source == source && equality.reads.isSubset(of: placed)
          && (!hasLeft || onTerms[source].contains { $0.conjuncts.contains(Self.term(equality)) })
      }
      // The outermost loop of a statement (not a subquery) runs once: a transient index would
      // cost a pass over the table to answer one probe, so it scans and tests the condition, as
      // SQLite (which never builds an automatic index for the outer loop) does.
      let runsOnce = position == 0 && scope.parent == nil
      let lookup = try Self.lookup(
        usable, storages[source].definition, compiler: compiler, cache: position, allowsHash: !runsOnce)
      loops.append(
        RelationalSelect.Loop(
          source: source, isLeft: hasLeft && Self.isLeft(source, statement), lookup: lookup,
          conditions: conditions[position],
          textFilter: TextEqualityFilter.forTerm(firstTerms[position], source: source, scope: scope, compiler: compiler)))
    }
    self.loops = loops
    finalConditions = try final.map { try evaluator($0) }
    initialConditions = try initial.map { try evaluator($0) }
  }

  /// The sources the FROM clause reads `NOT INDEXED`, by position.
  private static func notIndexedSources(_ statement: SelectStatement) -> [Int] {
    let flags = (statement.hasFromClause ? [statement.notIndexed] : []) + statement.joins.map(\.notIndexed)
    return flags.indices.filter { flags[$0] }
  }

  private static func isLeft(_ source: Int, _ statement: SelectStatement) -> Bool {
    source > 0 && statement.joins[source - 1].kind == .left
  }

  /// The term an equality came from (as written).
  private static func term(_ equality: Equality) -> SQLExpression {
    equality.columnIsLeft
      ? .binary(.equal, equality.columnSide, equality.other) : .binary(.equal, equality.other, equality.columnSide)
  }

  /// The sources of this level an expression reads (all of them when it holds a subquery, which
  /// may read any).
  static func sourcesRead(_ expression: SQLExpression, scope: SourceScope, subqueriesReadRow: Bool = true) throws -> Set<Int> {
    var result = Set<Int>()
    func walk(_ expression: SQLExpression) throws {
      // Parts SQLite's parser folds away (`x IN ()`, an AND with a false operand) are never
      // resolved: a bad name inside them is no error.
      if ExpressionCompiler.foldsToZero(expression) { return }
      if case .inList(_, let list, _) = expression, list.isEmpty { return }
      switch expression {
      case .column(let name):
        let reference = try scope.resolve(column: name, source: nil)
        if reference.depth == 0 { result.insert(reference.source) }
      case .qualifiedColumn(let source, let name):
        let reference = try scope.resolve(column: name, source: source)
        if reference.depth == 0 { result.insert(reference.source) }
      case .rowid:
        let reference = try scope.resolveRowid(source: nil)
        if reference.depth == 0 { result.insert(reference.source) }
      case .qualifiedRowid(let source):
        let reference = try scope.resolveRowid(source: source)
        if reference.depth == 0 { result.insert(reference.source) }
      case .subquery, .exists, .inSubquery:
        // A subquery reading the query around it may read any of its rows; one that does not
        // is a constant here.
        if subqueriesReadRow { result.formUnion(0..<scope.sources.count) }
      default:
        break
      }
      for child in expression.children { try walk(child) }
    }
    try walk(expression)
    return result
  }

  /// The operands of a term SQLite reads as an equality (`=`, or `IS` other than a truth test):
  /// not one the parser folds to false, nor `x IS (y IN ())`, SQLite's `x IS FALSE` (or TRUE).
  private static func equalityOperands(_ term: SQLExpression) -> (op: BinaryOperator, lhs: SQLExpression, rhs: SQLExpression)? {
    guard case .binary(let op, let lhs, let rhs) = term, op == .equal || op == .is, !ExpressionCompiler.foldsToZero(term),
      op == .equal || ExpressionCompiler.truthConstant(rhs) == nil
    else { return nil }
    return (op, lhs, rhs)
  }

  /// The `column = expression` readings of a term (and `rowid IS expression`, which seeks alike);
  /// an `expression` holding a subquery or an aggregate is no lookup value unless `anyValue`.
  private static func equalities(_ term: SQLExpression, scope: SourceScope, anyValue: Bool = false) throws -> [Equality] {
    guard let (op, lhs, rhs) = equalityOperands(term) else { return [] }
    var result: [Equality] = []
    for (written, other, isLeft) in [(lhs, rhs, true), (rhs, lhs, false)] {
      // SQLite reads the column side through a COLLATE (`sqlite3ExprSkipCollateAndLikely`); a
      // rowid has no collation for its lookup to match, so it seeks the rowid all the same.
      let side = written.withoutCollate
      let reference: SourceScope.Reference
      switch side {
      case .column(let name): reference = try scope.resolve(column: name, source: nil)
      case .qualifiedColumn(let source, let name): reference = try scope.resolve(column: name, source: source)
      case .rowid: reference = try scope.resolveRowid(source: nil)
      case .qualifiedRowid(let source): reference = try scope.resolveRowid(source: source)
      default: continue
      }
      guard reference.depth == 0, anyValue || (!other.containsSubquery && !other.containsAggregate) else { continue }
      guard side == written || reference.isRowid else { continue }
      // `rowid IS x` seeks the rowid as `=` does (WO_IS; a NULL finds no row either way); on any
      // other column IS matches NULLs, which a lookup by value would not.
      guard op == .equal || reference.isRowid else { continue }
      // (With `anyValue`, a subquery counts as reading nothing here.)
      let reads = try sourcesRead(other, scope: scope, subqueriesReadRow: !anyValue)
      guard !reads.contains(reference.source) else { continue }
      result.append(
        Equality(
          source: reference.source, column: reference, columnSide: side, other: other, columnIsLeft: isLeft,
          reads: reads))
    }
    return result
  }

  /// The term's test, refusing where it finds `rowid = x` (or `IS`) true with `x` a REAL -2⁶³ (after the
  /// comparison's numeric affinity).
  ///
  /// The comparison finds it equal to the smallest rowid, but a rowid lookup by it
  /// (`OP_SeekRowid`) finds nothing: whether the pair joins depends on whether SQLite's plan
  /// seeks the rowid by `x` or tests the term, which the memory engine does not know — whether `x`
  /// reads another source (which of the two is visited first) or none (a constant or subquery
  /// SQLite seeks by, where this engine's plan may scan a small table and test). The rowid lookup the
  /// memory engine makes itself refuses a pair of sources alike (``RelationalSelect/Lookup/rowid(_:joinsSources:)``).
  ///
  /// `rowid IN (list)` seeks the rowid by each value of the list alike: the pair is refused when
  /// the term holds and a value of the list is that REAL (a value that fails to compute is left to
  /// the test, which computed what SQLite computes).
  ///
  /// SQLite also seeks the rowid by what the column it is equated to is equated to elsewhere
  /// (`x.rowid = m.c AND m.c = ?`: a transitive constraint, `whereScanNext` following `WO_EQUIV`
  /// terms), so `rowid = column` looks at those values too (``transitiveValues(of:terms:scope:compiler:)``).
  private static func refusingExtremeRowidMatch(
    _ term: SQLExpression, _ test: @escaping ConditionEvaluator, terms: [SQLExpression], scope: SourceScope,
    compiler: ExpressionCompiler
  ) throws -> ConditionEvaluator {
    // (`x IN ()` is folded by the parser, its name never resolved; a name that does not resolve
    // fails the statement elsewhere, in SQLite's order.)
    if case .inList(let operand, let list, negated: false) = term, !list.isEmpty,
      let reference = scope.reference(to: operand.withoutCollate), reference.depth == 0, reference.isRowid
    {
      let values = try list.map { try compiler.compile($0).evaluate }
      return { context in
        guard try test(context) else { return false }
        for value in values where (try? value(context)).map(isExtremeRowidProbe) == true { throw extremeRowidMatch }
        return true
      }
    }
    if case .binary(.or, _, _) = term {
      return try refusingExtremeRowidMatchInBranches(term, test, scope: scope, compiler: compiler)
    }
    guard let equality = try equalities(term, scope: scope, anyValue: true).first(where: { $0.column.isRowid }) else {
      return test
    }
    let rowid = try compiler.compile(equality.columnSide).evaluate
    let other = try compiler.compile(equality.other).evaluate
    let (transitive, readsRows) = try transitiveValues(of: equality, terms: terms, scope: scope, compiler: compiler)
    return { context in
      guard try test(context) else { return false }
      // Only the smallest rowid equals that REAL: the other side is read for it alone.
      guard try rowid(context) == .integer(.min) else { return true }
      if isExtremeRowidProbe(try other(context)) { throw extremeRowidMatch }
      // A value reading a row this loop may not have yet: SQLite may seek by it, this engine
      // cannot read it here.
      if readsRows { throw extremeRowidMatch }
      for value in transitive where (try? value(context)).map(isExtremeRowidProbe) == true { throw extremeRowidMatch }
      return true
    }
  }

  /// The OR's test, refusing where a row with the smallest rowid passes it and one of its
  /// branches compares that rowid (`=`, `IS`, `IN (…)`) with the REAL -2⁶³.
  ///
  /// SQLite may answer the OR branch by branch (a `MULTI-INDEX OR`, or an `IN` it makes of
  /// equalities on one column), seeking each branch's rowid, and the REAL -2⁶³ finds no row
  /// that way; tested as a whole, the OR finds that row. Which one SQLite does is its plan's
  /// choice. Wider than needed: the row may pass by another branch.
  ///
  /// ```sql
  /// -- the only row has rowid -9223372036854775808; SQLite finds nothing
  /// SELECT d FROM t WHERE rowid IS ?1 OR rowid = -9.223372036854776e+18  -- ?1 = NULL
  /// ```
  private static func refusingExtremeRowidMatchInBranches(
    _ term: SQLExpression, _ test: @escaping ConditionEvaluator, scope: SourceScope, compiler: ExpressionCompiler
  ) throws -> ConditionEvaluator {
    var probes: [(rowid: ValueEvaluator, value: ValueEvaluator)] = []
    func collect(_ expression: SQLExpression) throws {
      switch expression {
      case .binary(.or, let lhs, let rhs), .binary(.and, let lhs, let rhs):
        try collect(lhs)
        try collect(rhs)
      case .inList(let operand, let list, negated: false):
        guard let reference = scope.reference(to: operand.withoutCollate), reference.depth == 0,
          reference.isRowid
        else { return }
        let rowid = try compiler.compile(operand.withoutCollate).evaluate
        for value in list { probes.append((rowid, try compiler.compile(value).evaluate)) }
      default:
        for equality in (try? equalities(expression, scope: scope, anyValue: true)) ?? [] where equality.column.isRowid {
          probes.append((try compiler.compile(equality.columnSide).evaluate, try compiler.compile(equality.other).evaluate))
        }
      }
    }
    try collect(term)
    guard !probes.isEmpty else { return test }
    return { [probes] context in
      guard try test(context) else { return false }
      for probe in probes where try probe.rowid(context) == .integer(.min) {
        if (try? probe.value(context)).map(isExtremeRowidProbe) == true { throw extremeRowidMatch }
      }
      return true
    }
  }

  /// The values SQLite may seek a rowid by through the column `equality` equates it to: the other
  /// sides of the `=`/`IS` terms, and the lists of the `IN` terms, of that column's equivalence
  /// class (columns equated to it, as `termIsEquivalence` pairs them, followed as `whereScanNext`
  /// does). Values reading no row of this level are returned to compute; `readsRows` says whether
  /// the class also reaches another column or a value that reads one (then only a refusal is
  /// certain).
  ///
  /// Affinity and collation, which decide whether SQLite counts a pair as equivalent, are not
  /// checked: a pair that is not only makes the refusal wider.
  private static func transitiveValues(
    of equality: Equality, terms: [SQLExpression], scope: SourceScope, compiler: ExpressionCompiler
  ) throws -> (values: [ValueEvaluator], readsRows: Bool) {
    struct Key: Hashable {
      let source: Int
      let column: Int
    }
    func key(_ expression: SQLExpression) -> Key? {
      guard let reference = scope.reference(to: expression), reference.depth == 0 else { return nil }
      return Key(source: reference.source, column: reference.isRowid ? -1 : reference.column ?? -1)
    }
    guard let start = key(equality.other), let rowid = key(equality.columnSide) else { return ([], false) }
    let pairs = terms.compactMap { equalityOperands($0).map { ($0.lhs, $0.rhs) } }
    var members: Set<Key> = [start, rowid]
    var readsRows = false
    var grew = true
    while grew {
      grew = false
      for (lhs, rhs) in pairs {
        guard let left = key(lhs), let right = key(rhs), members.contains(left) != members.contains(right) else { continue }
        members.formUnion([left, right])
        readsRows = true
        grew = true
      }
    }
    // The values the class's members are equated to, or listed with (`IN (list)` is a lookup
    // too, `WO_IN`).
    var candidates: [SQLExpression] = []
    for (lhs, rhs) in pairs {
      for (side, value) in [(lhs, rhs), (rhs, lhs)] {
        if let member = key(side), members.contains(member), key(value) == nil { candidates.append(value) }
      }
    }
    for term in terms {
      if case .inList(let operand, let list, negated: false) = term, let member = key(operand), members.contains(member) {
        candidates += list
      }
    }
    var values: [ValueEvaluator] = []
    for value in candidates {
      if try sourcesRead(value, scope: scope).isEmpty {
        values.append(try compiler.compile(value).evaluate)
      } else {
        readsRows = true
      }
    }
    return (values, readsRows)
  }

  /// The term's test, refusing where it finds `column = x` (or `IS`) true under RTRIM for two
  /// strings of different lengths.
  ///
  /// SQLite may look such a term up through an automatic index, which 3.40 builds with a Bloom
  /// filter that hashes a string by its length (`filterHash`): a probe equal under RTRIM to a key
  /// of another length is turned away before the index is searched, and the pair does not join;
  /// sought by a scan (or by an index of the schema, without a filter) it does. Whether SQLite
  /// builds that index is its plan's choice, which the memory engine does not follow here.
  private static func refusingLengthFilteredMatch(
    _ term: SQLExpression, _ test: @escaping ConditionEvaluator, scope: SourceScope, compiler: ExpressionCompiler
  ) throws -> ConditionEvaluator {
    guard let (_, lhs, rhs) = equalityOperands(term),
      [lhs, rhs].contains(where: { side in
        scope.reference(to: side.withoutCollate).map { $0.depth == 0 && !$0.isRowid } ?? false
      })
    else { return test }
    let left = try compiler.compile(lhs)
    let right = try compiler.compile(rhs)
    guard ExpressionCompiler.comparisonCollation(left, right) == .rtrim else { return test }
    let affinity = ComparisonOperands.combined(left.affinity, right.affinity)
    return { context in
      guard try test(context) else { return false }
      let pair = (
        ComparisonOperands.operand(try left.evaluate(context), under: affinity),
        ComparisonOperands.operand(try right.evaluate(context), under: affinity)
      )
      // (Blobs compare byte by byte whatever the collation: equal ones have one length.)
      if case (.text(let a), .text(let b)) = pair, a.utf8.count != b.utf8.count { throw lengthFilteredMatch }
      return true
    }
  }

  /// The refusal of a join pair an automatic index's Bloom filter may turn away.
  static var lengthFilteredMatch: TandemError {
    EngineError.unsupported(
      "a join matching strings of different lengths under RTRIM (an automatic index's Bloom filter, hashing "
        + "strings by length, turns the pair away: the answer depends on SQLite's plan)")
  }

  /// Whether a value compared with a rowid is, under numeric affinity, the REAL -2⁶³ that equals
  /// the smallest rowid but that `OP_SeekRowid` does not find.
  static func isExtremeRowidProbe(_ value: SqliteValue) -> Bool {
    ComparisonOperands.operand(value, under: .numeric) == .real(-9_223_372_036_854_775_808.0)
  }

  /// The refusal of a row (or join pair) that a rowid lookup and a comparison answer differently.
  static var extremeRowidMatch: TandemError {
    EngineError.unsupported(
      "a row whose rowid, the smallest, is compared with the REAL -2^63 (a comparison finds them equal, a "
        + "rowid lookup does not: the answer depends on SQLite's plan)")
  }

  /// The estimated rows a source's loop visits for each row of the placed ones.
  private static func cost(
    of source: Int, placed: Set<Int>, equalities: [Equality], storages: [TableStorage], scope: SourceScope
  ) -> Double {
    let rows = Double(max(storages[source].data.rowCount, 1))
    let definition = storages[source].definition
    var best = rows
    for equality in equalities where equality.source == source && equality.reads.isSubset(of: placed) {
      if equality.column.isRowid {
        best = min(best, 1)
      } else if let column = equality.column.column,
        let index = definition.indexes.first(where: { $0.columns.first == column })
      {
        best = min(best, index.isUnique && index.columns.count == 1 ? 1 : max(1, rows / 10))
      } else {
        // A transient index costs a pass over the table once, then about one probe per row.
        best = min(best, max(1, rows / 10) + 1)
      }
    }
    return best
  }

  /// The best lookup among a loop's usable equalities: rowid, then an index, then a hash table
  /// (when `allowsHash`).
  private static func lookup(
    _ equalities: [Equality], _ definition: TableDefinition, compiler: ExpressionCompiler, cache: Int,
    allowsHash: Bool
  ) throws -> RelationalSelect.Lookup? {
    var byIndex: RelationalSelect.Lookup?
    var byHash: RelationalSelect.Lookup?
    for equality in equalities {
      let columnSide = try compiler.compile(equality.columnSide)
      let other = try compiler.compile(equality.other)
      let (left, right) = equality.columnIsLeft ? (columnSide, other) : (other, columnSide)
      let collation = ExpressionCompiler.comparisonCollation(left, right)
      let affinity = ComparisonOperands.combined(left.affinity, right.affinity)
      if equality.column.isRowid {
        return .rowid(other.evaluate, joinsSources: !equality.reads.isEmpty)
      }
      guard let column = equality.column.column else { continue }
      let stored = definition.affinities[column]
      // An index holds the stored values: it serves when the comparison converts the probe only.
      let convertsStoredValues =
        switch affinity {
        case .integer, .real, .numeric: !stored.isNumeric
        case .text: stored != .text
        case .blob, .none: false
        }
      if byIndex == nil, collation == .binary, !convertsStoredValues,
        let index = definition.indexes.firstIndex(where: { $0.columns.first == column })
      {
        byIndex = .index(index, other.evaluate, affinity: affinity)
      }
      if allowsHash, byHash == nil {
        byHash = .hash(column: column, other.evaluate, affinity: affinity, collation: collation, cache: cache)
      }
    }
    return byIndex ?? byHash
  }
}
