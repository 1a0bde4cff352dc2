import TandemCore

/// A ``WherePlan`` compiled: the loop that finds a statement's rows as SQLite's code for it does
/// (`wherecode.c`), with the lookup values and WHERE tests as closures.
///
/// It visits exactly the rows SQLite's loop visits, in the same order, evaluating each value and
/// test when SQLite does: the tests that read no row once before the loop, the lookup values
/// when the loop starts, the remaining tests on each row found. Which rows are visited is what
/// decides whether an error-raising expression fails, and which error a statement reports.
///
/// ```swift
/// let scan = try TableScan(plan, compiler: compiler)
/// try scan.forEachRow(in: table, context) { row in .next }
/// ```
final class TableScan: @unchecked Sendable {
  // @unchecked: immutable after init; its closures capture only immutable compiled state.

  /// What the caller wants after a row: the next one, the end of the current IN value's rows
  /// (when the plan's inner loop is ordered), or the end of the scan.
  enum Step {
    case next
    case skipInnerLoop
    case stop
  }

  /// A lookup value: how it is computed and how SQLite treats it before seeking.
  struct Probe {
    let evaluate: ValueEvaluator
    /// A NULL value ends (or skips) the lookup: `x = NULL` matches nothing. False for `IS`
    /// and for SQLite's own constants.
    let nullMatchesNothing: Bool
    /// The affinity applied before the seek (`.none`: none).
    let affinity: Affinity
  }

  /// One equality constraint on an index column.
  enum Equality {
    case value(Probe)
    /// An IN list; `descending`: its index column is `DESC`, so its values are walked the
    /// other way round.
    case list([ValueEvaluator], listAffinity: Affinity, collation: Collation, affinity: Affinity, descending: Bool)
    case null
  }

  /// A range bound: the comparison as written with the column on the left, and its value.
  struct Bound {
    let op: BinaryOperator
    let probe: Probe
  }

  /// How the loop finds rows.
  enum Access {
    case fullScan
    case rowidValue(Probe)
    case rowidList([ValueEvaluator])
    case rowidRange(lower: Bound?, upper: Bound?)
    /// An index: equality constraints on its leading columns, then a range on the next one.
    /// `nullableRangeColumn`: the range column may hold NULL (so a scan bounded only above
    /// starts past the NULLs).
    /// `descendingRangeColumn`: the range column's entries are in descending order (`DESC`), so
    /// its lower bound is where a forward walk ends.
    /// `bigNull`: the ORDER BY wants this column's NULLs at the other end, so the NULL and the
    /// non-NULL entries are walked in two passes.
    case index(
      position: Int, equalities: [Equality], lower: Bound?, upper: Bound?, nullableRangeColumn: Bool,
      descendingRangeColumn: Bool, bigNull: Bool)
    case multiOr
  }

  let plan: WherePlan
  let access: Access
  let constantTests: [ConditionEvaluator]
  let residualTests: [ConditionEvaluator]
  /// A multi-index OR's branches.
  let branches: [TableScan]
  /// Whether a multi-index OR skips rows an earlier branch already found (not for a DELETE,
  /// which tolerates them).
  let skipsDuplicates: Bool
  /// Whether the statement changes the index it walks while walking it (a DELETE that removes
  /// rows as it finds them): the walk then finds its place again after each change.
  let tracksChanges: Bool
  /// The columns the residual tests read (ascending), decoded before the tests; then the others
  /// the statement reads (the first `rowWidth` columns), decoded for a row that passes. SQLite's
  /// OP_Column, too, reads only what a statement needs.
  let testedColumns: [Int]
  let otherColumns: [Int]

  /// Compiles the plan's probes and tests with the statement's compiler (whose parameter slots
  /// they share). `rowWidth`: the statement reads no column past the first `rowWidth` (all of
  /// them when `nil`).
  init(
    _ plan: WherePlan, compiler: ExpressionCompiler, skipsDuplicates: Bool = true, tracksChanges: Bool = false,
    rowWidth: Int? = nil
  ) throws {
    self.plan = plan
    self.skipsDuplicates = skipsDuplicates
    self.tracksChanges = tracksChanges
    let width = min(rowWidth ?? plan.table.columnCount, plan.table.columnCount)
    // (Expressions read the rowid alias from the rowid: it is never among the tested columns.)
    let tested = ColumnUsage.columns(in: plan.residualTerms.map { plan.clause[$0].source }, table: plan.table)
    testedColumns = tested.filter { $0 < width }.sorted()
    otherColumns = (0..<width).filter { !tested.contains($0) }
    let clause = plan.clause
    constantTests = try plan.constantTerms.map { try compiler.condition(clause[$0].source).test }
    let loop = plan.loop
    let table = plan.table
    let context = clause.context

    func probe(_ reference: TermReference, affinity: Affinity) throws -> Probe {
      let term = reference.term
      if let constant = term.rightConstant {
        let value = ValueOperations.bound(constant)
        return Probe(evaluate: { _ in value }, nullMatchesNothing: false, affinity: affinity)
      }
      guard let right = term.right else {
        return Probe(evaluate: { _ in .null }, nullMatchesNothing: false, affinity: .none)
      }
      let isIS = term.flags.contains(.isOperator)
      return Probe(
        evaluate: try compiler.compile(right).evaluate,
        nullMatchesNothing: !term.flags.contains(.vnull) && !isIS && context.canBeNull(right), affinity: affinity)
    }
    func operatorOf(_ term: WhereTerm) -> BinaryOperator {
      if case .binary(let op, _, _) = term.expression { return op }
      return .equal
    }

    if loop.flags.contains(.multiOr) {
      access = .multiOr
      // A branch's rows go on to this scan's residual tests and body: they decode as far.
      branches = try plan.branches.map {
        try TableScan($0.plan, compiler: compiler, tracksChanges: tracksChanges, rowWidth: width)
      }
    } else if loop.flags.contains(.rowid) {
      branches = []
      if loop.flags.contains(.columnIn), case .inList(_, let list, _) = loop.terms[0].term.expression {
        access = .rowidList(try list.map { try compiler.compile($0).evaluate })
      } else if !loop.flags.intersection([.columnEq, .columnIn]).isEmpty {
        access = .rowidValue(try probe(loop.terms[0], affinity: .none))
      } else if loop.flags.contains(.columnRange) {
        var position = 0
        var lower: Bound?
        var upper: Bound?
        if loop.flags.contains(.bottomLimit) {
          let reference = loop.terms[position]
          lower = Bound(op: operatorOf(reference.term), probe: try probe(reference, affinity: .none))
          position += 1
        }
        if loop.flags.contains(.topLimit) {
          let reference = loop.terms[position]
          upper = Bound(op: operatorOf(reference.term), probe: try probe(reference, affinity: .none))
        }
        access = .rowidRange(lower: lower, upper: upper)
      } else {
        access = .fullScan
      }
    } else if let index = loop.index {
      branches = []
      let definition = table.indexes[index]
      var equalities: [Equality] = []
      for position in 0..<loop.equalities {
        let reference = loop.terms[position]
        let term = reference.term
        // Past the key's columns comes the rowid, which every index entry ends with.
        let column = position < definition.columns.count ? definition.columns[position] : -1
        let columnAffinity: Affinity = column < 0 || column == table.rowidColumn ? .integer : table.affinities[column]
        if term.op.contains(.isNull) {
          equalities.append(.null)
        } else if term.op.contains(.in), case .inList(let operand, let list, _) = term.expression {
          var listAffinity = context.affinity(operand)
          if listAffinity == .none { listAffinity = .blob } else if listAffinity == .real { listAffinity = .numeric }
          equalities.append(
            .list(
              try list.map { try compiler.compile($0).evaluate }, listAffinity: listAffinity,
              collation: context.collation(operand), affinity: columnAffinity,
              descending: position < definition.descending.count && definition.descending[position]))
        } else {
          equalities.append(.value(try probe(reference, affinity: Self.seekAffinity(term, columnAffinity, context))))
        }
      }
      var lower: Bound?
      var upper: Bound?
      var position = loop.equalities
      let rangeColumn = position < definition.columns.count ? definition.columns[position] : -1
      let rangeAffinity: Affinity =
        rangeColumn < 0 || rangeColumn == table.rowidColumn ? .integer : table.affinities[rangeColumn]
      if loop.flags.contains(.bottomLimit) {
        let term = loop.terms[position].term
        lower = Bound(op: operatorOf(term), probe: try probe(loop.terms[position], affinity: Self.seekAffinity(term, rangeAffinity, context)))
        position += 1
      }
      if loop.flags.contains(.topLimit) {
        let term = loop.terms[position].term
        upper = Bound(op: operatorOf(term), probe: try probe(loop.terms[position], affinity: Self.seekAffinity(term, rangeAffinity, context)))
      }
      let nullable = rangeColumn >= 0 && rangeColumn != table.rowidColumn && !table.notNull[rangeColumn]
      let descending = loop.equalities < definition.descending.count && definition.descending[loop.equalities]
      let bigNull = loop.flags.contains(.bigNullSort) && loop.flags.intersection(.bothLimits).isEmpty
      access = .index(
        position: index, equalities: equalities, lower: lower, upper: upper, nullableRangeColumn: nullable,
        descendingRangeColumn: descending, bigNull: bigNull)
    } else {
      branches = []
      access = .fullScan
    }
    // TERM_VARSELECT terms (see ``ExpressionCompiler/conditionNotingCorrelation(_:)``) are tested
    // last, in WHERE order (`codeOneLoopStart` leaves them to its last pass); the others as the
    // plan lists them.
    var plain: [ConditionEvaluator] = []
    var correlated: [(position: Int, test: ConditionEvaluator)] = []
    for position in plan.residualTerms {
      let (test, _, isVarSelect) = try compiler.conditionNotingCorrelation(clause[position].source)
      if isVarSelect { correlated.append((position, test)) } else { plain.append(test) }
    }
    residualTests = plain + correlated.sorted { $0.position < $1.position }.map(\.test)
  }

  /// The affinity SQLite applies to a lookup value before seeking an index column of
  /// `columnAffinity`: none when the comparison has none or the value needs no change.
  private static func seekAffinity(_ term: WhereTerm, _ columnAffinity: Affinity, _ context: WhereContext) -> Affinity {
    guard let right = term.right ?? term.rightConstant.map({ SQLExpression.literal($0) }) else { return columnAffinity }
    if term.rightConstant == nil && context.compareAffinity(right, columnAffinity) == .blob { return .none }
    if context.needsNoAffinityChange(term, columnAffinity) { return .none }
    return columnAffinity
  }

  // MARK: - Running

  /// Visits the rows the plan finds, in its order: each row decoded, its residual tests passed,
  /// then handed to `body` (with `context.row` and `context.rowid` set, valid only during the
  /// call). Returns false when the constant tests fail (no row is visited).
  @discardableResult
  func forEachRow(
    in table: TableStorage, _ context: EvaluationContext, _ body: (EvaluationContext) throws -> Step
  ) throws -> Bool {
    for test in constantTests where try !test(context) { return false }
    let data = table.data
    try withRowBuffer(data.columnCount) { buffer in
      var rowContext = context
      rowContext.row = UnsafePointer(buffer)
      var seen = Set<Int64>()
      _ = try run(data, &rowContext, buffer, &seen, body)
    }
    return true
  }

  /// Runs the loop; returns false when `body` stopped it.
  private func run(
    _ data: TableData, _ context: inout EvaluationContext, _ buffer: UnsafeMutablePointer<SqliteValue>,
    _ seen: inout Set<Int64>, _ body: (EvaluationContext) throws -> Step
  ) throws -> Bool {
    /// Tests and hands over the row with this rowid; false when the scan must stop, nil when
    /// the rest of an inner loop is to be skipped.
    let tests = residualTests
    let testCount = tests.count
    let tested = testedColumns
    let others = otherColumns
    func visit(_ rowid: Int64, record: UnsafeRawPointer) throws -> Step {
      tested.withUnsafeBufferPointer { data.decode(record, rowid: rowid, columns: $0, into: buffer) }
      context.rowid = rowid
      // Index loops, not `for … in`: unit tests run in debug builds, where iterators cost.
      var index = 0
      while index < testCount {
        if try !tests[index](context) { return .next }
        index += 1
      }
      others.withUnsafeBufferPointer { data.decode(record, rowid: rowid, columns: $0, into: buffer) }
      return try body(context)
    }
    func visit(_ rowid: Int64) throws -> Step {
      guard let position = data.rows.find(rowid: rowid) else { return .next }
      return try visit(rowid, record: data.rows.record(at: position))
    }
    let reversed = plan.reversed
    switch access {
    case .fullScan:
      guard let start = reversed ? data.rows.last : data.rows.first else { return true }
      return try Self.walkRows(data.rows, from: start, reversed: reversed, isPastEnd: { _ in false }, visit)

    case .rowidValue(let probe):
      let value = try probe.evaluate(context)
      guard let rowid = Self.seekableRowid(Self.converted(value, columnAffinity: .integer)) else { return true }
      return try visit(rowid) != .stop

    case .rowidList(let evaluators):
      var rowids = Set<Int64>()
      // SQLite keeps the list in an ephemeral index, where a value equal to an earlier one
      // replaces it: of the INTEGER -2⁶³ and the REAL -2⁶³ (equal), the later one is sought,
      // and the REAL finds nothing.
      var smallestIsReal = false
      for evaluate in evaluators {
        let value = Self.converted(try evaluate(context), columnAffinity: .integer)
        if value == .integer(.min) { smallestIsReal = false }
        if value == .real(-0x1p63) { smallestIsReal = true }
        if let rowid = Self.seekableRowid(value) { rowids.insert(rowid) }
      }
      if smallestIsReal { rowids.remove(.min) }
      for rowid in reversed ? rowids.sorted(by: >) : rowids.sorted() {
        switch try visit(rowid) {
        case .stop: return false
        case .skipInnerLoop, .next: continue
        }
      }
      return true

    case .rowidRange(let lower, let upper):
      // A backwards scan starts at the upper bound and ends at the lower one.
      let (start, end) = reversed ? (upper, lower) : (lower, upper)
      let first: RecordTree.Position
      if let start {
        let value = try start.probe.evaluate(context)
        guard let position = Self.seekRowid(data.rows, Self.seekOperator(start.op), value) else { return true }
        first = position
      } else {
        guard let position = reversed ? data.rows.last : data.rows.first else { return true }
        first = position
      }
      // The end bound is computed once the start is found.
      let endValue = try end.map { try $0.probe.evaluate(context) }
      return try Self.walkRows(
        data.rows, from: first, reversed: reversed,
        isPastEnd: { rowid in
          guard let end, let endValue else { return false }
          return Self.rowidPastEnd(rowid, end.op, endValue, reversed: reversed)
        }, visit)

    case .index(let position, let equalities, let lower, let upper, let nullable, let descending, let bigNull):
      return try runIndex(data, position, equalities, lower, upper, nullable, descending, bigNull, context, visit)

    case .multiOr:
      for branch in branches {
        if try branch.constantTests.contains(where: { try !$0(context) }) { continue }
        var branchContext = context
        var nested = Set<Int64>()
        let finished = try branch.run(data, &branchContext, buffer, &nested) { row in
          if skipsDuplicates && !seen.insert(row.rowid).inserted { return .next }
          for test in residualTests where try !test(row) { return .next }
          return try body(row)
        }
        if !finished { return false }
      }
      return true
    }
  }

  /// Visits the rows from `start` on, in rowid order (backwards when `reversed`), until
  /// `isPastEnd` is true for a rowid or `visit` stops; false when `visit` stopped the scan.
  ///
  /// It reads the rows page by page while they stay as they were. When `visit` changes them (a
  /// one-pass UPDATE or DELETE writes each row as it finds it), it finds its place again from
  /// the last rowid, as SQLite's cursor does after a write.
  private static func walkRows(
    _ rows: RecordTree, from start: RecordTree.Position, reversed: Bool, isPastEnd: (Int64) -> Bool,
    _ visit: (Int64, UnsafeRawPointer) throws -> Step
  ) throws -> Bool {
    var position = start
    var version = rows.version
    while true {
      let page = rows.pages[position.page]
      var slot = position.slot
      var changed = false
      while slot >= 0 && slot < page.count {
        let rowid = page.rowids[slot]
        if isPastEnd(rowid) { return true }
        switch try visit(rowid, page.record(slot)) {
        case .stop: return false
        case .skipInnerLoop: return true
        case .next: break
        }
        if rows.version != version {
          // Find the row after (or before) the last one visited in the changed rows.
          let next = reversed ? rows.lowerBound(rowid: rowid).map(rows.previous) ?? rows.last : rows.upperBound(rowid: rowid)
          guard let next else { return true }
          position = next
          version = rows.version
          changed = true
          break
        }
        slot += reversed ? -1 : 1
      }
      if changed { continue }
      if reversed {
        guard position.page > 0 else { return true }
        position = RecordTree.Position(page: position.page - 1, slot: rows.pages[position.page - 1].count - 1)
      } else {
        guard position.page + 1 < rows.pages.count else { return true }
        position = RecordTree.Position(page: position.page + 1, slot: 0)
      }
    }
  }

  /// How an index walk ended.
  private enum WalkEnd {
    /// Go on with the next combination of IN values.
    case next
    /// A lookup value was NULL where that matches nothing: the whole loop ends.
    case finished
    /// The caller stopped the scan.
    case stopped
  }

  /// The index loop, as SQLite codes it: each equality's value is computed when the loop
  /// reaches its column (an IN list once, as its sorted, de-duplicated ephemeral index, NULLs
  /// skipped); for each combination, the start bound is computed and sought, then the end bound
  /// computed, and entries walked until the range (or the equal prefix) ends.
  ///
  /// Seeks and end tests compare in the index's order, in which a `DESC` column's larger values
  /// come first: a walk forwards over an ascending range column, or backwards over a descending
  /// one, starts at the lower bound; the other two start at the upper bound (SQLite swaps
  /// `pRangeStart` and `pRangeEnd`, and with them where the NULLs are skipped).
  private func runIndex(
    _ data: TableData, _ position: Int, _ equalities: [Equality], _ lower: Bound?, _ upper: Bound?,
    _ nullableRangeColumn: Bool, _ descendingRangeColumn: Bool, _ bigNull: Bool, _ context: EvaluationContext,
    _ visit: (Int64) throws -> Step
  ) throws -> Bool {
    let tree = data.indexes[position]
    let reversed = plan.reversed
    let swapped = reversed != descendingRangeColumn
    let (start, end) = swapped ? (upper, lower) : (lower, upper)
    // Bounded above only, a nullable column's NULLs are skipped: where the walk starts, or where
    // it ends when the bounds swapped.
    let skipsNulls = upper != nil && lower == nil && nullableRangeColumn
    let seeksPastNulls = skipsNulls && !swapped
    let stopsAtNulls = skipsNulls && swapped
    var lists = [[SqliteValue]?](repeating: nil, count: equalities.count)
    var prefix = [SqliteValue](repeating: .null, count: equalities.count)

    func descend(_ depth: Int) throws -> WalkEnd {
      guard depth < equalities.count else { return try walk() }
      switch equalities[depth] {
      case .null:
        prefix[depth] = .null
        return try descend(depth + 1)
      case .value(let probe):
        let value = try probe.evaluate(context)
        if value.isNull && probe.nullMatchesNothing { return .finished }
        prefix[depth] = Self.applying(probe.affinity, to: value)
        return try descend(depth + 1)
      case .list(let evaluators, let listAffinity, let collation, let affinity, let descending):
        let values =
          try lists[depth]
          ?? Self.listValues(evaluators, listAffinity, collation, affinity, reversed != descending, context)
        lists[depth] = values
        for value in values {
          prefix[depth] = value
          let end = try descend(depth + 1)
          if end != .next { return end }
        }
        return .next
      }
    }

    /// Walks from the entry `seek` finds to the end bound (`endKey`: the walk stops at the first
    /// entry past it, inclusive or not).
    func walk(_ seek: SeekOperator, _ key: [SqliteValue], _ endKey: [SqliteValue], inclusive: Bool) throws -> WalkEnd {
      guard var entry = Self.seekIndex(tree, seek, key) else { return .next }
      var cursor = IndexCursor(tree, at: entry, tracksChanges: tracksChanges)
      while true {
        if !endKey.isEmpty {
          let order = endKey.withUnsafeBufferPointer { probe in
            tree.compare(at: entry, probe)
          }
          let past = reversed ? (inclusive ? order < 0 : order <= 0) : (inclusive ? order > 0 : order >= 0)
          if past { return .next }
        }
        switch try visit(tree.rowid(at: entry)) {
        case .stop: return .stopped
        case .skipInnerLoop: return .next
        case .next: break
        }
        guard let next = cursor.advance(reversed: reversed) else { return .next }
        entry = next
      }
    }

    func walk() throws -> WalkEnd {
      let count = equalities.count
      let withNull = prefix + [.null]
      if bigNull {
        // The ORDER BY wants the NULLs at the end the index does not keep them: ASC NULLS LAST
        // or min() (walking an ascending column forwards, or a descending one backwards) visits
        // the non-NULL entries, then the NULLs; DESC NULLS FIRST (the other two walks) the NULLs,
        // then the non-NULL entries.
        let (from, to): (SeekOperator, SeekOperator) = reversed ? (.less, .lessOrEqual) : (.greater, .greaterOrEqual)
        let prefixStart: SeekOperator = count > 0 ? to : (reversed ? .last : .first)
        if !swapped {
          if try walk(from, withNull, prefix, inclusive: true) == .stopped { return .stopped }
          return try walk(prefixStart, withNull, withNull, inclusive: true)
        }
        if try walk(to, withNull, withNull, inclusive: true) == .stopped { return .stopped }
        return try walk(prefixStart, prefix, withNull, inclusive: false)
      }
      var key = prefix
      let seekOp: SeekOperator
      if let start {
        let value = try start.probe.evaluate(context)
        if value.isNull && start.probe.nullMatchesNothing { return .next }
        key.append(Self.applying(start.probe.affinity, to: value))
        let startsAtBound = start.op == .lessOrEqual || start.op == .greaterOrEqual
        seekOp = startsAtBound ? (reversed ? .lessOrEqual : .greaterOrEqual) : (reversed ? .less : .greater)
      } else if seeksPastNulls {
        key = withNull
        seekOp = reversed ? .less : .greater
      } else {
        seekOp = count > 0 ? (reversed ? .lessOrEqual : .greaterOrEqual) : (reversed ? .last : .first)
      }
      // The end bound is computed once the start is found.
      guard Self.seekIndex(tree, seekOp, key) != nil else { return .next }
      var endKey = prefix
      var inclusive = true
      if let end {
        let value = try end.probe.evaluate(context)
        if value.isNull && end.probe.nullMatchesNothing { return .next }
        endKey.append(Self.applying(end.probe.affinity, to: value))
        inclusive = end.op == .lessOrEqual || end.op == .greaterOrEqual
      } else if stopsAtNulls {
        endKey = withNull
        inclusive = false
      }
      return try walk(seekOp, key, endKey, inclusive: inclusive)
    }
    return try descend(0) != .stopped
  }

  /// An IN list's values as SQLite's ephemeral index holds them: each computed in order, given
  /// the list's affinity, NULLs dropped, duplicates (under the collation) merged, sorted; then
  /// given the index column's affinity for the seek.
  private static func listValues(
    _ evaluators: [ValueEvaluator], _ listAffinity: Affinity, _ collation: Collation, _ affinity: Affinity,
    _ reversed: Bool, _ context: EvaluationContext
  ) throws -> [SqliteValue] {
    var values: [SqliteValue] = []
    for evaluate in evaluators {
      let value = try evaluate(context).applyingStorageAffinity(listAffinity)
      if value.isNull { continue }
      if !values.contains(where: { ValueOrder.compare($0, value, collation: collation) == 0 }) { values.append(value) }
    }
    values.sort { ValueOrder.compare($0, $1, collation: collation) < 0 }
    if reversed { values.reverse() }
    return values.map { applying(affinity, to: $0) }
  }

  // MARK: - Seeks

  /// SQLite's seek opcodes.
  enum SeekOperator {
    case greater, greaterOrEqual, less, lessOrEqual, first, last
  }

  /// The seek that starts a walk at a bound `column <op> value`.
  private static func seekOperator(_ op: BinaryOperator) -> SeekOperator {
    switch op {
    case .greater: .greater
    case .greaterOrEqual: .greaterOrEqual
    case .less: .less
    default: .lessOrEqual
    }
  }

  /// OP_SeekGT/GE/LT/LE on the rowid b-tree: the value is made numeric if it is text; a value
  /// that is no number finds nothing (`>`/`>=`) or starts from the last row (`<`/`<=`); a REAL
  /// is rounded toward the rowids it bounds.
  static func seekRowid(_ rows: RecordTree, _ op: SeekOperator, _ value: SqliteValue) -> RecordTree.Position? {
    var op = op
    var number = value
    if case .text(let text) = value { number = NumericAffinity.convert(text, preferInteger: false) }
    let key: Int64
    switch number {
    case .integer(let integer):
      key = integer
    case .real(let real):
      key = Conversion.saturatingInteger(real)
      let order = ValueOrder.compareExactly(key, real)
      if order > 0 {
        if op == .greater { op = .greaterOrEqual } else if op == .lessOrEqual { op = .less }
      } else if order < 0 {
        if op == .less { op = .lessOrEqual } else if op == .greaterOrEqual { op = .greater }
      }
    case .null:
      return nil
    case .text, .blob:
      return op == .greater || op == .greaterOrEqual ? nil : rows.last
    }
    switch op {
    case .greater: return rows.upperBound(rowid: key)
    case .greaterOrEqual: return rows.lowerBound(rowid: key)
    case .less:
      guard let position = rows.lowerBound(rowid: key) else { return rows.last }
      return rows.previous(position)
    case .lessOrEqual:
      guard let position = rows.upperBound(rowid: key) else { return rows.last }
      return rows.previous(position)
    case .first: return rows.first
    case .last: return rows.last
    }
  }

  /// OP_SeekGT/GE/LT/LE on an index with a key of leading fields: `>=` the first entry whose
  /// prefix is ≥ the key, `>` the first whose prefix is greater, `<=` the last whose prefix is
  /// ≤, `<` the last whose prefix is less.
  static func seekIndex(_ tree: RecordTree, _ op: SeekOperator, _ key: [SqliteValue]) -> RecordTree.Position? {
    key.withUnsafeBufferPointer { probe in
      switch op {
      case .first: return tree.first
      case .last: return tree.last
      case .greaterOrEqual: return tree.seek(probe, orEqual: true)
      case .greater: return tree.seek(probe, orEqual: false)
      case .lessOrEqual:
        guard let position = tree.seek(probe, orEqual: false) else { return tree.last }
        return tree.previous(position)
      case .less:
        guard let position = tree.seek(probe, orEqual: true) else { return tree.last }
        return tree.previous(position)
      }
    }
  }

  /// Whether a rowid is past the end bound of a rowid range (SQLite compares it with the bound
  /// under NUMERIC affinity; a NULL bound ends the scan at once).
  private static func rowidPastEnd(_ rowid: Int64, _ op: BinaryOperator, _ end: SqliteValue, reversed: Bool) -> Bool {
    if end.isNull { return true }
    let comparison: ComparisonOperator
    switch (op, reversed) {
    case (.less, false): comparison = .greaterOrEqual
    case (.lessOrEqual, false): comparison = .greater
    case (.greater, true): comparison = .lessOrEqual
    default: comparison = .less
    }
    return ValueOperations.truth(comparison, .integer(rowid), .integer, end, .none, .binary) == true
  }

  /// The value side of `rowid = value` after the comparison's affinity conversion.
  static func converted(_ value: SqliteValue, columnAffinity: Affinity) -> SqliteValue {
    ComparisonOperands.prepare(.null, columnAffinity, value, .none).1
  }

  /// The rowid `OP_SeekRowid` looks for: an INTEGER, or a REAL that `sqlite3VdbeIntegerAffinity`
  /// turns into one — an exact Int64 value other than the two extremes (so -2⁶³ as a REAL finds
  /// nothing, though it compares equal to the smallest rowid).
  static func seekableRowid(_ value: SqliteValue) -> Int64? {
    switch value {
    case .integer(let number): return number
    case .real(let real):
      let integer = Conversion.saturatingInteger(real)
      if Double(integer) == real && integer != .min && integer != .max { return integer }
      return nil
    default: return nil
    }
  }

  /// SQLite's OP_Affinity on a lookup value (`applyAffinity`).
  static func applying(_ affinity: Affinity, to value: SqliteValue) -> SqliteValue {
    switch affinity {
    case .none, .blob: return value
    case .text:
      switch value {
      case .integer(let integer): return .text(String(integer))
      case .real(let real): return .text(Conversion.realToText(real))
      default: return value
      }
    case .integer, .real, .numeric:
      switch value {
      case .text(let text): return NumericAffinity.convert(text, preferInteger: true)
      case .real(let real): return SqliteValue.integerAffinity(real)
      default: return value
      }
    }
  }
}

/// A position in an index. One that tracks changes finds its place again, from the entry it
/// was at, when the index changes under it.
struct IndexCursor {
  let tree: RecordTree
  private var position: RecordTree.Position
  private var version: Int
  private let tracksChanges: Bool
  private var key: [SqliteValue] = []
  private var rowid: Int64 = 0

  init(_ tree: RecordTree, at position: RecordTree.Position, tracksChanges: Bool) {
    self.tree = tree
    self.position = position
    self.tracksChanges = tracksChanges
    version = tree.version
    if tracksChanges { remember(position) }
  }

  private mutating func remember(_ position: RecordTree.Position) {
    key = Record.values(tree.record(at: position), count: tree.keyFields)
    rowid = tree.rowid(at: position)
  }

  /// Moves to the next (or previous) entry and returns it, or `nil` at the end.
  mutating func advance(reversed: Bool) -> RecordTree.Position? {
    let next: RecordTree.Position?
    if tracksChanges && tree.version != version {
      let found = key.withUnsafeBufferPointer { tree.seek($0, rowid: rowid, orEqual: reversed) }
      next = reversed ? (found.map(tree.previous) ?? tree.last) : found
      version = tree.version
    } else {
      next = reversed ? tree.previous(position) : tree.next(position)
    }
    guard let next else { return nil }
    position = next
    if tracksChanges { remember(next) }
    return next
  }
}
