import TandemCore

/// Picks the cheapest loop for a one-table statement, weighing whether it delivers the ORDER BY
/// (or GROUP BY) order or needs a sort (`wherePathSolver`, `wherePathSatisfiesOrderBy` and
/// `whereSortingCost` in `where.c`, for a FROM clause of one table).
struct WherePathSolver {
  /// One ORDER BY term as the planner sees it.
  struct OrderTerm: Sendable {
    let expression: SQLExpression
    let descending: Bool
    /// ASC NULLS LAST or DESC NULLS FIRST (SQLite's `KEYINFO_ORDER_BIGNULL`).
    let nullsReversed: Bool
  }

  /// How the ORDER BY is used (SQLite's `wctrlFlags`).
  enum Purpose: Sendable {
    /// An ORDER BY: terms must be met left to right, in one direction.
    case orderBy
    /// A GROUP BY: equal rows must only come together, in any order of the terms.
    case groupBy
    /// The min/max optimization's single term.
    case minMax
    /// The result columns of a `SELECT DISTINCT` SQLite rewrote as a GROUP BY (its
    /// `WHERE_DISTINCTBY`): terms met in any order, as for a GROUP BY, but in one direction.
    case distinctBy
  }

  /// The chosen loop and what it does for the order.
  struct Solution {
    let loop: WhereLoop
    /// How many leading ORDER BY terms the loop delivers (SQLite's `nOBSat`).
    let orderSatisfied: Int
    /// Whether the loop runs backwards to deliver the order.
    let reversed: Bool
    /// The estimated output rows.
    let outputRows: LogEst
  }

  let clause: WhereClause
  let loops: [WhereLoop]
  let orderBy: [OrderTerm]
  let purpose: Purpose
  /// Whether the statement wants DISTINCT results (a cheaper sort estimate).
  let wantsDistinct: Bool

  /// The cheapest loop: first by cost alone, then, with an ORDER BY, by cost including the sort
  /// the loop leaves to do, as SQLite's two calls of the solver do.
  func solve() -> Solution? {
    guard let first = pass(sortRows: 0) else { return nil }
    guard !orderBy.isEmpty else {
      return Solution(loop: first.loop, orderSatisfied: 0, reversed: false, outputRows: first.rows)
    }
    guard let second = pass(sortRows: first.rows + 1) else { return nil }
    return Solution(
      loop: second.loop, orderSatisfied: max(second.ordered, 0), reversed: second.reversed, outputRows: second.rows)
  }

  private struct Path {
    var loop: WhereLoop
    var rows: LogEst
    var cost: LogEst
    var unsortedCost: LogEst
    var ordered: Int
    var reversed: Bool
  }

  /// The loops as SQLite leaves them after weighing the order: a loop that delivers an
  /// `ASC NULLS LAST` (or `DESC NULLS FIRST`) term from an index column is marked to walk its
  /// NULL and non-NULL entries in two passes.
  private func marked(_ loop: WhereLoop, bigNull: Bool) -> WhereLoop {
    guard bigNull else { return loop }
    var loop = loop
    loop.flags.insert(.bigNullSort)
    return loop
  }

  /// One run of `wherePathSolver` with `nRowEst` = `sortRows` (0: ignore the ORDER BY).
  private func pass(sortRows: LogEst) -> Path? {
    let orderCount = sortRows == 0 ? 0 : orderBy.count
    var sortCosts = [LogEst](repeating: 0, count: orderCount)
    var best: Path?
    var worstCost: LogEst = 0
    var worstUnsorted: LogEst = 0
    // An automatic index is never the cheapest way to read one table (see WhereLoopBuilder).
    for loop in loops where !loop.flags.contains(.automaticIndex) {
      var unsorted = LogEst.add(loop.setupCost, loop.runCost)
      unsorted = LogEst.add(unsorted, 0)
      let rows = loop.outputRows
      var ordered = 0
      var reversed = false
      var bigNull = false
      if orderCount > 0 {
        (ordered, reversed, bigNull) = satisfiedTerms(by: loop, purpose: purpose)
      }
      var cost: LogEst
      if ordered >= 0 && ordered < orderCount {
        if sortCosts[ordered] == 0 { sortCosts[ordered] = sortingCost(rows: sortRows, sorted: ordered) }
        // A small extra penalty for sorting, in favour of plans that need none.
        cost = LogEst.add(unsorted, sortCosts[ordered]) + 5
      } else {
        cost = unsorted
        unsorted -= 2
      }
      let candidate = Path(loop: marked(loop, bigNull: bigNull), rows: rows, cost: cost, unsortedCost: unsorted, ordered: ordered, reversed: reversed)
      if let current = best {
        let sameKind = (current.ordered < 0) == (ordered < 0)
        if sameKind {
          if current.cost < cost
            || (current.cost == cost
              && (current.rows < rows || (current.rows == rows && current.unsortedCost <= unsorted)))
          {
            continue
          }
        } else if cost > worstCost || (cost == worstCost && unsorted >= worstUnsorted) {
          continue
        }
      }
      best = candidate
      // SQLite notes the worst path of its (one-entry) list: its cost, and its row count where
      // it later compares unsorted costs.
      worstCost = candidate.cost
      worstUnsorted = candidate.rows
    }
    return best
  }

  /// `whereSortingCost`: sorting `rows` rows whose first `sorted` ORDER BY terms are in order.
  private func sortingCost(rows: LogEst, sorted: Int) -> LogEst {
    let scale = LogEst(count: (orderBy.count - sorted) * 100 / orderBy.count) - 66
    var cost = rows + scale + 16
    var counted = rows
    if wantsDistinct && counted > 10 { counted -= 10 }
    cost += LogEst.logarithm(counted)
    return cost
  }

  /// `wherePathSatisfiesOrderBy` for one loop: how many ORDER BY terms the loop delivers (-1:
  /// all the loop's own columns are in order but more remain), and whether it runs backwards.
  func satisfiedTerms(by loop: WhereLoop, purpose: Purpose) -> (count: Int, reversed: Bool, bigNull: Bool) {
    let context = clause.context
    let table = context.table
    let count = orderBy.count
    guard count < 64 else { return (0, false, false) }
    var satisfied = [Bool](repeating: false, count: count)
    var isOrderDistinct = true
    var reversed = false
    var bigNull = false
    let equalityOps: TermOperator = purpose == .minMax ? [.eq, .is, .isNull, .in] : [.eq, .is, .isNull]

    // ORDER BY columns pinned by `x = value` or `x IS NULL` are in order whatever the loop.
    for position in 0..<count {
      guard let column = context.column(orderBy[position].expression) else { continue }
      let found = clause.scan(column: column, ops: equalityOps).filter { !$0.clause[$0.index].valueReadsTable }
      let preferred = found.first { !$0.clause[$0.index].op.intersection([.eq, .is]).isEmpty } ?? found.first
      guard let reference = preferred else { continue }
      let term = reference.clause[reference.index]
      if term.op == .in {
        guard loop.terms.contains(TermReference(clause: reference.clause, index: reference.index)) else { continue }
      }
      if !term.op.intersection([.eq, .is]).isEmpty && column >= 0 {
        if context.collation(orderBy[position].expression) != context.collation(of: term) { continue }
      }
      satisfied[position] = true
    }

    if !loop.flags.contains(.oneRow) {
      let columns: [Int]
      let keyCount: Int
      // Whether each column's entries descend (`DESC`); the rowid always ascends.
      var descending: [Bool] = []
      if loop.flags.contains(.rowid) {
        columns = [-1]
        keyCount = 0
      } else if let index = loop.index {
        let definition = table.indexes[index]
        columns = definition.columns + [-1]
        descending = definition.descending
        keyCount = definition.columns.count
        isOrderDistinct = definition.isUnique
      } else {
        return (0, false, false)
      }
      var directionSet = false
      var distinctColumns = false
      for position in columns.indices {
        if position < loop.equalities {
          let op = loop.terms[position].term.op
          if !op.intersection(equalityOps).isEmpty {
            if !op.intersection([.isNull, .is]).isEmpty { isOrderDistinct = false }
            continue
          }
        }
        var column = columns[position]
        if column == table.rowidColumn { column = -1 }
        if isOrderDistinct && column >= 0 && position >= loop.equalities && !table.notNull[column] {
          isOrderDistinct = false
        }
        var match: Int?
        var once = true
        // An IN term that also serves a later column of the index: SQLite looks for no ORDER BY
        // term this column delivers.
        if position < loop.equalities, loop.terms[position].term.op.contains(.in),
          loop.terms[(position + 1)..<loop.equalities].contains(loop.terms[position])
        {
          once = false
        }
        for candidate in 0..<count where once && !satisfied[candidate] {
          if purpose == .orderBy || purpose == .minMax { once = false }
          guard context.column(orderBy[candidate].expression) == column else { continue }
          if column != -1 && context.collation(orderBy[candidate].expression) != .binary { continue }
          match = candidate
          break
        }
        if let candidate = match, purpose != .groupBy {
          // The loop runs backwards where the term's direction is not the column's own.
          let columnDescends = position < descending.count && descending[position]
          let runsBackwards = orderBy[candidate].descending != columnDescends
          if directionSet {
            if reversed != runsBackwards { match = nil }
          } else {
            reversed = runsBackwards
            directionSet = true
          }
        }
        if let candidate = match, orderBy[candidate].nullsReversed {
          if position == loop.equalities { bigNull = true } else { match = nil }
        }
        if let candidate = match {
          if column == -1 { distinctColumns = true }
          satisfied[candidate] = true
        } else {
          if position == 0 || position < keyCount { isOrderDistinct = false }
          break
        }
      }
      if distinctColumns { isOrderDistinct = true }
    }

    if isOrderDistinct {
      // Every row of the loop has distinct ORDER BY columns: the remaining terms, which read
      // only this table (or nothing), are in order too.
      for position in 0..<count where !satisfied[position] { satisfied[position] = true }
    }
    if satisfied.allSatisfy({ $0 }) { return (count, reversed, bigNull) }
    if !isOrderDistinct {
      for position in stride(from: count - 1, to: 0, by: -1) where satisfied[0..<position].allSatisfy({ $0 }) {
        return (position, reversed, bigNull)
      }
      return (0, reversed, bigNull)
    }
    return (-1, reversed, bigNull)
  }
}
