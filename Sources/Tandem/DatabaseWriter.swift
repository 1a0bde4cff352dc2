import TandemCore

/// The operations shared by ``Database`` and the ``Connection`` a transaction receives.
public protocol DatabaseWriter: AnyObject {
  /// Runs `body` with exclusive use of the connection.
  func withConnection<T>(_ body: (Connection) throws -> T) throws -> T
}

/// What to do when an inserted row conflicts with a primary key or unique constraint.
public enum ConflictPolicy: Sendable, Hashable {
  /// Throw a constraint violation and change nothing (the default).
  case abort
  /// Replace the conflicting rows (`INSERT OR REPLACE`).
  case replace
  /// Skip the row (`INSERT OR IGNORE`).
  case ignore
}

extension DatabaseWriter {
  /// Runs `body` in a transaction: commits when it returns, rolls back everything when it throws.
  /// Nested calls are savepoints.
  ///
  /// On SQLite the outermost transaction begins with `BEGIN IMMEDIATE`: it takes the write lock
  /// first (waiting up to the busy timeout while another connection or process writes), so a
  /// transaction that reads and then writes never fails with `database is locked` half-way. The
  /// connection `body` receives works only until `body` returns.
  ///
  /// ```swift
  /// try db.transaction { db in
  ///   try db.insert(Reminder(id: 1, title: "Milk"))
  ///   throw CancellationError()   // nothing was inserted
  /// }
  /// ```
  @discardableResult
  public func transaction<T>(_ body: (Connection) throws -> T) throws -> T {
    try withConnection { connection in try connection.inTransaction(body) }
  }

  /// Creates the table of `T` and its indexes.
  ///
  /// ```swift
  /// try db.create(Reminder.self)
  /// ```
  public func create<T: Table>(_ table: T.Type, ifNotExists: Bool = false) throws {
    try withConnection { try $0.backend.create(T.schema, ifNotExists: ifNotExists) }
  }

  /// Creates a table from a schema built at run time.
  ///
  /// ```swift
  /// try db.create(TableSchema("t", columns: [.column("a", .integer)]))
  /// ```
  public func create(_ schema: TableSchema, ifNotExists: Bool = false) throws {
    try withConnection { try $0.backend.create(schema, ifNotExists: ifNotExists) }
  }

  /// Drops the table of `T`.
  public func drop<T: Table>(_ table: T.Type, ifExists: Bool = false) throws {
    try withConnection { try $0.backend.drop(table: T.tableName, ifExists: ifExists) }
  }

  /// Runs one statement of the query model (the escape hatch below the typed API).
  @discardableResult
  public func execute(_ statement: Statement, parameters: [String: SqliteValue] = [:]) throws -> StatementResult {
    try withConnection { try $0.run(statement, parameters) }
  }
}
