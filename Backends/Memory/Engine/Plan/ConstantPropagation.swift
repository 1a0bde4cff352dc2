import TandemCore

/// SQLite's WHERE-clause constant propagation (`propagateConstants` in select.c), which runs on
/// a SELECT whose WHERE is an AND before the planner sees it.
///
/// Each top-level `column = constant` term (the constant without affinity, the comparison
/// BINARY) fixes the column: its other occurrences in the WHERE read the constant instead, with
/// the column's affinity applied (SQLite's `EP_FixedCol`). A fixed column reads no row, so a term
/// that only reads fixed columns is tested once before the loop, and a column compared with a
/// fixed one can be searched:
///
/// ```sql
/// SELECT * FROM t WHERE rowid < a AND a = 'k'
/// -- plans as: SEARCH t USING INTEGER PRIMARY KEY (rowid<?)   ('k' with a's affinity)
/// ```
///
/// When a fixed column has BLOB affinity, SQLite replaces columns only where the comparison
/// applies the right conversions: as an operand of `=`, `<`, `<=`, `>`, `>=` or `IS` (the right
/// one only when the left has no TEXT affinity). Other columns are still replaced elsewhere.
struct ConstantPropagation {
  private let context: WhereContext
  /// The fixed columns of the current round: the column, the path of the defining occurrence
  /// (which keeps reading the row), the value and the column's affinity.
  private var constants: [(column: Int, path: [Int], value: SQLExpression, affinity: Affinity)] = []
  private var hasBlobAffinity = false
  private var changes = 0

  private init(context: WhereContext) {
    self.context = context
  }

  /// The WHERE clause with propagated constants, or `nil` when SQLite changes nothing (it is not
  /// an AND, or no occurrence can be fixed).
  static func propagated(_ filter: SQLExpression, table: TableDefinition) -> SQLExpression? {
    guard case .binary(.and, _, _) = filter, !ExpressionCompiler.foldsToZero(filter),
      !FixedColumn.occurs(in: filter)
    else { return nil }
    var propagation = ConstantPropagation(context: WhereContext(table: table))
    var current = filter
    var changed = false
    repeat {
      propagation.constants = []
      propagation.hasBlobAffinity = false
      propagation.changes = 0
      propagation.findConstants(in: current, path: [])
      if propagation.constants.isEmpty { break }
      current = propagation.rewrite(current, path: [])
      if propagation.changes > 0 { changed = true }
    } while propagation.changes > 0
    return changed ? current : nil
  }

  // MARK: - findConstInWhere

  private mutating func findConstants(in expression: SQLExpression, path: [Int]) {
    if ExpressionCompiler.foldsToZero(expression) { return }
    switch expression {
    case .binary(.and, let lhs, let rhs):
      findConstants(in: rhs, path: path + [1])
      findConstants(in: lhs, path: path + [0])
    case .binary(.equal, let lhs, let rhs):
      if isColumnNode(rhs), isConstant(lhs) { insert(column: rhs, at: path + [1], value: lhs, comparing: lhs, rhs) }
      if isColumnNode(lhs), isConstant(rhs) { insert(column: lhs, at: path + [0], value: rhs, comparing: lhs, rhs) }
    default:
      break
    }
  }

  /// `constInsert`: a value without affinity, a BINARY comparison, one entry per column.
  private mutating func insert(
    column node: SQLExpression, at path: [Int], value: SQLExpression, comparing lhs: SQLExpression,
    _ rhs: SQLExpression
  ) {
    guard let column = context.column(node), context.affinity(value) == .none,
      context.comparisonCollation(lhs, rhs) == .binary,
      !constants.contains(where: { $0.column == column })
    else { return }
    let affinity = context.affinity(node)
    if affinity == .blob { hasBlobAffinity = true }
    constants.append((column, path, value, affinity))
  }

  /// A plain column reference (SQLite's `TK_COLUMN`, not already fixed): no COLLATE around it.
  private func isColumnNode(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .column, .rowid: context.column(expression) != nil
    default: false
    }
  }

  /// `sqlite3ExprIsConstant`: reads no row (fixed columns read none). Every function the query
  /// model offers is deterministic.
  private func isConstant(_ expression: SQLExpression) -> Bool {
    !context.readsTable(expression)
  }

  // MARK: - propagateConstantExprRewrite

  /// Walks the expression as SQLite's walker does, top-down, fixing matching columns.
  private mutating func rewrite(_ expression: SQLExpression, path: [Int]) -> SQLExpression {
    if FixedColumn(expression) != nil { return expression }
    // Nodes SQLite folded to constants before this point hold no columns any more.
    if ExpressionCompiler.foldsToZero(expression) { return expression }
    if case .inList(_, let list, _) = expression, list.isEmpty { return expression }
    if case .isNull(let operand, _) = expression, !context.canBeNull(operand) { return expression }
    if isColumnNode(expression) {
      return fixing(expression, path: path, ignoringBlobAffinity: hasBlobAffinity)
    }
    var result = expression
    if hasBlobAffinity, case .binary(let op, let lhs, let rhs) = expression, Self.isComparison(op) {
      let left = isColumnNode(lhs) ? fixing(lhs, path: path + [0], ignoringBlobAffinity: false) : lhs
      var right = rhs
      if context.affinity(left) != .text, isColumnNode(rhs) {
        right = fixing(rhs, path: path + [1], ignoringBlobAffinity: false)
      }
      result = .binary(op, left, right)
    }
    for (index, child) in result.children.enumerated() {
      let rewritten = rewrite(child, path: path + [index])
      if rewritten != child { result = result.replacingChild(at: index, with: rewritten) }
    }
    return result
  }

  /// `propagateConstantExprRewriteOne` on a column reference.
  private mutating func fixing(
    _ node: SQLExpression, path: [Int], ignoringBlobAffinity: Bool
  ) -> SQLExpression {
    guard let column = context.column(node),
      let entry = constants.first(where: { $0.column == column }), entry.path != path
    else { return node }
    if ignoringBlobAffinity && entry.affinity == .blob { return node }
    changes += 1
    return FixedColumn.expression(column: node, value: entry.value)
  }

  /// `=`, `<`, `<=`, `>`, `>=` and `IS` (`TK_EQ`…`TK_GE`, `TK_IS`).
  private static func isComparison(_ op: BinaryOperator) -> Bool {
    switch op {
    case .equal, .less, .lessOrEqual, .greater, .greaterOrEqual, .is: true
    default: false
    }
  }
}

/// A column reference that constant propagation fixed to a value (SQLite's `EP_FixedCol`): it
/// keeps the column's affinity, collation and nullability, reads no row, and evaluates to the
/// value with the column's affinity applied (`OP_Affinity`).
///
/// It lives inside the query model's expression tree as a call no statement can hold: a
/// `coalesce` whose first argument is an `excluded` reference with a name no table may use.
/// ``ConstantPropagation`` refuses to run on a WHERE clause that already holds one, and only
/// compilers that are told so read it (see ``ExpressionCompiler/readsFixedColumns``).
struct FixedColumn {
  /// The column reference, as written.
  let column: SQLExpression
  /// The value it stands for.
  let value: SQLExpression

  private static let marker = SQLExpression.excluded("\u{0}fixed column")

  /// Recognizes a fixed column.
  init?(_ expression: SQLExpression) {
    guard case .function(.coalesce, let arguments) = expression, arguments.count == 3,
      arguments[0] == Self.marker
    else { return nil }
    column = arguments[1]
    value = arguments[2]
  }

  /// The expression standing for `column` fixed to `value`.
  static func expression(column: SQLExpression, value: SQLExpression) -> SQLExpression {
    .function(.coalesce, [marker, column, value])
  }

  /// Whether the marker occurs anywhere in the expression.
  static func occurs(in expression: SQLExpression) -> Bool {
    expression == marker || expression.children.contains(where: occurs)
  }
}
