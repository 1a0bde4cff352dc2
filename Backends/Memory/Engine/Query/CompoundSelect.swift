import TandemCore

/// A compiled query whose rows a statement reads: a ``RelationalSelect`` or a ``CompoundSelect``.
protocol RowSource: AnyObject, Sendable {
  /// The statement's parameter names in slot order, this query's included.
  var parameterNames: [String] { get }
  /// Whether the query reads the row of a query around it.
  var isCorrelated: Bool { get }
  /// The number of result columns.
  var columnCount: Int { get }
  /// The affinity and collation of the first result column, as `IN` and a scalar subquery use it.
  var firstColumn: CompiledExpression { get }
  /// Each result column's affinity, as the columns of a common table expression take them.
  var resultAffinities: [Affinity] { get }
  /// Each result column's collation, when its expression has one (SQLite's `sqlite3ExprCollSeq`).
  var resultCollations: [Collation?] { get }
  /// Runs the query with `outer` as the row around it and hands each result row to `body`,
  /// which returns whether to go on.
  func forEachRow(_ outer: EvaluationContext, _ body: ([SqliteValue]) throws -> Bool) throws
  /// Whether its rows may come in an order SQLite's plan chooses and this engine does not
  /// follow: no ORDER BY, over a table SQLite may read in an index's order, not the rowid's —
  /// scanning an index that covers it, or searching one for a WHERE or ON term (see
  /// ``RelationalSelect/mayScanCoveringIndex`` and ``RelationalSelect/maySearchIndexInKeyOrder``).
  var mayComeInPlanOrder: Bool { get }
  /// Whether SQLite, flattening this query into one that reads it as a table (a common table
  /// expression, view or subquery in FROM) and reads only the result columns at `positions`,
  /// may then scan an index that covers what is left, in the index's order
  /// (``RelationalSelect/mayScanCoveringIndex``).
  func mayScanIndexOnceFlattened(readingColumns positions: Set<Int>) -> Bool
  /// Whether a subquery somewhere inside it (in any clause, at any depth, or in a table it
  /// reads) reads a level around that subquery: a term holding such a query is one SQLite's
  /// loops test last (see ``ExpressionCompiler/conditionNotingCorrelation(_:)``).
  var holdsCorrelatedSubquery: Bool { get }
}

extension RowSource {
  /// A compound's rows already come in plan order (``CommonTable/hasPlanOrder``), and an empty
  /// query has none: only a ``RelationalSelect`` answers otherwise.
  func mayScanIndexOnceFlattened(readingColumns positions: Set<Int>) -> Bool { false }

  /// Throws SQLite's error for a subquery used as a value with other than one result column.
  func requireOneColumn() throws {
    guard columnCount == 1 else {
      throw EngineError.sqlite(1, "sub-select returns \(columnCount) columns - expected 1")
    }
  }

  /// The first column of the first row, NULL when there is none.
  ///
  /// When the rows may come in an order SQLite's plan chooses (``mayComeInPlanOrder``), which
  /// row is first is SQLite's choice: a query with a second row (or that fails) is refused.
  func firstValue(_ outer: EvaluationContext) throws -> SqliteValue {
    var value = SqliteValue.null
    guard mayComeInPlanOrder else {
      try forEachRow(outer) { row in
        value = row[0]
        return false
      }
      return value
    }
    var rows = 0
    do {
      try forEachRow(outer) { row in
        rows += 1
        value = row[0]
        return rows < 2
      }
    } catch let error as TandemError where error.kind != .unsupported {
      throw Self.refusalOfPlanOrder
    }
    if rows > 1 { throw Self.refusalOfPlanOrder }
    return value
  }

  /// The refusal of a scalar subquery whose first row SQLite's plan chooses.
  static var refusalOfPlanOrder: TandemError {
    EngineError.unsupported(
      "a scalar subquery without ORDER BY returning several rows from a table SQLite may read in an index's order "
        + "(its first row is then another)")
  }

  /// Whether the query returns a row.
  func hasRow(_ outer: EvaluationContext) throws -> Bool {
    var found = false
    try forEachRow(outer) { _ in
      found = true
      return false
    }
    return found
  }
}

/// Compiles the query a statement or subquery reads: a compound select or a relational one.
///
/// `forExistence` compiles the subquery of `EXISTS`, whose rows SQLite only counts (its
/// `SRT_Exists` destination): once its names are resolved, SQLite deletes its ORDER BY and its
/// DISTINCT and never computes its result columns, so `EXISTS (SELECT DISTINCT x … OFFSET 1)`
/// is true when two rows hold the same `x`.
enum RelationalQuery {
  static func compile(
    _ statement: SelectStatement, catalog: Catalog, outer: SourceScope?, prefix: RelationalSelect.Prefix,
    parameterNames: [String], commonTables: CommonTableScope?, forExistence: Bool = false
  ) throws -> any RowSource {
    var statement = statement
    var names = parameterNames
    var tables = commonTables
    if let clause = statement.with {
      tables = try CommonTableScope.compile(
        clause, catalog: catalog, outer: outer, prefix: prefix, parameterNames: &names, parent: commonTables)
      statement.with = nil
    }
    if statement.compound.isEmpty {
      return try RelationalSelect(
        statement, catalog: catalog, outer: outer, prefix: prefix, parameterNames: names, commonTables: tables,
        forExistence: forExistence)
    }
    return try CompoundSelect(
      statement, catalog: catalog, outer: outer, prefix: prefix, parameterNames: names, commonTables: tables,
      forExistence: forExistence)
  }
}

/// A compound select (`select.c`'s `multiSelect`): its members run left to right and combine as
/// SQLite combines them — UNION ALL appends, UNION, INTERSECT and EXCEPT keep distinct rows
/// (compared with each column's collation) in sorted order — then the compound's ORDER BY,
/// LIMIT and OFFSET apply.
///
/// Which of two rows that compare equal but differ (`1` and `1.0`, `'a'` and `'A'` under NOCASE)
/// SQLite keeps, or puts first, depends on how it codes the compound; the memory engine refuses
/// such a result with `.unsupported` rather than guess.
final class CompoundSelect: RowSource, @unchecked Sendable {
  private let members: [RelationalSelect]
  private let operators: [CompoundTerm.Operator]
  /// The collation each column is compared with (SQLite's `multiSelectCollSeq`).
  let collations: [Collation]
  private let order: [(column: Int, term: SortTerm)]
  private let window: LimitClause
  let parameterNames: [String]
  let columnCount: Int
  let firstColumn: CompiledExpression

  init(
    _ statement: SelectStatement, catalog: Catalog, outer: SourceScope?, prefix: RelationalSelect.Prefix,
    parameterNames: [String], commonTables: CommonTableScope?, forExistence: Bool = false
  ) throws {
    var names = parameterNames
    let operators = statement.compound.map(\.operator)
    let statements = statement.memberSelects
    for member in statements.dropFirst()
    where !member.compound.isEmpty || !member.orderBy.isEmpty || member.limit != nil || member.offset != nil {
      throw TandemError.misuse("a select inside a compound cannot have its own ORDER BY, LIMIT, OFFSET or compound")
    }
    // SQLite walks a compound from its last member to its first (`sqlite3WalkSelect` follows
    // `pPrior`): it expands every member's FROM clause, rightmost first, before it resolves any
    // name, then resolves the members right to left. The first error is the one it reports.
    for member in statements.reversed() {
      for (table, _) in member.sources where commonTables?.lookup(table) == nil { _ = try catalog.requireTable(table) }
    }
    var compiledMembers: [RelationalSelect?] = Array(repeating: nil, count: statements.count)
    // A member the engine refuses still resolves in SQLite, which goes on to the members on its
    // left: an error there is SQLite's answer, so the refusal waits until every member is compiled.
    var refusal: TandemError?
    for index in statements.indices.reversed() {
      // `multiSelect` hands EXISTS's destination down a UNION ALL only: a member that UNION,
      // INTERSECT or EXCEPT combines is coded into their temporary table, result columns and all.
      let countsOnly = forExistence && operators[max(index - 1, 0)...].allSatisfy { $0 == .unionAll }
      do {
        let compiled = try RelationalSelect(
          statements[index].compoundMember, catalog: catalog, outer: outer, prefix: prefix, parameterNames: names,
          commonTables: commonTables, forExistence: countsOnly)
        names = compiled.parameterNames
        compiledMembers[index] = compiled
      } catch let error as TandemError where error.kind == .unsupported {
        refusal = refusal ?? error
      }
    }
    if let refusal { throw refusal }
    let members = compiledMembers.compactMap { $0 }
    self.operators = operators
    let width = members[0].columnCount
    for (index, member) in members.enumerated().dropFirst() where member.columnCount != width {
      throw EngineError.sqlite(
        1,
        "SELECTs to the left and right of \(operators[index - 1].rawValue) do not have the same number of result columns")
    }
    self.members = members
    columnCount = width
    collations = try (0..<width).map { column in try Self.collation(ofColumn: column, members) }
    // `x IN (compound)` and a scalar compound read the last member's column, as SQLite's
    // compound Select object is its rightmost member.
    firstColumn = members[members.count - 1].firstColumn

    var order: [(Int, SortTerm)] = []
    for (index, term) in statement.orderBy.enumerated() {
      guard case .resultColumn(let position) = term.expression else {
        throw TandemError.misuse("the ORDER BY of a compound select names its result columns by position")
      }
      guard (1...width).contains(position) else {
        throw EngineError.sqlite(
          1, "\(SelectPlan.ordinal(index + 1)) ORDER BY term out of range - should be between 1 and \(width)")
      }
      order.append((position - 1, SortTerm(descending: term.descending, nulls: term.nulls, collation: collations[position - 1])))
    }
    // EXISTS deletes the compound's ORDER BY once it is resolved.
    self.order = forExistence ? [] : order
    let compiler = ExpressionCompiler(table: nil, parameterNames: names)
    compiler.hidesColumns = true
    window = try LimitClause(limit: statement.limit, offset: statement.offset, compiler: compiler)
    self.parameterNames = compiler.parameterNames
  }

  /// The collation a compound compares `column` with: SQLite's `multiSelectCollSeq`, the
  /// leftmost member's that has one, else BINARY.
  ///
  /// A member whose column is a column of a subquery in FROM (or view, or common table) has
  /// BINARY where SQLite keeps the subquery and none where it flattens it: when a member to its
  /// right has a collation other than BINARY, the plan decides whether that one counts, and the
  /// compound is refused.
  private static func collation(ofColumn column: Int, _ members: [RelationalSelect]) throws -> Collation {
    for (index, member) in members.enumerated() {
      if member.resultCollationsDependOnFlattening[column] {
        guard !members[(index + 1)...].contains(where: { ($0.resultCollations[column] ?? .binary) != .binary }) else {
          throw EngineError.unsupported(
            "a compound whose column reads a subquery in FROM, view or common table in one member and is collated in a later one")
        }
        return .binary
      }
      if let collation = member.resultCollations[column] { return collation }
    }
    return .binary
  }

  var isCorrelated: Bool { members.contains { $0.isCorrelated } }
  var mayComeInPlanOrder: Bool { order.isEmpty && members.contains(where: \.mayComeInPlanOrder) }
  var holdsCorrelatedSubquery: Bool { members.contains(where: \.holdsCorrelatedSubquery) }

  /// The leftmost member's, as SQLite types a compound's columns.
  var resultAffinities: [Affinity] { members[0].resultAffinities }
  /// The columns where a member's expression has another affinity than the leftmost member's.
  var columnsOfMixedAffinity: Set<Int> {
    let first = members[0].resultAffinities
    return Set(first.indices.filter { column in members.dropFirst().contains { $0.resultAffinities[column] != first[column] } })
  }

  /// The leftmost member's, as SQLite gives a table made of a compound its columns' collations
  /// (`sqlite3SelectAddColumnTypeAndCollation`); the compound itself compares with ``collations``.
  var resultCollations: [Collation?] { members[0].resultCollations }

  func forEachRow(_ outer: EvaluationContext, _ body: ([SqliteValue]) throws -> Bool) throws {
    var context = EvaluationContext()
    context.parameters = outer.parameters
    guard let window = try self.window.evaluate(context) else { return }
    // With an ORDER BY, SQLite runs the members as co-routines and merges their sorted rows
    // (`multiSelectOrderBy`), stopping a member once the merge needs no more of it; with a
    // LIMIT it stops once it has the rows. A member that fails here may never have reached the
    // failing row in SQLite: refused rather than reported.
    let mayStopEarly = !order.isEmpty || window.limit != nil || window.offset > 0
    func refusingFailure(_ run: () throws -> Void, unlessFrom caller: () -> Bool = { false }) throws {
      do {
        try run()
      } catch let error as TandemError where mayStopEarly && error.kind == .sqlite && !caller() {
        throw EngineError.unsupported(
          "a compound select with ORDER BY or LIMIT whose member fails (SQLite merges or stops the members as it "
            + "goes, and may never compute the failing row)")
      }
    }
    var skipped = 0
    var delivered = 0
    /// Hands a row to `body` past the OFFSET; whether the run goes on (the LIMIT not reached).
    func deliver(_ row: [SqliteValue]) throws -> Bool {
      if skipped < window.offset {
        skipped += 1
        return true
      }
      if let limit = window.limit, delivered >= limit { return false }
      guard try body(row) else { return false }
      delivered += 1
      return window.limit.map { delivered < $0 } ?? true
    }
    // Without ORDER BY, the members a UNION ALL adds after the last other operator run one at a
    // time, each only while the run goes on: SQLite codes a UNION ALL's right member after its
    // left one, and skips it once the limit is reached (a scalar subquery and EXISTS put LIMIT 1
    // on the compound), so a member never reached fails nothing. A UNION, INTERSECT or EXCEPT
    // computes both sides into a temporary table first.
    let streamedFrom = order.isEmpty ? (operators.lastIndex { $0 != .unionAll }.map { $0 + 2 } ?? 0) : members.count
    if streamedFrom > 0 {
      var rows: [[SqliteValue]] = []
      try refusingFailure { rows = try collect(members[0], outer) }
      for (op, member) in zip(operators, members.dropFirst()).prefix(streamedFrom - 1) {
        var right: [[SqliteValue]] = []
        try refusingFailure { right = try collect(member, outer) }
        switch op {
        case .unionAll:
          rows += right
        case .union:
          rows = try distinct(rows + right)
        case .intersect:
          let keys = Set(right.map(key))
          rows = try distinct(rows).filter { keys.contains(key($0)) }
        case .except:
          let keys = Set(right.map(key))
          rows = try distinct(rows).filter { !keys.contains(key($0)) }
        }
      }
      if !order.isEmpty {
        let keys = rows.map { row in order.map { row[$0.column] } }
        let terms = order.map(\.term)
        let sorted = Ordering.sortedIndices(keys, terms)
        for (previous, next) in zip(sorted, sorted.dropFirst())
        where Ordering.compare(keys[previous], keys[next], terms) == 0 && !sameRowOrder(rows[previous], rows[next]) {
          throw Self.ambiguous
        }
        rows = sorted.map { rows[$0] }
      }
      for row in rows where try !deliver(row) { return }
    }
    for member in members[streamedFrom...] {
      if let limit = window.limit, delivered >= limit { return }
      var goesOn = true
      var callerFailed = false
      try refusingFailure(
        {
          try member.forEachRow(outer) { row in
            do {
              goesOn = try deliver(row)
            } catch {
              callerFailed = true
              throw error
            }
            return goesOn
          }
        }, unlessFrom: { callerFailed })
      if !goesOn { return }
    }
  }

  /// Whether two rows that tie in the ORDER BY are interchangeable: identical, or equal in every
  /// column (so that no order between them shows).
  private func sameRowOrder(_ a: [SqliteValue], _ b: [SqliteValue]) -> Bool { a == b }

  private static var ambiguous: TandemError {
    EngineError.unsupported(
      "a compound select whose rows compare equal but differ (such as 1 and 1.0): which one SQLite keeps or puts first depends on how it codes the compound")
  }

  private func collect(_ member: RelationalSelect, _ outer: EvaluationContext) throws -> [[SqliteValue]] {
    var rows: [[SqliteValue]] = []
    try member.forEachRow(outer) { row in
      rows.append(row)
      return true
    }
    return rows
  }

  private func key(_ row: [SqliteValue]) -> [ValueEqualityKey] {
    zip(row, collations).map { ValueEqualityKey($0, collation: $1) }
  }

  /// The distinct rows, in the order of SQLite's ephemeral index (every column ascending, with
  /// its collation); rows that are equal but differ are refused.
  private func distinct(_ rows: [[SqliteValue]]) throws -> [[SqliteValue]] {
    var kept: [[ValueEqualityKey]: [SqliteValue]] = [:]
    for row in rows {
      let key = key(row)
      if let existing = kept[key] {
        if existing != row { throw Self.ambiguous }
      } else {
        kept[key] = row
      }
    }
    let unique = Array(kept.values)
    let terms = collations.map(SortTerm.ascending)
    return Ordering.sortedIndices(unique, terms).map { unique[$0] }
  }
}
