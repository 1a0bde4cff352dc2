import TandemCore

/// Compiled plans, reused while the schema is unchanged: one per distinct statement value (so a
/// statement with named parameters compiles once), and one per INSERT shape.
final class PlanCache {
  private var version = -1
  private var selects: [SelectStatement: SelectPlan] = [:]
  private var updates: [UpdateStatement: UpdatePlan] = [:]
  private var deletes: [DeleteStatement: DeletePlan] = [:]
  private var inserts: [InsertPlan.Shape: InsertPlan] = [:]
  /// The most recent select, which a loop of lookups repeats: an equality test beats hashing.
  private var lastSelect: (statement: SelectStatement, plan: SelectPlan)?
  private var lastInsert: (shape: InsertPlan.Shape, plan: InsertPlan)?
  private static let limit = 512

  private func synchronize(_ catalog: Catalog) {
    guard version != catalog.version else { return }
    version = catalog.version
    selects.removeAll()
    lastSelect = nil
    lastInsert = nil
    updates.removeAll()
    deletes.removeAll()
    inserts.removeAll()
  }

  /// A compiled plan for this select, if one is cached (its shape was then already checked).
  func cachedSelect(_ statement: SelectStatement, catalog: Catalog) -> SelectPlan? {
    synchronize(catalog)
    if let last = lastSelect, last.statement == statement { return last.plan }
    guard let plan = selects[statement] else { return nil }
    lastSelect = (statement, plan)
    return plan
  }

  /// Compiles and caches a select whose shape was checked.
  func select(_ statement: SelectStatement, catalog: Catalog) throws -> SelectPlan {
    synchronize(catalog)
    let plan = try SelectPlan(statement, table: catalog.requireTable(statement.table))
    plan.placeholderNames = StatementShape.placeholderNames(.select(statement))
    if selects.count >= Self.limit { selects.removeAll() }
    selects[statement] = plan
    lastSelect = (statement, plan)
    return plan
  }

  /// A compiled plan for this update, if one is cached.
  func cachedUpdate(_ statement: UpdateStatement, catalog: Catalog) -> UpdatePlan? {
    synchronize(catalog)
    return updates[statement]
  }

  /// Compiles and caches an update whose shape was checked.
  func update(_ statement: UpdateStatement, catalog: Catalog) throws -> UpdatePlan {
    synchronize(catalog)
    let plan = try UpdatePlan(statement, table: catalog.requireTable(statement.table))
    plan.placeholderNames = StatementShape.placeholderNames(.update(statement))
    if updates.count >= Self.limit { updates.removeAll() }
    updates[statement] = plan
    return plan
  }

  /// A compiled plan for this delete, if one is cached.
  func cachedDelete(_ statement: DeleteStatement, catalog: Catalog) -> DeletePlan? {
    synchronize(catalog)
    return deletes[statement]
  }

  /// Compiles and caches a delete whose shape was checked.
  func delete(_ statement: DeleteStatement, catalog: Catalog) throws -> DeletePlan {
    synchronize(catalog)
    let plan = try DeletePlan(statement, table: catalog.requireTable(statement.table))
    plan.placeholderNames = StatementShape.placeholderNames(.delete(statement))
    if deletes.count >= Self.limit { deletes.removeAll() }
    deletes[statement] = plan
    return plan
  }

  func insert(_ statement: InsertStatement, catalog: Catalog) throws -> InsertPlan {
    synchronize(catalog)
    let shape = InsertPlan.Shape(table: statement.table, columns: statement.columns, conflict: statement.conflict)
    if let last = lastInsert, last.shape == shape { return last.plan }
    let plan: InsertPlan
    if let cached = inserts[shape] {
      plan = cached
    } else {
      plan = try InsertPlan(
        shape, writtenName: statement.table, table: catalog.requireTable(statement.table), catalog: catalog,
        rows: statement.rows)
      if inserts.count >= Self.limit { inserts.removeAll() }
      inserts[shape] = plan
    }
    lastInsert = (shape, plan)
    return plan
  }
}
