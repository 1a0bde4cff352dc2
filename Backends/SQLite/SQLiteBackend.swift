import CSQLite
import TandemCore

/// The SQLite engine: renders statements of the query model to SQL, binds their values, steps
/// them with the system `libsqlite3` and reads the results back as ``SqliteValue``s.
///
/// ```swift
/// let backend = try SQLiteBackend(path: "/tmp/app.sqlite")   // or try SQLiteBackend.inMemory()
/// try backend.create(schema, ifNotExists: true)
/// let result = try backend.execute(
///   .select(SelectStatement(table: "reminders", columns: [.column("title")])), parameters: [:])
/// ```
///
/// A file database is opened in WAL journal mode with a 5 second busy timeout; every connection
/// enforces foreign keys, and treats a quoted name that matches no column as an error (SQLite's
/// legacy double-quoted-string literals are off). Prepared statements are cached by SQL text (least recently used evicted).
///
/// Not `Sendable`: the connection is opened without SQLite's own mutex (`SQLITE_OPEN_NOMUTEX`)
/// because the `Database` facade serializes every call; use one backend from one thread at a time.
public final class SQLiteBackend: DatabaseBackend {
  /// What the backend knows about one table: its column names and a renderer for it.
  private struct TableInfo {
    var columns: [String]
    var renderer: SQLRenderer
  }

  /// `"sqlite"`.
  public let name = "sqlite"
  /// The database file's path (`":memory:"` for an in-memory database).
  public let path: String
  let connection: SQLiteConnection
  var statements: StatementCache
  private var tables: [String: TableInfo] = [:]
  private var trace: TraceBox?

  /// Opens (creating if needed) the database file at `path`.
  ///
  /// ```swift
  /// let backend = try SQLiteBackend(path: FileManager.default.temporaryDirectory.appendingPathComponent("app.sqlite").path)
  /// ```
  public convenience init(path: String) throws {
    try self.init(path: path, statementCacheCapacity: 64)
  }

  /// Opens the database at `path`, keeping at most `statementCacheCapacity` prepared statements.
  init(path: String, statementCacheCapacity: Int) throws {
    self.path = path
    connection = try SQLiteConnection(path: path)
    statements = StatementCache(capacity: statementCacheCapacity)
    sqlite3_busy_timeout(connection.handle, 5_000)
    try connection.disableDoubleQuotedStrings()
    // WAL for files; SQLite keeps "memory" for an in-memory database.
    _ = try run("PRAGMA journal_mode = WAL", cached: false)
    _ = try run("PRAGMA foreign_keys = ON", cached: false)
  }

  /// A new, private in-memory SQLite database.
  ///
  /// ```swift
  /// let backend = try SQLiteBackend.inMemory()
  /// ```
  public static func inMemory() throws -> SQLiteBackend {
    try SQLiteBackend(path: ":memory:")
  }

  deinit {
    sqlite3_trace_v2(connection.handle, 0, nil, nil)
    // Finalize the cached statements; the connection closes once the last one is gone.
    statements.removeAll()
  }

  // MARK: - DatabaseBackend

  /// Creates the table and its indexes inside a savepoint, so a failure leaves nothing behind.
  public func create(_ schema: TableSchema, ifNotExists: Bool) throws {
    tables.removeAll()
    defer { tables.removeAll() }
    try inSavepoint("tandem_create") {
      for sql in schema.createStatements(ifNotExists: ifNotExists) {
        _ = try run(sql, cached: false)
      }
    }
  }

  /// `DROP TABLE [IF EXISTS] "table"` (its indexes go with it).
  public func drop(table: String, ifExists: Bool) throws {
    let sql = "DROP TABLE " + (ifExists ? "IF EXISTS " : "") + (try SQLTextWriter.quotedIdentifier(table))
    tables.removeAll()
    _ = try run(sql, cached: false)
  }

  /// Renders `statement`, binds its values (named parameters from `parameters`) and runs it.
  ///
  /// For an insert, `lastInsertRowid` is the rowid of the last row this statement inserted (0 if
  /// it inserted none, e.g. an upsert that updated or an ignored conflict).
  public func execute(_ statement: Statement, parameters: [String: SqliteValue]) throws -> StatementResult {
    let table = try tableInfo(statement.table)
    let rendered = try table.renderer.render(statement)
    let values: [SqliteValue]
    do {
      values = try rendered.values(parameters: parameters)
    } catch let error as TandemError {
      throw error.with(statement: rendered.sql)
    }
    let prepared = try cachedStatement(rendered.sql)
    let context = ConstraintContext(table: statement.table, columns: table.columns)
    switch statement {
    case .select:
      return StatementResult(rows: try prepared.run(values, context: context))
    case .insert:
      // sqlite3_last_insert_rowid keeps older inserts' rowids; start from 0 to see only ours.
      connection.lastInsertRowid = 0
      try atomically(statement) { _ = try prepared.run(values, context: context) }
      return StatementResult(lastInsertRowid: connection.lastInsertRowid, changes: connection.changes)
    case .update, .delete:
      try atomically(statement) { _ = try prepared.run(values, context: context) }
      return StatementResult(changes: connection.changes)
    }
  }

  /// Runs a write so that, if it fails, it changes nothing.
  ///
  /// Outside a transaction SQLite already rolls the failed statement back. Inside one, it keeps a
  /// statement journal only when it predicts an abort, and some failures it does not predict (a
  /// datatype mismatch in a multi-row `INSERT OR IGNORE`, an overflow in an `UPDATE`) would keep
  /// the rows written before them. A savepoint around every write that may touch more than one
  /// row closes that gap; a plain single-row insert cannot fail half-way and skips it.
  private func atomically(_ statement: Statement, _ body: () throws -> Void) throws {
    let touchesOneRow: Bool
    if case .insert(let insert) = statement, insert.rows.count == 1, insert.conflict == .abort {
      touchesOneRow = true
    } else {
      touchesOneRow = false
    }
    guard connection.isInTransaction, !touchesOneRow else { return try body() }
    try runUntraced(Self.statementSavepoint)
    do {
      try body()
    } catch {
      // Some errors (SQLITE_FULL among them) end the whole transaction, savepoint included.
      if connection.isInTransaction {
        try? runUntraced(Self.statementRollback)
        try? runUntraced(Self.statementRelease)
      }
      throw error
    }
    try runUntraced(Self.statementRelease)
  }

  /// Runs the backend's own bookkeeping SQL, which the trace does not report.
  private func runUntraced(_ sql: String) throws {
    trace?.isSuppressed = true
    defer { trace?.isSuppressed = false }
    _ = try run(sql)
  }

  private static let statementSavepoint = "SAVEPOINT \"tandem_statement\""
  private static let statementRollback = "ROLLBACK TO \"tandem_statement\""
  private static let statementRelease = "RELEASE \"tandem_statement\""

  /// `SAVEPOINT "name"`.
  public func savepoint(_ name: String) throws {
    _ = try run("SAVEPOINT " + (try SQLTextWriter.quotedIdentifier(name)))
  }

  /// `RELEASE "name"`.
  public func release(_ name: String) throws {
    _ = try run("RELEASE " + (try SQLTextWriter.quotedIdentifier(name)))
  }

  /// `ROLLBACK TO "name"` then `RELEASE "name"`.
  public func rollback(to name: String) throws {
    let quoted = try SQLTextWriter.quotedIdentifier(name)
    _ = try run("ROLLBACK TO " + quoted)
    _ = try run("RELEASE " + quoted)
  }

  /// Calls `trace` with the SQL text (placeholders, never values) of every statement as it starts.
  public func setTrace(_ trace: (@Sendable (String) -> Void)?) {
    guard let trace else {
      sqlite3_trace_v2(connection.handle, 0, nil, nil)
      self.trace = nil
      return
    }
    let box = TraceBox(trace)
    // The box stays alive in `self.trace` for as long as SQLite holds its pointer.
    sqlite3_trace_v2(
      connection.handle, UInt32(SQLITE_TRACE_STMT), traceStatement, Unmanaged.passUnretained(box).toOpaque())
    self.trace = box
  }

  // MARK: - Internals

  /// Runs one SQL statement with positional values and returns its rows.
  func run(_ sql: String, _ values: [SqliteValue] = [], cached: Bool = true) throws -> [[SqliteValue]] {
    let prepared = cached ? try cachedStatement(sql) : try PreparedStatement(connection: connection, sql: sql, persistent: false)
    return try prepared.run(values)
  }

  private func cachedStatement(_ sql: String) throws -> PreparedStatement {
    try statements.statement(for: sql) {
      try PreparedStatement(connection: connection, sql: sql, persistent: true)
    }
  }

  /// Runs `body` inside a savepoint: released on success, rolled back (and released) on failure.
  private func inSavepoint(_ name: String, _ body: () throws -> Void) throws {
    try savepoint(name)
    do {
      try body()
    } catch {
      // The original error matters more than a failure to undo it.
      try? rollback(to: name)
      throw error
    }
    try release(name)
  }

  /// The column names of `table` (from `PRAGMA table_info`) and a renderer that knows them.
  private func tableInfo(_ table: String) throws -> TableInfo {
    if let info = tables[table] { return info }
    trace?.isSuppressed = true
    defer { trace?.isSuppressed = false }
    let rows = try run("SELECT \"name\" FROM pragma_table_info(?)", [.text(table)])
    let columns = rows.compactMap { row -> String? in
      if case .text(let name)? = row.first { return name }
      return nil
    }
    let info = TableInfo(columns: columns, renderer: SQLRenderer(tableColumns: columns))
    // An unknown table is looked up again next time: it may be created in between.
    if !columns.isEmpty { tables[table] = info }
    return info
  }
}

/// Holds the trace closure for SQLite's C callback, which receives the box as an opaque pointer.
final class TraceBox {
  let trace: @Sendable (String) -> Void
  /// Set while the backend runs its own bookkeeping queries, which are not reported.
  var isSuppressed = false

  init(_ trace: @escaping @Sendable (String) -> Void) {
    self.trace = trace
  }
}

/// SQLite's `SQLITE_TRACE_STMT` callback: the fourth argument is the unexpanded SQL text.
private func traceStatement(
  event: UInt32, context: UnsafeMutableRawPointer?, statement: UnsafeMutableRawPointer?,
  text: UnsafeMutableRawPointer?
) -> Int32 {
  guard event == UInt32(SQLITE_TRACE_STMT), let context, let text else { return 0 }
  let box = Unmanaged<TraceBox>.fromOpaque(context).takeUnretainedValue()
  guard !box.isSuppressed else { return 0 }
  box.trace(String(cString: text.assumingMemoryBound(to: CChar.self)))
  return 0
}
