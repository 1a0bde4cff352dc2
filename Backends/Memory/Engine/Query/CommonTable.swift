import TandemCore

/// The common table expressions a query level may read, innermost `WITH` first (`select.c`'s
/// `sqlite3WithPush`).
final class CommonTableScope {
  private let tables: [NameKey: CommonTable]
  let parent: CommonTableScope?

  init(tables: [NameKey: CommonTable], parent: CommonTableScope?) {
    self.tables = tables
    self.parent = parent
  }

  /// The common table named `name`, innermost first.
  func lookup(_ name: String) -> CommonTable? {
    tables[NameKey(name)] ?? parent?.lookup(name)
  }

  /// Compiles the tables of a WITH clause, each able to read those before it (and itself, when
  /// recursive), inside the query level `outer`.
  static func compile(
    _ clause: WithClause, catalog: Catalog, outer: SourceScope?, prefix: RelationalSelect.Prefix,
    parameterNames: inout [String], parent: CommonTableScope?
  ) throws -> CommonTableScope {
    var scope = CommonTableScope(tables: [:], parent: parent)
    for expression in clause.tables {
      let table = try CommonTable(
        expression, recursive: clause.recursive, catalog: catalog, outer: outer, prefix: prefix,
        parameterNames: &parameterNames, scope: scope)
      var tables = scope.tables
      tables[NameKey(expression.name)] = table
      scope = CommonTableScope(tables: tables, parent: parent)
    }
    return scope
  }
}

/// One common table expression during a statement run: an ephemeral table holding its rows,
/// computed once, the first time a query reads it (SQLite materializes the table, or runs it as a
/// co-routine, with the same rows).
///
/// A recursive one runs as SQLite's `generateWithRecursiveQuery`: the rows of its first members
/// go into a queue; each row taken from the queue joins the table and runs the last member with
/// the table holding that one row, queueing what it returns (unless UNION has seen the row
/// before), until the queue is empty or LIMIT rows are in the table.
///
/// A statement runs on one thread, so its state needs no lock.
final class CommonTable: @unchecked Sendable {
  let storage: TableStorage
  private let initial: any RowSource
  private let step: RelationalSelect?
  private let iteration: TableStorage?
  private let distinct: Bool
  private let limit: LimitClause?
  private var filled = false
  /// Whether its rows come in an order SQLite's plan chooses: a join or a compound, which SQLite
  /// may flatten into the query reading it, or a table it may read through an index (a
  /// recursive table's queue has one order).
  let hasPlanOrder: Bool
  /// Whether a query reading the whole table, without ORDER BY, may see its rows in an order this
  /// engine does not follow: a join (SQLite may flatten it into that query), or selects over a
  /// table SQLite may read through an index. A compound's rows come in its members'
  /// order, and a recursive table's in its queue's.
  let rowsComeInPlanOrder: Bool
  /// The columns a comparison in the query reading the table may see with another affinity: in
  /// a compound (not a recursive one), those where a member's expression has another affinity
  /// than the leftmost member's, which gives the column its own. SQLite 3.40 may push a WHERE
  /// term into each member, or flatten the compound into the query, substituting each member's
  /// expression for the column — and the comparison then takes that expression's affinity.
  let columnsOfMixedAffinity: Set<Int>
  /// The positions of its columns that SQLite, flattening the table into a query that groups or
  /// deduplicates by them, may read in an index's order: each one is a column of the one table
  /// its select reads, and that column is in an index of it. The query reading the table then
  /// visits a group's rows in the index's order (the rest of its columns, then the rowid), not in
  /// rowid order.
  let columnsInAnIndex: Set<Int>
  /// Whether its selects hold a subquery reading a level around it (``RowSource/holdsCorrelatedSubquery``).
  var holdsCorrelatedSubquery: Bool { initial.holdsCorrelatedSubquery || step?.holdsCorrelatedSubquery == true }

  fileprivate init(
    _ expression: CommonTableExpression, recursive: Bool, catalog: Catalog, outer: SourceScope?,
    prefix: RelationalSelect.Prefix, parameterNames: inout [String], scope: CommonTableScope
  ) throws {
    let select = expression.select
    let members = [select.compoundMember] + select.compound.map(\.select)
    let readsItself = members.map { member in
      member.sources.contains { NameKey($0.table) == NameKey(expression.name) }
    }
    let isRecursive = recursive && readsItself.contains(true)
    var initialStatement = select
    if isRecursive {
      guard readsItself.dropLast().allSatisfy({ !$0 }), readsItself.last == true,
        let last = select.compound.last, last.operator == .union || last.operator == .unionAll
      else {
        throw EngineError.unsupported(
          "a recursive common table expression other than first members UNION [ALL] one member reading it")
      }
      guard select.orderBy.isEmpty, select.offset == nil else {
        throw EngineError.unsupported("ORDER BY or OFFSET in a recursive common table expression")
      }
      initialStatement.compound.removeLast()
      initialStatement.limit = nil
    }
    initial = try RelationalQuery.compile(
      initialStatement, catalog: catalog, outer: outer, prefix: prefix, parameterNames: parameterNames,
      commonTables: scope)
    parameterNames = initial.parameterNames
    // A table SQLite may read through an index (scanning one that covers it, or searching one
    // for a WHERE term) delivers its rows in that index's order.
    hasPlanOrder = !select.joins.isEmpty || !select.compound.isEmpty || initial.mayComeInPlanOrder
    guard !initial.isCorrelated else {
      throw EngineError.unsupported("a common table expression that reads the query around it")
    }
    guard initial.columnCount == expression.columns.count else {
      throw EngineError.sqlite(
        1, "table \(expression.name) has \(initial.columnCount) values for \(expression.columns.count) columns")
    }
    // SQLite gives the table's columns the collations of its leftmost member's expressions
    // (`sqlite3SelectAddColumnTypeAndCollation`), and every comparison, sort or group reading a
    // column takes it — as an explicit COLLATE where the query flattener substitutes the
    // expression for the column. The ephemeral table's columns here compare as BINARY.
    guard !initial.resultCollations.contains(where: Self.isNonBinary) else {
      throw EngineError.unsupported(
        "a column of a common table expression, view or subquery in FROM collated other than BINARY")
    }
    let definition = TableDefinition.ephemeral(
      name: expression.name, columns: expression.columns, affinities: initial.resultAffinities,
      isDerivedTable: expression.isDerivedTable)
    storage = TableStorage(definition: definition)

    if isRecursive, let last = select.compound.last {
      guard !Statement.select(last.select).isRelationalBeyondJoins else {
        throw EngineError.unsupported("a subquery in the recursive member of a common table expression")
      }
      let iteration = TableStorage(definition: definition)
      let own = CommonTableScope(tables: [NameKey(expression.name): CommonTable(iteration: iteration)], parent: scope)
      let step = try RelationalSelect(
        last.select, catalog: catalog, outer: outer, prefix: prefix, parameterNames: parameterNames,
        commonTables: own)
      parameterNames = step.parameterNames
      guard step.columnCount == expression.columns.count else {
        throw EngineError.sqlite(
          1, "SELECTs to the left and right of \(last.operator.rawValue) do not have the same number of result columns")
      }
      // UNION drops a row equal to one seen under each column's collation from the leftmost
      // member that has one (`multiSelectCollSeq`); the queue here compares as BINARY.
      let firstMembers = (initial as? CompoundSelect)?.collations ?? initial.resultCollations
      guard last.operator == .unionAll
        || !(firstMembers + step.resultCollations).contains(where: Self.isNonBinary)
      else {
        throw EngineError.unsupported(
          "a recursive common table expression whose UNION compares a column collated other than BINARY")
      }
      self.step = step
      self.iteration = iteration
      distinct = last.operator == .union
      let compiler = ExpressionCompiler(table: nil, parameterNames: parameterNames)
      compiler.hidesColumns = true
      limit = try LimitClause(limit: select.limit, offset: nil, compiler: compiler)
      parameterNames = compiler.parameterNames
    } else {
      step = nil
      iteration = nil
      distinct = false
      limit = nil
    }
    // Which rows LIMIT or OFFSET keep — and for a recursive table the order its queue takes rows
    // in — is the order its selects deliver them, which SQLite's plan may take from an index.
    rowsComeInPlanOrder = !select.joins.isEmpty || initial.mayComeInPlanOrder || step?.mayComeInPlanOrder == true
    columnsOfMixedAffinity = isRecursive ? [] : (initial as? CompoundSelect)?.columnsOfMixedAffinity ?? []
    columnsInAnIndex =
      isRecursive || scope.lookup(select.table) != nil ? [] : Self.columnsInAnIndex(select, catalog: catalog)
    if select.limit != nil || select.offset != nil, initial.mayComeInPlanOrder || step?.mayComeInPlanOrder == true {
      throw EngineError.unsupported(
        "a common table expression, view or subquery in FROM with LIMIT or OFFSET and without ORDER BY, over a "
          + "table SQLite may read in an index's order (it then keeps other rows)")
    }
  }

  /// Whether SQLite, flattening this (non-recursive) table into a query that reads only its
  /// columns at `positions`, may read its select's table through an index that covers them, in
  /// the index's order.
  func mayScanIndexOnceFlattened(readingColumns positions: Set<Int>) -> Bool {
    step == nil && initial.mayScanIndexOnceFlattened(readingColumns: positions)
  }

  /// Refuses a row holding a value its column's affinity would convert. SQLite applies the
  /// affinities where it materializes the table (`OP_MakeRecord` with the table's affinity
  /// string) and REAL affinity where a query reads a column (`OP_RealAffinity`), but not where it
  /// runs the table as a co-routine or flattens it into the query: its plan decides the value.
  private func refuseConvertible(_ row: [SqliteValue]) throws {
    for (value, affinity) in zip(row, storage.definition.affinities) where value.applyingStorageAffinity(affinity) != value {
      throw EngineError.unsupported(
        "a value of a common table expression, view or subquery in FROM that its column's affinity converts "
          + "(SQLite converts it only where its plan stores the table's rows)")
    }
  }

  /// See ``columnsInAnIndex``: only a select SQLite may flatten (one table, no compound, no
  /// aggregate, DISTINCT, LIMIT or OFFSET) counts, and only columns read as they are.
  private static func columnsInAnIndex(_ select: SelectStatement, catalog: Catalog) -> Set<Int> {
    guard select.joins.isEmpty, select.compound.isEmpty, !select.isAggregate, !select.distinct,
      select.limit == nil, select.offset == nil, let definition = catalog.table(select.table)?.definition,
      !definition.isEphemeral
    else { return [] }
    let alias = NameKey(select.alias ?? select.table)
    var positions = Set<Int>()
    for (position, column) in select.columns.enumerated() {
      let name: String
      switch column {
      case .column(let read): name = read
      case .qualifiedColumn(let source, let read) where NameKey(source) == alias: name = read
      default: continue
      }
      guard let index = definition.columnIndex(name), index != definition.rowidColumn,
        definition.indexes.contains(where: { $0.columns.contains(index) })
      else { continue }
      positions.insert(position)
    }
    return positions
  }

  private static func isNonBinary(_ collation: Collation?) -> Bool {
    collation.map { $0 != .binary } ?? false
  }

  /// The table a recursive member reads: the one row being expanded.
  private init(iteration: TableStorage) {
    hasPlanOrder = false
    columnsInAnIndex = []
    rowsComeInPlanOrder = false
    columnsOfMixedAffinity = []
    storage = iteration
    initial = EmptyRowSource()
    step = nil
    self.iteration = nil
    distinct = false
    limit = nil
    filled = true
  }

  /// Computes the rows, the first time the statement reads the table.
  func fill(_ context: EvaluationContext) throws {
    guard !filled else { return }
    filled = true
    var rows: [[SqliteValue]] = []
    if let step, let iteration {
      let window = try limit?.evaluate(context)
      if limit != nil, window == nil { return }  // LIMIT 0
      let maximum = window.flatMap(\.limit)
      var queue: [[SqliteValue]] = []
      var head = 0
      var seen = Set<[ValueEqualityKey]>()
      func enqueue(_ row: [SqliteValue]) throws {
        if distinct, !seen.insert(row.map { ValueEqualityKey($0, collation: .binary) }).inserted { return }
        try refuseConvertible(row)
        queue.append(row)
      }
      try initial.forEachRow(context) { row in
        try enqueue(row)
        return true
      }
      while head < queue.count {
        if let maximum, rows.count >= maximum { break }
        let row = queue[head]
        head += 1
        rows.append(row)
        iteration.data.rows.removeAll()
        iteration.data.insert(1, values: row)
        step.resetTransientIndexes()
        try step.forEachRow(context) { next in
          try enqueue(next)
          return true
        }
      }
    } else {
      try initial.forEachRow(context) { row in
        try refuseConvertible(row)
        rows.append(row)
        return true
      }
    }
    for (index, row) in rows.enumerated() { storage.data.insert(Int64(index + 1), values: row) }
  }
}

/// A query without rows (the stand-in query of a recursive member's one-row table).
private final class EmptyRowSource: RowSource {
  let parameterNames: [String] = []
  var isCorrelated: Bool { false }
  var mayComeInPlanOrder: Bool { false }
  var holdsCorrelatedSubquery: Bool { false }
  let columnCount = 0
  var resultAffinities: [Affinity] { [] }
  var resultCollations: [Collation?] { [] }
  var firstColumn: CompiledExpression {
    CompiledExpression(evaluate: { _ in .null }, affinity: .none, collation: nil, hasExplicitCollation: false, isConstant: true)
  }
  func forEachRow(_ outer: EvaluationContext, _ body: ([SqliteValue]) throws -> Bool) throws {}
}

extension Statement {
  /// Whether the statement holds a subquery or a WITH clause (beyond joins and compounds).
  fileprivate var isRelationalBeyondJoins: Bool {
    guard case .select(let select) = self else { return isRelational }
    return select.with != nil || select.expressions.contains(where: \.containsSubquery)
  }
}
