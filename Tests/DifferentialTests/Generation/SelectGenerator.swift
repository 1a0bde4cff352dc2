import Tandem

/// Random SELECTs: plain, DISTINCT, aggregate and grouped, with filters, HAVING, ORDER BY
/// (always made deterministic the way `Select.statement` does) and LIMIT/OFFSET.
struct SelectGenerator {
  var expressions: ExpressionGenerator

  /// A select over `expressions.table`.
  mutating func select() -> SelectStatement {
    expressions.mode = .row
    let table = expressions.table
    var statement = SelectStatement(table: table.name, columns: [])
    switch expressions.random.weighted([(6, 0), (1, 1), (2, 2), (3, 3)]) {
    case 0: plain(&statement)
    case 1: distinct(&statement)
    case 2: aggregate(&statement)
    default: grouped(&statement)
    }
    expressions.mode = .row
    if expressions.random.chance(0.2) { statement.limit = limitValue() }
    if expressions.random.chance(0.12) { statement.offset = limitValue() }
    statement.orderBy += Self.tieBreakers(for: statement).map { OrderingTerm($0) }
    return statement
  }

  /// What `Select.statement` appends: the group keys, nothing for one aggregate row, the result
  /// columns for DISTINCT, else the rowid (every source's, in FROM order, for a join; written
  /// `"t".rowid` where `Select.statement` writes `+"t".rowid`, which orders alike).
  static func tieBreakers(for statement: SelectStatement) -> [SQLExpression] {
    // A compound is ordered by its result columns, which its generator writes.
    if !statement.compound.isEmpty { return [] }
    if !statement.groupBy.isEmpty { return statement.groupBy }
    if statement.isAggregate { return [] }
    if statement.distinct { return statement.columns }
    // A common table's rows have no rowid: the result columns order them, then the tables' rowids.
    let common = Set((statement.with?.tables ?? []).map { SchemaGenerator.fold($0.name) })
    if statement.sources.contains(where: { common.contains(SchemaGenerator.fold($0.table)) }) {
      return statement.columns
        + statement.sources.filter { !common.contains(SchemaGenerator.fold($0.table)) }.map { .qualifiedRowid(source: $0.alias) }
    }
    if statement.joins.isEmpty { return [.rowid] }
    return statement.sources.map { .qualifiedRowid(source: $0.alias) }
  }

  /// A filter: usually random, sometimes one whose answer depends on the plan (a seekable term
  /// beside a condition that fails on some rows).
  private mutating func filter() -> SQLExpression? {
    if expressions.random.chance(0.2) { return expressions.plannedFilter() }
    return expressions.random.chance(0.75) ? expressions.predicate(depth: expressions.random.int(0...3)) : nil
  }

  private mutating func plain(_ statement: inout SelectStatement) {
    statement.columns = (0..<expressions.random.int(1...4)).map { _ in rowExpression() }
    // A result column that fails on some rows: only the rows the plan visits evaluate it.
    if expressions.random.chance(0.12) {
      statement.columns.insert(expressions.overflowHazard(), at: expressions.random.int(0...statement.columns.count))
    }
    statement.filter = filter()
    statement.orderBy = (0..<expressions.random.weighted([(3, 0), (3, 1), (2, 2), (1, 3)])).map { _ in
      switch expressions.random.weighted([(6, 0), (2, 1), (4, 2)]) {
      case 0: ordering(column())
      // An index may deliver this order, so a LIMIT stops before the rest are evaluated.
      case 1: ordering(expressions.random.pick(expressions.seekableColumns))
      default: ordering(expressions.expression(depth: 2))
      }
    }
  }

  private mutating func distinct(_ statement: inout SelectStatement) {
    statement.distinct = true
    statement.columns = (0..<expressions.random.int(1...3)).map { _ in
      expressions.random.chance(0.6) ? column() : expressions.expression(depth: 2)
    }
    statement.filter = filter()
    // Only result columns (maybe under another collation) keep a DISTINCT order deterministic.
    statement.orderBy = (0..<expressions.random.int(0...2)).map { _ in
      var term = expressions.random.pick(statement.columns)
      if expressions.random.chance(0.2) { term = .collate(term, expressions.random.pick([Collation.nocase, .rtrim])) }
      return ordering(term)
    }
  }

  private mutating func aggregate(_ statement: inout SelectStatement) {
    if expressions.random.chance(0.12) {
      // min() or max() alone over the rowid: SQLite reads it from one end of the table and
      // stops at the first row the filter accepts, never evaluating the others.
      let key = expressions.table.rowidColumn.map { SQLExpression.column($0.name) } ?? .rowid
      statement.columns = [.aggregate(expressions.random.pick([AggregateFunction.min, .max]), key, distinct: false)]
      statement.filter = expressions.random.chance(0.5) ? expressions.hazardCondition() : expressions.plannedFilter()
      return
    }
    expressions.mode = .grouped(keys: [])
    statement.columns = (0..<expressions.random.int(1...4)).map { _ in groupedExpression() }
    if !statement.columns.contains(where: \.containsAggregate) { statement.columns.append(expressions.aggregate()) }
    if expressions.random.chance(0.2) { statement.having = expressions.predicate(depth: expressions.random.int(0...2)) }
    expressions.mode = .row
    statement.filter = filter()
  }

  private mutating func grouped(_ statement: inout SelectStatement) {
    let keys: [SQLExpression] = (0..<expressions.random.weighted([(5, 1), (2, 2)])).map { _ in
      switch expressions.random.weighted([(8, 0), (2, 1), (2, 2), (1, 3)]) {
      case 0: return column()
      case 1: return .collate(column(), expressions.random.pick([Collation.nocase, .rtrim, .binary]))
      case 2: return expressions.expression(depth: 2)
      default: return .literal(NastyValues.any(&expressions.random))
      }
    }
    statement.groupBy = keys
    expressions.mode = .grouped(keys: keys)
    var columns: [SQLExpression] = []
    for key in keys where expressions.random.chance(0.7) { columns.append(key) }
    columns += (0..<expressions.random.int(1...3)).map { _ in groupedExpression() }
    statement.columns = columns
    if expressions.random.chance(0.4) { statement.having = expressions.predicate(depth: expressions.random.int(0...2)) }
    statement.orderBy = (0..<expressions.random.int(0...2)).map { _ in
      ordering(expressions.random.chance(0.5) ? expressions.random.pick(keys) : groupedExpression())
    }
    if keys.allSatisfy(columns.contains) && expressions.random.chance(0.15) { statement.distinct = true }
    expressions.mode = .row
    statement.filter = filter()
  }

  private mutating func column() -> SQLExpression {
    expressions.random.chance(0.1) ? .rowid : .column(expressions.random.pick(expressions.table.columns).name)
  }

  private mutating func rowExpression() -> SQLExpression {
    expressions.random.chance(0.35) ? column() : expressions.expression(depth: expressions.random.int(1...3))
  }

  private mutating func groupedExpression() -> SQLExpression {
    expressions.random.chance(0.4)
      ? expressions.aggregate() : expressions.expression(depth: expressions.random.int(1...2))
  }

  private mutating func ordering(_ expression: SQLExpression) -> OrderingTerm {
    let nulls: OrderingTerm.NullsOrder? = expressions.random.weighted([(6, nil), (1, .first), (1, .last)])
    return OrderingTerm(expression, descending: expressions.random.chance(0.4), nulls: nulls)
  }

  /// A LIMIT or OFFSET value: usually a small (maybe negative) integer, sometimes one of the
  /// values SQLite converts or rejects with `datatype mismatch`.
  private mutating func limitValue() -> SQLExpression {
    switch expressions.random.weighted([(10, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 7), (2, 8)]) {
    case 0: return .literal(.integer(Int64(expressions.random.int(-2...5))))
    case 1: return .literal(.text("2"))
    case 2: return .literal(.real(2.0))
    case 3: return .literal(.real(2.5))
    case 4: return .literal(.null)
    case 5: return .literal(.text("abc"))
    case 6: return .literal(.text(" 3 "))
    case 7: return .literal(.integer(.max))
    default: return expressions.parameter(.integer(Int64(expressions.random.int(0...3))))
    }
  }
}
