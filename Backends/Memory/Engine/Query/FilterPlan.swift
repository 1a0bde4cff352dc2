import TandemCore

/// How a statement finds the rows its WHERE clause selects: an equality lookup in the rowid or
/// a unique hash index when a conjunct allows it, otherwise a scan in rowid order; conjuncts
/// that read no row are evaluated once, before any row, as SQLite hoists them.
struct FilterPlan: Sendable {
  /// A candidate-row lookup.
  enum Lookup: Sendable {
    /// Every row, in rowid order.
    case scan
    /// `rowid = value` (or the rowid alias).
    case rowid(ValueEvaluator, valueOnLeft: Bool)
    /// `column = value` (or `IS`, which `matchesNull`) on a column with a single-column unique
    /// constraint.
    case unique(constraint: Int, column: Int, ValueEvaluator, valueOnLeft: Bool, matchesNull: Bool)
    /// `rowid IN (v1, v2, …)` with constant values: SQLite seeks each value's rowid.
    case rowids([ValueEvaluator])
  }

  let lookup: Lookup
  /// Conjuncts without row references, evaluated before the scan in order.
  let constantTests: [ConditionEvaluator]
  /// The remaining conjuncts, all of which must hold for a row.
  let rowTests: [ConditionEvaluator]

  /// A plan that selects every row.
  static var everything: FilterPlan { FilterPlan(lookup: .scan, constantTests: [], rowTests: []) }

  /// Compiles a WHERE clause. Without `usesIndexes` (SQLite's NOT INDEXED) only the rowid is
  /// looked up.
  init(_ filter: SQLExpression?, compiler: ExpressionCompiler, usesIndexes: Bool = true) throws {
    guard let filter else {
      self = .everything
      return
    }
    var conjuncts: [SQLExpression] = []
    Self.split(filter, into: &conjuncts)
    var constants: [ConditionEvaluator] = []
    var tests: [ConditionEvaluator] = []
    var lookup = Lookup.scan
    for conjunct in conjuncts {
      let compiled = try compiler.condition(conjunct)
      if compiled.isConstant {
        constants.append(compiled.test)
      } else {
        tests.append(compiled.test)
      }
      // SQLite's planner prefers a rowid lookup to a unique index one; among equals, the first.
      switch lookup {
      case .rowid: break
      case .unique, .rowids:
        // A rowid lookup beats the others; a rowid IN list beats a unique index.
        if let found = try Self.lookup(for: conjunct, compiler: compiler) {
          if case .rowid = found { lookup = found }
          if case .rowids = found, case .unique = lookup { lookup = found }
        }
      case .scan:
        if let found = try Self.lookup(for: conjunct, compiler: compiler) {
          if case .unique = found, !usesIndexes { continue }
          lookup = found
        }
      }
    }
    self.init(lookup: lookup, constantTests: constants, rowTests: tests)
  }

  private init(lookup: Lookup, constantTests: [ConditionEvaluator], rowTests: [ConditionEvaluator]) {
    self.lookup = lookup
    self.constantTests = constantTests
    self.rowTests = rowTests
  }

  private static func split(_ expression: SQLExpression, into conjuncts: inout [SQLExpression]) {
    if case .binary(.and, let lhs, let rhs) = expression, !ExpressionCompiler.foldsToZero(expression) {
      split(lhs, into: &conjuncts)
      split(rhs, into: &conjuncts)
    } else {
      conjuncts.append(expression)
    }
  }

  /// A lookup usable for `conjunct`: `key = value` (either way round) where the value reads no
  /// row. The rowid always qualifies; a unique column only when SQLite's index could serve the
  /// comparison (`sqlite3IndexAffinityOk` and the BINARY collation).
  private static func lookup(for conjunct: SQLExpression, compiler: ExpressionCompiler) throws -> Lookup? {
    // SQLite's parser has already made `x IN (c)` into `x = +c`, which the planner can look up.
    if case .inList(let operand, let list, negated: false) = conjunct,
      let rewritten = ExpressionCompiler.singleValueIn(operand, list, negated: false)
    {
      return try lookup(for: rewritten, compiler: compiler)
    }
    guard let table = compiler.table else { return nil }
    if case .inList(let operand, let list, negated: false) = conjunct, !list.isEmpty {
      guard isRowid(operand, in: table) else { return nil }
      var values: [ValueEvaluator] = []
      for item in list {
        let compiled = try compiler.compile(item)
        guard compiled.isConstant else { return nil }
        values.append(compiled.evaluate)
      }
      return .rowids(values)
    }
    guard case .binary(let op, let lhs, let rhs) = conjunct, op == .equal || op == .is else { return nil }
    for (keySide, valueSide, valueOnLeft) in [(lhs, rhs, false), (rhs, lhs, true)] {
      switch keySide {
      case .rowid, .column: break
      default: continue
      }
      if case .column = valueSide { continue }
      if case .rowid = valueSide { continue }
      let value = try compiler.compile(valueSide)
      guard value.isConstant else { continue }
      if isRowid(keySide, in: table) { return .rowid(value.evaluate, valueOnLeft: valueOnLeft) }
      guard case .column(let name) = keySide, let index = table.columnIndex(name) else { continue }
      guard let constraint = table.uniqueConstraints.firstIndex(where: { $0.columns == [index] }) else { continue }
      if value.hasExplicitCollation, value.collation != .binary { continue }
      guard indexAffinityOk(column: table.affinities[index], value: value.affinity) else { continue }
      return .unique(constraint: constraint, column: index, value.evaluate, valueOnLeft: valueOnLeft, matchesNull: op == .is)
    }
    return nil
  }

  /// Whether `expression` reads the rowid: `.rowid` (even beside a column named "rowid"), the
  /// rowid alias column, or a rowid name that no column takes.
  private static func isRowid(_ expression: SQLExpression, in table: TableDefinition) -> Bool {
    switch expression {
    case .rowid: return true
    case .column(let name):
      guard let index = table.columnIndex(name) else { return NameKey(name).isRowidName }
      return index == table.rowidColumn
    default: return false
    }
  }

  /// SQLite's `sqlite3IndexAffinityOk` for `column = value`: the comparison affinity
  /// (`sqlite3CompareAffinity`) must be none, or TEXT on a TEXT column, or numeric on a numeric one.
  private static func indexAffinityOk(column: Affinity, value: Affinity) -> Bool {
    func isNumeric(_ affinity: Affinity) -> Bool {
      switch affinity {
      case .integer, .real, .numeric: true
      default: false
      }
    }
    let comparison: Affinity
    if column != .none, value != .none {
      comparison = isNumeric(column) || isNumeric(value) ? .numeric : .blob
    } else {
      comparison = column != .none ? column : value
    }
    switch comparison {
    case .none, .blob: return true
    case .text: return column == .text
    default: return isNumeric(column)
    }
  }

  /// Whether the hoisted constant conjuncts all hold (evaluated once, before any row).
  func constantsHold(_ context: EvaluationContext) throws -> Bool {
    for test in constantTests where try !test(context) { return false }
    return true
  }

  /// The candidate rows a lookup finds, before the row tests.
  enum Candidates {
    /// Every row (a scan).
    case all
    /// One rowid, which may name no row.
    case one(Int64)
    /// Rowids in ascending order.
    case some([Int64])
  }

  /// The candidate rows, without building an array for a single-row lookup.
  func candidateRows(in table: TableStorage, _ context: EvaluationContext) throws -> Candidates {
    switch lookup {
    case .scan:
      return .all
    case .rowid(let evaluate, let valueOnLeft):
      let key = Self.converted(try evaluate(context), columnAffinity: .integer, valueOnLeft: valueOnLeft)
      guard let rowid = Self.seekableRowid(key) else { return .some([]) }
      return .one(rowid)
    case .unique(let constraint, let column, let evaluate, let valueOnLeft, let matchesNull):
      let affinity = table.definition.affinities[column]
      let key = Self.converted(try evaluate(context), columnAffinity: affinity, valueOnLeft: valueOnLeft)
      if key.isNull {
        // `column IS NULL` through the index: every row whose column is NULL, in rowid order.
        guard matchesNull else { return .some([]) }
        return .some(table.data.rowids.filter { table.data.row($0)?[column].isNull == true })
      }
      guard let indexKey = IndexKey.make(key), let rowid = table.data.owner(of: indexKey, in: constraint) else {
        return .some([])
      }
      return .one(rowid)
    case .rowids(let evaluators):
      // Each value takes the rowid's INTEGER affinity, then must be a seekable integer.
      var found = Set<Int64>()
      for evaluate in evaluators {
        let key = Self.converted(try evaluate(context), columnAffinity: .integer, valueOnLeft: false)
        if let rowid = Self.seekableRowid(key), table.data.contains(rowid) { found.insert(rowid) }
      }
      return .some(found.sorted())
    }
  }

  /// The rowids of the candidate rows in rowid order, before the row tests (`nil`: every row).
  func candidates(in table: TableStorage, _ context: EvaluationContext) throws -> [Int64]? {
    switch try candidateRows(in: table, context) {
    case .all: nil
    case .one(let rowid): [rowid]
    case .some(let rowids): rowids
    }
  }

  /// The value side of `column = value` after the comparison's affinity conversion.
  private static func converted(_ value: SqliteValue, columnAffinity: Affinity, valueOnLeft: Bool) -> SqliteValue {
    if valueOnLeft { return ComparisonOperands.prepare(value, .none, .null, columnAffinity).0 }
    return ComparisonOperands.prepare(.null, columnAffinity, value, .none).1
  }

  /// The rowid `OP_SeekRowid` looks for: an INTEGER, or a REAL that `sqlite3VdbeIntegerAffinity`
  /// turns into one — an exact Int64 value other than the two extremes (so -2⁶³ as a REAL finds
  /// nothing, though it compares equal to the smallest rowid).
  private static func seekableRowid(_ value: SqliteValue) -> Int64? {
    switch value {
    case .integer(let number): return number
    case .real:
      if case .integer(let number)? = IndexKey.normalized(value), number != .min, number != .max { return number }
      return nil
    default: return nil
    }
  }

  /// Calls `body` for each row that passes the filter, in rowid order, with `context` pointing
  /// at it and the row's slot; `body` returns false to stop. Row pointers are valid only during
  /// the call.
  func forEachRow(
    in table: TableStorage, _ context: EvaluationContext, descending: Bool = false,
    _ body: (EvaluationContext, Int32) throws -> Bool
  ) throws {
    let candidates = try candidateRows(in: table, context)
    let columnCount = table.data.columnCount
    // Readers never overlap a change to the table, so its storage is borrowed, not copied.
    try table.data.withCells { base in
      guard let base else { return }
      var rowContext = context
      switch candidates {
      case .all:
        break
      case .one(let rowid):
        guard let slot = table.data.slot(of: rowid) else { return }
        rowContext.row = base + Int(slot) * columnCount
        rowContext.rowid = rowid
        if try !passes(rowContext) { return }
        _ = try body(rowContext, slot)
        return
      case .some(let rowids):
        for rowid in rowids {
          guard let slot = table.data.slot(of: rowid) else { continue }
          rowContext.row = base + Int(slot) * columnCount
          rowContext.rowid = rowid
          if try !passes(rowContext) { continue }
          if try !body(rowContext, slot) { return }
        }
        return
      }
      let visit = { (entry: RowidOrder.Entry) throws -> Bool in
        rowContext.row = base + Int(entry.slot) * columnCount
        rowContext.rowid = entry.rowid
        if try !passes(rowContext) { return true }
        return try body(rowContext, entry.slot)
      }
      if descending {
        try table.data.order.forEachReversed(visit)
      } else {
        try table.data.order.forEach(visit)
      }
    }
  }

  /// The rowids a one-pass statement visits: the lookup's candidates, or every rowid.
  func candidateRowids(in table: TableStorage, _ context: EvaluationContext) throws -> [Int64] {
    try candidates(in: table, context) ?? table.data.rowids
  }

  /// Whether the row as it is now passes the row tests (for one-pass statements).
  func passes(_ rowid: Int64, in table: TableStorage, _ context: EvaluationContext) throws -> Bool {
    guard let slot = table.data.slot(of: rowid) else { return false }
    let columnCount = table.data.columnCount
    return try table.data.withCells { base in
      guard let base else { return false }
      var rowContext = context
      rowContext.row = base + Int(slot) * columnCount
      rowContext.rowid = rowid
      return try passes(rowContext)
    }
  }

  @inline(__always)
  private func passes(_ context: EvaluationContext) throws -> Bool {
    for test in rowTests where try !test(context) { return false }
    return true
  }

  /// The rowid and slot of every row that passes the filter, in rowid order. The slots stay
  /// valid until the table is next changed.
  func matchingRows(in table: TableStorage, _ context: EvaluationContext) throws -> [RowidOrder.Entry] {
    var result: [RowidOrder.Entry] = []
    try forEachRow(in: table, context) { row, slot in
      result.append(RowidOrder.Entry(rowid: row.rowid, slot: slot))
      return true
    }
    return result
  }

  /// The rowids of every row that passes the filter, in rowid order (UPDATE and DELETE collect
  /// them before changing anything, as SQLite's two-pass plans do).
  func matchingRowids(in table: TableStorage, _ context: EvaluationContext) throws -> [Int64] {
    var result: [Int64] = []
    try forEachRow(in: table, context) { row, _ in
      result.append(row.rowid)
      return true
    }
    return result
  }
}
