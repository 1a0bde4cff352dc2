/// SQLite's "outer join strength reduction": a LEFT JOIN whose right table's row of NULLs the
/// WHERE clause can never accept is planned as an inner join, which SQLite may then reorder.
///
/// SQLite 3.40 decides it with `sqlite3ExprImpliesNonNullRow` before it plans (`sqlite3Select`),
/// over the WHERE clause with every ON clause appended in join order (a LEFT JOIN's own ON terms
/// never count). The test is syntactic, not logical: `b.z = 1`, `NOT b.z`, `b.z + 1` or a bare
/// `b.z` convert the join; `b.z IS 1`, `b.z IN (1, 2)`, `b.z LIKE 'a'`, `abs(b.z)`, an OR, a CASE
/// or a subquery do not, nor does `IS NOT NULL` as the last term of an AND.
///
/// ```swift
/// // SELECT … FROM a LEFT JOIN b ON b.w = a.x WHERE b.z: SQLite plans `a JOIN b`.
/// select.leftJoinBecomesInner(at: 0) { node in node == .qualifiedColumn(source: "b", name: "z") }  // true
/// ```
extension SelectStatement {
  /// Whether SQLite plans the LEFT JOIN `joins[index]` as an inner join. `readsJoinedTable` says
  /// whether a column or rowid reference (qualified or not) reads that join's table.
  package func leftJoinBecomesInner(at index: Int, readsJoinedTable: (SQLExpression) -> Bool) -> Bool {
    guard joins.indices.contains(index), joins[index].kind == .left else { return false }
    // `sqlite3ProcessJoin` appends each ON clause to the WHERE clause (`W AND on1 AND on2 …`,
    // built left-deep); a LEFT JOIN's terms are marked as its own, and the test skips them.
    var chain: [SQLExpression?] = filter.map { [$0] } ?? []
    for join in joins {
      guard let condition = join.condition else { continue }
      chain.append(join.kind == .left ? nil : condition)
    }
    return withoutActuallyEscaping(readsJoinedTable) { reads in
      let test = NonNullRowTest(readsTable: reads)
      // The chain's first clause is tested as a whole expression; each later one is the right
      // operand of an AND the test has split, and is split in turn (without the first's
      // `IS NOT NULL` unwrapping).
      for (position, term) in chain.enumerated() {
        guard let term else { continue }
        if position == 0 ? test.implied(by: term) : test.impliedAsRightOperand(term) { return true }
      }
      return false
    }
  }
}

extension SelectStatement {
  /// Whether any expression of the select, its compound members or its subqueries is an
  /// `IS [NOT] NULL` test. SQLite answers such a test of a NOT NULL column up front, unless a
  /// LEFT JOIN can make the column NULL: writing a LEFT JOIN as the inner join SQLite plans it as
  /// would change that answer where an aggregate over no row reads its columns as NULL.
  package var testsForNull: Bool {
    func tests(_ expression: SQLExpression) -> Bool {
      if case .isNull = expression { return true }
      return expression.children.contains(where: tests)
    }
    return expressions.contains { tests($0) || $0.directSubqueries.contains(where: \.testsForNull) }
      || compound.contains { $0.select.testsForNull }
  }
}

/// `sqlite3ExprImpliesNonNullRow` and its walker (`impliesNotNullRow`) over the query model.
private struct NonNullRowTest {
  let readsTable: (SQLExpression) -> Bool

  /// The function itself: `IS NOT NULL` at the top of the expression tests its operand; an AND
  /// at the top is implied by any operand but the last, which is walked.
  func implied(by expression: SQLExpression) -> Bool {
    let term = expression.withoutCollate
    if case .isNull(let operand, negated: true) = term { return walk(operand) }
    return impliedAsRightOperand(term)
  }

  /// The function's loop reaching `expression` as the right operand of an AND it split: an AND
  /// is split again (each left operand tested as a whole expression), the rest walked.
  func impliedAsRightOperand(_ expression: SQLExpression) -> Bool {
    var term = expression
    while case .binary(.and, let lhs, let rhs) = term, !term.foldsToZero {
      if implied(by: lhs) { return true }
      term = rhs
    }
    return walk(term)
  }

  /// The walker: whether the expression reads the table where a NULL makes it NULL or false.
  func walk(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .column, .rowid, .qualifiedColumn, .qualifiedRowid:
      return readsTable(expression)
    case .literal, .parameter, .resultColumn, .excluded:
      return false
    // Pruned: IS, IS NOT, IS NULL, IS NOT NULL, OR, CASE, IN, function calls (LIKE and GLOB are
    // calls too); a subquery is not walked into.
    case .isNull, .caseWhen, .function, .aggregate, .like, .glob, .subquery, .exists, .inSubquery:
      return false
    case .binary(.or, _, _), .binary(.is, _, _), .binary(.isNot, _, _):
      return false
    case .binary(.and, let lhs, let rhs):
      // An AND inside another expression needs both operands (the parser's folded 0 has none).
      return !expression.foldsToZero && walk(lhs) && walk(rhs)
    case .binary(_, let lhs, let rhs):
      return walk(lhs) || walk(rhs)
    case .unary(_, let operand), .cast(let operand, _), .collate(let operand, _):
      return walk(operand)
    case .between(let operand, _, _, _):
      return walk(operand)
    case .inList(let operand, let list, let negated):
      // `x IN (c)` was parsed as `x = +c`; `x IN ()` as 0; any other list is pruned.
      return SQLExpression.singleValueIn(operand, list, negated: negated).map(walk) ?? false
    }
  }
}
