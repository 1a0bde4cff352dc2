@_spi(TandemBackend) import TandemCore

/// One database's way to its compiled plans: the process-wide ``SharedPlanCache``, in front of
/// which it remembers the last select and the last insert shape (a loop of lookups or inserts
/// repeats them, and an equality test costs less than hashing the statement), and the last
/// relational select of this database alone (``RelationalPlan``).
final class PlanCache {
  private var lastSelect: (fingerprint: Int, statement: SelectStatement, plan: SelectPlan)?
  /// Whether the statements being compiled come from SQL text (see ``SQLTextMode``): their select
  /// and write plans are compiled without the typed API's pins and checks, so they are neither
  /// looked up nor shared.
  var compilesSQLText = false
  private var lastInsert: (fingerprint: Int, shape: InsertPlan.Shape, plan: InsertPlan)?
  /// The last relational select compiled that may run again (see ``RelationalPlan``).
  private var lastRelational: RelationalPlan?
  /// The last prepared query run, held (so its identity is not reused) with its plan, the
  /// schema fingerprint that plan was compiled under and its binding slots. Read by every run of
  /// a prepared query, always under the database's lock: the runtime's exclusivity check is left out.
  @exclusivity(unchecked) private var lastPrepared: (query: PreparedStatement, fingerprint: Int, prepared: PreparedPlan)?

  /// A prepared query's plan, and where each of the plan's parameter slots finds its value among
  /// the query's values: `slots[i]` is the index of the value for `plan.parameterNames[i]` (the
  /// last one of that name, as a dictionary of the values keeps), or `nil` when the plan cannot
  /// bind by position (see ``SelectPlan/bindsBySlot``).
  struct PreparedPlan {
    let plan: SelectPlan
    let slots: [Int]?

    init(_ plan: SelectPlan, for query: PreparedStatement) {
      self.plan = plan
      var slots: [Int]? = nil
      if plan.bindsBySlot {
        var found: [Int] = []
        for name in plan.parameterNames {
          guard let index = query.parameterNames.lastIndex(of: name) else { break }
          found.append(index)
        }
        if found.count == plan.parameterNames.count { slots = found }
      }
      self.slots = slots
    }
  }

  /// The plan last used for this very query object, if the schema is still the one it was
  /// compiled under: a prepared query never changes, so its identity stands for its statement.
  func cachedPrepared(_ query: PreparedStatement, catalog: Catalog) -> PreparedPlan? {
    guard let last = lastPrepared, last.query === query, last.fingerprint == catalog.fingerprint else { return nil }
    return last.prepared
  }

  /// Remembers the plan a prepared query runs under the current schema.
  func rememberPrepared(_ query: PreparedStatement, plan: SelectPlan, catalog: Catalog) -> PreparedPlan {
    let prepared = PreparedPlan(plan, for: query)
    lastPrepared = (query, catalog.fingerprint, prepared)
    return prepared
  }

  /// A compiled plan for this select, if one is cached (its shape was then already checked).
  func cachedSelect(_ statement: SelectStatement, catalog: Catalog) -> SelectPlan? {
    if compilesSQLText { return nil }
    let fingerprint = catalog.fingerprint
    if let last = lastSelect, last.fingerprint == fingerprint, last.statement.isExactly(statement) {
      return last.plan
    }
    guard let plan = SharedPlanCache.select(statement, fingerprint: fingerprint) else { return nil }
    lastSelect = (fingerprint, statement, plan)
    return plan
  }

  /// Compiles and caches a select whose shape was checked.
  func select(_ statement: SelectStatement, catalog: Catalog) throws -> SelectPlan {
    let table = try catalog.requireTable(statement.table)
    let plan = try SelectPlan(
      statement, definition: table.definition, tablePosition: catalog.creationPosition(of: table))
    if compilesSQLText { return plan }
    SharedPlanCache.store(plan, for: statement, fingerprint: catalog.fingerprint)
    lastSelect = (catalog.fingerprint, statement, plan)
    return plan
  }

  /// A relational select compiled for this database, with what its compilation depended on.
  ///
  /// Unlike a one-table plan it is neither shared nor kept across changes: it holds this
  /// database's tables, keeps the transient indexes its runs build, and its plan may have read the
  /// tables' content (the join order weighs their sizes, ``AbsOverflowCheck`` their values). So
  /// it is found again only while the schema and every table's content are unchanged
  /// (``Catalog/version``, ``Catalog/contentVersion``), and only for a query whose runs keep
  /// nothing that depends on the values bound: joins of stored tables, without subqueries or
  /// common tables (``PlanCache/mayKeepPlan(of:)``). Its statement is the one compiled, with
  /// its compared literals lifted out (``LiftedLiterals``), so one plan serves every value.
  final class RelationalPlan {
    let statement: SelectStatement
    let select: RelationalSelect
    let schemaVersion: Int
    let contentVersion: Int
    /// The statement's parameters in placeholder order: a run checks that each has a value, as
    /// the shape checks the plan passed when it was compiled do.
    let placeholderNames: [String]
    /// ``FactoredConstants/candidates(in:)`` of the statement.
    let factoredConstants: [SQLExpression]

    init(_ statement: SelectStatement, _ select: RelationalSelect, catalog: Catalog) {
      self.statement = statement
      self.select = select
      schemaVersion = catalog.version
      contentVersion = catalog.contentVersion
      placeholderNames = StatementValidation.placeholderNames(.select(statement))
      factoredConstants = FactoredConstants.candidates(in: .select(statement))
    }
  }

  /// Whether a relational select's compiled plan may be kept to run again (if it then reads
  /// stored tables only): it holds no subquery (an uncorrelated one keeps its answer, computed
  /// with the values bound) and no compound or common table, and it is compiled outside SQL text
  /// and outside a write (whose foreign key actions shape its plan, see
  /// ``RelationalSelect/tablesWriteActionsChange``). Such a select is compiled with its compared
  /// literals lifted out (``LiftedLiterals``).
  func mayKeepPlan(of statement: SelectStatement) -> Bool {
    !compilesSQLText && SQLTextMode.current == nil && RelationalSelect.tablesWriteActionsChange.isEmpty
      && statement.compound.isEmpty && statement.with == nil
      && !statement.expressions.contains(where: \.containsSubquery)
  }

  /// The relational select last compiled, if `statement` (its literals lifted) is exactly its
  /// statement and neither the schema nor any table's content has changed since.
  func cachedRelational(_ statement: SelectStatement, catalog: Catalog) -> RelationalPlan? {
    guard let last = lastRelational, last.schemaVersion == catalog.version,
      last.contentVersion == catalog.contentVersion, last.statement.isExactly(statement)
    else { return nil }
    return last
  }

  /// Remembers a compiled relational select whose statement ``mayKeepPlan(of:)`` (its literals
  /// lifted), if it reads stored tables only.
  func rememberRelational(_ statement: SelectStatement, _ select: any RowSource, catalog: Catalog) {
    guard let select = select as? RelationalSelect, select.readsStoredTablesOnly else { return }
    lastRelational = RelationalPlan(statement, select, catalog: catalog)
  }

  /// A compiled plan for this UPDATE or DELETE, if one is cached.
  func cachedWrite(_ statement: Statement, catalog: Catalog) -> (any WritePlan)? {
    if compilesSQLText { return nil }
    // A statement with subqueries reads this database's tables directly: it is never shared.
    guard !statement.isRelational else { return nil }
    return SharedPlanCache.write(statement, fingerprint: catalog.fingerprint)
  }

  /// Compiles and caches an UPDATE or DELETE whose shape was checked.
  func write(_ statement: Statement, catalog: Catalog) throws -> any WritePlan {
    let table = try catalog.requireTable(statement.table)
    let position = catalog.creationPosition(of: table)
    let plan: any WritePlan
    switch statement {
    case .update(let update): plan = try UpdatePlan(update, table: table, tablePosition: position, catalog: catalog)
    case .delete(let delete): plan = try DeletePlan(delete, table: table, tablePosition: position, catalog: catalog)
    case .select, .insert: throw TandemError.misuse("only an UPDATE or a DELETE has a write plan")
    }
    if !statement.isRelational && !compilesSQLText {
      SharedPlanCache.store(plan, for: statement, fingerprint: catalog.fingerprint)
    }
    return plan
  }

  /// The plan last used for an insert of exactly this shape, if the schema is the same (the
  /// shape then passed its checks).
  func cachedInsert(_ shape: InsertPlan.Shape, catalog: Catalog) -> InsertPlan? {
    guard let last = lastInsert, last.fingerprint == catalog.fingerprint, last.shape.isExactly(shape) else { return nil }
    return last.plan
  }

  /// The plan for an insert of this shape, compiled if needed. `rows` are the statement's values
  /// (their errors come between the column list's and the ON CONFLICT clause's).
  func insert(_ shape: InsertPlan.Shape, rows: [[SQLExpression]], catalog: Catalog) throws -> InsertPlan {
    if let cached = cachedInsert(shape, catalog: catalog) { return cached }
    let fingerprint = catalog.fingerprint
    let plan: InsertPlan
    if let cached = SharedPlanCache.insert(shape, fingerprint: fingerprint) {
      plan = cached
    } else {
      let table = try catalog.requireTable(shape.table)
      plan = try InsertPlan(
        shape, writtenName: shape.table, table: table, tablePosition: catalog.creationPosition(of: table),
        catalog: catalog, rows: rows)
      SharedPlanCache.store(plan, for: shape, fingerprint: fingerprint)
    }
    lastInsert = (fingerprint, shape, plan)
    return plan
  }
}

extension InsertPlan.Shape {
  /// Whether `other` is this shape with every name spelled with the same bytes. A column list
  /// that is the very same array (the facade hands over one array per table type) is not
  /// compared name by name: the same storage holds the same names.
  func isExactly(_ other: InsertPlan.Shape) -> Bool {
    guard table == other.table, table.hasSameSpelling(as: other.table), conflict == other.conflict,
      conflict.hasSameSpelling(as: other.conflict)
    else { return false }
    let sameStorage = columns.withUnsafeBufferPointer { mine in
      other.columns.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress && mine.count == theirs.count }
    }
    return sameStorage || (columns == other.columns && columns.hasSameSpelling(as: other.columns))
  }
}
