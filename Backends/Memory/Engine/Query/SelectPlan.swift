import TandemCore

/// A compiled SELECT: every expression resolved and turned into closures once.
///
/// Immutable and bound to no database: it names its table by creation position, and the
/// caller hands it that table's storage at run time, so every database with the same schema
/// can run it (see ``SharedPlanCache``).
final class SelectPlan: Sendable {
  /// The grouped part of an aggregate query.
  struct AggregatePart: Sendable {
    let groupKeys: [ValueEvaluator]
    /// How groups are ordered: ascending, except that when ORDER BY has as many terms as GROUP BY,
    /// SQLite gives each GROUP BY term the ASC/DESC of the ORDER BY term at the same position.
    let groupTerms: [SortTerm]
    let having: ConditionEvaluator?
    let calls: [ExpressionCompiler.AggregateCall]
    /// SQLite's AggInfo entries in analysis order (result columns, ORDER BY, HAVING), the order
    /// in which it steps them for each row, as slots. Equal calls share an entry, but calls
    /// holding placeholders never match, so their slot may come again: the repeat steps a copy
    /// in the same state, which only replays its min()/max() decision.
    let stepOrder: [Int]
    /// Whether each position of `stepOrder` is its slot's first (the one that steps it).
    let stepsSlot: [Bool]
    /// Whether a min() or max() call decides which row bare columns read (else: the first row).
    let hasExtremum: Bool
    /// Whether ORDER BY repeats GROUP BY term for term, so groups already come out in order and
    /// SQLite drops the sort (and stops at LIMIT without touching later groups).
    let orderedByGroups: Bool
  }

  /// The table's position in the catalog's creation order.
  let tablePosition: Int
  let parameterNames: [String]
  /// The parameter names in placeholder order, for the missing-value check of later runs.
  let placeholderNames: [String]
  let window: LimitClause
  let filter: FilterPlan
  /// How each result column is read: straight from the row when it is a plain column.
  let projection: [Projection]
  /// Whether the result columns are the table's columns in order (the rowid alias, which
  /// stores a copy of the rowid, at its own position): a result row is then a copy of the
  /// stored row.
  let copiesRows: Bool
  /// Whether some placeholder names a parameter that no compiled expression reads (SQLite's
  /// parser dropped it), which must still have a value.
  let hasUnreadPlaceholders: Bool
  let columnCollations: [Collation]
  let distinct: Bool
  let orderKeys: [ValueEvaluator]
  let orderTerms: [SortTerm]
  /// When ORDER BY starts with the rowid, SQLite reads the table in rowid order (backwards for
  /// DESC) instead of sorting: `false` ascending, `true` descending, `nil` when it sorts.
  let rowidOrder: Bool?
  /// Whether ORDER BY starts with a column that leads an index, which SQLite may then walk
  /// instead of sorting: it evaluates a row's result columns only once the row is inside the
  /// LIMIT/OFFSET window, where a sort evaluates every row. Whether it walks the index is its
  /// planner's choice, so the engine cannot tell which rows SQLite evaluates.
  let mayReadInIndexOrder: Bool
  /// Whether result rows can be handed over as the scan meets them (see ``run(_:table:eachRow:)``):
  /// no aggregate, DISTINCT or sort, and every result column read straight from the row.
  let streams: Bool
  let aggregate: AggregatePart?

  /// Compiles `statement` against the table `definition`, found at `tablePosition`.
  init(_ statement: SelectStatement, definition: TableDefinition, tablePosition: Int) throws {
    self.tablePosition = tablePosition
    let compiler = ExpressionCompiler(table: definition)
    let isAggregate = !statement.groupBy.isEmpty || statement.columns.contains(where: Self.hasAggregate)

    // SQLite resolves LIMIT/OFFSET (which may name no column), the result columns, HAVING,
    // WHERE, ORDER BY and GROUP BY in this order; the first error wins.
    compiler.hidesColumns = true
    window = try LimitClause(limit: statement.limit, offset: statement.offset, compiler: compiler)
    compiler.hidesColumns = false

    compiler.aggregatePolicy = isAggregate ? .collect : .forbidden
    let compiledColumns = try statement.columns.map(compiler.compile)
    var having: ConditionEvaluator?
    var whereClause = statement.filter
    if let clause = statement.having {
      guard isAggregate else { throw EngineError.sqlite(1, "HAVING clause on a non-aggregate query") }
      having = try compiler.condition(clause).test
      if !statement.groupBy.isEmpty {
        // SQLite moves HAVING terms that only read GROUP BY terms into WHERE.
        let (kept, moved) = try Self.splitHaving(clause, groupBy: statement.groupBy, compiler: compiler)
        for term in moved {
          whereClause = whereClause.map { .binary(.and, $0, term) } ?? term
        }
        having = try kept.map { try compiler.condition($0).test }
      }
    }
    compiler.aggregatePolicy = .forbidden
    // The SQLite backend reads aggregate and DISTINCT queries NOT INDEXED: no unique index lookups.
    filter = try FilterPlan(whereClause, compiler: compiler, usesIndexes: !(statement.isAggregate || statement.distinct))
    compiler.aggregatePolicy = isAggregate ? .collect : .deferredMisuse
    try Self.checkOrdinals(statement.orderBy.map(\.expression), clause: "ORDER", columns: statement.columns.count)
    let compiledOrder = try statement.orderBy.map { try compiler.compile($0.expression) }
    compiler.aggregatePolicy = .groupBy
    try Self.checkOrdinals(statement.groupBy, clause: "GROUP", columns: statement.columns.count)
    let compiledGroups = try statement.groupBy.map(compiler.compile)
    if let error = compiler.deferredError { throw error }

    parameterNames = compiler.parameterNames
    placeholderNames = StatementShape.placeholderNames(.select(statement))
    let projection = zip(statement.columns, compiledColumns).map { expression, compiled in
      Projection(expression, table: definition, fallback: compiled.evaluate)
    }
    self.projection = projection
    copiesRows =
      projection.count == definition.columnCount
      && projection.indices.allSatisfy { index in
        switch projection[index] {
        case .column(let column): column == index
        case .rowid: index == definition.rowidColumn
        case .computed: false
        }
      }
    hasUnreadPlaceholders = !Set(placeholderNames).isSubset(of: parameterNames)
    columnCollations = compiledColumns.map { $0.collation ?? .binary }
    distinct = statement.distinct
    orderKeys = compiledOrder.map(\.evaluate)
    orderTerms = zip(statement.orderBy, compiledOrder).map { term, compiled in
      SortTerm(descending: term.descending, nulls: term.nulls, collation: compiled.collation ?? .binary)
    }
    mayReadInIndexOrder = statement.orderBy.first.map { term in
      guard case .column(let name) = ExpressionCompiler.withoutCollate(term.expression),
        let column = definition.columnIndex(name)
      else { return false }
      return definition.uniqueConstraints.contains { $0.columns.first == column }
        || definition.schema.indexes.contains { index in
          index.columns.first.flatMap { definition.columnIndex($0) } == column
        }
    } ?? false
    rowidOrder = isAggregate ? nil : statement.orderBy.first.flatMap { term in
      switch term.expression {
      case .rowid:
        return term.descending
      case .column(let name):
        let index = definition.columnIndex(name)
        let isRowid = index.map { $0 == definition.rowidColumn } ?? NameKey(name).isRowidName
        return isRowid ? term.descending : nil
      default:
        return nil
      }
    }
    if isAggregate {
      let analysisOrder = statement.columns + statement.orderBy.map(\.expression) + [statement.having].compactMap { $0 }
      var stepOrder: [Int] = []
      for call in Self.aggregateCalls(in: analysisOrder) {
        guard let slot = compiler.aggregateSlot(for: call) else { continue }
        if !stepOrder.contains(slot) || !ExpressionCompiler.isComparable(call) { stepOrder.append(slot) }
      }
      for slot in compiler.aggregates.indices where !stepOrder.contains(slot) { stepOrder.append(slot) }
      let stepsSlot = stepOrder.indices.map { !stepOrder[..<$0].contains(stepOrder[$0]) }
      let sameLength = statement.orderBy.count == statement.groupBy.count
      let groupTerms = compiledGroups.enumerated().map { index, compiled in
        SortTerm(
          descending: sameLength && statement.orderBy[index].descending, nulls: nil,
          collation: compiled.collation ?? .binary)
      }
      aggregate = AggregatePart(
        groupKeys: compiledGroups.map(\.evaluate), groupTerms: groupTerms,
        having: having, calls: compiler.aggregates, stepOrder: stepOrder, stepsSlot: stepsSlot,
        hasExtremum: compiler.aggregates.contains { $0.function == .min || $0.function == .max },
        orderedByGroups: sameLength && zip(statement.orderBy, statement.groupBy).allSatisfy { term, group in
          compiler.comparisonKey(group).map { $0 == compiler.comparisonKey(term.expression) } == true
            && (term.nulls == nil || (term.nulls == .last) == term.descending)
        })
    } else {
      aggregate = nil
    }
    streams =
      !isAggregate && !distinct && (orderKeys.isEmpty || rowidOrder != nil)
      && projection.allSatisfy { if case .computed = $0 { false } else { true } }
  }

  /// Whether an aggregate call survives SQLite's parse-time folding (see
  /// ``ExpressionCompiler/foldsToZero(_:)``) somewhere in the expression.
  static func hasAggregate(_ expression: SQLExpression) -> Bool {
    !aggregateCalls(in: [expression]).isEmpty
  }

  /// An ORDER BY or GROUP BY term that SQLite's parser folded to the integer 0 reads as the
  /// column ordinal 0, which is out of range.
  private static func checkOrdinals(_ terms: [SQLExpression], clause: String, columns: Int) throws {
    for (index, term) in terms.enumerated() where ExpressionCompiler.isFoldedInteger(ExpressionCompiler.withoutCollate(term)) {
      throw EngineError.sqlite(
        1, "\(ordinal(index + 1)) \(clause) BY term out of range - should be between 1 and \(columns)")
    }
  }

  /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`… as SQLite's `%r` writes them.
  static func ordinal(_ number: Int) -> String {
    let lastTwo = number % 100
    let suffix: String
    if (11...13).contains(lastTwo) {
      suffix = "th"
    } else {
      switch number % 10 {
      case 1: suffix = "st"
      case 2: suffix = "nd"
      case 3: suffix = "rd"
      default: suffix = "th"
      }
    }
    return "\(number)\(suffix)"
  }

  /// Splits HAVING into the part that stays and the terms SQLite moves to WHERE (those without
  /// aggregates whose column references all sit inside a BINARY-collated GROUP BY term that
  /// `sqlite3ExprCompare` matches — see ``ExpressionCompiler/isComparable(_:)``).
  private static func splitHaving(
    _ having: SQLExpression, groupBy: [SQLExpression], compiler: ExpressionCompiler
  ) throws -> (kept: SQLExpression?, moved: [SQLExpression]) {
    let binaryGroups = try groupBy.filter { term in
      let collation = try ExpressionCompiler(table: compiler.table).compile(term).collation
      return collation == nil || collation == .binary
    }.compactMap { compiler.comparisonKey(ExpressionCompiler.withoutCollate($0)) }
    func readsOnlyGroups(_ expression: SQLExpression) -> Bool {
      if let key = compiler.comparisonKey(ExpressionCompiler.withoutCollate(expression)), binaryGroups.contains(key) {
        return true
      }
      switch expression {
      case .column, .rowid, .excluded, .aggregate: return false
      case .literal, .parameter: return true
      case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): return readsOnlyGroups(e)
      case .binary(_, let a, let b): return readsOnlyGroups(a) && readsOnlyGroups(b)
      case .function(_, let arguments): return arguments.allSatisfy(readsOnlyGroups)
      case .inList(let e, let list, _): return readsOnlyGroups(e) && list.allSatisfy(readsOnlyGroups)
      case .between(let a, let b, let c, _): return readsOnlyGroups(a) && readsOnlyGroups(b) && readsOnlyGroups(c)
      case .like(let a, let b, let c, _): return readsOnlyGroups(a) && readsOnlyGroups(b) && (c.map(readsOnlyGroups) ?? true)
      case .glob(let a, let b, _): return readsOnlyGroups(a) && readsOnlyGroups(b)
      case .caseWhen(let base, let branches, let otherwise):
        return (base.map(readsOnlyGroups) ?? true)
          && branches.allSatisfy { readsOnlyGroups($0.when) && readsOnlyGroups($0.then) }
          && (otherwise.map(readsOnlyGroups) ?? true)
      }
    }
    var moved: [SQLExpression] = []
    func rewrite(_ expression: SQLExpression) -> SQLExpression {
      if case .binary(.and, let lhs, let rhs) = expression { return .binary(.and, rewrite(lhs), rewrite(rhs)) }
      if !hasAggregate(expression) && readsOnlyGroups(expression) {
        moved.append(expression)
        return .literal(.integer(1))
      }
      return expression
    }
    let kept = rewrite(having)
    return (kept, moved)
  }


  /// One result column: a stored column, the rowid, or anything else.
  enum Projection: Sendable {
    case column(Int)
    case rowid
    case computed(ValueEvaluator)

    init(_ expression: SQLExpression, table: TableDefinition, fallback: @escaping ValueEvaluator) {
      switch expression {
      case .rowid:
        self = .rowid
      case .column(let name):
        if let index = table.columnIndex(name) {
          self = index == table.rowidColumn ? .rowid : .column(index)
        } else {
          self = NameKey(name).isRowidName ? .rowid : .computed(fallback)
        }
      default:
        self = .computed(fallback)
      }
    }
  }

  /// Aggregate calls in the order SQLite's analysis meets them (pre-order, operands left to right).
  private static func aggregateCalls(in expressions: [SQLExpression]) -> [SQLExpression] {
    var result: [SQLExpression] = []
    func walk(_ expression: SQLExpression) {
      if ExpressionCompiler.foldsToZero(expression) { return }
      if case .inList(_, let list, _) = expression, list.isEmpty { return }
      switch expression {
      case .aggregate: result.append(expression)
      case .column, .rowid, .excluded, .literal, .parameter: break
      case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): walk(e)
      case .binary(_, let a, let b): walk(a); walk(b)
      case .function(_, let arguments): arguments.forEach(walk)
      case .inList(let e, let list, _): walk(e); list.forEach(walk)
      case .between(let a, let b, let c, _): walk(a); walk(b); walk(c)
      case .like(let value, let pattern, let escape, _): walk(pattern); walk(value); escape.map(walk)
      case .glob(let value, let pattern, _): walk(pattern); walk(value)
      case .caseWhen(let base, let branches, let otherwise):
        base.map(walk)
        for branch in branches { walk(branch.when); walk(branch.then) }
        otherwise.map(walk)
      }
    }
    expressions.forEach(walk)
    return result
  }

  /// Runs the query on `table` (the storage of the table it was compiled for). A missing
  /// parameter value is the misuse error for the first placeholder without one.
  func run(_ parameters: [String: SqliteValue], table: TableStorage) throws -> [[SqliteValue]] {
    return try withBoundParameters(parameters) { bound in
      var context = EvaluationContext()
      context.parameters = bound
      guard let window = try self.window.evaluate(context) else { return [] }
      let constantsHold = try filter.constantsHold(context)
      if let aggregate {
        return try runAggregate(aggregate, table: table, window: window, context, rowsExist: constantsHold)
      }
      guard constantsHold else { return [] }
      return try runPlain(table: table, window: window, context)
    }
  }

  private func runPlain(
    table: TableStorage, window: (limit: Int?, offset: Int), _ context: EvaluationContext
  ) throws -> [[SqliteValue]] {
    // ORDER BY rowid needs no sort: the scan order is the output order (the rowid is unique,
    // so later terms never apply), and LIMIT stops the scan.
    let sorts = !orderKeys.isEmpty && rowidOrder == nil
    var collector = OutputCollector(
      distinct: distinct ? columnCollations : nil, orderBy: sorts ? orderTerms : nil, window: window)
    let windowed = window.limit != nil || window.offset > 0
    try filter.forEachRow(in: table, context, descending: rowidOrder == true) { row, _ in
      do {
        return try collector.offer(project: { try project(row) }, keys: { try orderKeys.map { try $0(row) } })
      } catch let error as TandemError where sorts && windowed && mayReadInIndexOrder && error.kind != .unsupported {
        // SQLite may never evaluate this row (see ``mayReadInIndexOrder``): refuse, not guess.
        throw EngineError.unsupported(
          "an error (\(error.message)) in a row that LIMIT/OFFSET may skip when SQLite reads ORDER BY from an index")
      }
    }
    return collector.result()
  }

  /// Calls `body` with the parameter values in slot order, in a temporary buffer (`nil` when
  /// there are none); a missing value is reported in placeholder order.
  func withBoundParameters<Result>(
    _ parameters: [String: SqliteValue], _ body: (UnsafePointer<SqliteValue>?) throws -> Result
  ) throws -> Result {
    let count = parameterNames.count
    if count == 0 {
      if hasUnreadPlaceholders { try StatementShape.checkParameters(placeholderNames, parameters) }
      return try body(nil)
    }
    return try withUnsafeTemporaryAllocation(of: SqliteValue.self, capacity: count) { buffer in
      var bound = 0
      defer { UnsafeMutableBufferPointer(rebasing: buffer[..<bound]).deinitialize() }
      for name in parameterNames {
        guard let value = parameters[name] else { break }
        buffer.initializeElement(at: bound, to: ValueOperations.bound(value))
        bound += 1
      }
      if bound < count || hasUnreadPlaceholders {
        try StatementShape.checkParameters(placeholderNames, parameters)
        if bound < count { throw TandemError.misuse("missing value for parameter :\(parameterNames[bound])") }
      }
      return try body(UnsafePointer(buffer.baseAddress))
    }
  }

  @inline(__always)
  private func project(_ row: EvaluationContext) throws -> [SqliteValue] {
    if copiesRows, let stored = row.row {
      let count = projection.count
      var values: [SqliteValue] = []
      values.reserveCapacity(count)
      for index in 0..<count { values.append(stored[index]) }
      return values
    }
    var values: [SqliteValue] = []
    values.reserveCapacity(projection.count)
    for column in projection {
      switch column {
      case .column(let index): values.append(row.row?[index] ?? .null)
      case .rowid: values.append(row.row == nil ? .null : .integer(row.rowid))
      case .computed(let evaluate): values.append(try evaluate(row))
      }
    }
    return values
  }

  private func runAggregate(
    _ aggregate: AggregatePart, table: TableStorage, window: (limit: Int?, offset: Int), _ context: EvaluationContext, rowsExist: Bool
  ) throws -> [[SqliteValue]] {
    // The SQLite backend reads aggregate and DISTINCT queries `NOT INDEXED`: rows in rowid order.
    let matches = rowsExist ? try filter.matchingRows(in: table, context) : []
    let columnCount = table.data.columnCount
    return try table.data.withCells { base in
      func rowContext(_ index: Int) -> EvaluationContext {
        var row = context
        if let base {
          row.row = base + Int(matches[index].slot) * columnCount
          row.rowid = matches[index].rowid
        }
        return row
      }
      let groups: [[Int]]
      if aggregate.groupKeys.isEmpty {
        groups = [Array(matches.indices)]
      } else {
        var keys: [[SqliteValue]] = []
        keys.reserveCapacity(matches.count)
        for index in matches.indices {
          let row = rowContext(index)
          keys.append(try aggregate.groupKeys.map { try $0(row) })
        }
        groups = Ordering.groups(keys, terms: aggregate.groupTerms)
      }
      let sorts = !orderKeys.isEmpty && !(aggregate.orderedByGroups && !aggregate.groupKeys.isEmpty)
      var collector = OutputCollector(
        distinct: distinct ? columnCollations : nil, orderBy: sorts ? orderTerms : nil, window: window)
      // SQLite's "skip" register, shared by every min()/max() and never reset: bare columns are
      // copied from a row unless the last min()/max() that ran on it skipped it. A DISTINCT
      // duplicate does not run at all and leaves the register as it was.
      var skipped: Bool?
      for group in groups {
        var accumulators = aggregate.calls.map {
          AggregateAccumulator($0.function, distinct: $0.distinct, collation: $0.collation)
        }
        var seen: [Int: Set<ValueEqualityKey>] = [:]
        var representative: Int?
        var overflow: (any Error)?
        // Each min()/max() slot's decision on the current row: skipped, not skipped, or not run.
        var decisions = [Bool?](repeating: nil, count: aggregate.calls.count)
        for member in group {
          let row = rowContext(member)
          for (position, slot) in aggregate.stepOrder.enumerated() {
            let call = aggregate.calls[slot]
            guard aggregate.stepsSlot[position] else {
              if let decision = decisions[slot] { skipped = decision }
              continue
            }
            let value = try call.argument?(row) ?? ValueOperations.zero
            guard call.function == .min || call.function == .max else {
              do {
                try accumulators[slot].step(value)
              } catch where call.function == .sum {
                // SQLite's sum() keeps going and reports `integer overflow` when it is finalized.
                overflow = overflow ?? error
              }
              continue
            }
            // The DISTINCT check treats NULLs as equal to each other.
            if call.distinct
              && seen[slot, default: []].insert(ValueEqualityKey(value, collation: call.collation)).inserted == false
            {
              decisions[slot] = nil
              continue
            }
            let before = accumulators[slot].result()
            try accumulators[slot].step(value)
            skipped = value.isNull ? !before.isNull : !(before.isNull || before != accumulators[slot].result())
            decisions[slot] = skipped
          }
          if aggregate.hasExtremum ? skipped != true : representative == nil { representative = member }
        }
        // Every aggregate is finalized before HAVING runs.
        if let overflow { throw overflow }
        let results = accumulators.map { $0.result() }
        let proceed = try results.withUnsafeBufferPointer { values in
          var groupContext = representative.map(rowContext) ?? context
          groupContext.aggregates = values.baseAddress
          if let having = aggregate.having, try !having(groupContext) { return true }
          return try collector.offer(
            project: { try project(groupContext) }, keys: { try orderKeys.map { try $0(groupContext) } })
        }
        if !proceed { break }
      }
      return collector.result()
    }
  }
}
