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
  @usableFromInline let backend: any DatabaseBackend
  private var savepointDepth = 0
  /// `find`'s key lookup per table type, built once: see ``keyLookup(for:)``.
  private var keyLookups: [ObjectIdentifier: KeyLookup] = [:]
  /// Each table type's column names, made once: the same array every time, which engines can
  /// recognize without comparing its strings.
  private var columnNamesByType: [ObjectIdentifier: [String]] = [:]

  init(backend: any DatabaseBackend) { self.backend = TransactionGuard(backend) }

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

  /// Inserts rows of values through the backend's value path (no expression per value).
  @usableFromInline @discardableResult
  func insert(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    try backend.insert(into: table, columns: columns, values: values, conflict: conflict)
  }

  /// The query `find` runs for `T`: every column, `WHERE key = :tandem_key`, `LIMIT 1`; its one
  /// value is the key.
  ///
  /// It is built once per table type and connection; the key is a named parameter, so the text
  /// stays the same across keys and both engines reuse their prepared statement or plan.
  @usableFromInline
  func keyLookup<T: Table>(for type: T.Type) throws -> KeyLookup {
    if let lookup = keyLookups[ObjectIdentifier(type)] { return lookup }
    guard let keyColumn = T.schema.primaryKeyColumns.first, T.schema.primaryKeyColumns.count == 1 else {
      throw TandemError.misuse("\(T.tableName) has no single-column primary key")
    }
    var query = T.all
    query.base.filter = .binary(.equal, .column(keyColumn.name), .parameter(Self.keyParameter))
    var statement = query.statement
    statement.limit = .literal(.integer(1))
    let lookup = KeyLookup(query: PreparedSelect(statement, parameterNames: [Self.keyParameter]), context: RowDecodingContext(T.schema))
    keyLookups[ObjectIdentifier(type)] = lookup
    return lookup
  }

  /// A table type's primary-key lookup and the context its records are decoded with. The
  /// query is one object for the connection's life, which engines recognize by identity.
  @usableFromInline
  struct KeyLookup {
    @usableFromInline let query: PreparedSelect
    @usableFromInline let context: RowDecodingContext
  }

  /// The names of `T`'s columns, in schema order.
  @usableFromInline
  func columnNames<T: Table>(of type: T.Type) -> [String] {
    if let names = columnNamesByType[ObjectIdentifier(type)] { return names }
    let names = T.schema.columns.map { $0.name }
    columnNamesByType[ObjectIdentifier(type)] = names
    return names
  }

  /// The named parameter `find` binds its key to.
  static let keyParameter = "tandem_key"
}
