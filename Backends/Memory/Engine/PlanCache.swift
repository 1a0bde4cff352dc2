import TandemCore

/// One database's way to its compiled plans: the process-wide ``SharedPlanCache``, in front of
/// which it remembers the last select and the last insert shape (a loop of lookups or inserts
/// repeats them, and an equality test costs less than hashing the statement).
final class PlanCache {
  private var lastSelect: (fingerprint: Int, statement: SelectStatement, plan: SelectPlan)?
  private var lastInsert: (fingerprint: Int, shape: InsertPlan.Shape, plan: InsertPlan)?

  /// A compiled plan for this select, if one is cached (its shape was then already checked).
  func cachedSelect(_ statement: SelectStatement, catalog: Catalog) -> SelectPlan? {
    let fingerprint = catalog.fingerprint
    if let last = lastSelect, last.fingerprint == fingerprint, last.statement == statement,
      last.statement.hasSameSpelling(as: statement)
    {
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
    SharedPlanCache.store(plan, for: statement, fingerprint: catalog.fingerprint)
    lastSelect = (catalog.fingerprint, statement, plan)
    return plan
  }

  /// A compiled plan for this update, if one is cached.
  func cachedUpdate(_ statement: UpdateStatement, catalog: Catalog) -> UpdatePlan? {
    SharedPlanCache.update(statement, fingerprint: catalog.fingerprint)
  }

  /// Compiles and caches an update whose shape was checked.
  func update(_ statement: UpdateStatement, catalog: Catalog) throws -> UpdatePlan {
    let table = try catalog.requireTable(statement.table)
    let plan = try UpdatePlan(
      statement, definition: table.definition, tablePosition: catalog.creationPosition(of: table))
    SharedPlanCache.store(plan, for: statement, fingerprint: catalog.fingerprint)
    return plan
  }

  /// A compiled plan for this delete, if one is cached.
  func cachedDelete(_ statement: DeleteStatement, catalog: Catalog) -> DeletePlan? {
    SharedPlanCache.delete(statement, fingerprint: catalog.fingerprint)
  }

  /// Compiles and caches a delete whose shape was checked.
  func delete(_ statement: DeleteStatement, catalog: Catalog) throws -> DeletePlan {
    let table = try catalog.requireTable(statement.table)
    let plan = try DeletePlan(
      statement, definition: table.definition, tablePosition: catalog.creationPosition(of: table))
    SharedPlanCache.store(plan, for: statement, fingerprint: catalog.fingerprint)
    return plan
  }

  /// The plan for an insert of this shape, compiled if needed. `rows` are the statement's values
  /// (their errors come between the column list's and the ON CONFLICT clause's).
  func insert(_ shape: InsertPlan.Shape, rows: [[SQLExpression]], catalog: Catalog) throws -> InsertPlan {
    let fingerprint = catalog.fingerprint
    if let last = lastInsert, last.fingerprint == fingerprint, last.shape == shape, last.shape.hasSameSpelling(as: shape) {
      return last.plan
    }
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
