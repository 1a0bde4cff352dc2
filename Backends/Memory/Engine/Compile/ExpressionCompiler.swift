import TandemCore

/// Compiles ``SQLExpression`` trees of one statement into closures, resolving column names to
/// positions, parameter names to slots and aggregate calls to result slots once.
final class ExpressionCompiler {
  /// What aggregate calls are allowed where the compiler is currently working.
  enum AggregatePolicy {
    /// Aggregates are collected (result columns, HAVING, ORDER BY of an aggregate query).
    case collect
    /// `misuse of aggregate function f()` (WHERE, LIMIT, VALUES, SET, …).
    case forbidden
    /// `aggregate functions are not allowed in the GROUP BY clause`.
    case groupBy
    /// ORDER BY of a non-aggregate query: `misuse of aggregate: f()`, reported after everything else.
    case deferredMisuse
  }

  /// One aggregate call of the statement.
  struct AggregateCall: Sendable {
    let function: AggregateFunction
    /// The argument, evaluated per row; `nil` for `count(*)`.
    let argument: ValueEvaluator?
    /// group_concat's separator, evaluated per row; `nil` for `','`.
    let separator: ValueEvaluator?
    let distinct: Bool
    /// The argument's collation (for min/max and DISTINCT).
    let collation: Collation
  }

  /// The table whose columns expressions may name (`nil`: none, as in INSERT … VALUES).
  let table: TableDefinition?
  /// The sources of a relational query level, when expressions read several tables or the
  /// tables around a subquery; `nil` for a statement over `table` alone.
  var scope: SourceScope?
  /// The database whose tables subqueries read; `nil` where no subquery may appear.
  var catalog: Catalog?
  /// The common table expressions subqueries may read.
  var commonTables: CommonTableScope?
  /// Set when a subquery that reads a query around it is compiled (cleared by the caller).
  var compiledCorrelatedSubquery = false
  /// Set when a subquery is compiled that reads a query around it or holds one that does, at
  /// any depth: never cleared, it tells whether this query level holds such a subquery
  /// (``RowSource/holdsCorrelatedSubquery``).
  var compiledCorrelationAnywhere = false
  /// Set when a subquery is compiled that makes the term being compiled a TERM_VARSELECT one (see
  /// ``conditionNotingCorrelation(_:)``).
  var compiledVarSelect = false
  /// The subquery of `x IN (SELECT …)` at the top of the term being compiled, whose own
  /// correlation does not count toward TERM_VARSELECT.
  var varSelectExemptQuery: SelectStatement?
  /// Whether an aggregate's value is the operand of an `IN (SELECT …)` that converts it: SQLite
  /// applies the comparison's affinity to the aggregate's own register, in place, and later reads
  /// of the group (its result column) may see the converted value.
  var convertsAggregateInPlace = false
  /// The first refusal (`.unsupported`) or code-generation error (``isCodeGenerationError(_:)``)
  /// a subquery met while compiling. It waits until every name of the statement is resolved, so
  /// that a bad name anywhere reports SQLite's error first; whoever compiles the statement throws
  /// it then (``throwPendingRefusal()``).
  private(set) var pendingRefusal: TandemError?
  /// The resolution error a subquery's compile ended with, if any. It is that subquery's final
  /// word (it weighed its own pending refusals), and SQLite's walk stops there: so it outranks a
  /// refusal pending around it (``outranks(_:pending:)`` is for errors of the level itself).
  var subqueryError: TandemError?
  /// Whether `error` is the one a subquery's compile ended with (``subqueryError``).
  func isSubqueryError(_ error: TandemError) -> Bool {
    subqueryError.map { $0.signature == error.signature } ?? false
  }
  /// How many `compile`/`condition` calls are running (1: a whole expression of the statement).
  private var resolutionDepth = 0
  /// Whether SQLite expanded the subqueries of these expressions before resolving any name: a
  /// SELECT expands its whole tree first. An INSERT, UPDATE or DELETE resolves its own
  /// expressions without that step, so a subquery its walk reaches after an error is only
  /// expanded (`sqlite3SelectPrep` stops there once the parse has an error): none of its names
  /// is resolved.
  var expandsSubqueriesFirst = true

  /// The name error SQLite reports for one expression of the statement, if any, found by
  /// walking it as `resolve.c` does.
  ///
  /// The walk is pre-order. A column reference that fails records its error (a later one
  /// replaces an earlier one, as `sqlite3ErrorMsg` does) and stops the walk. A function call
  /// (LIKE and GLOB included) and `x IS [NOT] NULL` walk their operands themselves and ignore
  /// that walk's stop, so the walk goes on after them; a column reference that resolves lets it
  /// go on too; any other node stops it once an error was recorded. A subquery is resolved where
  /// the walk meets it, after an error too (before the value an `IN` compares).
  func nameResolutionError(_ expression: SQLExpression) -> TandemError? {
    var error: TandemError?
    /// Resolves a subquery as SQLite does at its place in the walk; whether it failed.
    func resolves(_ query: SelectStatement) -> Bool {
      // Looking does not refuse: the statement's own compile finds what it must refuse.
      let refusal = pendingRefusal
      defer { pendingRefusal = refusal }
      do {
        let resolved =
          if error == nil { query } else if expandsSubqueriesFirst { Self.resolvedAfterAnError(query) } else {
            Self.expandedOnly(query)
          }
        _ = try subquery(.exists(resolved, negated: false))
        return false
      } catch let failure as TandemError where Self.isResolutionError(failure) {
        error = failure
        return true
      } catch {
        return false
      }
    }
    /// Whether the walk stops.
    func walk(_ node: SQLExpression) -> Bool {
      // Parts SQLite's parser folded away (`x IN ()`, an AND holding it) are never resolved.
      if Self.foldsToZero(node) { return error != nil }
      if case .inList(_, let list, _) = node, list.isEmpty { return error != nil }
      // `x NOT IN …`, `NOT EXISTS`, `NOT BETWEEN`, `NOT LIKE` are the parser's NOT over the plain
      // form: that NOT's step stops the walk once there is an error, before what it negates.
      if Self.isParsedUnderNot(node) && error != nil { return true }
      switch node {
      case .column, .qualifiedColumn, .rowid, .qualifiedRowid:
        do {
          _ = try compileNode(node)
          return false
        } catch let failure as TandemError where Self.isNameError(failure) {
          error = failure
          return true
        } catch {
          return false
        }
      case .isNull(let operand, _):
        _ = walk(operand)
        return false
      case .function(_, let arguments):
        for argument in arguments where walk(argument) { break }
        return false
      case .aggregate(_, let argument, _, let separator):
        for argument in [argument, separator].compactMap({ $0 }) where walk(argument) { break }
        return false
      case .like(let value, let pattern, let escape, _):
        // like(pattern, value, escape)
        for argument in [pattern, value] + (escape.map { [$0] } ?? []) where walk(argument) { break }
        return false
      case .glob(let value, let pattern, _):
        for argument in [pattern, value] where walk(argument) { break }
        return false
      case .subquery(let query), .exists(let query, _):
        // Reached after an error (a function's argument failed), SQLite still resolves the
        // subquery, and its error replaces the earlier one.
        return resolves(query) || error != nil
      case .inSubquery(let operand, let query, _):
        // The subquery is resolved before the value it is compared with.
        return resolves(query) || error != nil || walk(operand)
      case .binary(let op, let lhs, let rhs) where op == .is || op == .isNot:
        // `x IS y` resolves a bare name `y` first (to see whether it is TRUE or FALSE).
        let bare = rhs.withoutCollate
        switch bare {
        case .column, .rowid:
          // Its step looks the bare name up even after an error, then stops if there is one.
          if walk(bare) || error != nil { return true }
          // The walk then visits `x`, and the name, now a resolved column, whose step stops the
          // walk if `x` recorded an error.
          return walk(lhs) || error != nil
        default:
          if error != nil { return true }
          return walk(lhs) || walk(rhs)
        }
      case .excluded:
        return error != nil
      default:
        if error != nil { return true }
        return node.children.contains(where: walk)
      }
    }
    _ = walk(expression)
    return error
  }
  /// Whether `excluded.x` may appear (an upsert's DO UPDATE).
  var allowsExcluded = false
  /// Whether the table's columns are out of scope (LIMIT and OFFSET name none), while the
  /// statement's parameter slots stay shared.
  var hidesColumns = false
  /// Whether a ``FixedColumn`` reads its constant (a WHERE clause after ``ConstantPropagation``);
  /// otherwise it is the call it looks like, which names no column that exists.
  var readsFixedColumns = false
  /// The current aggregate policy.
  var aggregatePolicy = AggregatePolicy.forbidden
  /// An error to report once compilation has otherwise succeeded.
  private(set) var deferredError: TandemError?

  /// The part of a subquery SQLite resolves when its walk reaches it after an error: the first
  /// result column only (`sqlite3ResolveExprListNames` stops after any expression once the parse
  /// has an error), of the member it resolves first (a compound's last), walked as a walk goes
  /// on after an error (``resolvedAfterAnError(_:)-expression``).
  ///
  /// A query with a LIMIT resolves none of its columns: `resolveSelectStep` resolves the LIMIT
  /// first, and `sqlite3ResolveExprNames` reports the parse's earlier error there. An OFFSET alone
  /// counts (SQLite reads it as `LIMIT -1 OFFSET n`, one LIMIT clause).
  static func resolvedAfterAnError(_ query: SelectStatement) -> SelectStatement {
    var first = query.compound.last?.select ?? query.compoundMember
    first.compound = []
    first.columns =
      query.limit != nil || query.offset != nil
      ? [.literal(.null)] : Array(first.columns.prefix(1).map(resolvedAfterAnError))
    first.filter = nil
    first.joins = first.joins.map { JoinClause($0.kind, table: $0.table, alias: $0.alias, on: nil) }
    first.groupBy = []
    first.having = nil
    first.orderBy = []
    first.limit = nil
    first.offset = nil
    first.distinct = false
    return first
  }

  /// The part of a subquery SQLite reads when it only expands it: its sources (a missing table is
  /// still an error), none of its expressions.
  static func expandedOnly(_ query: SelectStatement) -> SelectStatement {
    var sources = resolvedAfterAnError(query)
    sources.columns = [.literal(.null)]
    return sources
  }

  /// The parts of an expression SQLite's walk resolves once the parse has an error, the others
  /// replaced by NULL: each node's step still runs, then stops the walk. A column is looked up;
  /// a function (LIKE and GLOB too) and `IS [NOT] NULL` walk their operands themselves; `x IS y`
  /// looks up a bare `y`; a subquery is resolved (the same way), an IN's operand is not. Any
  /// other operator's step does nothing.
  static func resolvedAfterAnError(_ expression: SQLExpression) -> SQLExpression {
    let null = SQLExpression.literal(.null)
    if isParsedUnderNot(expression) { return null }
    switch expression {
    case .column, .qualifiedColumn, .rowid, .qualifiedRowid:
      return expression
    case .function(let function, let arguments):
      return .function(function, resolvedAfterAnError(arguments: arguments))
    case .aggregate(let function, let argument, let distinct, let separator):
      let walked = resolvedAfterAnError(arguments: [argument, separator].compactMap { $0 })
      return .aggregate(
        function, argument == nil ? nil : walked[0], distinct: distinct,
        separator: separator == nil ? nil : walked[walked.count - 1])
    case .like(let value, let pattern, let escape, let negated):
      // like(pattern, value, escape)
      let walked = resolvedAfterAnError(arguments: [pattern, value] + (escape.map { [$0] } ?? []))
      return .like(walked[1], pattern: walked[0], escape: escape == nil ? nil : walked[2], negated: negated)
    case .glob(let value, let pattern, let negated):
      let walked = resolvedAfterAnError(arguments: [pattern, value])
      return .glob(walked[1], pattern: walked[0], negated: negated)
    case .isNull(let operand, let negated):
      return .isNull(resolvedAfterAnError(operand), negated: negated)
    case .subquery(let query):
      return .subquery(resolvedAfterAnError(query))
    case .exists(let query, let negated):
      return .exists(resolvedAfterAnError(query), negated: negated)
    case .inSubquery(_, let query, let negated):
      return .inSubquery(null, resolvedAfterAnError(query), negated: negated)
    case .binary(let op, _, let rhs) where op == .is || op == .isNot:
      switch rhs.withoutCollate {
      case .column, .rowid: return .binary(op, null, rhs.withoutCollate)
      default: return null
      }
    default:
      return null
    }
  }

  /// Whether SQLite's parser writes the expression as `NOT` over its plain form (`x NOT IN …`,
  /// `NOT EXISTS (…)`, `x NOT BETWEEN …`, `x NOT LIKE …`, `x NOT GLOB …`).
  static func isParsedUnderNot(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .inSubquery(_, _, negated: true), .inList(_, _, negated: true), .exists(_, negated: true),
      .between(_, _, _, negated: true), .like(_, _, _, negated: true), .glob(_, _, negated: true):
      true
    default:
      false
    }
  }

  /// A function's arguments as its step walks them after an error: in order, until one whose own
  /// step stops the walk (any but a column, which goes on when it resolves, and a function or
  /// `IS [NOT] NULL`, which walk their operands themselves); the rest are not walked.
  private static func resolvedAfterAnError(arguments: [SQLExpression]) -> [SQLExpression] {
    var walked: [SQLExpression] = []
    var stopped = false
    for argument in arguments {
      walked.append(stopped ? .literal(.null) : resolvedAfterAnError(argument))
      switch argument {
      case .column, .qualifiedColumn, .rowid, .qualifiedRowid, .function, .aggregate, .isNull,
        .like(_, _, _, negated: false), .glob(_, _, negated: false):
        break
      default: stopped = true
      }
    }
    return walked
  }

  /// Throws the refusal a subquery met, once the statement's names are all resolved.
  func throwPendingRefusal() throws {
    if let pendingRefusal { throw pendingRefusal }
  }

  /// Records a subquery's refusal (the first one stands).
  func deferRefusal(_ refusal: TandemError) {
    if pendingRefusal == nil { pendingRefusal = refusal }
  }

  /// Whether `error`, thrown while a refusal waits, is the statement's error rather than the
  /// refusal: a code-generation error gives way to any resolution error; a refusal only to a bad
  /// name, since what the refused part holds may cause the rest (an aggregate of the query around
  /// makes that query an aggregate one), and to a HAVING on a query without aggregates, which
  /// is decided from the statement's text alone.
  static func outranks(_ error: TandemError, pending: TandemError) -> Bool {
    pending.kind == .unsupported
      ? isNameError(error) || (error.kind == .sqlite && error.message == havingWithoutAggregate.message)
      : isResolutionError(error)
  }

  /// SQLite's error for a HAVING clause on a query that neither groups nor aggregates.
  static var havingWithoutAggregate: TandemError { EngineError.sqlite(1, "HAVING clause on a non-aggregate query") }

  /// Compiles with `body` only to resolve names: the errors it reports at once stand, but what it
  /// would report later (``deferredError``, ``pendingRefusal``) and whether it met a correlated
  /// subquery are dropped,
  /// as for a clause SQLite deletes after resolving it (an `EXISTS` subquery's ORDER BY).
  func resolvingOnly(_ body: () throws -> Void) throws {
    let (error, correlated, policy, converts, refusal) =
      (deferredError, compiledCorrelatedSubquery, aggregatePolicy, convertsAggregateInPlace, pendingRefusal)
    let (anywhere, varSelect) = (compiledCorrelationAnywhere, compiledVarSelect)
    defer {
      (deferredError, compiledCorrelatedSubquery, aggregatePolicy, convertsAggregateInPlace, pendingRefusal) =
        (error, correlated, policy, converts, refusal)
      (compiledCorrelationAnywhere, compiledVarSelect) = (anywhere, varSelect)
    }
    aggregatePolicy = .deferredMisuse
    try body()
  }

  /// The statement's parameter names, in slot order.
  private(set) var parameterNames: [String] = []
  private var parameterSlots: [String: Int] = [:]
  /// The statement's distinct aggregate calls, in SQLite's analysis order.
  private(set) var aggregates: [AggregateCall] = []
  /// Slots by call, column references resolved (see ``comparisonKey(_:)``).
  private var aggregateSlots: [SQLExpression: Int] = [:]
  private var insideAggregate = false

  /// The name the statement's table goes by (its alias, `FROM t AS x`); `nil`: its own name.
  /// A reference qualified by any other name, the table's own included, names no column.
  var qualifier: String?

  init(table: TableDefinition?) {
    self.table = table
  }

  /// A compiler whose parameter slots start as `parameterNames` (to compile more of a statement
  /// whose other parts were compiled earlier, sharing their slots).
  convenience init(table: TableDefinition?, parameterNames: [String]) {
    self.init(table: table)
    for name in parameterNames { _ = parameterSlot(name) }
  }

  /// The result slot of an aggregate call compiled by this compiler. Identical calls share one
  /// (even those holding placeholders, which SQLite steps separately but identically).
  func aggregateSlot(for expression: SQLExpression) -> Int? { aggregateSlots[canonical(expression)] }

  /// Compiles an expression for its value.
  func compile(_ expression: SQLExpression) throws -> CompiledExpression {
    try resolving(expression) { try compileNode(expression) }
  }

  /// Throws the name error SQLite reports for a WHERE clause of several terms, which the engine
  /// compiles term by term: SQLite resolves the clause in one walk, which goes on past an error
  /// under `x IS NULL`, a later error replacing it (`q.a IS NULL AND q.b IS NULL` reports `q.b`).
  func resolveWholeClause(_ clause: SQLExpression?) throws {
    guard let clause, clause.conjuncts.count > 1 else { return }
    if let error = nameResolutionError(clause) { throw error }
  }

  /// Compiles an expression of the statement itself (not a part of one) after checking it for
  /// the name error SQLite would report first (``nameResolutionError(_:)``).
  func resolving<Result>(_ expression: SQLExpression, _ body: () throws -> Result) throws -> Result {
    if resolutionDepth == 0, let error = nameResolutionError(expression) { throw error }
    resolutionDepth += 1
    defer { resolutionDepth -= 1 }
    return try body()
  }

  private func compileNode(_ expression: SQLExpression) throws -> CompiledExpression {
    switch expression {
    case .literal(let value):
      let value = ValueOperations.bound(value)
      return constant { _ in value }

    case .parameter(let name):
      let slot = parameterSlot(name)
      return constant { context in context.parameters?[slot] ?? .null }

    case .column(let name):
      if let scope, !hidesColumns { return scoped(try scope.resolve(column: name, source: nil)) }
      return try column(named: name)

    case .rowid:
      if let scope, !hidesColumns { return scoped(try scope.resolveRowid(source: nil)) }
      // The SQLite backend names it rowid, _rowid_ or oid, whichever no column takes.
      guard table != nil, !hidesColumns else { throw EngineError.noSuchColumn("rowid") }
      return rowidReference()

    case .qualifiedColumn(let source, let name):
      if let scope, !hidesColumns { return scoped(try scope.resolve(column: name, source: source)) }
      guard let table, !hidesColumns, NameKey(source) == NameKey(qualifier ?? table.name) else {
        throw EngineError.noSuchColumn("\(source).\(name)")
      }
      return try column(named: name)

    case .qualifiedRowid(let source):
      if let scope, !hidesColumns { return scoped(try scope.resolveRowid(source: source)) }
      guard let table, !hidesColumns, NameKey(source) == NameKey(qualifier ?? table.name) else {
        throw EngineError.noSuchColumn("\(source).rowid")
      }
      return rowidReference()

    case .subquery, .exists, .inSubquery:
      return try subquery(expression)

    case .resultColumn:
      throw TandemError.misuse("a result column position appears only in the ORDER BY of a compound select")

    case .excluded(let name):
      guard allowsExcluded, let table, let index = table.columnIndex(name) else {
        throw EngineError.noSuchColumn("excluded.\(name)")
      }
      // SQLite reads `excluded.x` from a register: no affinity and no collation of its own.
      return CompiledExpression(
        evaluate: { context in context.excluded?[index] ?? .null }, affinity: .none, collation: nil,
        hasExplicitCollation: false, isConstant: false)

    case .unary(let op, let operand):
      let inner = try compile(operand)
      let evaluate = inner.evaluate
      switch op {
      case .plus:
        return CompiledExpression(
          evaluate: evaluate, affinity: .none, collation: inner.collation,
          hasExplicitCollation: inner.hasExplicitCollation, isConstant: inner.isConstant)
      case .negate:
        return derived([inner]) { context in Arithmetic.negate(try evaluate(context)) }
      case .not:
        return derived([inner]) { context in ValueOperations.not(try evaluate(context)) }
      }

    case .binary(let op, let lhs, let rhs):
      if Self.foldsToZero(expression) { return constant { _ in ValueOperations.zero } }
      if op == .is || op == .isNot, let truth = Self.truthConstant(rhs) {
        return try truthTest(lhs, isTrue: truth, negated: op == .isNot)
      }
      return try binary(op, lhs, rhs)

    case .function(let function, let arguments):
      if readsFixedColumns, let fixed = FixedColumn(expression) { return try fixedColumn(fixed) }
      return try call(function, arguments)

    case .aggregate(let function, let argument, let distinct, let separator):
      return try aggregate(function, argument, distinct: distinct, separator: separator)

    case .cast(let operand, let type):
      let inner = try compile(operand)
      let evaluate = inner.evaluate
      return CompiledExpression(
        evaluate: { context in try Conversion.cast(try evaluate(context), to: type) },
        affinity: Affinity(cast: type), collation: inner.collation,
        hasExplicitCollation: inner.hasExplicitCollation, isConstant: inner.isConstant)

    case .inList(let operand, let list, let negated):
      // SQLite's parser replaces `x IN ()` by false and `x NOT IN ()` by true, dropping x unread.
      if list.isEmpty {
        let value = negated ? ValueOperations.one : ValueOperations.zero
        return constant { _ in value }
      }
      if let rewritten = SQLExpression.singleValueIn(operand, list, negated: negated) { return try compile(rewritten) }
      return try inList(operand, list, negated: negated)

    case .between(let operand, let low, let high, let negated):
      let (value, lower, upper, lowCollation, highCollation) = try betweenOperands(operand, low, high)
      let (v, l, h) = (value.evaluate, lower.evaluate, upper.evaluate)
      let (va, la, ha) = (value.affinity, lower.affinity, upper.affinity)
      let between = derived([value, lower, upper]) { context in
        let x = try v(context)
        let low = ValueOperations.compare(.greaterOrEqual, x, va, try l(context), la, lowCollation)
        let high = ValueOperations.compare(.lessOrEqual, x, va, try h(context), ha, highCollation)
        let result = ValueOperations.and(low, high)
        return negated ? ValueOperations.not(result) : result
      }
      // SQLite's parser attaches the bounds after computing the node's flags: only an explicit
      // COLLATE on the tested value marks the BETWEEN itself.
      return CompiledExpression(
        evaluate: between.evaluate, affinity: .none, collation: value.hasExplicitCollation ? value.collation : nil,
        hasExplicitCollation: value.hasExplicitCollation, isConstant: between.isConstant)

    case .like(let operand, let pattern, let escape, let negated):
      // SQLite reads `x LIKE p ESCAPE e` as like(p, x, e): names resolve in that order.
      let patternValue = try compile(pattern)
      let value = try compile(operand)
      let escapeValue = try escape.map(compile)
      let (v, p, e) = (value.evaluate, patternValue.evaluate, escapeValue?.evaluate)
      return derived([patternValue, value] + (escapeValue.map { [$0] } ?? [])) { context in
        let patternResult = try p(context)
        let subject = try v(context)
        let escapeResult = try e?(context)
        let result = try Pattern.like(subject, pattern: patternResult, escape: escapeResult)
        return negated ? ValueOperations.not(result) : result
      }

    case .glob(let operand, let pattern, let negated):
      let patternValue = try compile(pattern)
      let value = try compile(operand)
      let (v, p) = (value.evaluate, patternValue.evaluate)
      return derived([patternValue, value]) { context in
        let patternResult = try p(context)
        let result = try Pattern.glob(try v(context), pattern: patternResult)
        return negated ? ValueOperations.not(result) : result
      }

    case .isNull(let operand, let negated):
      let inner = try compile(operand)
      // SQLite answers `x IS [NOT] NULL` up front when x is a column that cannot hold NULL (a
      // NOT NULL column or the rowid), even where x reads no row (an aggregate over no rows).
      if cannotBeNull(operand) {
        let value = negated ? ValueOperations.one : ValueOperations.zero
        return constant { _ in value }
      }
      let evaluate = inner.evaluate
      return derived([inner]) { context in
        (try evaluate(context).isNull != negated) ? ValueOperations.one : ValueOperations.zero
      }

    case .caseWhen(let base, let branches, let otherwise):
      return try caseWhen(base, branches, otherwise)

    case .collate(let operand, let collation):
      let inner = try compile(operand)
      return CompiledExpression(
        evaluate: inner.evaluate, affinity: inner.affinity, collation: collation, hasExplicitCollation: true,
        isConstant: inner.isConstant)
    }
  }

  /// The collation a binary comparison of `lhs` and `rhs` uses (SQLite's `sqlite3BinaryCompareCollSeq`).
  static func comparisonCollation(_ lhs: CompiledExpression, _ rhs: CompiledExpression) -> Collation {
    if lhs.hasExplicitCollation { return lhs.collation ?? .binary }
    if rhs.hasExplicitCollation { return rhs.collation ?? .binary }
    return lhs.collation ?? rhs.collation ?? .binary
  }

  /// Binds parameter values to the statement's slots, or throws ``TandemError/misuse(_:)``
  /// naming the first missing one.
  func bind(_ parameters: [String: SqliteValue]) throws -> [SqliteValue] {
    try Self.bind(parameterNames, parameters)
  }

  /// Binds parameter values to slots named `names`.
  static func bind(_ names: [String], _ parameters: [String: SqliteValue]) throws -> [SqliteValue] {
    try names.map { name in
      guard let value = parameters[name] else {
        throw TandemError.misuse("missing value for parameter :\(name)")
      }
      return ValueOperations.bound(value)
    }
  }

  // MARK: - Nodes

  func parameterSlot(_ name: String) -> Int {
    if let slot = parameterSlots[name] { return slot }
    let slot = parameterNames.count
    parameterNames.append(name)
    parameterSlots[name] = slot
    return slot
  }

  func constant(_ evaluate: @escaping ValueEvaluator) -> CompiledExpression {
    CompiledExpression(
      evaluate: evaluate, affinity: .none, collation: nil, hasExplicitCollation: false, isConstant: true)
  }

  /// An expression built from `children` (in SQLite's operand order): no affinity; the
  /// collation of the first child carrying an explicit COLLATE.
  func derived(_ children: [CompiledExpression], _ evaluate: @escaping ValueEvaluator)
    -> CompiledExpression
  {
    let explicit = children.first { $0.hasExplicitCollation }
    return CompiledExpression(
      evaluate: evaluate, affinity: .none, collation: explicit?.collation,
      hasExplicitCollation: explicit != nil, isConstant: children.allSatisfy(\.isConstant))
  }

  /// SQLite's `sqlite3ExprCanBeNull` is false: a NOT NULL column or the rowid, under any `+`/`-` (in a
  /// join, of a table that is not the right side of a LEFT JOIN).
  func cannotBeNull(_ expression: SQLExpression) -> Bool {
    if let scope, !hidesColumns {
      let reference: SourceScope.Reference?
      switch expression {
      case .unary(.plus, let inner), .unary(.negate, let inner): return cannotBeNull(inner)
      case .column(let name): reference = try? scope.resolve(column: name, source: nil, marking: false)
      case .qualifiedColumn(let source, let name): reference = try? scope.resolve(column: name, source: source, marking: false)
      case .rowid: reference = try? scope.resolveRowid(source: nil, marking: false)
      case .qualifiedRowid(let source): reference = try? scope.resolveRowid(source: source, marking: false)
      default: reference = nil
      }
      return reference.map(scope.cannotBeNull) ?? false
    }
    guard let table else { return false }
    switch expression {
    case .unary(.plus, let inner), .unary(.negate, let inner):
      return cannotBeNull(inner)
    case .rowid:
      return true
    case .column(let name):
      guard let index = table.columnIndex(name) else { return NameKey(name).isRowidName }
      return index == table.rowidColumn || table.notNull[index]
    default:
      return false
    }
  }

  /// A column fixed by constant propagation: the value with the column's affinity applied
  /// (SQLite codes `OP_Affinity`; REAL keeps a whole number as a REAL), and the column's
  /// affinity and collation.
  private func fixedColumn(_ fixed: FixedColumn) throws -> CompiledExpression {
    let column = try compile(fixed.column)
    let value = try compile(fixed.value).evaluate
    let affinity = column.affinity
    return CompiledExpression(
      evaluate: { context in try value(context).applyingStorageAffinity(affinity) }, affinity: affinity,
      collation: column.collation, hasExplicitCollation: false, isConstant: true)
  }

  /// A column of a relational query's combined row.
  ///
  /// A column has its declared collation, BINARY; the rowid — and a column aliasing it, which
  /// SQLite resolves to the rowid — has none (`sqlite3ExprCollSeq` reads a collation for a
  /// column of position ≥ 0 only), so a compound's column it leads takes a later member's.
  private func scoped(_ reference: SourceScope.Reference) -> CompiledExpression {
    let slot = reference.slot
    return CompiledExpression(
      evaluate: { context in context.row?[slot] ?? .null }, affinity: reference.affinity,
      collation: reference.isRowid ? nil : .binary, hasExplicitCollation: false, isConstant: false)
  }

  private func rowidReference() -> CompiledExpression {
    CompiledExpression(
      evaluate: { context in context.row == nil ? .null : .integer(context.rowid) }, affinity: .integer,
      collation: nil, hasExplicitCollation: false, isConstant: false)
  }

  private func column(named name: String) throws -> CompiledExpression {
    guard let table, !hidesColumns else { throw EngineError.noSuchColumn(name) }
    guard let index = table.columnIndex(name) else {
      if NameKey(name).isRowidName { return rowidReference() }
      throw EngineError.noSuchColumn(name)
    }
    if index == table.rowidColumn {
      // The alias reads the rowid itself (identical to the stored copy), and as SQLite resolves
      // it to the rowid, it has no collation either.
      return rowidReference()
    }
    return CompiledExpression(
      evaluate: { context in context.row?[index] ?? .null }, affinity: table.affinities[index],
      collation: .binary, hasExplicitCollation: false, isConstant: false)
  }

  private func binary(_ op: BinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) throws
    -> CompiledExpression
  {
    let (left, right) = try operands(op, lhs, rhs)
    let (l, r) = (left.evaluate, right.evaluate)
    if let comparison = ComparisonOperator(op) {
      let collation = Self.comparisonCollation(left, right)
      let (la, ra) = (left.affinity, right.affinity)
      return derived([left, right]) { context in
        ValueOperations.compare(comparison, try l(context), la, try r(context), ra, collation)
      }
    }
    let operation: @Sendable (SqliteValue, SqliteValue) throws -> SqliteValue
    switch op {
    case .and: operation = ValueOperations.and
    case .or: operation = ValueOperations.or
    case .add: operation = Arithmetic.add
    case .subtract: operation = Arithmetic.subtract
    case .multiply: operation = Arithmetic.multiply
    case .divide: operation = Arithmetic.divide
    case .remainder: operation = Arithmetic.remainder
    case .concatenate: operation = Arithmetic.concatenate
    case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .is, .isNot:
      throw EngineError.unsupported("comparison operator \(op.rawValue)")  // handled above
    }
    // Both operands are evaluated, even for AND/OR, as SQLite 3.40 does in a value context.
    return derived([left, right]) { context in try operation(try l(context), try r(context)) }
  }

  /// `x IS TRUE`, `x IS FALSE` and their IS NOT forms: whether x is non-NULL and true (false),
  /// by the truthiness rules (Docs/SQLiteSemantics.md §5); never NULL.
  func truthTest(_ operand: SQLExpression, isTrue: Bool, negated: Bool) throws -> CompiledExpression {
    let inner = try compile(operand)
    let evaluate = inner.evaluate
    return derived([inner]) { context in
      let matches = Truth.isTrue(try evaluate(context)) == isTrue
      return matches != negated ? ValueOperations.one : ValueOperations.zero
    }
  }

  /// Compiles both operands of a binary operator in SQLite's name-resolution order: left then
  /// right, except that for IS / IS NOT a plain name on the right is resolved first (SQLite looks
  /// for `x IS TRUE` there), so its `no such column` error wins.
  func operands(_ op: BinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) throws
    -> (CompiledExpression, CompiledExpression)
  {
    if op == .is || op == .isNot {
      var bare = rhs
      while case .collate(let inner, _) = bare { bare = inner }
      switch bare {
      case .column, .rowid:
        let right = try compile(rhs)
        return (try compile(lhs), right)
      default:
        break
      }
    }
    let left = try compile(lhs)
    let right = try compile(rhs)
    guard ComparisonOperator(op) != nil else { return (left, right) }
    return (
      refusingNumberBesideText(left, lhs, comparedWith: right.affinity),
      refusingNumberBesideText(right, rhs, comparedWith: left.affinity)
    )
  }

  /// `compiled`, refusing at run time the comparison SQLite makes differently.
  ///
  /// `replace(X, '', Z)` returns X itself after reading it as text, so a number comes back holding
  /// its text beside it. A comparison that applies TEXT affinity converts only a value without
  /// text (OP_Eq and its kin), so SQLite compares that one as the number — where an index seek by
  /// it (OP_Affinity) compares text, as the engine does. Which of the two SQLite runs is its
  /// plan's choice, so a number from a `replace` call (under COLLATE or unary `+`) that meets
  /// TEXT affinity in a comparison is refused.
  ///
  /// A scalar subquery hands such a number over as it is: one whose result column (in any
  /// member of a compound) is a `replace` call counts too.
  ///
  /// ```sql
  /// SELECT t = replace(5, '', 'x') FROM s   -- 0 by a scan of s, 1 by a seek of an index on t
  /// ```
  func refusingNumberBesideText(
    _ compiled: CompiledExpression, _ expression: SQLExpression, comparedWith other: Affinity
  ) -> CompiledExpression {
    guard let refuse = numberBesideTextRefusal(expression, affinity: compiled.affinity, comparedWith: other) else {
      return compiled
    }
    let evaluate = compiled.evaluate
    return CompiledExpression(
      evaluate: { context in
        let value = try evaluate(context)
        try refuse(value)
        return value
      },
      affinity: compiled.affinity, collation: compiled.collation,
      hasExplicitCollation: compiled.hasExplicitCollation, isConstant: compiled.isConstant)
  }

  /// The check ``refusingNumberBesideText(_:_:comparedWith:)`` makes of a value of `expression`
  /// (of `affinity`) compared with an operand of affinity `other`, or `nil` where it cannot
  /// apply: it throws for a number.
  func numberBesideTextRefusal(
    _ expression: SQLExpression, affinity: Affinity, comparedWith other: Affinity
  ) -> (@Sendable (SqliteValue) throws -> Void)? {
    func mayReturnReplaced(_ expression: SQLExpression) -> Bool {
      switch expression {
      case .collate(let inner, _), .unary(.plus, let inner): return mayReturnReplaced(inner)
      case .function(.replace, _): return true
      case .subquery(let select):
        return select.memberSelects.contains { $0.columns.first.map(mayReturnReplaced) ?? false }
      default: return false
      }
    }
    guard mayReturnReplaced(expression), ComparisonOperands.combined(affinity, other) == .text else { return nil }
    return { value in
      switch value {
      case .integer, .real:
        throw EngineError.unsupported(
          "a comparison under TEXT affinity of the number replace(X, '', Z) returns (SQLite compares it as a number by a scan, as text by an index seek)")
      default:
        return
      }
    }
  }

  private func call(_ function: ScalarFunction, _ arguments: [SQLExpression]) throws -> CompiledExpression {
    guard function.arity.contains(arguments.count) else {
      throw EngineError.wrongArgumentCount(function.rawValue)
    }
    let compiled = try arguments.map(compile)
    let evaluators = compiled.map(\.evaluate)
    let collation = compiled.lazy.compactMap(\.collation).first ?? .binary
    switch function {
    case .coalesce, .ifnull:
      return derived(compiled) { context in
        for evaluate in evaluators {
          let value = try evaluate(context)
          if !value.isNull { return value }
        }
        return .null
      }
    default:
      return derived(compiled) { context in
        var values: [SqliteValue] = []
        values.reserveCapacity(evaluators.count)
        for evaluate in evaluators { values.append(try evaluate(context)) }
        return try ScalarFunctions.call(function, values, collation: collation)
      }
    }
  }

  private func aggregate(
    _ function: AggregateFunction, _ argument: SQLExpression?, distinct: Bool, separator: SQLExpression?
  ) throws -> CompiledExpression {
    if argument == nil && function != .count { throw EngineError.wrongArgumentCount(function.rawValue) }
    if argument == nil && distinct { throw EngineError.sqlite(1, "near \"*\": syntax error") }
    if separator != nil && (function != .groupConcat || argument == nil) {
      throw EngineError.wrongArgumentCount(function.rawValue)
    }
    switch aggregatePolicy {
    case .forbidden:
      throw EngineError.aggregateMisuse(function)
    case .groupBy:
      throw EngineError.sqlite(1, "aggregate functions are not allowed in the GROUP BY clause")
    case .deferredMisuse:
      if deferredError == nil {
        deferredError = EngineError.sqlite(1, "misuse of aggregate: \(function.rawValue)()")
      }
      return constant { _ in .null }
    case .collect:
      if insideAggregate { throw EngineError.aggregateMisuse(function) }
    }
    let expression = SQLExpression.aggregate(function, argument, distinct: distinct, separator: separator)
    let compiledArgument: CompiledExpression?
    let compiledSeparator: CompiledExpression?
    do {
      insideAggregate = true
      defer { insideAggregate = false }
      compiledArgument = try argument.map(compile)
      compiledSeparator = try separator.map(compile)
    }
    // SQLite finds this when it sets up the aggregates, after resolving every name.
    if separator != nil && distinct && deferredError == nil {
      deferredError = EngineError.sqlite(1, "DISTINCT aggregates must have exactly one argument")
    }
    let key = canonical(expression)
    let slot: Int
    if let existing = aggregateSlots[key] {
      slot = existing
    } else {
      slot = aggregates.count
      aggregates.append(
        AggregateCall(
          function: function, argument: compiledArgument?.evaluate, separator: compiledSeparator?.evaluate,
          distinct: distinct,
          collation: compiledArgument?.collation ?? .binary))
      aggregateSlots[key] = slot
    }
    // The call takes the collation of its first argument that has an explicit one.
    let collated = [compiledArgument, compiledSeparator].lazy.compactMap { $0 }.first { $0.hasExplicitCollation }
    return CompiledExpression(
      evaluate: { context in context.aggregates?[slot] ?? .null }, affinity: .none,
      collation: collated?.collation, hasExplicitCollation: collated != nil,
      isConstant: false)
  }

  private func inList(_ operand: SQLExpression, _ list: [SQLExpression], negated: Bool) throws
    -> CompiledExpression
  {
    let value = try compile(operand)
    let items = try list.map { item in
      refusingNumberBesideText(try compile(item), item, comparedWith: value.affinity)
    }
    let evaluate = value.evaluate
    let affinity = value.affinity
    let collation = value.collation ?? .binary
    let itemEvaluators = items.map(\.evaluate)
    let (found, missing) = negated ? (ValueOperations.zero, ValueOperations.one) : (ValueOperations.one, ValueOperations.zero)
    return derived([value] + items) { context in
      if itemEvaluators.isEmpty { return missing }
      let x = try evaluate(context)
      if x.isNull {
        // SQLite still computes every element (none can match a NULL).
        for item in itemEvaluators { _ = try item(context) }
        return .null
      }
      var sawNull = false
      for item in itemEvaluators {
        let candidate = try item(context)
        if candidate.isNull {
          sawNull = true
        } else if ValueOperations.ordering(x, affinity, candidate, .none, collation) == 0 {
          return found
        }
      }
      return sawNull ? .null : missing
    }
  }

  private func caseWhen(_ base: SQLExpression?, _ branches: [CaseBranch], _ otherwise: SQLExpression?) throws
    -> CompiledExpression
  {
    let compiledBase = try base.map(compile)
    var children: [CompiledExpression] = compiledBase.map { [$0] } ?? []
    if let base, let compiledBase {
      var arms: [(ValueEvaluator, Affinity, Collation, ValueEvaluator, (@Sendable (SqliteValue) throws -> Void)?)] = []
      for branch in branches {
        let when = refusingNumberBesideText(try compile(branch.when), branch.when, comparedWith: compiledBase.affinity)
        let then = try compile(branch.then)
        children += [when, then]
        // The base is compared with each WHEN value: refused beside text as the WHEN value is.
        let refuseBase = numberBesideTextRefusal(base, affinity: compiledBase.affinity, comparedWith: when.affinity)
        arms.append((when.evaluate, when.affinity, Self.comparisonCollation(compiledBase, when), then.evaluate, refuseBase))
      }
      let fallback = try otherwise.map(compile)
      if let fallback { children.append(fallback) }
      let evaluateBase = compiledBase.evaluate
      let baseAffinity = compiledBase.affinity
      let evaluateElse = fallback?.evaluate
      let compared = arms
      return derived(children) { context in
        let x = try evaluateBase(context)
        for (when, affinity, collation, then, refuseBase) in compared {
          let candidate = try when(context)
          try refuseBase?(x)
          if ValueOperations.compare(.equal, x, baseAffinity, candidate, affinity, collation) == ValueOperations.one {
            return try then(context)
          }
        }
        return try evaluateElse?(context) ?? .null
      }
    }
    var arms: [(ConditionEvaluator, ValueEvaluator)] = []
    for branch in branches {
      let when = try compile(branch.when)
      let test = try condition(branch.when).test
      let then = try compile(branch.then)
      children += [when, then]
      arms.append((test, then.evaluate))
    }
    let fallback = try otherwise.map(compile)
    if let fallback { children.append(fallback) }
    let evaluateElse = fallback?.evaluate
    let tested = arms
    return derived(children) { context in
      for (test, then) in tested where try test(context) { return try then(context) }
      return try evaluateElse?(context) ?? .null
    }
  }

  /// Whether the error is a name resolution error (`no such column`, `ambiguous column name`).
  static func isNameError(_ error: TandemError) -> Bool {
    error.kind == .sqlite
      && (error.message.hasPrefix("no such column:") || error.message.hasPrefix("ambiguous column name:"))
  }

  /// Whether SQLite reports the error only when it generates code, after resolving the whole
  /// statement's names: a subquery's column count, an aggregate misused in a non-aggregate
  /// query's ORDER BY, a DISTINCT aggregate with a separator.
  static func isCodeGenerationError(_ error: TandemError) -> Bool {
    error.kind == .sqlite
      && (error.message.hasPrefix("sub-select returns ") || error.message.hasPrefix("misuse of aggregate: ")
        || error.message == "DISTINCT aggregates must have exactly one argument")
  }

  /// Whether SQLite reports the error while it resolves names (which stops at it): any of its
  /// errors but those of ``isCodeGenerationError(_:)``.
  static func isResolutionError(_ error: TandemError) -> Bool {
    error.kind == .sqlite && !isCodeGenerationError(error)
  }
}
