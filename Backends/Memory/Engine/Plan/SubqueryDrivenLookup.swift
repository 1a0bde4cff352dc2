import TandemCore

/// `x IN (SELECT …)` as SQLite's planner uses it on one table: where `x` is the rowid or the
/// first column of an index, the subquery's rows drive the loop (`SEARCH t USING INTEGER PRIMARY
/// KEY (rowid=?)`), so SQLite runs the subquery before reading any row — even over an empty
/// table. The memory engine tests the term on each row instead, and reads the subquery only once a
/// row reaches it: the answers agree, but a subquery that fails (a `sum()` that overflows) fails
/// the statement in SQLite alone. Such a statement is refused, and so is a seek by a value that
/// can fail: `x = (SELECT …)`, `x IS …` or a range bound (``refuseFallibleBounds(_:searchable:)``).
///
/// A term inside an OR counts too: SQLite may plan `a IN (…) OR b = 1` as a `MULTI-INDEX OR`, one
/// lookup per branch, each computing its values before it reads a row (``seekTerms(of:)``).
enum SubqueryDrivenLookup {
  /// The terms of `filter` SQLite's plan may seek by: its top-level AND terms and, inside each
  /// one that is an OR, the AND terms of every branch (for the `MULTI-INDEX OR` plan), at any
  /// depth.
  ///
  /// ```swift
  /// // a IN (SELECT …) OR (b = 1 AND c > 2), AND d = 3  →  [a IN (SELECT …), b = 1, c > 2, d = 3]
  /// ```
  static func seekTerms(of filter: SQLExpression?) -> [SQLExpression] {
    func terms(_ expression: SQLExpression) -> [SQLExpression] {
      expression.conjuncts.flatMap { term -> [SQLExpression] in
        guard case .binary(.or, let lhs, let rhs) = term else { return [term] }
        return terms(lhs) + terms(rhs)
      }
    }
    return filter.map(terms) ?? []
  }

  /// ``refuseFallible(_:definition:column:)`` for an UPDATE's or DELETE's filter, whose names
  /// are the table's own, unqualified.
  static func refuseFallible(_ filter: SQLExpression?, singleTable definition: TableDefinition) throws {
    let column = { (operand: SQLExpression) -> Int? in
      switch operand {
      case .column(let name): definition.columnIndex(name) ?? (NameKey(name).isRowidName ? -1 : nil)
      case .rowid: -1
      default: nil
      }
    }
    try refuseFallible(filter, definition: definition, column: column)
    let equivalence = ColumnEquivalence(filter, definition: definition, column: column)
    try refuseFallibleBounds(seekTerms(of: filter)) { operand in
      column(operand).map { equivalence.isSearchable($0, in: definition) } ?? false
    }
    try refuseReorderedFallibleTerms(filter, definition: definition, column: column)
  }

  /// The classes of columns of one table that a WHERE clause's top-level `a = b` (or `a IS b`)
  /// terms make equal, as SQLite's planner follows them (`termIsEquivalence`, then
  /// `whereScanNext`): looking for a term to seek a column by, it takes a term on any column of
  /// its class. So `y = d AND y IN (SELECT …)`, with `d` the INTEGER PRIMARY KEY, is planned as
  /// `SEARCH t USING INTEGER PRIMARY KEY (rowid=?)` over the subquery's rows.
  ///
  /// SQLite counts a term only where both sides are columns whose affinities are the same or both
  /// numeric; it also compares their collations, which this class does not, so it may hold more
  /// columns than SQLite's (for a refusal, the safe side).
  ///
  /// ```swift
  /// // WHERE y = d AND y IN (SELECT sum(n) FROM u), d the INTEGER PRIMARY KEY
  /// equivalence.isSearchable(y, in: definition)  // true: y = d, and d is the rowid
  /// ```
  struct ColumnEquivalence {
    /// Each column's representative (union-find); a column absent is alone in its class.
    private var parent: [Int: Int] = [:]

    /// The classes `filter` makes, with `column` resolving an operand to its position (`-1`
    /// for the rowid) or `nil`.
    init(_ filter: SQLExpression?, definition: TableDefinition, column: (SQLExpression) -> Int?) {
      func affinity(_ position: Int) -> Affinity {
        position < 0 || position == definition.rowidColumn ? .integer : definition.affinities[position]
      }
      func isNumeric(_ affinity: Affinity) -> Bool { [.integer, .real, .numeric].contains(affinity) }
      for term in filter?.conjuncts ?? [] {
        guard case .binary(let op, let lhs, let rhs) = term, op == .equal || op == .is,
          let a = column(lhs.withoutCollate), let b = column(rhs.withoutCollate)
        else { continue }
        let (affinityA, affinityB) = (affinity(a), affinity(b))
        guard affinityA == affinityB || (isNumeric(affinityA) && isNumeric(affinityB)) else { continue }
        let (rootA, rootB) = (root(of: a), root(of: b))
        if rootA != rootB { parent[rootA] = rootB }
      }
    }

    private func root(of position: Int) -> Int {
      var current = position
      while let next = parent[current], next != current { current = next }
      return current
    }

    /// Whether SQLite may seek the table by a term on `position`: it, or a column of its class,
    /// is the rowid or leads an index.
    func isSearchable(_ position: Int, in definition: TableDefinition) -> Bool {
      // Every other member of the class is a key of `parent`; its root is not.
      let classRoot = root(of: position)
      return definition.isSearchable(by: classRoot)
        || parent.keys.contains { root(of: $0) == classRoot && definition.isSearchable(by: $0) }
    }
  }

  /// Refuses a one-table statement whose WHERE terms SQLite may test in another order than this
  /// engine, where one holds a subquery computing `sum()`: when SQLite's loop reads an index, it
  /// tests first the terms that index covers (`codeOneLoopStart`'s first pass;
  /// `sqlite3ExprCoveredByIndex` does not look inside a subquery, so one counts as covered), then
  /// the others, each in WHERE order. Which index the plan reads, if any, is SQLite's choice: any
  /// index that moves such a term past another refuses. `column` resolves a name of the table to
  /// its position (`-1` for the rowid), `nil` for any other expression.
  ///
  /// ```sql
  /// -- k has an index: SQLite tests (SELECT max(…)), NULL, first, and the sum never runs
  /// DELETE FROM v WHERE x IN (SELECT sum(d) FROM t) AND (SELECT max(d) FROM t WHERE 0) AND k > '0'
  /// ```
  static func refuseReorderedFallibleTerms(
    _ filter: SQLExpression?, definition: TableDefinition, column: (SQLExpression) -> Int?
  ) throws {
    guard let terms = filter?.conjuncts, terms.count > 1, !definition.indexes.isEmpty else { return }
    let fallible = terms.map { $0.directSubqueries.contains(where: RelationalSelect.hasSum) }
    guard fallible.contains(true) else { return }
    for index in definition.indexes {
      func isCovered(_ expression: SQLExpression) -> Bool {
        if ExpressionCompiler.foldsToZero(expression) { return true }
        switch expression {
        case .column, .qualifiedColumn, .rowid, .qualifiedRowid:
          guard let position = column(expression) else { return true }
          return position == -1 || position == definition.rowidColumn || index.columns.contains(position)
        default:
          return expression.children.allSatisfy(isCovered)
        }
      }
      let covered = terms.map(isCovered)
      let order = terms.indices.filter { covered[$0] } + terms.indices.filter { !covered[$0] }
      for (a, b) in zip(order, order.dropFirst()) where a > b && (fallible[a] || fallible[b]) {
        throw EngineError.unsupported(
          "a subquery computing sum() in a WHERE term that SQLite may test before or after another, as the index "
            + "its plan reads decides (whether it runs, and fails, depends on that plan)")
      }
    }
  }

  /// Refuses the statement when a term of `terms` compares the rowid or an index's first column
  /// (`searchable`) with a value holding a subquery that can fail (a `sum()`): SQLite computes
  /// that value once before its loop when its plan seeks by it (`x = (SELECT …)`, `x IS …`, or a
  /// range bound, a BETWEEN's included), even over an empty table; the memory engine tests it
  /// row by row.
  ///
  /// ```sql
  /// UPDATE t SET a = 1 WHERE id IS (SELECT sum(n) FROM u)  -- fails in SQLite with no row in t
  /// ```
  static func refuseFallibleBounds(_ terms: [SQLExpression], searchable: (SQLExpression) -> Bool) throws {
    let seekable: [BinaryOperator] = [.equal, .is, .less, .lessOrEqual, .greater, .greaterOrEqual]
    for term in terms.flatMap(comparisons(of:)) {
      guard case .binary(let op, let lhs, let rhs) = term, seekable.contains(op) else { continue }
      for (column, value) in [(lhs, rhs), (rhs, lhs)]
      where value.directSubqueries.contains(where: RelationalSelect.hasSum) && searchable(column.withoutCollate) {
        throw EngineError.unsupported(
          "a comparison of an indexed column or the rowid with a subquery that can fail (SQLite computes it before "
            + "its loop when its plan seeks by it)")
      }
    }
  }

  /// A term as the comparisons a seek by it computes first: `x BETWEEN a AND b` gives the range
  /// bounds `x >= a` and `x <= b` (`exprAnalyze`'s virtual terms), and `x IN (a, b)` an
  /// equality with each value (SQLite computes the whole list before its loop).
  ///
  /// ```swift
  /// comparisons(of: x BETWEEN (SELECT sum(n) FROM u) AND y)  // [that term, x >= (SELECT …), x <= y]
  /// ```
  private static func comparisons(of term: SQLExpression) -> [SQLExpression] {
    switch term {
    case .between(let operand, let low, let high, negated: false):
      return [term, .binary(.greaterOrEqual, operand, low), .binary(.lessOrEqual, operand, high)]
    case .inList(let operand, let list, negated: false):
      return [term] + list.map { .binary(.equal, operand, $0) }
    default:
      return [term]
    }
  }

  /// Refuses the statement when a term of `filter` SQLite may seek by (``seekTerms(of:)``) is
  /// `x IN (SELECT …)` on a column SQLite can look up by — itself or through a column `filter`
  /// equates it with (``ColumnEquivalence``) — whose subquery computes `sum()` (`column` resolves
  /// `x` to a column position, or `-1` for the rowid).
  static func refuseFallible(
    _ filter: SQLExpression?, definition: TableDefinition, column: (SQLExpression) -> Int?
  ) throws {
    let equivalence = ColumnEquivalence(filter, definition: definition, column: column)
    for term in seekTerms(of: filter) {
      guard case .inSubquery(let operand, let query, negated: false) = term, let position = column(operand),
        RelationalSelect.hasSum(query)
      else { continue }
      if equivalence.isSearchable(position, in: definition) {
        throw EngineError.unsupported(
          "x IN (SELECT … sum() …) on the rowid or an indexed column (SQLite runs the subquery before reading "
            + "any row, so whether its sum() fails does not depend on the rows)")
      }
    }
  }
}
