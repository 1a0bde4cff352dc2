import TandemCore

/// The record of every change since the outermost savepoint (or since the current statement
/// began), so that a failed statement or a rolled-back savepoint restores rows, indexes, rowid
/// counters and tables exactly — without copying tables.
final class UndoLog {
  /// One reversible change.
  enum Entry {
    case inserted(TableStorage, rowid: Int64)
    case deleted(TableStorage, rowid: Int64, values: [SqliteValue])
    case updated(TableStorage, rowid: Int64, values: [SqliteValue])
    case sequence(TableStorage, previous: Int64)
    case createdTable(TableStorage)
    case droppedTable(TableStorage, position: Int)
  }

  /// An open savepoint: its name and the log length when it began.
  struct Savepoint {
    let key: NameKey
    let position: Int
  }

  private(set) var entries: [Entry] = []
  private(set) var savepoints: [Savepoint] = []

  /// The current length of the log (a position to roll back to).
  var position: Int { entries.count }

  /// Whether a transaction (some savepoint) is open.
  var inTransaction: Bool { !savepoints.isEmpty }

  /// Records a change.
  func record(_ entry: Entry) { entries.append(entry) }

  /// Undoes every change after `position`, newest first.
  func undo(to position: Int, catalog: Catalog) {
    while entries.count > position, let entry = entries.popLast() {
      switch entry {
      case .inserted(let table, let rowid):
        table.data.remove(rowid)
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
      }
    }
  }

  /// Forgets the log when no savepoint needs it (after a statement outside a transaction).
  func commitIfIdle() {
    if savepoints.isEmpty { entries.removeAll(keepingCapacity: entries.count < 4096) }
  }

  /// Rolls back the whole transaction and closes every savepoint (what SQLite does when a
  /// statement without a statement journal fails with `database or disk is full`).
  func rollbackTransaction(catalog: Catalog) {
    undo(to: 0, catalog: catalog)
    savepoints.removeAll()
  }

  /// Opens a savepoint.
  func openSavepoint(_ name: String) {
    savepoints.append(Savepoint(key: NameKey(name), position: entries.count))
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

  /// Rolls back to a savepoint and releases it (and every savepoint opened after it).
  func rollback(to name: String, catalog: Catalog) throws {
    let index = try savepointIndex(name)
    undo(to: savepoints[index].position, catalog: catalog)
    savepoints.removeSubrange(index...)
    commitIfIdle()
  }
}
