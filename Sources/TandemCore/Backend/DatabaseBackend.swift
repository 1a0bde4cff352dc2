/// The one seam between the `Database` facade and an engine.
///
/// An engine sees only schemas, statements of the query model and ``SqliteValue``s; encoding and
/// decoding of records happens above it. Calls are serialized by the facade, so a backend needs
/// no locking of its own and is not required to be `Sendable`.
///
/// ```swift
/// let result = try backend.execute(.select(SelectStatement(table: "t", columns: [.column("a")])), parameters: [:])
/// result.rows // [[.integer(1)], …]
/// ```
public protocol DatabaseBackend: AnyObject {
  /// A short name used in errors and divergence reports (`"sqlite"`, `"memory"`).
  var name: String { get }
  /// Creates a table and its indexes.
  func create(_ schema: TableSchema, ifNotExists: Bool) throws
  /// Drops a table (and its indexes).
  func drop(table: String, ifExists: Bool) throws
  /// Runs one statement with values for its named parameters.
  func execute(_ statement: Statement, parameters: [String: SqliteValue]) throws -> StatementResult
  /// Inserts rows of plain values as one statement: the same rows, errors and result as
  /// ``execute(_:parameters:)`` on an ``InsertStatement`` whose rows are these values as literals,
  /// without building an expression per value.
  ///
  /// ```swift
  /// try backend.insert(into: "t", columns: ["a", "b"], values: [[1, "x"], [2, "y"]], conflict: .abort)
  /// ```
  func insert(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult
  /// Opens a savepoint (the outermost one begins a transaction).
  func savepoint(_ name: String) throws
  /// Releases (commits into its parent) a savepoint.
  func release(_ name: String) throws
  /// Rolls back to a savepoint and releases it.
  func rollback(to name: String) throws
  /// Receives a description of every statement executed, or `nil` to stop tracing.
  func setTrace(_ trace: (@Sendable (String) -> Void)?)
}

extension DatabaseBackend {
  /// Builds the ``InsertStatement`` and executes it; engines override this with a faster path.
  public func insert(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    let rows = values.map { $0.map(SQLExpression.literal) }
    return try execute(.insert(InsertStatement(table: table, columns: columns, rows: rows, conflict: conflict)), parameters: [:])
  }
}

/// What a statement produced.
public struct StatementResult: Sendable, Hashable {
  /// Result rows of a select, each as long as its result columns.
  public var rows: [[SqliteValue]]
  /// For an insert, the rowid of the last row this statement inserted; 0 for an insert that
  /// inserted nothing (an ignored conflict, an upsert that updated) and for every other statement.
  public var lastInsertRowid: Int64
  /// For a write, the number of rows it inserted, updated or deleted.
  public var changes: Int

  public init(rows: [[SqliteValue]] = [], lastInsertRowid: Int64 = 0, changes: Int = 0) {
    self.rows = rows
    self.lastInsertRowid = lastInsertRowid
    self.changes = changes
  }
}
