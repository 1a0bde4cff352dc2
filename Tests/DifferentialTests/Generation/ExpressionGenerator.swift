import Tandem
import SeededRandomness

/// Random expressions of the query model over one table's columns.
///
/// In row mode leaves are columns, the rowid, literals and parameters; in grouped mode they are
/// aggregates, group keys and constants, so the result is valid in a grouped SELECT's result
/// columns, HAVING and ORDER BY.
struct ExpressionGenerator {
  /// What a leaf of the expression may be.
  enum LeafMode {
    /// A value of the current row.
    case row
    /// A value of a group: an aggregate, a group key, a constant (rarely a bare column).
    case grouped(keys: [SQLExpression])
    /// A literal or a parameter (VALUES of an INSERT cannot name columns).
    case constant
  }

  var random: SplitMix64
  /// The statement's table.
  var table: TableSchema
  /// Values for the parameters generated so far.
  var parameters: [String: SqliteValue] = [:]
  /// Whether `excluded.column` may appear (an upsert's DO UPDATE).
  var allowsExcluded = false
  /// How often a leaf names a column that does not exist (to compare error reports).
  var unknownColumnRate = 0.002
  /// Values the table is known to hold, by column name (for terms that find rows).
  var knownValues: [String: [SqliteValue]] = [:]
  var mode: LeafMode = .row
  /// For a relational statement: the sources of this query level, whose columns the leaves name
  /// qualified by alias. Empty for the single-table cases, whose random streams it leaves alone.
  var sources: [FuzzSource] = []
  /// For a subquery: the sources of the query levels around it, innermost first (correlated
  /// references name them).
  var outerSources: [FuzzSource] = []
  /// Makes a subquery expression (scalar, EXISTS or IN) of at most the given depth; `nil` (the
  /// single-table cases) never makes one.
  var subquery: ((inout ExpressionGenerator, Int) -> SQLExpression)?
  /// How often an expression or a condition is a subquery when ``subquery`` is set.
  var subqueryRate = 0.12
  /// Set while an aggregate's argument is made: it then reads the levels around rarely (an
  /// aggregate of only outer columns belongs to the outer query, which the memory engine refuses).
  var insideAggregate = false

  init(random: SplitMix64, table: TableSchema) {
    self.random = random
    self.table = table
  }

  // MARK: - Leaves

  mutating func leaf() -> SQLExpression {
    if case .grouped(let keys) = mode { return groupedLeaf(keys: keys) }
    if case .constant = mode {
      return random.chance(0.8) ? .literal(NastyValues.any(&random)) : parameter(NastyValues.any(&random))
    }
    if random.chance(unknownColumnRate) { return .column("no_such_column") }
    switch random.weighted([(7, 0), (1, 1), (5, 2), (1, 3), (allowsExcluded ? 3 : 0, 4)]) {
    case 0: return columnLeaf()
    case 1: return sources.isEmpty ? .rowid : relationalRowid()
    case 2: return .literal(NastyValues.any(&random))
    case 3: return parameter(NastyValues.any(&random))
    default: return .excluded(random.pick(table.columns).name)
    }
  }

  private mutating func groupedLeaf(keys: [SQLExpression]) -> SQLExpression {
    switch random.weighted([(12, 0), (keys.isEmpty ? 0 : 8, 1), (6, 2), (2, 3), (1, 4)]) {
    case 0: return aggregate()
    case 1: return random.pick(keys)
    case 2: return .literal(NastyValues.any(&random))
    case 3: return parameter(NastyValues.any(&random))
    default: return columnLeaf()  // a bare column
    }
  }

  /// An aggregate call over a row expression.
  mutating func aggregate() -> SQLExpression {
    // group_concat is fuzzed over one table; over joins and subqueries it is left to the
    // conformance tests, so that the relational cases keep their seeded stream (and their share
    // of refusals, just under the budget).
    let functions = sources.isEmpty ? AggregateFunction.allCases : AggregateFunction.allCases.filter { $0 != .groupConcat }
    let function = random.pick(functions)
    if function == .count && random.chance(0.35) { return .aggregate(.count, nil, distinct: false) }
    let saved = mode
    mode = .row
    insideAggregate = true
    defer {
      mode = saved
      insideAggregate = false
    }
    let argument = random.chance(0.6) ? columnLeaf() : expression(depth: random.int(1...2))
    return .aggregate(function, argument, distinct: random.chance(0.25))
  }

  /// A named parameter bound to `value`.
  mutating func parameter(_ value: SqliteValue) -> SQLExpression {
    let name = "p\(parameters.count)"
    parameters[name] = value
    return .parameter(name)
  }

  /// A small integer literal (for substr/round/trim arguments, LIMIT and the like).
  mutating func smallInteger() -> SQLExpression {
    .literal(.integer(Int64(random.int(-3...6))))
  }

  // MARK: - Expressions

  /// Any scalar expression of at most `depth` levels.
  mutating func expression(depth: Int) -> SQLExpression {
    if let subquery, makesSubqueries, random.chance(subqueryRate) { return subquery(&self, depth) }
    guard depth > 0, random.chance(0.75) else { return leaf() }
    let d = depth - 1
    switch random.weighted([
      (2, 0), (5, 1), (3, 2), (5, 3), (2, 4), (6, 5), (3, 6), (2, 7), (2, 8), (2, 9), (1, 10), (2, 11), (2, 12),
      (2, 13),
    ]) {
    case 0:
      return .unary(random.pick([UnaryOperator.negate, .plus, .not]), expression(depth: d))
    case 1:
      return comparison(depth: d)
    case 2:
      return .binary(random.pick([BinaryOperator.and, .or]), predicate(depth: d), predicate(depth: d))
    case 3:
      return .binary(
        random.pick([BinaryOperator.add, .subtract, .multiply, .divide, .remainder]), expression(depth: d),
        expression(depth: d))
    case 4:
      return .binary(.concatenate, expression(depth: d), expression(depth: d))
    case 5:
      return functionCall(depth: d)
    case 6:
      return .cast(expression(depth: d), as: random.pick([CastType.integer, .real, .text, .blob, .numeric]))
    case 7:
      return inList(depth: d)
    case 8:
      return .between(expression(depth: d), expression(depth: d), expression(depth: d), negated: random.chance(0.3))
    case 9:
      return like(depth: d)
    case 10:
      let pattern: SQLExpression =
        random.chance(0.8) ? .literal(.text(NastyValues.globPattern(&random))) : expression(depth: d)
      return .glob(expression(depth: d), pattern: pattern, negated: random.chance(0.3))
    case 11:
      return .isNull(expression(depth: d), negated: random.chance(0.5))
    case 12:
      return caseWhen(depth: d)
    default:
      return .collate(expression(depth: d), random.pick([Collation.binary, .nocase, .rtrim]))
    }
  }

  /// An expression meant as a condition (any expression works; these mostly yield 0/1/NULL).
  mutating func predicate(depth: Int) -> SQLExpression {
    if let subquery, makesSubqueries, random.chance(subqueryRate) { return subquery(&self, depth) }
    guard depth > 0 else {
      return random.chance(0.7) ? comparison(depth: 0) : leaf()
    }
    let d = depth - 1
    switch random.weighted([(6, 0), (4, 1), (2, 2), (2, 3), (2, 4), (2, 5), (1, 6), (1, 7), (2, 8)]) {
    case 0: return comparison(depth: d)
    case 1: return .binary(random.pick([BinaryOperator.and, .or]), predicate(depth: d), predicate(depth: d))
    case 2: return .unary(.not, predicate(depth: d))
    case 3: return inList(depth: d)
    case 4: return like(depth: d)
    case 5: return .isNull(expression(depth: d), negated: random.chance(0.5))
    case 6:
      return .between(expression(depth: d), expression(depth: d), expression(depth: d), negated: random.chance(0.3))
    case 7:
      return .glob(
        expression(depth: d), pattern: .literal(.text(NastyValues.globPattern(&random))), negated: random.chance(0.3))
    default: return expression(depth: depth)
    }
  }

  /// `left op right` with a comparison operator; one side is usually a column.
  mutating func comparison(depth: Int) -> SQLExpression {
    let op = random.pick([BinaryOperator.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .is, .isNot])
    var left = expression(depth: depth)
    var right = expression(depth: depth)
    if random.chance(0.15) { left = .collate(left, random.pick([Collation.binary, .nocase, .rtrim])) }
    if random.chance(0.08) { right = .collate(right, random.pick([Collation.binary, .nocase, .rtrim])) }
    return .binary(op, left, right)
  }

  private mutating func inList(depth: Int) -> SQLExpression {
    let count = random.weighted([(1, 0), (3, 1), (3, 2), (2, 3), (1, 5)])
    var list: [SQLExpression] = (0..<count).map { _ in expression(depth: max(0, depth - 1)) }
    if random.chance(0.2) { list.append(.literal(.null)) }
    list.shuffle(using: &random)
    return .inList(expression(depth: depth), list, negated: random.chance(0.3))
  }

  private mutating func like(depth: Int) -> SQLExpression {
    let pattern: SQLExpression =
      random.chance(0.8) ? .literal(.text(NastyValues.likePattern(&random))) : expression(depth: depth)
    var escape: SQLExpression?
    if random.chance(0.2) {
      // Only single-character escapes: a bad ESCAPE is a run-time error, and whether SQLite
      // reaches it depends on its plan (which WHERE term or ORDER BY term an index lets it skip),
      // which the memory engine does not model. The typed API cannot build one either.
      escape = random.weighted([
        (6, SQLExpression.literal(.text("\\"))), (3, .literal(.text("x"))), (2, .literal(.text("%"))),
        (1, .literal(.null)), (1, .literal(.text("é"))),
      ])
    }
    return .like(expression(depth: depth), pattern: pattern, escape: escape, negated: random.chance(0.3))
  }

  private mutating func caseWhen(depth: Int) -> SQLExpression {
    let base: SQLExpression? = random.chance(0.4) ? expression(depth: depth) : nil
    let branches = (0..<random.int(1...3)).map { _ in
      CaseBranch(when: base == nil ? predicate(depth: depth) : expression(depth: depth), then: expression(depth: depth))
    }
    let otherwise: SQLExpression? = random.chance(0.6) ? expression(depth: depth) : nil
    return .caseWhen(base: base, branches: branches, else: otherwise)
  }

  /// A call of any scalar function with a valid number of arguments.
  mutating func functionCall(depth: Int) -> SQLExpression {
    var function = random.pick(ScalarFunction.allCases)
    // abs() makes a relational statement `.unsupported` (whether it fails depends on SQLite's
    // plan): keep it rare there, so that most statements are compared.
    if !sources.isEmpty || subquery != nil, function == .abs, random.chance(0.95) { function = .length }
    let arity = function.arity
    let count =
      arity.upperBound == .max ? random.int(arity.lowerBound...4) : random.int(arity.lowerBound...arity.upperBound)
    var arguments: [SQLExpression] = []
    for position in 0..<count {
      switch (function, position) {
      case (.substr, 1...), (.round, 1):
        arguments.append(random.chance(0.7) ? smallInteger() : expression(depth: depth))
      case (.ltrim, 1), (.rtrim, 1), (.trim, 1):
        arguments.append(
          random.chance(0.7)
            ? .literal(.text(random.pick(["a", "ab", " ", "0", "é", "x", "", "1.", "%_"]))) : expression(depth: depth))
      default:
        arguments.append(expression(depth: depth))
      }
    }
    return .function(function, arguments)
  }
}
