import Foundation
@_spi(TandemBackend) import TandemCore

/// The handle a transaction's closure receives; it has the same API as ``Database``.
///
/// It works only until its closure returns: kept and used later, from any thread, it throws
/// ``TandemError/Kind/misuse`` rather than write outside its transaction or into another one.
///
/// ```swift
/// try db.transaction { db in
///   try db.insert(Reminder(id: 1, title: "Milk"))
///   try db.insert(Reminder(id: 2, title: "Eggs"))
/// }
/// ```
public final class Connection: DatabaseWriter {
  @usableFromInline let backend: any DatabaseBackend
  /// What every connection of one database shares: the savepoint depth and the caches.
  private let state: ConnectionState
  /// The database's lock: a connection runs nothing unless its thread holds it. Recursive, so
  /// that a call on `db` inside `db.transaction { … }` joins the transaction instead of deadlocking.
  private let lock: NSRecursiveLock
  /// Whether the transaction whose closure received this connection has ended (never set for
  /// the database's own connection).
  private var hasEnded = false

  /// The database's own connection over `backend`.
  init(backend: any DatabaseBackend) {
    self.backend = TransactionGuard(backend)
    state = ConnectionState()
    lock = NSRecursiveLock()
  }

  /// A connection for a transaction's closure, sharing everything with `parent` until it ends.
  private init(joining parent: Connection) {
    backend = parent.backend
    state = parent.state
    lock = parent.lock
  }

  /// Runs `body` with this connection while holding the database's lock; a connection whose
  /// transaction has ended throws ``TandemError/Kind/misuse`` instead.
  public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    if hasEnded {
      throw TandemError.misuse(
        "a Connection was used after its transaction ended; use the database, or the connection the current transaction's closure receives")
    }
    return try body(self)
  }

  /// Runs `body` in a savepoint (the outermost begins the transaction) with a connection of its
  /// own, which stops working when `body` returns: a connection that escapes its closure cannot
  /// write into a later transaction, or someone else's.
  func inTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
    let connection = Connection(joining: self)
    // Called with the lock held (see `withConnection`), so no other thread sees `hasEnded` change.
    defer { connection.hasEnded = true }
    return try inSavepoint { try body(connection) }
  }

  /// Runs `body` inside a savepoint; releases it on return, rolls it back if `body` throws.
  func inSavepoint<T>(_ body: () throws -> T) throws -> T {
    state.savepointDepth += 1
    let name = "tandem_\(state.savepointDepth)"
    defer { state.savepointDepth -= 1 }
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

  /// Inserts one row of `T`, every column's value in schema order, with the statement of
  /// ``insertStatement(for:conflict:)``.
  @usableFromInline @discardableResult
  func insert<T: Table>(
    _ type: T.Type, row: [SqliteValue], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    try backend.run(insertStatement(for: type, conflict: conflict), .rows([row])) { _ in }
  }

  /// Inserts rows of `T` given as one flat list, every column's value in schema order row after
  /// row, as one statement (all rows or none).
  @usableFromInline @discardableResult
  func insert<T: Table>(
    _ type: T.Type, flattenedRows values: [SqliteValue], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    try backend.run(insertStatement(for: type, conflict: conflict), .flattenedRows(values)) { _ in }
  }

  /// The insert `T`'s records run: every column, rows given as data, with `conflict`. Built once
  /// per table type and conflict clause, so an engine sees the same object each time.
  func insertStatement<T: Table>(for type: T.Type, conflict: InsertStatement.ConflictResolution) -> PreparedStatement {
    let key = ConnectionState.InsertKey(type: ObjectIdentifier(type), conflict: conflict)
    if let statement = state.insertStatements[key] { return statement }
    let statement = PreparedStatement(
      .insert(InsertStatement(table: T.tableName, columns: columnNames(of: type), rows: [], conflict: conflict)))
    state.insertStatements[key] = statement
    return statement
  }

  /// The query `find` runs for `T`: every column, `WHERE key = :tandem_key`; its one value is
  /// the key.
  ///
  /// It is built once per table type and connection; the key is a named parameter, so the text
  /// stays the same across keys and both engines reuse their prepared statement or plan. It has
  /// no `LIMIT 1`: a primary key's equality finds at most one row (its unique index compares as
  /// `=` does, with the column's affinity and collation), both engines plan it as a one-row
  /// lookup, and the key is then the statement's only binding, handed to SQLite as given.
  @usableFromInline
  func keyLookup<T: Table>(for type: T.Type) throws -> KeyLookup {
    if let last = state.lastKeyLookup, last.type == ObjectIdentifier(type) { return last.lookup }
    if let lookup = state.keyLookups[ObjectIdentifier(type)] {
      state.lastKeyLookup = (ObjectIdentifier(type), lookup)
      return lookup
    }
    let keys = T.schema.primaryKeyColumns
    guard let keyColumn = keys.first, keys.count == 1 else {
      if keys.isEmpty { throw TandemError.misuse("\(T.tableName) has no single-column primary key") }
      throw TandemError.misuse(
        "\(T.tableName) has a primary key of \(keys.count) columns, and find(_:key:) takes one value; fetch with a filter")
    }
    var query = T.all
    query.base.filter = .binary(.equal, .column(keyColumn.name), .parameter(Self.keyParameter))
    let lookup = KeyLookup(
      query: PreparedStatement(query.statement, parameterNames: [Self.keyParameter]), context: RowDecodingContext(T.schema))
    state.keyLookups[ObjectIdentifier(type)] = lookup
    state.lastKeyLookup = (ObjectIdentifier(type), lookup)
    return lookup
  }

  /// The bindings of a key lookup: `key` as the one positional value, in an array the
  /// connection keeps, so that `find` in a loop allocates none. A lookup made while another one
  /// runs (from a value's decoding) gets its own copy, as arrays do.
  func keyBindings(_ key: SqliteValue) -> StatementBindings {
    state.keyValues[0] = key
    return .positional(state.keyValues)
  }

  /// A table type's primary-key lookup and the context its records are decoded with. The
  /// query is one object for the connection's life, which engines recognize by identity.
  @usableFromInline
  struct KeyLookup {
    @_spi(TandemBackend) @usableFromInline let query: PreparedStatement
    @usableFromInline let context: RowDecodingContext
  }

  /// The names of `T`'s columns, in schema order.
  @usableFromInline
  func columnNames<T: Table>(of type: T.Type) -> [String] {
    if let names = state.columnNamesByType[ObjectIdentifier(type)] { return names }
    let names = T.schema.columns.map { $0.name }
    state.columnNamesByType[ObjectIdentifier(type)] = names
    return names
  }

  /// The named parameter `find` binds its key to.
  static let keyParameter = "tandem_key"
}
