import TandemCore

/// Enumerates the ways to visit one table's rows and keeps the useful ones, with SQLite's cost
/// estimates and pruning rules (`whereLoopAddBtree`, `whereLoopAddBtreeIndex`,
/// `whereLoopAddOr`, `whereLoopInsert` in `where.c`).
struct WhereLoopBuilder {
  /// What the statement asks of the loop.
  struct Request: Sendable {
    /// The FROM clause says NOT INDEXED: only the rowid b-tree may be used.
    var notIndexed = false
    /// An UPDATE or DELETE that would like to change rows as it finds them.
    var wantsOnePass = false
    /// The ORDER BY (or GROUP BY) expressions, which a full index scan might deliver.
    var orderBy: [SQLExpression] = []
    /// The columns the statement reads (SQLite's `colUsed`).
    var columnsUsed: UInt64 = 0
    /// The columns the statement reads, exactly (to settle columns past 62).
    var exactColumnsUsed: Set<Int> = []
    /// Planning one branch of a multi-index OR (SQLite's `WHERE_OR_SUBCLAUSE`).
    var isOrBranch = false
  }

  /// One OR branch's best costs (SQLite's `WhereOrCost`; the table has no prerequisites).
  struct OrCost {
    var runCost: LogEst
    var outputRows: LogEst
  }

  let clause: WhereClause
  /// The statement's whole WHERE clause (the same as `clause`, except while building for one
  /// branch of an OR).
  let mainClause: WhereClause
  let table: TableDefinition
  let statistics: TableStatistics
  let request: Request
  /// The loops kept so far, in the order SQLite keeps them.
  private(set) var loops: [WhereLoop] = []
  /// While building an OR branch: its best costs instead of loops.
  private var orSet: [OrCost]?
  /// The loop under construction.
  private var new = WhereLoop()

  init(clause: WhereClause, request: Request, mainClause: WhereClause? = nil) {
    self.clause = clause
    self.mainClause = mainClause ?? clause
    self.table = clause.context.table
    self.statistics = TableStatistics(clause.context.table)
    self.request = request
  }

  /// Adds every loop for the table: the rowid b-tree and each index, then multi-index ORs.
  mutating func addAll() {
    addBtree()
    if clause.hasOr { addOr() }
  }

  // MARK: - whereLoopAddBtree

  private mutating func addBtree() {
    var probes = [IndexProbe.rowid(table, statistics: statistics)]
    if !request.notIndexed {
      probes += table.indexes.indices.map { IndexProbe.index($0, of: table, statistics: statistics) }
    }
    addAutomaticIndexes(size: probes[0].rowEstimates[0])
    var sortIndex = 1
    for probe in probes {
      let size = probe.rowEstimates[0]
      new = WhereLoop()
      new.outputRows = size
      new.index = probe.position
      let mightHelpOrder = indexMightHelpWithOrderBy(probe)
      if probe.isRowid {
        new.flags = .rowid
        new.sortIndex = mightHelpOrder ? sortIndex : 0
        // A full table scan costs 3N (the extra 16 discourages it).
        new.runCost = size + 16
        outputAdjust(&new, tableSize: size)
        insert(new)
        new.outputRows = size
      } else {
        let uncovered = isCovering(probe) ? UInt64(0) : 1
        new.flags = uncovered == 0 ? [.indexOnly, .indexed] : .indexed
        if mightHelpOrder
          || (uncovered == 0 && probe.entrySize < statistics.rowSize && !request.wantsOnePass)
        {
          new.sortIndex = mightHelpOrder ? sortIndex : 0
          new.runCost = size + 1 + (15 * probe.entrySize) / statistics.rowSize
          if uncovered != 0 {
            // A non-covering scan looks up each row in the table (3N), fewer when leading
            // terms can be tested on the index alone.
            var lookups = size + 16
            for term in mainClause.terms {
              // A term the resolver folded to a constant reads no column; one that constant
              // propagation made constant still names its fixed column, which
              // `sqlite3ExprCoveredByIndex` looks for in the index like any other.
              let namesAColumn = term.readsTable || FixedColumn.occurs(in: term.expression)
              if namesAColumn && !clause.context.isCovered(term.expression, by: probe) { break }
              lookups -= 1
              if !term.op.intersection([.eq, .is]).isEmpty { lookups -= 19 }
            }
            new.runCost = LogEst.add(new.runCost, lookups)
          }
          outputAdjust(&new, tableSize: size)
          insert(new)
          new.outputRows = size
        }
      }
      addBtreeIndex(probe, inMultiplier: 0)
      sortIndex += 1
    }
  }

  /// The loops by an automatic index, which SQLite adds first: one for each `column = value` or
  /// `column IS value` term that could drive one (`termCanDriveIndex`).
  ///
  /// For one table such a loop is never chosen — building the index alone costs more than a full
  /// scan — but it sits on the list while the other loops are inserted, and a loop by an index
  /// with an equality takes its place there (``findLesser(from:_:)``) rather than being
  /// discarded by a better loop further down the list. That loop may then keep a third one
  /// from being chosen (``adjustCost(_:)``).
  private mutating func addAutomaticIndexes(size: LogEst) {
    guard orSet == nil, !request.isOrBranch, !request.notIndexed else { return }
    let logSize = LogEst.logarithm(size)
    for position in clause.terms.indices {
      let term = clause[position]
      guard !term.valueReadsTable, !term.op.intersection([.eq, .is]).isEmpty, let column = term.column,
        column >= 0, column != table.rowidColumn, clause.context.indexAffinityOk(term, table.affinities[column])
      else { continue }
      new = WhereLoop()
      new.flags = .automaticIndex
      new.terms = [TermReference(clause: clause, index: position)]
      new.equalities = 1
      // Building the index costs N log N, times 7 for a table; each lookup yields 20 rows.
      new.setupCost = logSize + size + 28
      new.outputRows = 43
      new.runCost = LogEst.add(logSize, new.outputRows)
      insert(new)
    }
  }

  /// Whether the index holds every column the statement reads.
  private func isCovering(_ probe: IndexProbe) -> Bool {
    let missing = request.columnsUsed & probe.columnsNotIndexed
    if missing == 0 { return true }
    if missing != UInt64(1) << 63 { return false }
    // Only columns past 62 are in question: look at them one by one.
    return request.exactColumnsUsed.allSatisfy { $0 < 63 || probe.columns.contains($0) }
  }

  /// `indexMightHelpWithOrderBy`: an ORDER BY term is the rowid or one of the index's columns.
  private func indexMightHelpWithOrderBy(_ probe: IndexProbe) -> Bool {
    for term in request.orderBy {
      guard let column = clause.context.column(term) else { continue }
      if column == -1 { return true }
      if probe.columns.prefix(probe.keyCount).contains(column) { return true }
    }
    return false
  }

  // MARK: - whereLoopAddBtreeIndex

  private mutating func addBtreeIndex(_ probe: IndexProbe, inMultiplier: LogEst) {
    let opMask: TermOperator =
      new.flags.contains(.bottomLimit) ? [.lt, .le] : [.eq, .in, .gt, .ge, .lt, .le, .isNull, .is]
    let saved = new
    let column = probe.column(at: saved.equalities, in: table)
    let indexColumn: (affinity: Affinity, collation: Collation)? =
      column >= 0 ? (table.affinities[column], .binary) : nil
    let size = probe.rowEstimates[0]
    let logSize = LogEst.logarithm(size)
    let candidates = clause.scan(column: column, ops: opMask, index: indexColumn)
    for candidate in candidates {
      let reference = TermReference(clause: candidate.clause, index: candidate.index)
      let term = reference.term
      let op = term.op
      if (op == .isNull || term.flags.contains(.vnull)) && columnIsNotNull(probe, saved.equalities) { continue }
      if term.valueReadsTable { continue }
      // The upper bound of a LIKE range is only used together with its lower bound.
      if term.flags.contains(.likeOptimized) && op == .lt { continue }
      new = saved
      new.terms.append(reference)
      var inCount: LogEst = 0
      var lower: WhereTerm?
      var upper: WhereTerm?
      if op.contains(.in) {
        if case .inList(_, let list, _) = term.expression { inCount = LogEst(count: list.count) }
        new.flags.insert(.columnIn)
      } else if !op.intersection([.eq, .is]).isEmpty {
        // SQLite's `aiColumn`: -1 (XN_ROWID) only for the rowid itself, not its alias.
        let indexColumn = probe.columns[saved.equalities]
        new.flags.insert(.columnEq)
        if indexColumn == -1 || (inMultiplier == 0 && saved.equalities == probe.keyCount - 1) {
          if indexColumn == -1 || probe.isUniqueNotNull || (probe.keyCount == 1 && probe.isUnique && op == .eq) {
            new.flags.insert(.oneRow)
          } else {
            new.flags.insert(.uniqueWanted)
          }
        }
        if term.column != column { new.flags.insert(.transitive) }
      } else if op.contains(.isNull) {
        new.flags.insert(.columnNull)
      } else if !op.intersection([.gt, .ge]).isEmpty {
        new.flags.formUnion([.columnRange, .bottomLimit])
        new.bottomCount = 1
        lower = term
        if term.flags.contains(.likeOptimized) {
          // LIKE bounds come in pairs: the upper bound is the next term.
          let partner = TermReference(clause: reference.clause, index: reference.index + 1)
          new.terms.append(partner)
          new.flags.insert(.topLimit)
          new.topCount = 1
          upper = partner.term
        }
      } else {
        new.flags.formUnion([.columnRange, .topLimit])
        new.topCount = 1
        upper = term
        if new.flags.contains(.bottomLimit) { lower = new.terms[new.terms.count - 2].term }
      }

      if new.flags.contains(.columnRange) {
        rangeScanEstimate(lower: lower, upper: upper)
      } else {
        new.equalities += 1
        new.outputRows += probe.rowEstimates[new.equalities] - probe.rowEstimates[new.equalities - 1]
        // Without statistics, `x IS NULL` matches twice as many rows as `x = ?`.
        if op.contains(.isNull) { new.outputRows += 10 }
      }

      // The cost of the index rows visited, plus the table lookups of a non-covering index.
      let indexCost = new.outputRows + 1 + (15 * probe.entrySize) / statistics.rowSize
      new.runCost = LogEst.add(logSize, indexCost)
      if new.flags.intersection([.indexOnly, .rowid]).isEmpty {
        new.runCost = LogEst.add(new.runCost, new.outputRows + 16)
      }
      let unadjusted = new.outputRows
      new.runCost += inMultiplier + inCount
      new.outputRows += inMultiplier + inCount
      outputAdjust(&new, tableSize: size)
      insert(new)
      new.outputRows = new.flags.contains(.columnRange) ? saved.outputRows : unadjusted

      if !new.flags.contains(.topLimit) && new.equalities < probe.columns.count
        && (new.equalities < probe.keyCount || !probe.isPrimaryKey)
      {
        addBtreeIndex(probe, inMultiplier: inMultiplier + inCount)
      }
      new.outputRows = saved.outputRows
    }
    new = saved
  }

  /// Whether column `position` of the index cannot hold NULL (`indexColumnNotNull`): a column
  /// declared NOT NULL, or the rowid that ends every entry. The rowid alias column, which the
  /// index holds as a column, counts as its declaration says (never NOT NULL in Tandem's DDL),
  /// so an `IS NULL` reaching it through an equivalence (`x IS y AND x IS NULL`) is a key.
  private func columnIsNotNull(_ probe: IndexProbe, _ position: Int) -> Bool {
    let column = probe.columns[position]
    return column == -1 || table.notNull[column]
  }

  /// `whereRangeScanEst` without statistics: each bound keeps a quarter of the rows (an
  /// `IS NOT NULL` bound half), a pair another quarter.
  private mutating func rangeScanEstimate(lower: WhereTerm?, upper: WhereTerm?) {
    var rows = new.outputRows
    func adjusted(_ term: WhereTerm?, _ estimate: LogEst) -> LogEst {
      guard let term, !term.flags.contains(.vnull) else { return estimate }
      return estimate - 20
    }
    var estimate = adjusted(lower, rows)
    estimate = adjusted(upper, estimate)
    if lower != nil && upper != nil { estimate -= 20 }
    rows -= (lower != nil ? 1 : 0) + (upper != nil ? 1 : 0)
    if estimate < 10 { estimate = 10 }
    if estimate < rows { rows = estimate }
    new.outputRows = rows
  }

  /// `whereLoopOutputAdjust`: each term the loop does not use keeps 15/16 of the rows, and an
  /// unused `x = value` caps the output at a quarter of the table.
  private func outputAdjust(_ loop: inout WhereLoop, tableSize: LogEst) {
    var reduce: LogEst = 0
    for position in 0..<clause.baseCount {
      let term = clause[position]
      if !term.readsTable || term.flags.contains(.virtual) { continue }
      let used = loop.terms.contains { reference in
        (reference.clause === clause && reference.index == position) || reference.term.parent == position
      }
      if used { continue }
      loop.flags.insert(.selfCulling)
      loop.outputRows -= 1
      if !term.op.intersection([.eq, .is]).isEmpty {
        let k: LogEst
        if let right = term.right, let value = clause.context.integerValue(right), (-1...1).contains(value) {
          k = 10
        } else {
          k = 20
        }
        if reduce < k { reduce = k }
      }
    }
    if loop.outputRows > tableSize - reduce { loop.outputRows = tableSize - reduce }
  }

  // MARK: - whereLoopInsert

  private mutating func insert(_ template: WhereLoop) {
    var template = template
    adjustCost(&template)
    if orSet != nil {
      if !template.terms.isEmpty { insertOrCost(OrCost(runCost: template.runCost, outputRows: template.outputRows)) }
      return
    }
    guard let slot = findLesser(from: 0, template) else { return }
    if slot == loops.count {
      loops.append(template)
      return
    }
    // Drop every later loop the template also beats, then overwrite this one.
    var next = slot + 1
    while next < loops.count, let beaten = findLesser(from: next, template) {
      if beaten == loops.count { break }
      loops.remove(at: beaten)
      next = beaten
    }
    loops[slot] = template
  }

  /// `whereLoopFindLesser`: the position of a loop the template replaces, `loops.count` to
  /// add it, or `nil` when an existing loop is at least as good.
  private func findLesser(from start: Int, _ template: WhereLoop) -> Int? {
    var position = start
    while position < loops.count {
      let loop = loops[position]
      if loop.sortIndex != template.sortIndex {
        position += 1
        continue
      }
      // A loop by an index with an equality is better than an automatic index.
      if loop.flags.contains(.automaticIndex) && template.flags.isSuperset(of: [.indexed, .columnEq]) {
        return position
      }
      if loop.setupCost <= template.setupCost && loop.runCost <= template.runCost
        && loop.outputRows <= template.outputRows
      {
        return nil
      }
      if loop.runCost >= template.runCost && loop.outputRows >= template.outputRows { return position }
      position += 1
    }
    return loops.count
  }

  /// `whereLoopAdjustCost`: a loop that uses a proper subset of another's terms must not cost
  /// more than it, nor less than one that uses more.
  private func adjustCost(_ template: inout WhereLoop) {
    guard template.flags.contains(.indexed) else { return }
    for loop in loops where loop.flags.contains(.indexed) {
      if Self.isCheaperProperSubset(loop, template) {
        template.runCost = min(loop.runCost, template.runCost)
        template.outputRows = min(loop.outputRows - 1, template.outputRows)
      } else if Self.isCheaperProperSubset(template, loop) {
        template.runCost = max(loop.runCost, template.runCost)
        template.outputRows = max(loop.outputRows + 1, template.outputRows)
      }
    }
  }

  /// `whereLoopCheaperProperSubset`.
  private static func isCheaperProperSubset(_ x: WhereLoop, _ y: WhereLoop) -> Bool {
    if x.terms.count >= y.terms.count { return false }
    if x.runCost > y.runCost && x.outputRows > y.outputRows { return false }
    for term in x.terms where !y.terms.contains(term) { return false }
    if x.flags.contains(.indexOnly) && !y.flags.contains(.indexOnly) { return false }
    return true
  }

  /// `whereOrInsert` for a table without prerequisites: keeps the cheapest branch costs.
  private mutating func insertOrCost(_ cost: OrCost) {
    guard var set = orSet else { return }
    defer { orSet = set }
    for position in set.indices {
      if cost.runCost <= set[position].runCost {
        set[position].runCost = cost.runCost
        if set[position].outputRows > cost.outputRows { set[position].outputRows = cost.outputRows }
        return
      }
      if set[position].runCost <= cost.runCost { return }
    }
    if set.count < 3 {
      set.append(cost)
      return
    }
    var cheapest = 0
    for position in 1..<set.count where set[cheapest].runCost > set[position].runCost { cheapest = position }
    if set[cheapest].runCost <= cost.runCost { return }
    set[cheapest].runCost = cost.runCost
    if set[cheapest].outputRows > cost.outputRows { set[cheapest].outputRows = cost.outputRows }
  }

  // MARK: - whereLoopAddOr

  private mutating func addOr() {
    for position in clause.terms.indices {
      let term = clause[position]
      guard term.op.contains(.or), let info = term.orInfo, info.isIndexable else { continue }
      var total: [OrCost] = []
      var first = true
      for branchIndex in info.clause.terms.indices {
        let branch = info.clause[branchIndex]
        let branchClause: WhereClause
        if branch.op.contains(.and), let conjuncts = branch.andClause {
          branchClause = conjuncts
        } else if branch.column != nil {
          branchClause = WhereClause(single: branch, context: clause.context, outer: clause)
        } else {
          continue
        }
        var sub = WhereLoopBuilder(clause: branchClause, request: request, mainClause: mainClause)
        sub.loops = loops
        sub.orSet = []
        sub.addBtree()
        if branchClause.hasOr { sub.addOr() }
        let costs = sub.orSet ?? []
        if costs.isEmpty {
          total = []
          break
        }
        if first {
          total = costs
          first = false
        } else {
          let previous = total
          var combined = WhereLoopBuilder(clause: clause, request: request)
          combined.orSet = []
          for a in previous {
            for b in costs {
              combined.insertOrCost(
                OrCost(runCost: LogEst.add(a.runCost, b.runCost), outputRows: LogEst.add(a.outputRows, b.outputRows)))
            }
          }
          total = combined.orSet ?? []
        }
      }
      for cost in total {
        var loop = WhereLoop()
        loop.flags = .multiOr
        loop.terms = [TermReference(clause: clause, index: position)]
        // The OR costs at least a little more than its most expensive branch.
        loop.runCost = cost.runCost + 1
        loop.outputRows = cost.outputRows
        insert(loop)
      }
    }
  }

  // MARK: - whereShortCut

  /// The loop SQLite picks without weighing alternatives, for a statement whose WHERE pins the
  /// rowid, or every column of a unique index, to values: `nil` when there is none (or the FROM
  /// clause says NOT INDEXED).
  func shortCut() -> WhereLoop? {
    if request.notIndexed { return nil }
    if let found = clause.scan(column: -1, ops: [.eq, .is]).first(where: { !$0.clause[$0.index].valueReadsTable }) {
      var loop = WhereLoop()
      loop.flags = [.columnEq, .rowid, .oneRow]
      if found.clause[found.index].column != -1 { loop.flags.insert(.transitive) }
      loop.terms = [TermReference(clause: found.clause, index: found.index)]
      loop.equalities = 1
      loop.runCost = 33
      loop.outputRows = 1
      return loop
    }
    for position in table.indexes.indices {
      let probe = IndexProbe.index(position, of: table, statistics: statistics)
      guard probe.isUnique, probe.keyCount <= 3 else { continue }
      let ops: TermOperator = probe.isUniqueNotNull ? [.eq, .is] : .eq
      var references: [TermReference] = []
      var transitive = false
      for column in 0..<probe.keyCount {
        let target = probe.column(at: column, in: table)
        let index: (Affinity, Collation)? = target >= 0 ? (table.affinities[target], .binary) : nil
        guard
          let found = clause.scan(column: target, ops: ops, index: index)
            .first(where: { !$0.clause[$0.index].valueReadsTable })
        else { break }
        if found.clause[found.index].column != target { transitive = true }
        references.append(TermReference(clause: found.clause, index: found.index))
      }
      guard references.count == probe.keyCount else { continue }
      var loop = WhereLoop()
      loop.flags = [.columnEq, .oneRow, .indexed]
      if request.columnsUsed & probe.columnsNotIndexed == 0 { loop.flags.insert(.indexOnly) }
      if transitive { loop.flags.insert(.transitive) }
      loop.index = position
      loop.terms = references
      loop.equalities = references.count
      loop.runCost = 39
      loop.outputRows = 1
      return loop
    }
    return nil
  }
}
