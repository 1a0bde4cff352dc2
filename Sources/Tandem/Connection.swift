import TandemCore

/// The handle a transaction's closure receives; it has the same API as ``Database``.
///
/// ```swift
/// try db.transaction { db in
///   try db.insert(Reminder(id: 1, title: "Milk"))
///   try db.insert(Reminder(id: 2, title: "Eggs"))
/// }
/// ```
public final class Connection: DatabaseWriter {
  let backend: any DatabaseBackend
  private var savepointDepth = 0

  init(backend: any DatabaseBackend) { self.backend = backend }

  public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T { try body(self) }

  /// Runs `body` inside a savepoint; releases it on return, rolls it back if `body` throws.
  func inSavepoint<T>(_ body: () throws -> T) throws -> T {
    savepointDepth += 1
    let name = "tandem_\(savepointDepth)"
    defer { savepointDepth -= 1 }
    try backend.savepoint(name)
    do {
      let result = try body()
      try backend.release(name)
      return result
    } catch {
      try? backend.rollback(to: name)
      throw error
    }
  }

  @discardableResult
  func run(_ statement: Statement, _ parameters: [String: SqliteValue] = [:]) throws -> StatementResult {
    try backend.execute(statement, parameters: parameters)
  }
}
