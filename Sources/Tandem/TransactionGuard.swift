@_spi(TandemBackend) import TandemCore

/// The backend as a ``Connection`` uses it: every call goes through, but once the engine has
/// ended an open `transaction {}` on its own, nothing more runs until that transaction's closure
/// returns.
///
/// SQLite rolls back the whole transaction, savepoints included, on some errors (`database or disk
/// is full`). A closure that catches such an error and carries on would otherwise run its later
/// statements outside any transaction (each committed at once), and then fail to commit. Instead
/// they fail with ``TandemError/misuse(_:)`` naming the first error, and so does the commit; the
/// database keeps what it held before the transaction, on every engine alike.
///
/// ```swift
/// try db.transaction { db in
///   _ = try? db.insert(row)   // database or disk is full: SQLite ends the transaction
///   try db.insert(other)      // throws: the transaction was rolled back by the database
/// }
/// ```
///
/// It also reports a statement that failed on the placeholder of a Swift value with no stored
/// form as the ``TandemError/Kind/encodingFailure`` it stands for (see ``UnstorableValue``).
final class TransactionGuard: DatabaseBackend {
  let base: any DatabaseBackend
  /// How many of the facade's savepoints are open.
  private var depth = 0
  /// The error after which the engine ended the open transaction.
  private var endedBy: (any Error)?

  init(_ base: any DatabaseBackend) { self.base = base }

  var name: String { base.name }
  var isInTransaction: Bool { base.isInTransaction }

  /// Runs one call, unless the engine already ended the transaction; notes when it does.
  /// `table`, which names the table in an error, is read only when there is one.
  private func guarded<T>(table: @autoclosure () -> String? = nil, _ body: () throws -> T) throws -> T {
    if let endedBy { throw Self.ended(by: endedBy) }
    do {
      return try body()
    } catch {
      let error = UnstorableValue.resolve(error, table: table())
      if depth > 0 && !base.isInTransaction { endedBy = error }
      throw error
    }
  }

  private static func ended(by error: any Error) -> TandemError {
    let reason = (error as? TandemError)?.message ?? "\(error)"
    return .misuse("the transaction was rolled back by the database after \"\(reason)\"; end it before running more statements")
  }

  func create(_ schema: TableSchema, ifNotExists: Bool) throws {
    try guarded { try base.create(schema, ifNotExists: ifNotExists) }
  }

  func drop(table: String, ifExists: Bool) throws {
    try guarded { try base.drop(table: table, ifExists: ifExists) }
  }

  func run(
    _ statement: PreparedStatement, _ bindings: StatementBindings, onRestart: (() -> Void)?,
    eachRow body: ([SqliteValue]) throws -> Void
  ) throws -> StatementResult {
    // Errors of statements run with named values name their table; bulk rows and positional
    // values (the facade's own fast paths) need no naming.
    if case .named = bindings {
      return try guarded(table: statement.statement.table) {
        try base.run(statement, bindings, onRestart: onRestart, eachRow: body)
      }
    }
    return try guarded { try base.run(statement, bindings, onRestart: onRestart, eachRow: body) }
  }

  func execute(
    sql: String, arguments: StatementArguments, rowOrder: RowOrder, eachRow body: (Row) throws -> Void
  ) throws -> StatementResult {
    try guarded { try base.execute(sql: sql, arguments: arguments, rowOrder: rowOrder, eachRow: body) }
  }

  func savepoint(_ name: String) throws {
    try guarded { try base.savepoint(name) }
    depth += 1
  }

  /// Releases the savepoint; if the engine ended the transaction, reports that instead. A
  /// failed release leaves the savepoint open: the connection rolls it back next.
  func release(_ name: String) throws {
    if let endedBy { throw Self.ended(by: endedBy) }
    try guarded { try base.release(name) }
    depth -= 1
  }

  /// Rolls back to the savepoint; once the engine ended the transaction there is nothing left
  /// to roll back, and the outermost savepoint's rollback resets the guard.
  func rollback(to name: String) throws {
    depth -= 1
    if endedBy != nil {
      if depth == 0 { endedBy = nil }
      return
    }
    try guarded { try base.rollback(to: name) }
  }

  func setTrace(_ trace: (@Sendable (String) -> Void)?) { base.setTrace(trace) }
}
