import TandemCore

extension SelectPlan {
  /// How a run gets its parameter values: by name, or by position for a prepared query whose
  /// placeholders the plan all reads (see ``PlanCache/PreparedPlan``).
  enum ParameterBinding {
    case byName([String: SqliteValue])
    case bySlot([SqliteValue], [Int])

    /// The values by parameter name, for a plan whose parameters, in slot order, are `names`.
    func values(named names: [String]) -> [String: SqliteValue] {
      switch self {
      case .byName(let parameters):
        return parameters
      case .bySlot(let values, let slots):
        return Dictionary(zip(names, slots.map { values[$0] }), uniquingKeysWith: { first, _ in first })
      }
    }
  }

  /// Whether a prepared query can bind its values by position: every placeholder of its
  /// statement is read by the plan.
  var bindsBySlot: Bool { !hasUnreadPlaceholders }

  /// Runs the query on `table` (the storage of the table it was compiled for) and hands each
  /// result row to `body` as SQLite hands it out: as the scan finds it when no sort is needed,
  /// block by block or at the end otherwise. A row array may be overwritten for the next row
  /// (a row `body` keeps is copied first, as arrays are values). An error thrown by `body` stops
  /// the run and is rethrown.
  func run(_ binding: ParameterBinding, table: TableStorage, eachRow body: ([SqliteValue]) throws -> Void) throws {
    var row: [SqliteValue] = []
    try run(binding, table: table, reusing: &row, eachRow: body)
  }

  /// ``run(_:table:eachRow:)``, streaming rows through `row`: a caller that keeps the array for
  /// its next run (its capacity, emptied) allocates no row array per run.
  ///
  /// ```swift
  /// try plan.run(.byName(["id": 7]), table: table, reusing: &spareRow) { row in … }
  /// ```
  func run(
    _ binding: ParameterBinding, table: TableStorage, reusing row: inout [SqliteValue],
    eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    switch binding {
    case .byName(let parameters):
      try withBoundParameters(parameters) { bound in try run(bound, table: table, row: &row, eachRow: body) }
    case .bySlot(let values, let slots):
      let count = slots.count
      if count == 0 { return try run(nil, table: table, row: &row, eachRow: body) }
      try withUnsafeTemporaryAllocation(of: SqliteValue.self, capacity: count) { buffer in
        for slot in 0..<count { buffer.initializeElement(at: slot, to: ValueOperations.bound(values[slots[slot]])) }
        defer { buffer.deinitialize() }
        try run(UnsafePointer(buffer.baseAddress), table: table, row: &row, eachRow: body)
      }
    }
  }

  /// The plan's EXPLAIN QUERY PLAN lines, for a table named `table`: the scan, then the sorter
  /// the ORDER BY needs, if any (for a query without aggregates).
  func queryPlan(_ parameters: [String: SqliteValue], table: String) throws -> [String] {
    try withBoundParameters(parameters) { bound in
      var context = EvaluationContext()
      context.parameters = bound
      let scan = try source.scan(context)
      var lines = scan.plan.explanation(tableName: table)
      if aggregate == nil && !orderKeys.isEmpty {
        let satisfied = scan.plan.orderSatisfied
        if satisfied == 0 {
          lines.append("USE TEMP B-TREE FOR ORDER BY")
        } else if satisfied < orderKeys.count {
          lines.append("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY")
        }
      }
      return lines
    }
  }

  /// Runs the query and collects its rows.
  func rows(_ parameters: [String: SqliteValue], table: TableStorage) throws -> [[SqliteValue]] {
    var rows: [[SqliteValue]] = []
    try run(.byName(parameters), table: table) { rows.append($0) }
    return rows
  }

  /// Calls `body` with the parameter values in slot order, in a temporary buffer (`nil` when
  /// there are none); a missing value is reported in placeholder order.
  func withBoundParameters<Result>(
    _ parameters: [String: SqliteValue], _ body: (UnsafePointer<SqliteValue>?) throws -> Result
  ) throws -> Result {
    let count = parameterNames.count
    if count == 0 {
      if hasUnreadPlaceholders { try StatementValidation.checkParameters(placeholderNames, parameters) }
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
        try StatementValidation.checkParameters(placeholderNames, parameters)
        if bound < count { throw TandemError.misuse("missing value for parameter :\(parameterNames[bound])") }
      }
      return try body(UnsafePointer(buffer.baseAddress))
    }
  }

  private func run(
    _ bound: UnsafePointer<SqliteValue>?, table: TableStorage, row: inout [SqliteValue],
    eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    var context = EvaluationContext()
    context.parameters = bound
    // LIMIT and OFFSET come first; a LIMIT of 0 ends the statement before anything else.
    guard let window = try self.window.evaluate(context) else { return }
    let scan = try source.scan(context)
    if let aggregate {
      try runAggregate(aggregate, scan, table: table, window: window, context, body)
    } else {
      try runPlain(scan, table: table, window: window, context, row: &row, body)
    }
  }

  private func runPlain(
    _ scan: TableScan, table: TableStorage, window: (limit: Int?, offset: Int), _ context: EvaluationContext,
    row: inout [SqliteValue], _ body: ([SqliteValue]) throws -> Void
  ) throws {
    let satisfied = scan.plan.orderSatisfied
    let order: OutputCollector.Order =
      orderKeys.isEmpty || satisfied >= orderKeys.count
      ? .none : (satisfied == 0 ? .sorted(orderTerms) : .blocks(orderTerms, prefix: satisfied))
    if case .none = order, distinct == false {
      try stream(scan, table: table, window: window, context, into: &row, body)
      return
    }
    var collector = OutputCollector(
      distinct: distinct ? columnCollations : nil, order: order, window: window,
      skipsInnerLoop: scan.plan.innerLoopOrdered, sendsEachRowLate: distinctIsGroupBy)
    try scan.forEachRow(in: table, context) { row in
      try collector.offer(project: { try project(row) }, keys: { try orderKeys.map { try $0(row) } }, emit: body)
    }
    try collector.finish(emit: body)
  }

  /// The rows as the scan finds them, each projected into `values`, reused for the next row
  /// (and emptied at the end, its capacity kept for the caller's next run): OFFSET skips rows
  /// unprojected, LIMIT stops the scan.
  private func stream(
    _ scan: TableScan, table: TableStorage, window: (limit: Int?, offset: Int), _ context: EvaluationContext,
    into values: inout [SqliteValue], _ body: ([SqliteValue]) throws -> Void
  ) throws {
    if !values.isEmpty { values.removeAll(keepingCapacity: true) }
    defer { values.removeAll(keepingCapacity: true) }
    let width = projection.count
    var skipped = 0
    var delivered = 0
    try scan.forEachRow(in: table, context) { row in
      if skipped < window.offset {
        skipped += 1
        return .next
      }
      if copiesRows, let stored = row.row {
        if values.isEmpty {
          values.append(contentsOf: UnsafeBufferPointer(start: stored, count: width))
        } else {
          for index in 0..<width { values[index] = stored[index] }
        }
      } else {
        if values.isEmpty { values.append(contentsOf: repeatElement(.null, count: width)) }
        for (position, column) in projection.enumerated() {
          switch column {
          case .column(let index): values[position] = row.row?[index] ?? .null
          case .rowid: values[position] = row.row == nil ? .null : .integer(row.rowid)
          case .computed(let evaluate): values[position] = try evaluate(row)
          }
        }
      }
      try body(values)
      delivered += 1
      if let limit = window.limit, delivered >= limit { return .stop }
      return .next
    }
  }

  @inline(__always)
  private func project(_ row: EvaluationContext) throws -> [SqliteValue] {
    var values: [SqliteValue] = []
    values.reserveCapacity(projection.count)
    if copiesRows, let stored = row.row {
      for index in 0..<projection.count { values.append(stored[index]) }
      return values
    }
    for column in projection {
      switch column {
      case .column(let index): values.append(row.row?[index] ?? .null)
      case .rowid: values.append(row.row == nil ? .null : .integer(row.rowid))
      case .computed(let evaluate): values.append(try evaluate(row))
      }
    }
    return values
  }

  // MARK: - Aggregates

  /// An aggregate query. Without GROUP BY, each row found is stepped as the scan finds it (the
  /// min/max optimization stops after the first, when the scan delivers its order). With a GROUP
  /// BY the scan delivers, each group is finished and handed out as the next one begins, as
  /// SQLite's loop does (so a LIMIT stops the scan, and a later row's error comes after the
  /// groups before it). Otherwise the group keys of every row are computed first (SQLite's GROUP
  /// BY sorter), then each group, in group order, is stepped, finalized, tested by HAVING and
  /// handed out.
  private func runAggregate(
    _ aggregate: AggregatePart, _ scan: TableScan, table: TableStorage, window: (limit: Int?, offset: Int),
    _ context: EvaluationContext, _ body: ([SqliteValue]) throws -> Void
  ) throws {
    let streamsGroups = !aggregate.groupKeys.isEmpty && scan.plan.orderSatisfied == aggregate.groupKeys.count
    // ORDER BY repeating GROUP BY needs no sort after a GROUP BY sorter, nor after a loop that
    // delivers the groups in its directions (`sqlite3WhereIsSorted`).
    let groupsComeSorted = !aggregate.groupKeys.isEmpty && (!streamsGroups || scan.plan.sortedByGroup)
    let sorts = !orderKeys.isEmpty && !(aggregate.orderedByGroups && groupsComeSorted)
    var collector = OutputCollector(
      distinct: distinct ? columnCollations : nil, order: sorts ? .sorted(orderTerms) : .none, window: window)
    var group = GroupAccumulation(aggregate)
    let columnCount = table.data.columnCount

    if aggregate.groupKeys.isEmpty {
      let earlyOut = scan.plan.isMinMax && scan.plan.innerLoopOrdered && scan.plan.orderSatisfied > 0
      let stopsAt: TableScan.Step = scan.plan.loop.flags.contains(.columnIn) ? .skipInnerLoop : .stop
      var representative: [SqliteValue]?
      var representativeRowid: Int64 = 0
      try scan.forEachRow(in: table, context) { row in
        if try group.step(row) {
          representative = Array(UnsafeBufferPointer(start: row.row, count: columnCount))
          representativeRowid = row.rowid
        }
        return earlyOut ? stopsAt : .next
      }
      let proceed = try finishGroup(
        &group, representative: representative, rowid: representativeRowid, context, &collector, body)
      _ = proceed
      try collector.finish(emit: body)
      return
    }

    if streamsGroups {
      try streamGroups(aggregate, scan, table: table, context, &collector, body)
      try collector.finish(emit: body)
      return
    }

    // The sorter of group keys: every row found, with its keys, in scan order.
    var rows: [(rowid: Int64, values: [SqliteValue], keys: [SqliteValue])] = []
    try scan.forEachRow(in: table, context) { row in
      let keys = try aggregate.groupKeys.map { try $0(row) }
      rows.append((row.rowid, Array(UnsafeBufferPointer(start: row.row, count: columnCount)), keys))
      return .next
    }
    let groups = Ordering.groups(rows.map(\.keys), terms: aggregate.groupTerms)
    for members in groups {
      group = GroupAccumulation(aggregate)
      var representative: Int?
      for member in members {
        let chosen = try rows[member].values.withUnsafeBufferPointer { values -> Bool in
          var row = context
          row.row = values.baseAddress
          row.rowid = rows[member].rowid
          return try group.step(row)
        }
        if chosen { representative = member }
      }
      let proceed = try finishGroup(
        &group, representative: representative.map { rows[$0].values }, rowid: representative.map { rows[$0].rowid } ?? 0,
        context, &collector, body)
      if !proceed { break }
    }
    try collector.finish(emit: body)
  }

  /// Groups the scan's rows as they come, SQLite's loop without a GROUP BY sorter: a row whose
  /// keys differ from its group's first row's ends that group, which is finished and offered
  /// before the row is stepped; the scan stops once no later group can be output.
  private func streamGroups(
    _ aggregate: AggregatePart, _ scan: TableScan, table: TableStorage, _ context: EvaluationContext,
    _ collector: inout OutputCollector, _ body: ([SqliteValue]) throws -> Void
  ) throws {
    let columnCount = table.data.columnCount
    var group = GroupAccumulation(aggregate)
    var groupKeys: [SqliteValue]?
    var representative: [SqliteValue]?
    var representativeRowid: Int64 = 0
    var stopped = false
    try scan.forEachRow(in: table, context) { row in
      let keys = try aggregate.groupKeys.map { try $0(row) }
      if let current = groupKeys, Ordering.compare(current, keys, aggregate.groupTerms) != 0 {
        let proceeds = try finishGroup(
          &group, representative: representative, rowid: representativeRowid, context, &collector, body)
        if !proceeds {
          stopped = true
          return .stop
        }
        group = GroupAccumulation(aggregate)
        groupKeys = keys
        representative = nil
      } else if groupKeys == nil {
        groupKeys = keys
      }
      if try group.step(row) {
        representative = Array(UnsafeBufferPointer(start: row.row, count: columnCount))
        representativeRowid = row.rowid
      }
      return .next
    }
    if groupKeys != nil && !stopped {
      _ = try finishGroup(&group, representative: representative, rowid: representativeRowid, context, &collector, body)
    }
  }

  /// Finalizes a group's aggregates, tests HAVING and offers its row; false once no later group
  /// can be output.
  private func finishGroup(
    _ group: inout GroupAccumulation, representative: [SqliteValue]?, rowid: Int64, _ context: EvaluationContext,
    _ collector: inout OutputCollector, _ body: ([SqliteValue]) throws -> Void
  ) throws -> Bool {
    let results = try group.finish()
    return try results.withUnsafeBufferPointer { values in
      try (representative ?? []).withUnsafeBufferPointer { row in
        var groupContext = context
        if representative != nil {
          groupContext.row = row.baseAddress
          groupContext.rowid = rowid
        }
        groupContext.aggregates = values.baseAddress
        if let having = aggregate?.having, try !having(groupContext) { return true }
        let step = try collector.offer(
          project: { try project(groupContext) }, keys: { try orderKeys.map { try $0(groupContext) } }, emit: body)
        return step != .stop
      }
    }
  }
}

/// One group's aggregate state as SQLite steps it row by row.
struct GroupAccumulation {
  private let aggregate: SelectPlan.AggregatePart
  private var accumulators: [AggregateAccumulator]
  private var seen: [Int: Set<ValueEqualityKey>] = [:]
  private var overflow: (any Error)?
  /// For each sum(), total() and avg() slot: the sums of its positive values, of its negative
  /// values, and of their magnitudes, while ``SelectPlan/AggregatePart/checksOrderFreedom``.
  private var orderFreedom: [Int: (positive: Int64, negative: Int64, magnitude: Double)] = [:]
  /// Each min()/max() slot's decision on the current row: skipped, not skipped, or not run.
  private var decisions: [Bool?]
  /// SQLite's "skip" register, shared by every min()/max() and never reset: bare columns are
  /// copied from a row unless the last min()/max() that ran on it skipped it. A DISTINCT
  /// duplicate does not run at all and leaves the register as it was.
  private var skipped: Bool?
  private var hasRepresentative = false

  init(_ aggregate: SelectPlan.AggregatePart) {
    self.aggregate = aggregate
    accumulators = aggregate.calls.map {
      AggregateAccumulator($0.function, distinct: $0.distinct, collation: $0.collation)
    }
    decisions = [Bool?](repeating: nil, count: aggregate.calls.count)
  }

  /// Steps every aggregate with the row; returns whether the row now supplies the group's
  /// bare columns.
  mutating func step(_ row: EvaluationContext) throws -> Bool {
    for (position, slot) in aggregate.stepOrder.enumerated() {
      let call = aggregate.calls[slot]
      guard aggregate.stepsSlot[position] else {
        if let decision = decisions[slot] { skipped = decision }
        continue
      }
      let value = try call.argument?(row) ?? ValueOperations.zero
      let separator = try call.separator?(row)
      if aggregate.checksOrderFreedom, call.function == .sum || call.function == .total || call.function == .avg {
        try checkOrderFreedom(value, slot: slot, isFloatingPoint: call.function != .sum)
      }
      guard call.function == .min || call.function == .max else {
        do {
          if let separator {
            try accumulators[slot].step(value, separator: separator)
          } else {
            try accumulators[slot].step(value)
          }
        } catch where call.function == .sum {
          // SQLite's sum() keeps going and reports `integer overflow` when it is finalized.
          overflow = overflow ?? error
        }
        continue
      }
      let before = try accumulators[slot].result()
      // Before DISTINCT drops a duplicate: that one too may be the extremum stored differently.
      if aggregate.checksOrderFreedom {
        try checkOrderFreedom(extremum: before, value, collation: call.collation)
      }
      // The DISTINCT check treats NULLs as equal to each other.
      if call.distinct
        && seen[slot, default: []].insert(ValueEqualityKey(value, collation: call.collation)).inserted == false
      {
        decisions[slot] = nil
        continue
      }
      try accumulators[slot].step(value)
      let after = try accumulators[slot].result()
      skipped = value.isNull ? !before.isNull : !(before.isNull || before != after)
      decisions[slot] = skipped
    }
    let chosen = aggregate.hasExtremum ? skipped != true : !hasRepresentative
    if chosen { hasRepresentative = true }
    return chosen
  }

  /// Refuses a sum whose answer could differ in another visiting order: a value that is not an
  /// integer (floating-point rounding depends on the order), integers that overflow in some
  /// orders only, or a floating-point total past 2^53 (where its rounding starts).
  private mutating func checkOrderFreedom(_ value: SqliteValue, slot: Int, isFloatingPoint: Bool) throws {
    let refusal = EngineError.unsupported(
      "a sum over a join whose result depends on the order SQLite visits its rows (non-integer values or an overflow)")
    switch value {
    case .null: return
    case .integer(let integer):
      var state = orderFreedom[slot] ?? (0, 0, 0)
      var overflowed = false
      if integer >= 0 {
        (state.positive, overflowed) = state.positive.addingReportingOverflow(integer)
      } else {
        (state.negative, overflowed) = state.negative.addingReportingOverflow(integer)
      }
      state.magnitude += Double(integer.magnitude)
      if overflowed || (isFloatingPoint && state.magnitude > 9_007_199_254_740_992) { throw refusal }
      orderFreedom[slot] = state
    default:
      throw refusal
    }
  }

  /// Refuses a min() or max() meeting a value equal to the one it holds but stored differently
  /// (the INTEGER and the REAL -2⁶³ an INTEGER column can hold): it keeps the first of the two,
  /// and which one comes first depends on SQLite's plan.
  private func checkOrderFreedom(extremum: SqliteValue, _ value: SqliteValue, collation: Collation) throws {
    guard !extremum.isNull, !value.isNull, extremum != value,
      ValueEqualityKey(extremum, collation: collation) == ValueEqualityKey(value, collation: collation)
    else { return }
    throw EngineError.unsupported(
      "min() or max() over a join meeting values that compare equal but are stored differently (the INTEGER and "
        + "the REAL -2^63): which one it keeps depends on the order SQLite visits the rows")
  }

  /// The aggregates' results (every aggregate is finalized before HAVING runs).
  func finish() throws -> [SqliteValue] {
    if let overflow { throw overflow }
    return try accumulators.map { try $0.result() }
  }
}
