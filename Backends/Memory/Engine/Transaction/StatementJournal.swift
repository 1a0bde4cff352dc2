import TandemCore

/// When SQLite opens a statement journal for a write (`Parse.isMultiWrite && Parse.mayAbort`).
///
/// Both backends undo a whole failed statement (the SQLite backend wraps writes inside a
/// transaction in a savepoint), so this matters for one error only: `database or disk is full`
/// from a statement without a journal rolls back SQLite's whole transaction.
enum StatementJournal {
  /// Whether the expression compiles to a function call (`OP_Function`), which SQLite counts as
  /// a possible abort. `coalesce` and `ifnull` are coded inline; LIKE and GLOB are calls.
  static func callsFunction(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .column, .rowid, .excluded, .literal, .parameter, .qualifiedColumn, .qualifiedRowid, .resultColumn:
      return false
    case .subquery, .exists, .inSubquery:
      return true
    case .function(let function, let arguments):
      switch function {
      case .coalesce, .ifnull: return arguments.contains(where: callsFunction)
      default: return true
      }
    case .aggregate:
      return true
    case .like, .glob:
      return true
    case .unary(_, let operand), .cast(let operand, _), .isNull(let operand, _), .collate(let operand, _):
      return callsFunction(operand)
    case .binary(_, let lhs, let rhs):
      return callsFunction(lhs) || callsFunction(rhs)
    case .inList(let operand, let list, _):
      return callsFunction(operand) || list.contains(where: callsFunction)
    case .between(let operand, let low, let high, _):
      return callsFunction(operand) || callsFunction(low) || callsFunction(high)
    case .caseWhen(let base, let branches, let otherwise):
      if let base, callsFunction(base) { return true }
      if let otherwise, callsFunction(otherwise) { return true }
      return branches.contains { callsFunction($0.when) || callsFunction($0.then) }
    }
  }

  /// Whether deleting rows of `table` runs a foreign key check or action that can abort: a
  /// reference whose ON DELETE is NO ACTION, RESTRICT or SET DEFAULT, a SET NULL on a column the
  /// action's UPDATE checks (NOT NULL, unique, or itself a parent key), or any of these down a
  /// chain of cascades.
  static func deleteMayAbort(_ table: TableStorage, catalog: Catalog) -> Bool {
    deleteMayAbort(table, catalog: catalog, visited: [])
  }

  private static func deleteMayAbort(_ table: TableStorage, catalog: Catalog, visited: Set<ObjectIdentifier>) -> Bool {
    guard !visited.contains(ObjectIdentifier(table)) else { return false }
    let visited = visited.union([ObjectIdentifier(table)])
    for reference in catalog.incomingForeignKeys(of: table) {
      switch reference.key.onDelete {
      case .noAction, .restrict, .setDefault:
        return true
      case .setNull:
        let key = reference.key
        if updateMayAbort(reference.child, changed: [key.column], changesRowid: false, catalog: catalog, settingNull: key) {
          return true
        }
      case .cascade:
        if deleteMayAbort(reference.child, catalog: catalog, visited: visited) { return true }
      }
    }
    return false
  }

  /// Whether an UPDATE (or an upsert's DO UPDATE) of the `changed` columns of `table` codes a check
  /// that aborts: NOT NULL or uniqueness of a changed column, the rowid's uniqueness, a child key
  /// that changes, or a parent key that changes unless its ON UPDATE action is CASCADE or SET
  /// NULL; then what those two actions' UPDATEs of the child rows check. A SET NULL action
  /// (`settingNull`) does not look up the parent of the key it clears.
  static func updateMayAbort(
    _ table: TableStorage, changed: Set<Int>, changesRowid: Bool, catalog: Catalog,
    settingNull: ForeignKeyDefinition? = nil
  ) -> Bool {
    var visited = Set<ObjectIdentifier>()
    return updateMayAbort(
      table, changed: changed, changesRowid: changesRowid, catalog: catalog, settingNull: settingNull, visited: &visited)
  }

  private static func updateMayAbort(
    _ table: TableStorage, changed: Set<Int>, changesRowid: Bool, catalog: Catalog,
    settingNull: ForeignKeyDefinition?, visited: inout Set<ObjectIdentifier>
  ) -> Bool {
    let definition = table.definition
    if changesRowid { return true }
    if let alias = definition.rowidColumn, changed.contains(alias) { return true }
    if changed.contains(where: { definition.notNull[$0] }) { return true }
    if definition.uniqueConstraints.contains(where: { $0.columns.contains(where: changed.contains) }) { return true }
    let checkedKeys = definition.foreignKeys.filter { key in
      guard let cleared = settingNull else { return true }
      return !(key.column == cleared.column && NameKey(key.parentTable) == NameKey(cleared.parentTable)
        && NameKey(key.parentColumn) == NameKey(cleared.parentColumn))
    }
    if checkedKeys.contains(where: { changed.contains($0.column) }) { return true }
    let touched = catalog.incomingForeignKeys(of: table).filter { reference in
      let wanted = NameKey(reference.key.parentColumn)
      return changed.contains { NameKey(definition.columnNames[$0]) == wanted }
    }
    for reference in touched {
      switch reference.key.onUpdate {
      case .noAction, .restrict, .setDefault:
        return true
      case .cascade:
        // The action's UPDATE assigns the child key, which looks its new parent up.
        return true
      case .setNull:
        guard visited.insert(ObjectIdentifier(reference.child)).inserted else { continue }
        let key = reference.key
        if updateMayAbort(
          reference.child, changed: [key.column], changesRowid: false, catalog: catalog, settingNull: key,
          visited: &visited)
        {
          return true
        }
      }
    }
    return false
  }
}
