import TandemCore

extension ExpressionCompiler {
  /// Compiles a scalar subquery, `EXISTS` or `IN (SELECT …)` (SQLite's `sqlite3CodeSubselect`):
  /// the subquery is compiled as a query level inside this one, reading this level's row as its
  /// outer row. One that reads nothing of the levels around it runs once per statement, as
  /// SQLite's `OP_Once` does, and keeps its answer.
  func subquery(_ expression: SQLExpression) throws -> CompiledExpression {
    guard let catalog else { throw EngineError.unsupported("a subquery in this statement") }
    let outer: SourceScope?
    let prefix: RelationalSelect.Prefix
    if let scope {
      outer = scope
      prefix = .combined(width: scope.width)
    } else if let table, !hidesColumns {
      outer = SourceScope(sources: [(table.name, table)], parent: nil)
      prefix = .single(columns: table.columnCount)
    } else {
      outer = nil
      prefix = .none
    }
    func compileQuery(_ query: SelectStatement, forExistence: Bool = false) throws -> any RowSource {
      let select: any RowSource
      do {
        select = try RelationalQuery.compile(
          query, catalog: catalog, outer: outer, prefix: prefix, parameterNames: parameterNames,
          commonTables: commonTables, forExistence: forExistence)
      } catch let refusal as TandemError where refusal.kind == .unsupported || Self.isCodeGenerationError(refusal) {
        // SQLite goes on resolving the statement's names after this subquery: so does the
        // compiler, and the statement is refused at its end.
        deferRefusal(refusal)
        return RefusedQuery(query, refusal: refusal, parameterNames: parameterNames)
      } catch let error as TandemError where Self.isResolutionError(error) {
        subqueryError = error
        throw error
      }
      if select.isCorrelated { compiledCorrelatedSubquery = true }
      if select.isCorrelated || select.holdsCorrelatedSubquery { compiledCorrelationAnywhere = true }
      if (select.isCorrelated && query != varSelectExemptQuery) || select.holdsCorrelatedSubquery {
        compiledVarSelect = true
      }
      for name in select.parameterNames.dropFirst(parameterNames.count) { _ = parameterSlot(name) }
      return select
    }
    switch expression {
    case .subquery(let query):
      let select = try compileQuery(query)
      deferringCodeGenerationError(select.requireOneColumn)
      let answer = SubqueryAnswer(select)
      // A scalar subquery takes its column's affinity but no collation: SQLite's
      // `sqlite3ExprCollSeq` stops at a one-column TK_SELECT, so a comparison with it uses the
      // other side's collation or BINARY (`(SELECT 'a' COLLATE NOCASE) = 'A'` is 0). Only
      // `x IN (SELECT …)` reads the subquery column's collation (below).
      return CompiledExpression(
        evaluate: { context in try answer.value(context) { select in try select.firstValue(context) } },
        affinity: select.firstColumn.affinity, collation: nil, hasExplicitCollation: false,
        isConstant: false)

    case .exists(let query, let negated):
      let select = try compileQuery(query, forExistence: true)
      let answer = SubqueryAnswer(select)
      let (yes, no) = negated ? (ValueOperations.zero, ValueOperations.one) : (ValueOperations.one, ValueOperations.zero)
      return CompiledExpression(
        evaluate: { context in try answer.value(context) { select in try select.hasRow(context) ? yes : no } },
        affinity: .none, collation: nil, hasExplicitCollation: false, isConstant: false)

    case .inSubquery(let operand, let query, let negated):
      // SQLite resolves the subquery before the operand (its walker meets the IN node first).
      let select = try compileQuery(query)
      let left = try compile(operand)
      deferringCodeGenerationError(select.requireOneColumn)
      let affinity = ComparisonOperands.combined(left.affinity, select.firstColumn.affinity)
      if aggregatePolicy == .collect, let function = Self.aggregateOperand(operand),
        !Self.leavesAggregateUnchanged(function, affinity)
      {
        convertsAggregateInPlace = true
      }
      let collation = Self.comparisonCollation(left, select.firstColumn)
      let evaluate = left.evaluate
      let members = SubqueryAnswer(select)
      let (found, missing) = negated ? (ValueOperations.zero, ValueOperations.one) : (ValueOperations.one, ValueOperations.zero)
      let readsRowid = readsRowid(operand)
      let searchesRowids = !select.isCorrelated && searchesRowidsForIn(query, catalog: catalog)
      let mayDriveIndexSeek = searchesRowids && leadsAnIndex(operand)
      let orderMayBeSkipped = !query.orderBy.isEmpty && Self.readsColumnsAlone(query, commonTables: commonTables)
      return derived([left]) { context in
        let value = try evaluate(context)
        let set: SubqueryAnswer.MemberSet
        do {
          set = try members.members(context, affinity: affinity, collation: collation)
        } catch let error as TandemError where orderMayBeSkipped && error.kind != .unsupported {
          // Only the ORDER BY of such a subquery can fail, and SQLite computes it only when it
          // runs the subquery rather than search the column's index or the rowids.
          throw EngineError.unsupported(
            "an error in the ORDER BY of x IN (SELECT column FROM table ORDER BY …), which SQLite never computes "
              + "when its plan searches an index of the column (or the rowids) instead of running the subquery")
        }
        // `x IN (empty)` is false even when x is NULL.
        if set.isEmpty { return missing }
        if value.isNull { return .null }
        let member = SubqueryAnswer.member(value, under: affinity)
        // A seek of the subquery's table by rowid takes no REAL for an integer, and the REAL -2⁶³
        // stays a REAL (`OP_SeekRowid`): it finds nothing, though it equals the smallest rowid.
        if searchesRowids && member == .real(-0x1p63) {
          // Unless the rowids drive a seek of an index on `x` instead (`SEARCH t USING INDEX
          // (x=?)`), which compares the integer -2⁶³ with the REAL and finds it.
          if mayDriveIndexSeek {
            throw EngineError.unsupported(
              "a REAL -9223372036854775808 IN (SELECT rowid …) on an indexed column (SQLite seeks the rowid, which "
                + "the REAL does not find, or seeks the column's index by each rowid, which finds it, as its plan chooses)")
          }
          return missing
        }
        if set.contains(ValueEqualityKey(member, collation: collation)) {
          // `rowid IN (SELECT …)` may drive a rowid seek (`OP_SeekRowid`), which the REAL -2⁶³
          // never finds, or be a test, which finds it equal to the smallest rowid: SQLite's plan
          // chooses.
          if readsRowid, set.holdsRealSmallestInteger, value == .integer(.min) {
            throw EngineError.unsupported(
              "the smallest rowid IN (SELECT …) a REAL -9223372036854775808 (SQLite seeks the rowid, which the REAL "
                + "does not find, or compares, which finds it, as its plan chooses)")
          }
          return found
        }
        return set.hasNull ? .null : missing
      }

    default:
      throw EngineError.unsupported("subquery form")
    }
  }

  /// Whether `query` reads nothing but columns (or the rowid) of one table, with no WHERE,
  /// LIMIT, OFFSET, DISTINCT, grouping, aggregate, join or compound member: SQLite's
  /// `isCandidateForInOpt`, under which `x IN (query)` may search an index of the column (or the
  /// rowids) and never run the query, its ORDER BY included.
  ///
  /// ```sql
  /// x IN (SELECT ref FROM t ORDER BY abs(ref - 9223372036854775808))  -- no error when t(ref) is indexed
  /// ```
  static func readsColumnsAlone(_ query: SelectStatement, commonTables: CommonTableScope?) -> Bool {
    guard query.compound.isEmpty, query.with == nil, query.joins.isEmpty, query.filter == nil, query.limit == nil,
      query.offset == nil, !query.distinct, query.groupBy.isEmpty, query.having == nil, query.hasFromClause,
      commonTables?.lookup(query.table) == nil
    else { return false }
    return query.columns.allSatisfy { column in
      switch column {
      case .column, .qualifiedColumn, .rowid, .qualifiedRowid: return true
      default: return false
      }
    }
  }

  /// Whether SQLite answers `x IN (query)` by searching the rowids of the query's table
  /// (`sqlite3FindInIndex`'s `IN_INDEX_ROWID`): the query reads one table (not a common table)
  /// and returns its rowid, with no WHERE, LIMIT, DISTINCT, aggregate or compound member
  /// (`isCandidateForInOpt`; an ORDER BY does not matter).
  ///
  /// ```sql
  /// x IN (SELECT rowid FROM t ORDER BY rowid)   -- OP_SeekRowid on t for each x
  /// ```
  private func searchesRowidsForIn(_ query: SelectStatement, catalog: Catalog) -> Bool {
    guard Self.readsColumnsAlone(query, commonTables: commonTables), query.columns.count == 1,
      let table = catalog.table(query.table)?.definition
    else { return false }
    let source = NameKey(query.alias ?? query.table)
    switch query.columns[0] {
    case .rowid: return true
    case .qualifiedRowid(let name): return NameKey(name) == source
    case .column(let name): return Self.namesRowid(name, of: table)
    case .qualifiedColumn(let name, let column): return NameKey(name) == source && Self.namesRowid(column, of: table)
    default: return false
    }
  }

  /// Whether `name` is the table's rowid: its alias column, or a rowid name no column takes.
  private static func namesRowid(_ name: String, of table: TableDefinition) -> Bool {
    if let index = table.columnIndex(name) { return index == table.rowidColumn }
    return NameKey(name).isRowidName
  }

  /// Whether `operand` is a column of this level that leads one of its table's indexes, so that
  /// SQLite may answer `operand IN (…)` in WHERE by seeking that index with each member.
  private func leadsAnIndex(_ operand: SQLExpression) -> Bool {
    if case .collate(let inner, _) = operand { return leadsAnIndex(inner) }
    if let scope {
      guard let reference = scope.reference(to: operand), reference.depth == 0, let column = reference.column else {
        return false
      }
      return scope.sources[reference.source].definition.leadsAnIndex(column)
    }
    guard case .column(let name) = operand, let table, let column = table.columnIndex(name) else { return false }
    return table.leadsAnIndex(column)
  }

  /// Whether `operand` is this level's rowid (or a column aliasing it).
  private func readsRowid(_ operand: SQLExpression) -> Bool {
    if let scope { return scope.reference(to: operand).map { $0.isRowid && $0.depth == 0 } ?? false }
    switch operand {
    case .rowid: return true
    case .column(let name): return table.map { $0.rowidColumn != nil && $0.columnIndex(name) == $0.rowidColumn } ?? false
    default: return false
    }
  }

  /// Runs `check`, keeping its error for the statement's end (SQLite finds it as it generates
  /// code, after resolving every name).
  private func deferringCodeGenerationError(_ check: () throws -> Void) {
    do { try check() } catch let error as TandemError { deferRefusal(error) } catch {}
  }

  /// The aggregate function whose register an `IN` operand is (through COLLATE and unary plus,
  /// which SQLite codes as their operand's register), if it is one.
  private static func aggregateOperand(_ operand: SQLExpression) -> AggregateFunction? {
    switch operand {
    case .aggregate(let function, _, _, _): function
    case .collate(let inner, _), .unary(.plus, let inner): aggregateOperand(inner)
    default: nil
    }
  }

  /// Whether applying `affinity` cannot change the aggregate's value: none and BLOB convert
  /// nothing, and a count is an integer already — but REAL makes any integer a REAL
  /// (`OP_Affinity`'s `MEM_IntReal`).
  private static func leavesAggregateUnchanged(_ function: AggregateFunction, _ affinity: Affinity) -> Bool {
    switch affinity {
    case .none, .blob: true
    case .integer, .numeric: function == .count
    case .real, .text: false
    }
  }
}

/// The answer of one subquery within one statement run: computed once when the subquery reads
/// nothing of the query around it, else for each outer row.
///
/// A statement runs on one thread (the facade serializes calls), so the cache needs no lock; it
/// lives as long as the compiled statement, which a relational statement does not outlive.
final class SubqueryAnswer: @unchecked Sendable {
  private let select: any RowSource
  private var cachedValue: SqliteValue?
  private var cachedMembers: MemberSet?

  init(_ select: any RowSource) { self.select = select }

  /// The subquery's value for this outer row.
  func value(_ context: EvaluationContext, _ compute: (any RowSource) throws -> SqliteValue) throws -> SqliteValue {
    if !select.isCorrelated, let cachedValue { return cachedValue }
    let value = try compute(select)
    if !select.isCorrelated { cachedValue = value }
    return value
  }

  /// The subquery's first column as a set of comparison keys, for `IN`.
  func members(_ context: EvaluationContext, affinity: Affinity, collation: Collation) throws -> MemberSet {
    if !select.isCorrelated, let cachedMembers { return cachedMembers }
    var set = MemberSet()
    try select.forEachRow(context) { row in
      let value = row[0]
      if value.isNull {
        set.hasNull = true
      } else {
        let member = Self.member(value, under: affinity)
        if member == .real(-0x1p63) { set.holdsRealSmallestInteger = true }
        set.keys.insert(ValueEqualityKey(member, collation: collation))
      }
      set.count += 1
      return true
    }
    if !select.isCorrelated { cachedMembers = set }
    return set
  }

  /// A value as `IN (SELECT …)` compares it, on either side: under the comparison's affinity, and
  /// under REAL affinity an integer as a REAL (`OP_Affinity` and `OP_MakeRecord` turn it into
  /// one, losing digits beyond 2⁵³, so 2⁶³−2 is found equal to the REAL 2⁶³).
  static func member(_ value: SqliteValue, under affinity: Affinity) -> SqliteValue {
    let operand = ComparisonOperands.operand(value, under: affinity)
    if affinity == .real, case .integer(let integer) = operand { return .real(Double(integer)) }
    return operand
  }

  /// The values of an `IN` subquery.
  struct MemberSet {
    var keys = Set<ValueEqualityKey>()
    var hasNull = false
    /// Whether a member is the REAL -2⁶³, which equals the smallest rowid but seeks no row.
    var holdsRealSmallestInteger = false
    var count = 0
    var isEmpty: Bool { count == 0 }
    func contains(_ key: ValueEqualityKey) -> Bool { keys.contains(key) }
  }
}
