import TandemCore

extension ExpressionCompiler {
  /// Compiles an expression as a condition (WHERE, HAVING, CASE WHEN): true only when the value
  /// is true, with SQLite's short-circuit evaluation of AND, OR and NOT.
  func condition(_ expression: SQLExpression) throws -> CompiledCondition {
    try resolving(expression) { try condition(expression, wantTrue: true) }
  }

  /// Compiles a WHERE or ON term and tells whether it holds a subquery that reads a query around
  /// it, and whether it is one SQLite's loops test after their others (its TERM_VARSELECT).
  /// ``compiledCorrelatedSubquery`` keeps what it held, and notes this term's.
  ///
  /// The two differ: `exprAnalyze` marks a term TERM_VARSELECT when some subquery in it at any
  /// depth reads a level around that subquery — but for `x IN (SELECT …)` at the top of the term
  /// it looks only inside the subquery and at `x`, not at the IN's own subquery:
  ///
  /// ```sql
  /// -- t.a IN (SELECT u.a FROM u WHERE u.k = t.id): correlated, not TERM_VARSELECT
  /// -- t.a NOT IN (SELECT …) (a NOT over the IN), EXISTS (…), t.a = (SELECT …): TERM_VARSELECT when correlated
  /// -- NULL IN (SELECT … WHERE (SELECT … t.ref …)): TERM_VARSELECT, through the nested subquery
  /// ```
  func conditionNotingCorrelation(
    _ expression: SQLExpression
  ) throws -> (test: ConditionEvaluator, isCorrelated: Bool, isVarSelect: Bool) {
    let before = (compiledCorrelatedSubquery, compiledVarSelect, varSelectExemptQuery)
    compiledCorrelatedSubquery = false
    compiledVarSelect = false
    if case .inSubquery(_, let query, negated: false) = expression { varSelectExemptQuery = query }
    defer { varSelectExemptQuery = before.2 }
    let test = try condition(expression).test
    let isCorrelated = compiledCorrelatedSubquery
    let isVarSelect = compiledVarSelect
    compiledCorrelatedSubquery = before.0 || isCorrelated
    compiledVarSelect = before.1 || isVarSelect
    return (test, isCorrelated, isVarSelect)
  }

  /// A compiled condition and whether it reads no row.
  struct CompiledCondition {
    let test: ConditionEvaluator
    let isConstant: Bool
  }

  private func condition(_ expression: SQLExpression, wantTrue: Bool) throws -> CompiledCondition {
    if Self.foldsToZero(expression) { return CompiledCondition(test: { _ in !wantTrue }, isConstant: true) }
    if case .inList(let operand, let list, let negated) = expression,
      let rewritten = SQLExpression.singleValueIn(operand, list, negated: negated)
    {
      return try condition(rewritten, wantTrue: wantTrue)
    }
    switch expression {
    case .binary(.and, let lhs, let rhs), .binary(.or, let lhs, let rhs):
      let isAnd = if case .binary(.and, _, _) = expression { true } else { false }
      let left = try condition(lhs, wantTrue: wantTrue)
      let right = try condition(rhs, wantTrue: wantTrue)
      let (l, r) = (left.test, right.test)
      let isConstant = left.isConstant && right.isConstant
      // true-test of AND and false-test of OR need both; the others need either.
      if isAnd == wantTrue {
        return CompiledCondition(test: { context in try l(context) && r(context) }, isConstant: isConstant)
      }
      return CompiledCondition(test: { context in try l(context) || r(context) }, isConstant: isConstant)
    case .unary(.not, let operand):
      return try condition(operand, wantTrue: !wantTrue)
    case .between(let operand, let low, let high, let negated):
      return try betweenCondition(operand, low, high, wantTrue: wantTrue != negated)
    case .binary(let op, let lhs, let rhs):
      guard let comparison = ComparisonOperator(op), !((op == .is || op == .isNot) && Self.truthConstant(rhs) != nil)
      else { fallthrough }
      return try comparisonCondition(comparison, lhs, rhs, wantTrue: wantTrue)
    default:
      let compiled = try compile(expression)
      let evaluate = compiled.evaluate
      let wanted = wantTrue
      let test: ConditionEvaluator = { context in Truth.isTrue(try evaluate(context)) == wanted }
      return CompiledCondition(test: test, isConstant: compiled.isConstant)
    }
  }

  /// One side of a comparison, read without a closure call when it is a column or a value.
  private enum Operand {
    case column(Int)
    case rowid
    case value(SqliteValue)
    case parameter(Int)
    case computed(ValueEvaluator)

    @inline(__always)
    func read(_ context: EvaluationContext) throws -> SqliteValue {
      switch self {
      case .column(let index): return context.row?[index] ?? .null
      case .rowid: return context.row == nil ? .null : .integer(context.rowid)
      case .value(let value): return value
      case .parameter(let slot): return context.parameters?[slot] ?? .null
      case .computed(let evaluate): return try evaluate(context)
      }
    }
  }

  private func operand(_ expression: SQLExpression, _ compiled: CompiledExpression) -> Operand {
    // A column of a relational query is a slot of its combined row, read like a table's column.
    if let scope, !hidesColumns {
      switch expression {
      case .column(let name):
        if let reference = try? scope.resolve(column: name, source: nil) { return .column(reference.slot) }
      case .qualifiedColumn(let source, let name):
        if let reference = try? scope.resolve(column: name, source: source) { return .column(reference.slot) }
      case .rowid:
        if let reference = try? scope.resolveRowid(source: nil) { return .column(reference.slot) }
      case .qualifiedRowid(let source):
        if let reference = try? scope.resolveRowid(source: source) { return .column(reference.slot) }
      default:
        break
      }
    }
    switch expression {
    case .literal(let value):
      return .value(ValueOperations.bound(value))
    case .parameter(let name):
      return .parameter(parameterSlot(name))
    case .rowid where table != nil:
      return .rowid
    case .column(let name):
      guard let table, let index = table.columnIndex(name) else {
        return table != nil && NameKey(name).isRowidName ? .rowid : .computed(compiled.evaluate)
      }
      return index == table.rowidColumn ? .rowid : .column(index)
    default:
      return .computed(compiled.evaluate)
    }
  }

  private func comparisonOperator(_ comparison: ComparisonOperator) -> BinaryOperator {
    switch comparison {
    case .is: .is
    case .isNot: .isNot
    default: .equal
    }
  }

  /// A comparison in a condition: true/false directly, without building a 0/1 value.
  private func comparisonCondition(
    _ comparison: ComparisonOperator, _ lhs: SQLExpression, _ rhs: SQLExpression, wantTrue: Bool
  ) throws -> CompiledCondition {
    let (left, right) = try operands(comparisonOperator(comparison), lhs, rhs)
    let collation = Self.comparisonCollation(left, right)
    let (la, ra) = (left.affinity, right.affinity)
    let a = operand(lhs, left)
    let b = operand(rhs, right)
    let test: ConditionEvaluator
    if case .column(let index) = a, case .value(let constant) = b {
      test = { context in
        ValueOperations.truth(comparison, context.row?[index] ?? .null, la, constant, ra, collation) == wantTrue
      }
    } else {
      test = { context in
        ValueOperations.truth(comparison, try a.read(context), la, try b.read(context), ra, collation) == wantTrue
      }
    }
    return CompiledCondition(test: test, isConstant: left.isConstant && right.isConstant)
  }

  /// The compiled operands of `x BETWEEN low AND high`, in SQLite's order, with the collation
  /// of each of its two comparisons.
  func betweenOperands(_ operand: SQLExpression, _ low: SQLExpression, _ high: SQLExpression) throws -> (
    value: CompiledExpression, lower: CompiledExpression, upper: CompiledExpression,
    lowCollation: Collation, highCollation: Collation
  ) {
    var value = try compile(operand)
    let lower = refusingNumberBesideText(try compile(low), low, comparedWith: value.affinity)
    let upper = refusingNumberBesideText(try compile(high), high, comparedWith: value.affinity)
    // The tested value meets each bound's affinity; only a TEXT one converts it.
    value = refusingNumberBesideText(
      value, operand, comparedWith: lower.affinity == .text || upper.affinity == .text ? .text : .none)
    return (value, lower, upper, Self.comparisonCollation(value, lower), Self.comparisonCollation(value, upper))
  }

  /// BETWEEN in a condition: SQLite jumps on `x >= low` before it evaluates `x <= high`, so the
  /// upper bound is skipped when the first test already decides (x itself is evaluated once).
  private func betweenCondition(
    _ operand: SQLExpression, _ low: SQLExpression, _ high: SQLExpression, wantTrue: Bool
  ) throws -> CompiledCondition {
    let (value, lower, upper, lowCollation, highCollation) = try betweenOperands(operand, low, high)
    let (v, l, h) = (value.evaluate, lower.evaluate, upper.evaluate)
    let (va, la, ha) = (value.affinity, lower.affinity, upper.affinity)
    let test: ConditionEvaluator = { context in
      let x = try v(context)
      let first = ValueOperations.truth(.greaterOrEqual, x, va, try l(context), la, lowCollation)
      if wantTrue {
        guard first == true else { return false }
        return ValueOperations.truth(.lessOrEqual, x, va, try h(context), ha, highCollation) == true
      }
      if first == false { return true }
      return ValueOperations.truth(.lessOrEqual, x, va, try h(context), ha, highCollation) == false
    }
    return CompiledCondition(test: test, isConstant: value.isConstant && lower.isConstant && upper.isConstant)
  }
}
