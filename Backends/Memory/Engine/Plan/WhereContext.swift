import TandemCore

/// What the planner knows about the expressions of one statement's table: which are column
/// references, their affinities and collations, and the values bound to LIKE/GLOB patterns.
///
/// It answers the questions SQLite's planner asks of its expression trees (`TK_COLUMN`,
/// `sqlite3ExprAffinity`, `sqlite3ExprCompareCollSeq`, `sqlite3ExprCanBeNull`…) for the query
/// model's ``SQLExpression``s as the SQLite backend renders them: every literal and parameter
/// is a bound `?`.
final class WhereContext {
  let table: TableDefinition
  /// The values of bound placeholders the planner may read (SQLite reads a LIKE or GLOB
  /// pattern's bound value, and prepares the statement again when it changes).
  let patternValue: (SQLExpression) -> SqliteValue?
  /// Compiles expressions only to read their static properties.
  private let compiler: ExpressionCompiler

  init(table: TableDefinition, patternValue: @escaping (SQLExpression) -> SqliteValue? = { _ in nil }) {
    self.table = table
    self.patternValue = patternValue
    compiler = ExpressionCompiler(table: table)
    compiler.readsFixedColumns = true
  }

  /// The column an expression refers to, COLLATE skipped: a column position, -1 for the
  /// rowid (or its alias), `nil` when it is not a column reference. A ``FixedColumn`` is one
  /// (SQLite's `TK_COLUMN` with `EP_FixedCol`).
  func column(_ expression: SQLExpression) -> Int? {
    let inner = expression.withoutCollate
    if let fixed = FixedColumn(inner) { return column(fixed.column) }
    switch inner {
    case .rowid:
      return -1
    case .column(let name):
      if let index = table.columnIndex(name) { return index == table.rowidColumn ? -1 : index }
      return NameKey(name).isRowidName ? -1 : nil
    default:
      return nil
    }
  }

  /// The column on the right of a term that SQLite may commute or follow as an equivalence
  /// (`whereRightSubexprIsColumn`): a column reference that is not fixed.
  func rightColumn(_ expression: SQLExpression) -> Int? {
    FixedColumn(expression.withoutCollate) == nil ? column(expression) : nil
  }

  /// The column a term's right side is as written (`pRight->op == TK_COLUMN`): a column
  /// reference, a fixed one included, with no COLLATE around it. `whereScanNext` skips a term
  /// whose right side is the very column it looks for (`x = x`, or a copy commuted back).
  func rightSideColumn(_ expression: SQLExpression) -> Int? {
    if case .collate = expression { return nil }
    return column(expression)
  }

  /// Whether the expression reads the table (SQLite's prerequisite mask is not empty). Parts
  /// SQLite's parser folds to a constant, and fixed columns, are not read.
  func readsTable(_ expression: SQLExpression) -> Bool {
    if ExpressionCompiler.foldsToZero(expression) || FixedColumn(expression) != nil { return false }
    switch expression {
    case .column, .rowid: return true
    case .excluded, .literal, .parameter: return false
    // A subquery may read the row (a correlated one does); SQLite then codes the term inside
    // the loop, never as a constant before it.
    case .subquery, .exists, .inSubquery, .qualifiedColumn, .qualifiedRowid: return true
    case .inList(let operand, let list, _):
      if list.isEmpty { return false }
      return readsTable(operand) || list.contains(where: readsTable)
    case .isNull(let operand, _):
      // SQLite's resolver makes `x IS [NOT] NULL` a constant when x cannot be NULL.
      return canBeNull(operand) && readsTable(operand)
    default:
      return expression.children.contains(where: readsTable)
    }
  }

  /// `sqlite3ExprCoveredByIndex`: whether the expression reads only the index's columns (the
  /// rowid is in every index). Parts SQLite's parser or resolver folded to a constant read none.
  func isCovered(_ expression: SQLExpression, by probe: IndexProbe) -> Bool {
    if let column = column(expression) { return column == -1 || probe.columns.contains(column) }
    if ExpressionCompiler.foldsToZero(expression) { return true }
    switch expression {
    case .column, .rowid, .subquery, .exists, .inSubquery, .qualifiedColumn, .qualifiedRowid: return false
    case .inList(_, let list, _) where list.isEmpty: return true
    case .isNull(let operand, _) where !canBeNull(operand): return true
    default: return expression.children.allSatisfy { isCovered($0, by: probe) }
    }
  }

  /// The expression's affinity (`sqlite3ExprAffinity`).
  func affinity(_ expression: SQLExpression) -> Affinity {
    (try? compiler.compile(expression).affinity) ?? .none
  }

  /// The collation of `lhs <op> rhs` (`sqlite3BinaryCompareCollSeq`).
  func comparisonCollation(_ lhs: SQLExpression, _ rhs: SQLExpression) -> Collation {
    guard let left = try? compiler.compile(lhs), let right = try? compiler.compile(rhs) else { return .binary }
    return ExpressionCompiler.comparisonCollation(left, right)
  }

  /// The collation of a term's comparison, from its operands in their original order.
  func collation(of term: WhereTerm) -> Collation {
    guard let left = term.left else { return .binary }
    guard let right = term.right else { return collation(left) }
    return term.isCommuted ? comparisonCollation(right, left) : comparisonCollation(left, right)
  }

  /// The collation an expression carries (`sqlite3ExprNNCollSeq`).
  func collation(_ expression: SQLExpression) -> Collation {
    (try? compiler.compile(expression).collation) ?? .binary
  }

  /// `sqlite3CompareAffinity(expression, affinity)`: the affinity a comparison of the
  /// expression with a value of `affinity` uses.
  func compareAffinity(_ expression: SQLExpression, _ other: Affinity) -> Affinity {
    let own = affinity(expression)
    if own != .none && other != .none { return own.isNumeric || other.isNumeric ? .numeric : .blob }
    return own == .none ? other : own
  }

  /// `sqlite3IndexAffinityOk`: whether an index column of `indexAffinity` can serve the
  /// comparison term.
  func indexAffinityOk(_ term: WhereTerm, _ indexAffinity: Affinity) -> Bool {
    guard let left = term.left else { return true }
    var comparison = affinity(left)
    if let right = term.right {
      comparison = compareAffinity(right, comparison)
    } else if comparison == .none {
      comparison = .blob
    }
    switch comparison {
    case .none, .blob: return true
    case .text: return indexAffinity == .text
    default: return indexAffinity.isNumeric
    }
  }

  /// `sqlite3ExprCanBeNull`: false only for a NOT NULL column, the rowid, or a constant SQLite's
  /// parser folded (every literal is a bound `?`, which may be NULL).
  func canBeNull(_ expression: SQLExpression) -> Bool {
    var inner = expression
    while case .unary(let op, let operand) = inner, op == .plus || op == .negate { inner = operand }
    if ExpressionCompiler.foldsToZero(inner) { return false }
    if case .inList(_, let list, _) = inner, list.isEmpty { return false }
    if let fixed = FixedColumn(inner) { return canBeNull(fixed.column) }
    switch inner {
    case .rowid: return false
    case .column(let name):
      guard let index = table.columnIndex(name) else { return !NameKey(name).isRowidName }
      return index != table.rowidColumn && !table.notNull[index]
    default: return true
    }
  }

  /// `sqlite3ExprIsInteger`: the integer a folded constant stands for (a bound `?` is none).
  func integerValue(_ expression: SQLExpression) -> Int? {
    switch expression {
    case .unary(.plus, let inner): return integerValue(inner)
    case .unary(.negate, let inner): return integerValue(inner).map { -$0 }
    case .inList(_, let list, let negated) where list.isEmpty: return negated ? 1 : 0
    default: return ExpressionCompiler.foldsToZero(expression) ? 0 : nil
    }
  }

  /// `sqlite3ExprNeedsNoAffinityChange` for the value side of a term: whether applying
  /// `affinity` to it never changes it. True for BLOB affinity, for the rowid under a numeric
  /// affinity, and for a string constant of the LIKE optimization under TEXT.
  func needsNoAffinityChange(_ term: WhereTerm, _ affinity: Affinity) -> Bool {
    if affinity == .blob || affinity == .none { return true }
    if let constant = term.rightConstant {
      if case .text = constant { return affinity == .text }
      return false
    }
    guard var inner = term.right else { return false }
    while case .unary(let op, let operand) = inner, op == .plus || op == .negate { inner = operand }
    if integerValue(inner) != nil { return affinity.isNumeric }
    if column(inner) == -1 { return affinity.isNumeric }
    return false
  }
}
