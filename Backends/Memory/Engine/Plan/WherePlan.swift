import TandemCore

/// How a statement visits its table's rows, chosen as SQLite 3.40 chooses (`sqlite3WhereBegin`
/// for a FROM clause of one table): the loop, what it does for the ORDER BY, which WHERE terms
/// are tested once before the loop, and which are tested on each row it finds, in SQLite's order.
///
/// ```swift
/// let plan = WherePlan(filter: .binary(.greater, .column("id"), .literal(1)), table: items, request: .init())
/// plan.explanation  // ["SEARCH items USING INTEGER PRIMARY KEY (rowid>?)"]
/// ```
final class WherePlan: @unchecked Sendable {
  // @unchecked: built once by its initializer and never changed afterwards.

  /// What the statement asks of the plan.
  struct Request: Sendable {
    /// The loop builder's view: NOT INDEXED, one-pass wish, ORDER BY expressions, columns read.
    var loops = WhereLoopBuilder.Request()
    /// The ORDER BY (or GROUP BY, or min/max) terms, and how they are used.
    var orderBy: [WherePathSolver.OrderTerm] = []
    var purpose = WherePathSolver.Purpose.orderBy
    /// A DISTINCT select.
    var wantsDistinct = false
    /// For a GROUP BY that ORDER BY repeats: whether the loop that delivers the groups also
    /// delivers them in the ORDER BY's directions (SQLite's `WHERE_SORTBYGROUP`), running
    /// backwards if need be.
    var sortsByGroup = false
    /// A branch of a multi-index OR: no shortcut, no ordering, and the table is always read
    /// (a covering index still seeks the table row).
    var isOrBranch = false
    /// The values bound to LIKE/GLOB patterns (SQLite reads them while planning).
    var patternValue: @Sendable (SQLExpression) -> SqliteValue? = { _ in nil }
    /// For an UPDATE or DELETE: whether rows may be changed as the loop finds them.
    var onePass = OnePassRequest.none
    /// The ORDER BY is a DISTINCT list SQLite asked for (the result columns of a DISTINCT select
    /// without ORDER BY, or the argument of an aggregate over DISTINCT values): it drops it when
    /// the rows found cannot repeat the list (``WherePlan/distinctIsRedundant(_:clause:)``).
    var ordersByDistinctList = false
  }

  /// An UPDATE's or DELETE's wish to change rows as they are found (SQLite's
  /// `WHERE_ONEPASS_DESIRED` and `WHERE_ONEPASS_MULTIROW` flags).
  enum OnePassRequest: Sendable {
    /// A SELECT.
    case none
    /// Only when the loop finds at most one row.
    case singleRow
    /// Also for a loop that finds several rows; `allowsMultiOr` for a DELETE, which tolerates
    /// rows a multi-index OR finds twice.
    case multiRow(allowsMultiOr: Bool)
  }

  /// How an UPDATE or DELETE goes through the rows (SQLite's `ONEPASS_*`).
  enum OnePass {
    /// Rows are collected first, then changed (in rowid order).
    case off
    /// The loop finds at most one row, changed as it is found.
    case single
    /// Rows are changed as the loop finds them.
    case multi
  }

  let table: TableDefinition
  let clause: WhereClause
  let loop: WhereLoop
  /// How many leading ORDER BY terms the loop delivers in order.
  let orderSatisfied: Int
  /// Whether the loop runs backwards.
  let reversed: Bool
  /// For a GROUP BY the loop delivers: whether it delivers the groups in the order ORDER BY
  /// asks (`sqlite3WhereIsSorted`), so that no sort follows the grouping.
  let sortedByGroup: Bool
  /// Whether each inner run of the loop (one IN value) delivers the whole ORDER BY, so that a
  /// full LIMIT sorter may skip the rest of that run (SQLite's `bOrderedInnerLoop`).
  let innerLoopOrdered: Bool
  /// Terms that read no row, tested once before the loop (positions in `clause`).
  let constantTerms: [Int]
  /// Terms tested on each row the loop finds, in order (positions in `clause`).
  let residualTerms: [Int]
  /// For a multi-index OR: each branch's own plan over `branch AND others`, with the branch's
  /// position among the OR's subterms.
  let branches: [(position: Int, plan: WherePlan)]
  /// Whether the loop reads only the index (the table row is not needed).
  var isCovering: Bool { loop.flags.contains(.indexOnly) }
  /// For an UPDATE or DELETE: whether rows are changed as they are found.
  let onePass: OnePass
  /// The min/max optimization's plan (a `SEARCH` even without constraints).
  let isMinMax: Bool

  /// `isDistinctRedundant` for one table: whether the rows the WHERE clause lets through cannot
  /// repeat the values of `list` — it holds the rowid, or a UNIQUE index is covered: each of its
  /// columns is fixed by a `column = value` term or is in the list, NOT NULL and compared with
  /// BINARY (the index's collation).
  ///
  /// ```sql
  /// -- v INTEGER NOT NULL UNIQUE: no repeat to drop, so no order is asked of the loop
  /// SELECT count(DISTINCT v) FROM t WHERE rowid > 5
  /// ```
  static func distinctIsRedundant(_ list: [SQLExpression], clause: WhereClause) -> Bool {
    let context = clause.context
    let table = context.table
    let columns = list.map { (expression: $0, column: context.column($0)) }
    if columns.contains(where: { ($0.column ?? 0) < 0 }) { return true }
    for index in table.indexes where index.isUnique {
      let coversIndex = index.columns.allSatisfy { indexColumn in
        let target = indexColumn == table.rowidColumn ? -1 : indexColumn
        let fixed = clause.scan(column: target, ops: .eq, index: (table.affinities[indexColumn], .binary))
          .contains { !$0.clause[$0.index].valueReadsTable }
        if fixed { return true }
        let listed = columns.contains { $0.column == target && context.collation($0.expression) == .binary }
        return listed && table.notNull[indexColumn]
      }
      if coversIndex { return true }
    }
    return false
  }

  /// Plans the WHERE clause `filter` of a statement on `table`.
  convenience init(filter: SQLExpression?, table: TableDefinition, request: Request) {
    let context = WhereContext(table: table, patternValue: request.patternValue)
    let clause = WhereClause(splitting: filter.map(WherePlan.parseRewritten), context: context)
    self.init(clause: clause, request: request)
  }

  private init(clause: WhereClause, request: Request) {
    var request = request
    if request.ordersByDistinctList, Self.distinctIsRedundant(request.orderBy.map(\.expression), clause: clause) {
      request.orderBy = []
      request.loops.orderBy = []
      request.purpose = .orderBy
    }
    let table = clause.context.table
    self.table = table
    self.clause = clause

    // Terms that read no row are tested once, before the loop.
    var constants: [Int] = []
    for position in 0..<clause.baseCount where !clause[position].flags.contains(.virtual) && !clause[position].readsTable {
      clause[position].flags.insert(.coded)
      constants.append(position)
    }
    constantTerms = constants

    var loopRequest = request.loops
    loopRequest.isOrBranch = request.isOrBranch
    var builder = WhereLoopBuilder(clause: clause, request: loopRequest)
    var chosen: WhereLoop
    var satisfied = 0
    var reversed = false
    var innerOrdered = false
    var sorted = false
    if !request.isOrBranch, let shortCut = builder.shortCut() {
      chosen = shortCut
      satisfied = request.orderBy.count
    } else {
      builder.addAll()
      let solver = WherePathSolver(
        clause: clause, loops: builder.loops, orderBy: request.isOrBranch ? [] : request.orderBy,
        purpose: request.purpose, wantsDistinct: request.wantsDistinct)
      // The full table scan is always among the loops, so there is a solution.
      let solution = solver.solve() ?? WherePathSolver.Solution(
        loop: builder.loops.first { !$0.flags.contains(.automaticIndex) } ?? WhereLoop(flags: .rowid),
        orderSatisfied: 0, reversed: false, outputRows: 0)
      chosen = solution.loop
      satisfied = solution.orderSatisfied
      reversed = solution.reversed
      if request.purpose == .distinctBy {
        // SQLite keeps the loop forwards; whether it also delivers the rewritten query's ORDER
        // BY (the same columns, ascending) is what the rows are sorted by.
        reversed = false
        satisfied = max(0, solver.satisfiedTerms(by: chosen, purpose: .orderBy).count)
      } else if request.purpose == .minMax && satisfied == 1 {
        innerOrdered = true
      } else if request.purpose == .groupBy {
        // The end of `wherePathSolver`: grouped rows that also come in the directions asked.
        if request.sortsByGroup && satisfied == request.orderBy.count {
          let directed = solver.satisfiedTerms(by: chosen, purpose: .orderBy)
          if directed.count == request.orderBy.count {
            sorted = true
            reversed = directed.reversed
          }
        }
      } else if !request.isOrBranch, !request.orderBy.isEmpty, satisfied == 0,
        !chosen.flags.contains(.oneRow),
        chosen.flags.intersection([.rowid, .columnIn]) != [.rowid, .columnIn]
      {
        let limitOrder = solver.satisfiedTerms(by: chosen, purpose: .minMax)
        if limitOrder.bigNull { chosen.flags.insert(.bigNullSort) }
        if limitOrder.count == request.orderBy.count {
          innerOrdered = true
          reversed = limitOrder.reversed
        }
      }
    }
    // An UPDATE or DELETE that changes rows as it finds them reads them from the table.
    switch request.onePass {
    case .none:
      onePass = .off
    case .singleRow:
      onePass = chosen.flags.contains(.oneRow) ? .single : .off
    case .multiRow(let allowsMultiOr):
      if chosen.flags.contains(.oneRow) {
        onePass = .single
      } else {
        onePass = !chosen.flags.contains(.multiOr) || allowsMultiOr ? .multi : .off
      }
    }
    if onePass != .off { chosen.flags.remove(.indexOnly) }
    isMinMax = request.purpose == .minMax
    loop = chosen
    orderSatisfied = satisfied
    self.reversed = reversed
    sortedByGroup = sorted
    innerLoopOrdered = innerOrdered

    // The loop's own code makes the terms it uses redundant (`disableTerm`).
    if chosen.flags.contains(.multiOr) {
      var plans: [(Int, WherePlan)] = []
      let orTerm = chosen.terms[0]
      if let info = orTerm.term.orInfo {
        // Each branch runs as `branch AND w`, w being the other terms an index might serve.
        var others: [SQLExpression] = []
        for position in clause.terms.indices where position != orTerm.index {
          let term = clause[position]
          if term.flags.contains(.virtual) || term.flags.contains(.coded) { continue }
          if term.op.intersection(.all).isEmpty { continue }
          others.append(term.source)
        }
        for position in info.clause.terms.indices {
          let branch = info.clause[position]
          guard branch.column != nil || branch.op.contains(.and) else { continue }
          let expression = others.reduce(branch.source) { .binary(.and, $0, $1) }
          // SQLite plans each branch as a WHERE of its own, without ORDER BY or one-pass wishes.
          var branchRequest = request
          branchRequest.isOrBranch = true
          branchRequest.orderBy = []
          branchRequest.loops.orderBy = []
          branchRequest.loops.wantsOnePass = false
          branchRequest.onePass = .none
          let context = WhereContext(table: table, patternValue: request.patternValue)
          let branchClause = WhereClause(splitting: expression, context: context)
          plans.append((position, WherePlan(clause: branchClause, request: branchRequest)))
        }
      }
      branches = plans
      Self.disable(orTerm, in: clause)
    } else {
      branches = []
      let usesIndex = chosen.flags.contains(.indexed)
      for (position, reference) in chosen.terms.enumerated() {
        let isEquality = usesIndex ? position < chosen.equalities : chosen.flags.intersection([.columnEq, .columnIn]) != []
        if isEquality {
          if !chosen.flags.contains(.transitive) || !reference.term.op.contains(.equivalence) {
            Self.disable(reference, in: clause)
          }
        } else {
          Self.disable(reference, in: clause)
        }
      }
    }

    // The other terms, tested on each row: first those the index alone answers (when the table
    // row is read), then the rest, each in WHERE order.
    let indexForCoverage: IndexProbe? =
      if let index = chosen.index, !chosen.flags.contains(.indexOnly) || request.isOrBranch {
        IndexProbe.index(index, of: table, statistics: TableStatistics(table))
      } else {
        nil
      }
    var residual: [Int] = []
    var passes: [IndexProbe?] = indexForCoverage.map { [$0, nil] } ?? [nil]
    while !passes.isEmpty {
      let coverage = passes.removeFirst()
      for position in clause.terms.indices {
        let term = clause[position]
        if term.flags.contains(.virtual) || term.flags.contains(.coded) { continue }
        if term.flags.contains(.likeCondition) { continue }
        if let coverage, !clause.context.isCovered(term.expression, by: coverage) { continue }
        clause[position].flags.insert(.coded)
        residual.append(position)
      }
    }
    residualTerms = residual
  }

  /// `disableTerm`: marks a term tested by the loop itself, and its parent once every child is.
  private static func disable(_ reference: TermReference, in main: WhereClause) {
    let clause = reference.clause
    var position = reference.index
    var depth = 0
    while !clause[position].flags.contains(.coded) {
      if depth > 0 && clause[position].flags.contains(.like) {
        clause[position].flags.insert(.likeCondition)
      } else {
        clause[position].flags.insert(.coded)
      }
      guard let parent = clause[position].parent else { break }
      clause[parent].children -= 1
      if clause[parent].children != 0 { break }
      position = parent
      depth += 1
    }
  }

  /// The WHERE clause as SQLite's parser leaves it: `x IN (c)` with one constant becomes `x = +c`.
  static func parseRewritten(_ expression: SQLExpression) -> SQLExpression {
    if case .inList(let operand, let list, let negated) = expression,
      let rewritten = SQLExpression.singleValueIn(operand, list, negated: negated)
    {
      return parseRewritten(rewritten)
    }
    let children = expression.children
    guard !children.isEmpty else { return expression }
    var result = expression
    for (index, child) in children.enumerated() {
      let rewritten = parseRewritten(child)
      if rewritten != child { result = result.replacingChild(at: index, with: rewritten) }
    }
    return result
  }

  // MARK: - EXPLAIN QUERY PLAN

  /// The plan as SQLite's `EXPLAIN QUERY PLAN` describes its loop, one line per node with two
  /// spaces of indent per level (`SCAN t`, `SEARCH t USING INDEX i (a=? AND b>?)`, …).
  func explanation(tableName: String) -> [String] {
    if loop.flags.contains(.multiOr) {
      var lines = ["MULTI-INDEX OR"]
      for (position, plan) in branches {
        lines.append("  INDEX \(position + 1)")
        lines += plan.explanation(tableName: tableName).map { "    " + $0 }
      }
      return lines
    }
    return [scanDescription(tableName: tableName)]
  }

  private func scanDescription(tableName: String) -> String {
    let flags = loop.flags
    let isSearch = !flags.intersection(.bothLimits).isEmpty || loop.equalities > 0 || isMinMax
    var text = (isSearch ? "SEARCH " : "SCAN ") + tableName
    if flags.contains(.rowid) {
      if !flags.intersection(.constraint).isEmpty {
        text += " USING INTEGER PRIMARY KEY (rowid"
        if !flags.intersection([.columnEq, .columnIn]).isEmpty {
          text += "=?)"
        } else if flags.contains(.bothLimits) {
          text += ">? AND rowid<?)"
        } else if flags.contains(.bottomLimit) {
          text += ">?)"
        } else {
          text += "<?)"
        }
      }
      return text
    }
    guard let index = loop.index else { return text }
    let definition = table.indexes[index]
    text += flags.contains(.indexOnly) ? " USING COVERING INDEX " : " USING INDEX "
    text += definition.name
    let columns = definition.columns.map { table.columnNames[$0] } + ["rowid"]
    guard loop.equalities > 0 || !flags.intersection(.bothLimits).isEmpty else { return text }
    var parts: [String] = []
    for position in 0..<loop.equalities { parts.append("\(columns[position])=?") }
    if flags.contains(.bottomLimit) { parts.append("\(columns[loop.equalities])>?") }
    if flags.contains(.topLimit) { parts.append("\(columns[loop.equalities])<?") }
    return text + " (" + parts.joined(separator: " AND ") + ")"
  }
}
