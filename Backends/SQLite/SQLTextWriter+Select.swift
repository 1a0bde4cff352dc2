import TandemCore

extension SQLTextWriter {
  /// Writes a SELECT: its sources and joins, then its clauses; subqueries are written by the same
  /// method, one query level deeper.
  ///
  /// Aggregates and DISTINCT can depend on the order rows are visited in (floating-point sums,
  /// which of two equal values represents a group, bare columns). The memory engine visits the
  /// rows of such a query in one documented order — sources in FROM order, each in rowid order —
  /// and this method pins SQLite to the same order: every source `NOT INDEXED` (rowid lookups stay
  /// allowed) and inner joins written as `CROSS JOIN`, which SQLite never reorders. A single
  /// table's aggregate or DISTINCT is always pinned; a join's only when its answer can depend on
  /// the order (``SelectStatement/answerDependsOnVisitOrder(_:)``). Other joins are written as
  /// `JOIN`, and SQLite plans them freely: their rows are then sorted by an ORDER BY that ends
  /// with every source's rowid, so the plan cannot change the answer.
  mutating func writeSelect(_ select: SelectStatement) throws {
    if let clause = select.with {
      try writeWith(clause)
    }
    defer { if select.with != nil { commonTableNames.removeLast() } }
    try writeSelectCore(select)
    for term in select.compound {
      guard term.select.compound.isEmpty, term.select.orderBy.isEmpty, term.select.limit == nil,
        term.select.offset == nil
      else {
        throw TandemError.misuse("a select inside a compound cannot have its own ORDER BY, LIMIT, OFFSET or compound")
      }
      self += " "
      self += term.operator.rawValue
      self += " "
      try writeSelectCore(term.select)
    }
    try writeOrderAndLimit(select, isCompound: !select.compound.isEmpty)
  }

  /// `WITH [RECURSIVE] "name"("column", …) AS (SELECT …), … ` (its names stay in scope until the
  /// select that holds the clause is written).
  private mutating func writeWith(_ clause: WithClause) throws {
    guard !clause.tables.isEmpty else { throw TandemError.misuse("a WITH clause needs at least one table") }
    self += clause.recursive ? "WITH RECURSIVE " : "WITH "
    var names = commonTableNames.last ?? []
    for (index, table) in clause.tables.enumerated() {
      guard !table.columns.isEmpty else {
        throw TandemError.misuse("common table expression \(table.name) needs its column names")
      }
      if index > 0 { self += ", " }
      try writeIdentifier(table.name)
      self += "("
      try writeList(table.columns) { try $0.writeIdentifier($1) }
      self += ") AS ("
      names.insert(SQLRenderer.asciiLowercased(table.name))
      commonTableNames.append(names)
      defer { commonTableNames.removeLast() }
      try writeSelect(table.select)
      self += ")"
    }
    self += " "
    commonTableNames.append(names)
  }

  /// The result columns, sources, WHERE, GROUP BY and HAVING of one select.
  private mutating func writeSelectCore(_ select: SelectStatement) throws {
    guard !select.columns.isEmpty else {
      throw TandemError.misuse("a select needs at least one result column")
    }
    var scope: [String: String] = [:]
    for source in select.sources { scope[source.alias] = source.table }
    scopes.append(scope)
    defer { scopes.removeLast() }

    let pinsOrder =
      select.joins.isEmpty
      ? select.isAggregate || select.distinct
      : select.answerDependsOnVisitOrder { table, column in
        let name = SQLRenderer.asciiLowercased(table)
        // A common table expression's columns have no declared type.
        if commonTableNames.last?.contains(name) == true { return nil }
        return columnTraits[name]?[SQLRenderer.asciiLowercased(column)]
      }
    self += select.distinct ? "SELECT DISTINCT " : "SELECT "
    try writeList(select.columns) { try $0.write($1) }
    self += " FROM "
    try writeSource(table: select.table, alias: select.alias, notIndexed: pinsOrder)
    for join in select.joins {
      switch join.kind {
      case .inner: self += pinsOrder ? " CROSS JOIN " : " JOIN "
      case .cross: self += " CROSS JOIN "
      case .left: self += " LEFT JOIN "
      }
      try writeSource(table: join.table, alias: join.alias, notIndexed: pinsOrder)
      if let condition = join.condition {
        self += " ON "
        try write(condition)
      }
    }
    if let filter = select.filter {
      self += " WHERE "
      try write(filter)
    }
    if !select.groupBy.isEmpty {
      self += " GROUP BY "
      try writeList(select.groupBy) { try $0.write($1) }
    }
    if let having = select.having {
      self += " HAVING "
      try write(having)
    }
  }

  /// ORDER BY, LIMIT and OFFSET (of the whole compound, for a compound select).
  private mutating func writeOrderAndLimit(_ select: SelectStatement, isCompound: Bool) throws {
    var scope: [String: String] = [:]
    for source in select.sources { scope[source.alias] = source.table }
    scopes.append(scope)
    defer { scopes.removeLast() }
    if !select.orderBy.isEmpty {
      self += " ORDER BY "
      try writeList(select.orderBy) { writer, term in
        switch (term.expression, isCompound) {
        case (.resultColumn(let position), true):
          guard position >= 1 else { throw TandemError.misuse("result column positions start at 1") }
          // A position, not a value: SQLite reads only a literal integer as a column position.
          writer += String(position)
        case (_, true):
          throw TandemError.misuse("the ORDER BY of a compound select names its result columns by position")
        default:
          try writer.write(term.expression)
        }
        writer += term.descending ? " DESC" : " ASC"
        if let nulls = term.nulls {
          writer += " "
          writer += nulls.rawValue
        }
      }
    }
    if let limit = select.limit {
      self += " LIMIT "
      try write(limit)
    } else if select.offset != nil {
      // SQLite has no OFFSET without LIMIT; a negative limit means "no limit".
      self += " LIMIT -1"
    }
    if let offset = select.offset {
      self += " OFFSET "
      try write(offset)
    }
  }

  /// `"table" [AS "alias"] [NOT INDEXED]`.
  private mutating func writeSource(table: String, alias: String?, notIndexed: Bool) throws {
    try writeIdentifier(table)
    if let alias, alias != table {
      self += " AS "
      try writeIdentifier(alias)
    }
    if notIndexed { self += " NOT INDEXED" }
  }

  /// The rowid spelling of the source named `alias`, in the innermost query level that has it.
  func rowidSpelling(ofSource alias: String) throws -> String {
    let table = scopes.reversed().lazy.compactMap { $0[alias] }.first ?? alias
    let spelling: String? = otherRowidNames[table] ?? (otherRowidNames.isEmpty ? rowidName : "rowid")
    guard let spelling else {
      throw TandemError.unsupported(
        "the rowid of a table whose columns are named rowid, _rowid_ and oid", backend: "sqlite")
    }
    return spelling
  }
}
