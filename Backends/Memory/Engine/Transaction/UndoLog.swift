import TandemCore
import TandemSQL

/// The record of every change since the outermost savepoint (or since the current statement
/// began), so that a failed statement or a rolled-back savepoint restores rows, indexes, rowid
/// counters and tables exactly — without copying tables.
final class UndoLog {
  /// One reversible change.
  enum Entry {
    /// Rows inserted with the rowids `first...last`, one after the other (an import of a million
    /// rows in one transaction is one entry).
    case inserted(TableStorage, first: Int64, last: Int64)
    case deleted(TableStorage, rowid: Int64, values: [SqliteValue])
    case updated(TableStorage, rowid: Int64, values: [SqliteValue])
    case sequence(TableStorage, previous: Int64)
    case createdTable(TableStorage)
    case droppedTable(TableStorage, position: Int)
    case createdView(ViewDefinition)
    case droppedView(ViewDefinition)
  }

  /// An open savepoint: its name and the log length when it began.
  struct Savepoint {
    let key: NameKey
    let position: Int
  }

  private(set) var entries: [Entry] = []
  private(set) var savepoints: [Savepoint] = []

  /// The log length at the last position handed out: entries before it must stay as they are,
  /// so that undoing to that position undoes exactly what came after.
  private var sealedCount = 0

  /// The current length of the log, as a position to roll back to later.
  func mark() -> Int {
    sealedCount = entries.count
    return entries.count
  }

  /// Whether a transaction (some savepoint) is open.
  var inTransaction: Bool { !savepoints.isEmpty }

  /// Records a change.
  func record(_ entry: Entry) { entries.append(entry) }

  /// Records the insertion of one row: extends the last entry when it inserted the rowid just
  /// before, into the same table, since the last ``mark()``.
  func recordInsert(_ table: TableStorage, rowid: Int64) {
    if entries.count > sealedCount, case .inserted(let previous, let first, let last)? = entries.last,
      previous === table, last != .max, rowid == last + 1
    {
      entries[entries.count - 1] = .inserted(table, first: first, last: rowid)
    } else {
      entries.append(.inserted(table, first: rowid, last: rowid))
    }
  }

  /// Undoes every change after `position`, newest first.
  func undo(to position: Int, catalog: Catalog) {
    while entries.count > position, let entry = entries.popLast() {
      switch entry {
      case .inserted(let table, let first, let last):
        var rowid = last
        while true {
          table.data.remove(rowid)
          if rowid == first { break }
          rowid -= 1
        }
      case .deleted(let table, let rowid, let values):
        table.data.insert(rowid, values: values)
      case .updated(let table, let rowid, let values):
        table.data.replace(rowid, values: values)
      case .sequence(let table, let previous):
        table.data.sequence = previous
      case .createdTable(let table):
        catalog.remove(table)
      case .droppedTable(let table, let position):
        catalog.restore(table, position: position)
      case .createdView(let view):
        catalog.removeView(view.name)
      case .droppedView(let view):
        catalog.add(view)
      }
    }
    // `position` stays a place to roll back to (a savepoint rolled back to remains open).
    sealedCount = min(sealedCount, entries.count)
  }

  /// Forgets the log when no savepoint needs it (after a statement outside a transaction).
  func commitIfIdle() {
    if savepoints.isEmpty {
      entries.removeAll(keepingCapacity: entries.count < 4096)
      sealedCount = 0
    }
  }

  /// Rolls back the whole transaction and closes every savepoint (what SQLite does when a
  /// statement without a statement journal fails with `database or disk is full`).
  func rollbackTransaction(catalog: Catalog) {
    undo(to: 0, catalog: catalog)
    savepoints.removeAll()
  }

  /// Opens a savepoint.
  func openSavepoint(_ name: String) {
    savepoints.append(Savepoint(key: NameKey(name), position: mark()))
  }

  /// The index of the innermost savepoint called `name`, or SQLite's `no such savepoint` error.
  private func savepointIndex(_ name: String) throws -> Int {
    let key = NameKey(name)
    guard let index = savepoints.lastIndex(where: { $0.key == key }) else {
      throw EngineError.sqlite(1, "no such savepoint: \(name)")
    }
    return index
  }

  /// Releases a savepoint and every savepoint opened after it; releasing the outermost commits.
  func release(_ name: String) throws {
    let index = try savepointIndex(name)
    savepoints.removeSubrange(index...)
    commitIfIdle()
  }

  /// Rolls back to a savepoint and releases it (and every savepoint opened after it); with
  /// `keepingOpen`, as SQL's `ROLLBACK TO` does, the savepoint itself stays open.
  func rollback(to name: String, catalog: Catalog, keepingOpen: Bool = false) throws {
    let index = try savepointIndex(name)
    undo(to: savepoints[index].position, catalog: catalog)
    savepoints.removeSubrange((keepingOpen ? index + 1 : index)...)
    commitIfIdle()
  }

  /// Commits the transaction: every savepoint is released (SQL's `COMMIT`).
  func commitTransaction() {
    savepoints.removeAll()
    commitIfIdle()
  }
}
