import CSQLite
@_spi(TandemBackend) import TandemCore

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
/// A file database is opened in WAL journal mode (unless read-only) with a busy timeout (5 seconds
/// by default); transactions begin with `BEGIN IMMEDIATE`, so a writer waits for another
/// connection's write instead of failing half-way with `database is locked`. Every connection
/// enforces foreign keys, and treats a quoted name that matches no column as an error (SQLite's
/// legacy double-quoted-string literals are off). Prepared statements are cached by SQL text (least recently used evicted).
///
/// Not `Sendable`: the connection is opened without SQLite's own mutex (`SQLITE_OPEN_NOMUTEX`)
/// because the `Database` facade serializes every call; use one backend from one thread at a time.
public final class SQLiteBackend: DatabaseBackend {
  /// What the backend knows about one table: its column names and a renderer for it.
  struct TableInfo {
    var columns: [String]
    /// Each column's declared type and whether it is the rowid, by name.
    var traits: [String: ColumnTraits] = [:]
    var renderer: SQLRenderer
  }

  /// `"sqlite"`.
  public let name = "sqlite"
  /// The database file's path (`":memory:"` for an in-memory database).
  public let path: String
  let connection: SQLiteConnection
  var statements: StatementCache
  /// Rendered SQL per statement shape; emptied with `tables`, whose renderers it depends on.
  var renderCache = RenderCache(capacity: 256)
  /// Compiled selects per ``PreparedStatement`` run before; emptied with `tables`, as `renderCache`.
  /// Read on every run of a select, under the database's lock and never across the row closure:
  /// the runtime's exclusivity check is left out.
  @exclusivity(unchecked) private(set) var preparedSelects = PreparedSelectCache(capacity: 64)
  /// Prepared one-row inserts for ``insert(into:columns:values:conflict:)``, emptied with `tables`.
  private var singleRowInserts: [InsertShape: SingleRowInsert] = [:]
  /// The one-row insert used last, checked before `singleRowInserts`.
  private var lastSingleRowInsert: (shape: InsertShape, insert: SingleRowInsert)?
  private var tables: [String: TableInfo] = [:] {
    didSet {
      if tables.isEmpty {
        renderCache.removeAll()
        preparedSelects.removeAll()
        singleRowInserts.removeAll()
        lastSingleRowInsert = nil
      }
    }
  }
  var trace: TraceBox?

  /// Opens (creating if needed) the database file at `path`, waiting up to 5 seconds for other
  /// connections' locks.
  ///
  /// ```swift
  /// let backend = try SQLiteBackend(path: FileManager.default.temporaryDirectory.appendingPathComponent("app.sqlite").path)
  /// ```
  public convenience init(path: String) throws {
    try self.init(path: path, busyTimeout: .seconds(5), readOnly: false)
  }

  /// Opens the database file at `path`: a write waits up to `busyTimeout` for another
  /// connection's (or process's) write to end; `readOnly` opens an existing file for reading only.
  ///
  /// `path` must name a file: `""`, `":memory:"` and `file:` URIs are refused with
  /// ``TandemError/Kind/misuse`` (SQLite would open a temporary or in-memory database instead,
  /// whose data is lost on close; ``inMemory()`` is the in-memory database).
  ///
  /// ```swift
  /// let reader = try SQLiteBackend(path: "/data/app.sqlite", busyTimeout: .seconds(1), readOnly: true)
  /// ```
  public convenience init(path: String, busyTimeout: Duration, readOnly: Bool) throws {
    try Self.checkFilePath(path)
    try self.init(opening: path, busyTimeout: busyTimeout, readOnly: readOnly, statementCacheCapacity: 64)
  }

  /// Opens the database at `path` (no check of the path: `":memory:"` is allowed), keeping at
  /// most `statementCacheCapacity` prepared statements.
  convenience init(path: String, statementCacheCapacity: Int) throws {
    try self.init(opening: path, busyTimeout: .seconds(5), readOnly: false, statementCacheCapacity: statementCacheCapacity)
  }

  /// Opens `location` (a file path or `":memory:"`); every error names it.
  private init(opening location: String, busyTimeout: Duration, readOnly: Bool, statementCacheCapacity: Int) throws {
    let milliseconds = try Self.milliseconds(busyTimeout)
    path = location
    do {
      connection = try SQLiteConnection(path: location, readOnly: readOnly)
    } catch let error as TandemError {
      throw Self.openingError(error, path: location)
    }
    statements = StatementCache(capacity: statementCacheCapacity)
    // SQLite falls back to reading a file it may not write; a read-write database must be writable.
    if !readOnly && connection.isReadOnly {
      throw TandemError.sqlite(
        code: SQLITE_READONLY,
        message: "attempt to write a readonly database: \(location) can only be read; open it read-only", sql: nil)
    }
    do {
      connection.setBusyTimeout(milliseconds: milliseconds)
      try connection.disableDoubleQuotedStrings()
      // WAL for files (SQLite keeps "memory" for an in-memory database); a read-only connection
      // must not change the file, and reads it in whatever mode it is in.
      if !readOnly { _ = try run("PRAGMA journal_mode = WAL", cached: false) }
      _ = try run("PRAGMA foreign_keys = ON", cached: false)
    } catch let error as TandemError {
      throw Self.openingError(error, path: location)
    }
  }

  /// A new, private in-memory SQLite database.
  ///
  /// ```swift
  /// let backend = try SQLiteBackend.inMemory()
  /// ```
  public static func inMemory() throws -> SQLiteBackend {
    try SQLiteBackend(opening: ":memory:", busyTimeout: .seconds(5), readOnly: false, statementCacheCapacity: 64)
  }

  /// Refuses a path SQLite would not read as a file name: `""` (a temporary database deleted on
  /// close), `":memory:"` (an in-memory database) and `file:` URIs (which may name either).
  static func checkFilePath(_ path: String) throws {
    if path.isEmpty {
      throw TandemError.misuse(
        "an empty path opens a temporary SQLite database that is deleted when it closes; use .sqliteInMemory for a database in memory, or give a file path")
    }
    if path == ":memory:" {
      throw TandemError.misuse("\":memory:\" is not a file: use .sqliteInMemory for a private in-memory SQLite database")
    }
    if path.hasPrefix("file:") {
      throw TandemError.misuse(
        "a path starting with \"file:\" is a URI filename to SQLite (it may even name an in-memory database); give a plain file path (\"./file:…\" for a file named so), or use .sqliteInMemory")
    }
  }

  /// The busy timeout in whole milliseconds (rounded up, at most `Int32.max`); a negative one is a misuse.
  static func milliseconds(_ timeout: Duration) throws -> Int32 {
    guard timeout >= .zero else { throw TandemError.misuse("the busy timeout must not be negative") }
    let (seconds, attoseconds) = timeout.components
    guard seconds < Int64(Int32.max) / 1_000 else { return Int32.max }
    let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
    return Int32(clamping: seconds * 1_000 + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond)
  }

  /// An error met while opening `path`, with the path in its message.
  private static func openingError(_ error: TandemError, path: String) -> TandemError {
    guard error.kind == .sqlite, let code = error.sqliteCode else { return error }
    return .sqlite(code: code, message: "\(error.message): \(path)", sql: error.statement)
  }

  deinit {
    sqlite3_trace_v2(connection.handle, 0, nil, nil)
    // Finalize the cached statements; the connection closes once the last one is gone.
    statements.removeAll()
  }

  // MARK: - DatabaseBackend

  /// Creates the table and its indexes inside a savepoint, so a failure leaves nothing behind.
  ///
  /// SQLite itself refuses the names it refuses, except one holding a NUL character, which SQL
  /// text cannot carry: that is a misuse, found before SQLite sees the statements.
  public func create(_ schema: TableSchema, ifNotExists: Bool) throws {
    try schema.checkIdentifiers()
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
    try naming(.dropTable, table: table) { _ = try run(sql, cached: false) }
  }

  /// Renders the statement, binds its values and runs it. A select's rows are handed out as they
  /// are stepped, in one array overwritten row after row, so records are decoded without an
  /// array per row; an insert of plain rows runs one cached single-row statement per row.
  ///
  /// For an insert, `lastInsertRowid` is the rowid of the last row this statement inserted (0 if
  /// it inserted none, e.g. an upsert that updated or an ignored conflict).
  @_spi(TandemBackend) public func run(
    _ statement: PreparedStatement, _ bindings: StatementBindings, onRestart: (() -> Void)?,
    eachRow body: ([SqliteValue]) throws -> Void
  ) throws -> StatementResult {
    switch bindings {
    case .rows(let rows):
      let insert = try statement.insertTakingRows()
      return try insertRows(into: insert.table, columns: insert.columns, values: rows, conflict: insert.conflict)
    case .flattenedRows(let values):
      let insert = try statement.insertTakingRows()
      return try insertRows(into: insert.table, columns: insert.columns, flattenedRows: values, conflict: insert.conflict)
    case .named, .positional:
      guard statement.kind == .select else {
        return try executeStatement(statement.statement, parameters: statement.parameters(bindings))
      }
      // A select run again binds and steps: its rendering and prepared statement are found by
      // the identity of `statement`. Its first run renders it as any statement is: once per shape.
      let entry = try preparedSelects.entry(for: statement) ?? compileSelect(statement, bindings)
      try entry.statement.forEachRow(
        try entry.values(bindings), context: entry.context, rowidSortKeyCount: entry.rowidSortKeyCount,
        discard: onRestart, body)
      return StatementResult()
    }
  }

  /// Compiles a prepared select and caches it for its next run.
  private func compileSelect(_ prepared: PreparedStatement, _ bindings: StatementBindings) throws -> PreparedSelectCache.Entry {
    // A value count that does not fit is reported before the statement's own errors.
    if case .positional(let values) = bindings { try prepared.checkCount(of: values) }
    let (statement, placeholders, context, isCacheable, sortKeys) = try compile(prepared.statement)
    let entry = PreparedSelectCache.Entry(
      prepared, statement: statement, bindings: placeholders, context: context, rowidSortKeyCount: sortKeys)
    if isCacheable { preparedSelects.store(entry) }
    return entry
  }

  /// Renders `statement`, binds its values (named parameters from `parameters`) and runs it.
  private func executeStatement(_ statement: Statement, parameters: [String: SqliteValue]) throws -> StatementResult {
    let (prepared, values, context, sortKeys) = try prepare(statement, parameters: parameters)
    switch statement {
    case .select:
      return StatementResult(rows: try prepared.run(values, context: context, rowidSortKeyCount: sortKeys))
    case .insert:
      // sqlite3_last_insert_rowid keeps older inserts' rowids; start from 0 to see only ours.
      connection.lastInsertRowid = 0
      try naming(FailedWrite.Kind(statement), table: statement.table) {
        try atomically(statement) { _ = try prepared.run(values, context: context) }
      }
      return StatementResult(lastInsertRowid: connection.lastInsertRowid, changes: connection.changes)
    case .update, .delete:
      try naming(FailedWrite.Kind(statement), table: statement.table) {
        try atomically(statement) { _ = try prepared.run(values, context: context) }
      }
      return StatementResult(changes: connection.changes)
    }
  }

  /// Inserts the rows with one cached single-row statement, bound, stepped and reset per row as
  /// hand-written C would; the whole call is one statement: if a row fails, none of its rows remain.
  ///
  /// Rows, errors, `lastInsertRowid` (the rowid of the last row inserted, 0 if none) and
  /// `changes` (all rows) are those of the multi-row `INSERT` that ``execute(_:parameters:)`` runs.
  private func insertRows(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    let info = try tableInfo(table)
    guard
      let single = try singleRowInsert(
        into: table, columns: columns, conflict: conflict, info: info, isEmpty: values.isEmpty,
        checkRows: { try Self.checkRowLengths(values, columns: columns) })
    else {
      // DEFAULT VALUES, no rows, an unknown table, or an error the statement path words.
      return try insertThroughStatements(into: table, columns: columns, values: values, conflict: conflict, info: info)
    }
    let context = ConstraintContext(table: table, columns: info.columns)
    // One row that aborts on conflict cannot fail half-way; anything else may, and several rows
    // outside a transaction would otherwise commit one by one.
    let needsSavepoint = values.count > 1 || (conflict != .abort && connection.isInTransaction)
    connection.lastInsertRowid = 0
    var changes = 0
    try naming(.insert(conflict), table: table) {
      try atomically(needsSavepoint) {
        changes = try single.statement.runEach(values, trailing: single.trailing, context: context)
      }
    }
    return StatementResult(lastInsertRowid: connection.lastInsertRowid, changes: changes)
  }

  /// ``insert(into:columns:values:conflict:)`` for rows stored one after another: the same rows,
  /// results and errors, binding straight from the one array.
  private func insertRows(
    into table: String, columns: [String], flattenedRows: [SqliteValue], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    let width = columns.count
    guard width > 0, !flattenedRows.isEmpty, flattenedRows.count.isMultiple(of: width) else {
      return try insertRows(into: table, columns: columns, values: try flattenedRows.rows(of: width), conflict: conflict)
    }
    let info = try tableInfo(table)
    guard
      let single = try singleRowInsert(
        into: table, columns: columns, conflict: conflict, info: info, isEmpty: false, checkRows: {})
    else {
      return try insertRows(into: table, columns: columns, values: try flattenedRows.rows(of: width), conflict: conflict)
    }
    let context = ConstraintContext(table: table, columns: info.columns)
    let needsSavepoint = flattenedRows.count > width || (conflict != .abort && connection.isInTransaction)
    connection.lastInsertRowid = 0
    var changes = 0
    try naming(.insert(conflict), table: table) {
      try atomically(needsSavepoint) {
        changes = try single.statement.runEach(flattened: flattenedRows, trailing: single.trailing, context: context)
      }
    }
    return StatementResult(lastInsertRowid: connection.lastInsertRowid, changes: changes)
  }

  /// Runs the insert as multi-row ``InsertStatement``s binding at most `statementValueLimit` values
  /// each (SQLite binds at most 32,766 per statement), all in the statement savepoint when more than one.
  private func insertThroughStatements(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution,
    info: TableInfo
  ) throws -> StatementResult {
    let rows = values.map { $0.map(SQLExpression.literal) }
    let whole = InsertStatement(table: table, columns: columns, rows: rows, conflict: conflict)
    let limit = Swift.max(1, Self.statementValueLimit / Swift.max(1, columns.count))
    guard rows.count > limit else { return try executeStatement(.insert(whole), parameters: [:]) }
    // The renderer's own checks over every row, so errors name the same row as one statement would.
    _ = try info.renderer.render(.insert(whole))
    var result = StatementResult()
    try atomically(true) {
      var start = 0
      while start < rows.count {
        let end = Swift.min(start + limit, rows.count)
        let part = InsertStatement(table: table, columns: columns, rows: Array(rows[start..<end]), conflict: conflict)
        let partResult = try executeStatement(.insert(part), parameters: [:])
        result.changes += partResult.changes
        if partResult.lastInsertRowid != 0 { result.lastInsertRowid = partResult.lastInsertRowid }
        start = end
      }
    }
    return result
  }

  /// The most values one rendered insert binds.
  private static let statementValueLimit = 10_000

  /// The columns and conflict clause of an insert: all that its one-row SQL depends on.
  struct InsertShape: Hashable {
    var table: String
    var columns: [String]
    var conflict: InsertStatement.ConflictResolution
  }

  /// A prepared one-row insert and the values its conflict clause binds after the row's.
  struct SingleRowInsert {
    var statement: SQLiteStatement
    var trailing: [SqliteValue]
  }

  /// The prepared one-row insert into `table`, cached per shape; `nil` when the statement path
  /// must run instead (see ``insert(into:columns:values:conflict:)``).
  ///
  /// Calls `checkRows`, which throws the renderer's error for a row whose length differs from
  /// `columns`, where the statement path would: after the table and column names are checked.
  private func singleRowInsert(
    into table: String, columns: [String], conflict: InsertStatement.ConflictResolution, info: TableInfo,
    isEmpty: Bool, checkRows: () throws -> Void
  ) throws -> SingleRowInsert? {
    guard !columns.isEmpty, !isEmpty, !info.columns.isEmpty else { return nil }
    let shape = InsertShape(table: table, columns: columns, conflict: conflict)
    // The last shape first: a run of single inserts into one table compares instead of hashing.
    if let last = lastSingleRowInsert, last.shape == shape {
      try checkRows()
      return last.insert
    }
    if let cached = singleRowInserts[shape] {
      lastSingleRowInsert = (shape, cached)
      try checkRows()
      return cached
    }
    let placeholders = [SQLExpression](repeating: .parameter(Self.rowPlaceholder), count: columns.count)
    let statement = Statement.insert(InsertStatement(table: table, columns: columns, rows: [placeholders], conflict: conflict))
    guard let rendered = try? info.renderer.render(statement) else { return nil }
    // The first bindings are the row's placeholders; the rest belong to the conflict clause.
    var trailing: [SqliteValue] = []
    for binding in rendered.bindings.dropFirst(columns.count) {
      guard case .value(let value) = binding else { return nil }  // a parameter: no value to give it
      trailing.append(value)
    }
    try checkRows()
    let single = SingleRowInsert(statement: try cachedStatement(rendered.sql), trailing: trailing)
    if singleRowInserts.count >= 64 { singleRowInserts.removeAll() }
    singleRowInserts[shape] = single
    lastSingleRowInsert = (shape, single)
    return single
  }

  /// The renderer's error for the first row whose length differs from `columns`.
  private static func checkRowLengths(_ rows: [[SqliteValue]], columns: [String]) throws {
    for (index, row) in rows.enumerated() where row.count != columns.count {
      throw TandemError.misuse("insert row \(index + 1) has \(row.count) values for \(columns.count) columns")
    }
  }

  /// The parameter standing for a row's values in a one-row insert's rendering.
  private static let rowPlaceholder = "tandem_row_value"

  /// Renders `statement` (or reuses the SQL of its shape), resolves its bindings and returns the
  /// prepared statement with its values, the context for constraint errors and the number of
  /// rowid columns its rows are sorted by (``RenderedSQL/rowidSortKeyCount``).
  private func prepare(
    _ statement: Statement, parameters: [String: SqliteValue]
  ) throws -> (SQLiteStatement, [SqliteValue], ConstraintContext, rowidSortKeyCount: Int) {
    let (prepared, placeholders, context, _, sortKeys) = try compile(statement)
    do {
      return (prepared, try placeholders.map { try $0.value(in: parameters) }, context, sortKeys)
    } catch let error as TandemError {
      throw error.with(statement: prepared.sql)
    }
  }

  /// Renders `statement` (or reuses the SQL of its shape) and prepares its SQL: the prepared
  /// statement, what each placeholder binds, the context for constraint errors, whether all of
  /// it may be kept for the statement's next run (its tables are known), and the number of
  /// rowid columns its rows are sorted by (``RenderedSQL/rowidSortKeyCount``).
  private func compile(
    _ statement: Statement
  ) throws -> (SQLiteStatement, [SQLBinding], ConstraintContext, isReusable: Bool, rowidSortKeyCount: Int) {
    let lifted = Self.isCacheable(statement) ? StatementShape.lifting(statement) : nil
    // A shape rendered before was rendered for the tables known now: the cache is emptied with
    // them, and only a known table's shapes are cached. Its statement is kept once prepared.
    if let (shape, literals) = lifted, let entry = renderCache.entry(for: shape) {
      let prepared: SQLiteStatement
      if let kept = entry.statement {
        prepared = kept
      } else {
        prepared = try self.prepared(entry.sql, for: statement, table: try tableInfo(statement.table))
        entry.statement = prepared
      }
      return (prepared, entry.bindings(literals: literals), entry.context, true, entry.rowidSortKeyCount)
    }
    let table = try tableInfo(statement.table)
    let rendered = try render(statement, table: table)
    let context = ConstraintContext(table: statement.table, columns: table.columns)
    // An unknown table may be created later with other columns (and another rowid name).
    let entry = lifted.flatMap { shape, literals in
      table.columns.isEmpty ? nil : renderCache.store(rendered, for: shape, literals: literals, context: context)
    }
    let prepared = try prepared(rendered.sql, for: statement, table: table)
    entry?.statement = prepared
    return (prepared, rendered.bindings, context, !table.columns.isEmpty, rendered.rowidSortKeyCount)
  }

  /// The cached prepared statement of `sql`, the rendering of `statement`; a failure to prepare
  /// is reported as SQLite reports `statement` written as it is (``errorAsWritten(_:table:)``).
  private func prepared(_ sql: String, for statement: Statement, table: TableInfo) throws -> SQLiteStatement {
    do {
      return try cachedStatement(sql)
    } catch let error as TandemError where error.kind == .sqlite {
      throw errorAsWritten(statement, table: table) ?? error
    }
  }

  /// The error SQLite reports for `statement` written as it is, when its rendering wrote a join
  /// over a subquery that fixes the order of its rows and failed to prepare: SQLite resolves that
  /// subquery first, and may meet another of the statement's errors first (a name in WHERE
  /// before a HAVING clause on a query that does not aggregate). `nil` when the statement is
  /// written the same way, or prepares that way.
  private func errorAsWritten(_ statement: Statement, table: TableInfo) -> TandemError? {
    guard case .select(let select) = statement, !select.joins.isEmpty,
      let plain = try? renderer(for: statement, table: table).render(statement, writingOrderedSubqueries: false)
    else { return nil }
    do {
      _ = try SQLiteStatement(connection: connection, sql: plain.sql, persistent: false)
      return nil
    } catch let error as TandemError {
      return error
    } catch {
      return nil
    }
  }

  /// The SQL and values of a rendering, with named parameters from `parameters`.
  static func resolve(
    _ rendered: RenderedSQL, _ parameters: [String: SqliteValue]
  ) throws -> (String, [SqliteValue]) {
    do {
      return (rendered.sql, try rendered.values(parameters: parameters))
    } catch let error as TandemError {
      throw error.with(statement: rendered.sql)
    }
  }

  /// Whether a statement's shape is worth caching: not a multi-row insert, whose shape (one per
  /// row count) rarely repeats and would cost a copy of every row to compute.
  private static func isCacheable(_ statement: Statement) -> Bool {
    if case .insert(let insert) = statement { return insert.rows.count <= 1 }
    return true
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
    try atomically(connection.isInTransaction && !touchesOneRow, body)
  }

  /// Runs a write; a foreign key or rowid datatype error it throws gets the table and columns
  /// ``FailedWrite``'s rule gives, which the memory engine computes alike.
  private func naming(
    _ kind: @autoclosure () -> FailedWrite.Kind?, table: String, _ body: () throws -> Void
  ) throws {
    do {
      try body()
    } catch let error as TandemError {
      guard let kind = kind(), FailedWrite.needsNaming(error, kind),
        let write = try? untraced({ try failedWrite(kind, table: table) })
      else { throw error }
      throw write.name(error)
    }
  }

  /// The schema facts ``FailedWrite`` names an error from, read from SQLite's catalog.
  private func failedWrite(_ kind: FailedWrite.Kind, table: String) throws -> FailedWrite {
    let declared = try run(
      #"SELECT "name" FROM "sqlite_schema" WHERE "type" = 'table' AND "name" = ? COLLATE NOCASE"#, [.text(table)])
    let name = declared.first?.first?.textValue ?? table
    let (columns, rowidColumn) = try columnsAndRowid(of: name)
    var rowidColumns: [String: String?] = [:]
    var references: [FailedWrite.Reference] = []
    let keys = try run(
      #"SELECT "m"."name", "f"."from", "f"."table", "f"."to", "f"."on_delete", "f"."on_update" "#
        + #"FROM "sqlite_schema" AS "m", pragma_foreign_key_list("m"."name") AS "f" WHERE "m"."type" = 'table'"#)
    for key in keys {
      guard let child = key[0].textValue, let childColumn = key[1].textValue, let parent = key[2].textValue else { continue }
      if rowidColumns[child] == nil { rowidColumns[child] = try columnsAndRowid(of: child).rowid }
      let childRowid = rowidColumns[child] ?? nil
      references.append(
        FailedWrite.Reference(
          childTable: child, childColumn: childColumn, parentTable: parent, parentColumn: key[3].textValue ?? "",
          onDelete: key[4].textValue.flatMap(ForeignKey.Action.init(rawValue:)) ?? .noAction,
          onUpdate: key[5].textValue.flatMap(ForeignKey.Action.init(rawValue:)) ?? .noAction,
          childColumnIsRowid: childRowid.map { SQLName.same($0, childColumn) } ?? false))
    }
    return FailedWrite(kind: kind, table: name, columns: columns, rowidColumn: rowidColumn, references: references)
  }

  /// A table's column names and its `INTEGER PRIMARY KEY` column, from `PRAGMA table_info`.
  private func columnsAndRowid(of table: String) throws -> (columns: [String], rowid: String?) {
    let rows = try run(#"SELECT "name", upper("type"), "pk" FROM pragma_table_info(?)"#, [.text(table)])
    let keys = rows.filter { $0[2] != .integer(0) }
    let rowid = keys.count == 1 && keys[0][1] == .text("INTEGER") ? keys[0][0].textValue : nil
    return (rows.compactMap { $0[0].textValue }, rowid)
  }

  /// Runs `body` inside the statement savepoint when `needsSavepoint`: released on success, rolled
  /// back on failure. Outside a transaction the savepoint is the transaction.
  func atomically(_ needsSavepoint: Bool, _ body: () throws -> Void) throws {
    guard needsSavepoint else { return try body() }
    try untraced { try savepoint(Self.statementSavepoint) }
    do {
      try body()
    } catch {
      // Some errors (SQLITE_FULL among them) end the whole transaction, savepoint included.
      if connection.isInTransaction {
        try? untraced { try rollback(to: Self.statementSavepoint) }
      }
      throw error
    }
    try untraced { try release(Self.statementSavepoint) }
  }

  /// Runs the backend's own bookkeeping SQL, which the trace does not report.
  private func untraced<T>(_ body: () throws -> T) rethrows -> T {
    trace?.isSuppressed = true
    defer { trace?.isSuppressed = false }
    return try body()
  }

  private static let statementSavepoint = "tandem_statement"

  /// Whether SQLite has a transaction open (`sqlite3_get_autocommit` is off).
  public var isInTransaction: Bool { connection.isInTransaction }

  /// The savepoints this backend opened that are still open, innermost last. The first one began
  /// the transaction, with `BEGIN IMMEDIATE`.
  private var openSavepoints: [(name: String, beganTransaction: Bool)] = []

  /// `SAVEPOINT "name"`; outside a transaction, `BEGIN IMMEDIATE` first.
  ///
  /// A transaction that reads and then writes must hold the write lock from its start: a deferred
  /// one (what a bare `SAVEPOINT` begins) cannot upgrade its read lock once another connection
  /// has written, and SQLite then fails with `database is locked` at once, without waiting out
  /// the busy timeout. `BEGIN IMMEDIATE` waits for the lock (up to the busy timeout) instead.
  public func savepoint(_ name: String) throws {
    let quoted = try SQLTextWriter.quotedIdentifier(name)
    if connection.isInTransaction {
      // Inside a transaction this backend did not begin (SQL text's BEGIN), it is a savepoint
      // like any other: releasing it must not commit.
      _ = try run("SAVEPOINT " + quoted)
      openSavepoints.append((name, false))
      return
    } else {
      openSavepoints.removeAll()
      _ = try run("BEGIN IMMEDIATE")
      do {
        _ = try run("SAVEPOINT " + quoted)
      } catch {
        _ = try? run("ROLLBACK")
        throw error
      }
    }
    openSavepoints.append((name, true))
  }

  /// `RELEASE "name"`; for the savepoint that began the transaction, `COMMIT`. A failed commit
  /// leaves the transaction open, for ``rollback(to:)``.
  public func release(_ name: String) throws {
    let quoted = try SQLTextWriter.quotedIdentifier(name)
    guard connection.isInTransaction, let position = openPosition(of: name) else {
      _ = try run("RELEASE " + quoted)  // SQLite's own answer for a savepoint opened without us
      return
    }
    _ = try run(openSavepoints[position].beganTransaction ? "COMMIT" : "RELEASE " + quoted)
    openSavepoints.removeSubrange(position...)
  }

  /// `ROLLBACK TO "name"` then `RELEASE "name"`; for the savepoint that began the transaction,
  /// `ROLLBACK`.
  public func rollback(to name: String) throws {
    let quoted = try SQLTextWriter.quotedIdentifier(name)
    guard connection.isInTransaction, let position = openPosition(of: name) else {
      _ = try run("ROLLBACK TO " + quoted)
      _ = try run("RELEASE " + quoted)
      return
    }
    if openSavepoints[position].beganTransaction {
      _ = try run("ROLLBACK")
    } else {
      _ = try run("ROLLBACK TO " + quoted)
      _ = try run("RELEASE " + quoted)
    }
    openSavepoints.removeSubrange(position...)
  }

  /// The position of the innermost open savepoint called `name` (compared as SQLite compares
  /// savepoint names).
  private func openPosition(of name: String) -> Int? {
    openSavepoints.lastIndex { SQLName.same($0.name, name) }
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

  /// Forgets what was read of the schema (after SQL text that may have changed it).
  func forgetTables() { tables.removeAll() }

  /// Runs one SQL statement with positional values and returns its rows.
  func run(_ sql: String, _ values: [SqliteValue] = [], cached: Bool = true) throws -> [[SqliteValue]] {
    let prepared = cached ? try cachedStatement(sql) : try SQLiteStatement(connection: connection, sql: sql, persistent: false)
    return try prepared.run(values)
  }

  private func cachedStatement(_ sql: String) throws -> SQLiteStatement {
    try statements.statement(for: sql) {
      try SQLiteStatement(connection: connection, sql: sql, persistent: true)
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

  /// The SQL this backend runs for `statement`: a join ordered by its sources' rowids alone is
  /// left for ``SQLiteStatement`` to sort (``RenderedSQL/rowidSortKeyCount``).
  private func render(_ statement: Statement, table: TableInfo) throws -> RenderedSQL {
    try renderer(for: statement, table: table).render(
      statement, writingOrderedSubqueries: true, leavingRowidOrderToCaller: true)
  }

  /// The renderer for `statement`: its table's, or — for a statement that reads other tables —
  /// one that also knows their columns (to spell each one's rowid).
  func renderer(for statement: Statement, table: TableInfo) throws -> SQLRenderer {
    guard statement.isRelational else { return table.renderer }
    var others: [String: [String]] = [:]
    var traits: [String: [String: ColumnTraits]] = [:]
    for name in statement.tablesRead {
      let info = try tableInfo(name)
      others[name] = info.columns
      traits[name] = info.traits
    }
    return SQLRenderer(tableColumns: table.columns, otherTables: others, columnTraits: traits)
  }

  /// The type SQLite's affinity rules give a declared column type: INTEGER for a name holding
  /// `INT`; TEXT for `CHAR`, `CLOB` or `TEXT`; BLOB for `BLOB` or none; REAL for `REAL`, `FLOA`
  /// or `DOUB`. NUMERIC, which has no ``SqliteTypeName``, counts as BLOB: a type whose equal
  /// values may be stored differently.
  static func storageType(declared: String) -> SqliteTypeName {
    let name = declared.uppercased()
    if name.contains("INT") { return .integer }
    if name.contains("CHAR") || name.contains("CLOB") || name.contains("TEXT") { return .text }
    if name.contains("BLOB") || name.isEmpty { return .blob }
    if name.contains("REAL") || name.contains("FLOA") || name.contains("DOUB") { return .real }
    return .blob
  }

  /// The column names of `table` (from `PRAGMA table_info`) and a renderer that knows them.
  func tableInfo(_ table: String) throws -> TableInfo {
    if let info = tables[table] { return info }
    trace?.isSuppressed = true
    defer { trace?.isSuppressed = false }
    let rows = try run("SELECT \"name\", \"type\", \"pk\", \"notnull\" FROM pragma_table_info(?)", [.text(table)])
    let columns = rows.compactMap { row -> String? in
      if case .text(let name)? = row.first { return name }
      return nil
    }
    let keyCount = rows.filter { row in row.count > 2 && row[2] != .integer(0) }.count
    // A single INTEGER key is the rowid unless SQLite made an index for it: a WITHOUT ROWID
    // table, or `INTEGER PRIMARY KEY DESC`.
    let keyIsIndexed =
      try keyCount == 1
      && run("SELECT count(*) FROM pragma_index_list(?) WHERE \"origin\" = 'pk'", [.text(table)]).first?.first
        != .integer(0)
    var traits: [String: ColumnTraits] = [:]
    for row in rows {
      guard row.count > 2, case .text(let name) = row[0] else { continue }
      let declared = row[1].textValue ?? ""
      let type = Self.storageType(declared: declared)
      traits[name] = ColumnTraits(
        type: type,
        isRowidAlias: keyCount == 1 && !keyIsIndexed && row[2] != .integer(0) && declared.uppercased() == "INTEGER",
        isNotNull: row.count > 3 && row[3] != .integer(0))
    }
    let info = TableInfo(columns: columns, traits: traits, renderer: SQLRenderer(tableColumns: columns))
    // An unknown table is looked up again next time: it may be created in between.
    if !columns.isEmpty { tables[table] = info }
    return info
  }
}

extension SQLiteBackend: QueryPlanDescribing {
  /// SQLite's own `EXPLAIN QUERY PLAN` of the statement as this backend renders it, with its
  /// values bound: each row's detail, indented two spaces per level below the top.
  public func queryPlan(for statement: Statement, parameters: [String: SqliteValue]) throws -> [String] {
    let table = try tableInfo(statement.table)
    let (sql, values) = try Self.resolve(try render(statement, table: table), parameters)
    trace?.isSuppressed = true
    defer { trace?.isSuppressed = false }
    let rows = try run("EXPLAIN QUERY PLAN " + sql, values, cached: false)
    var depth: [Int64: Int] = [0: -1]
    var lines: [String] = []
    for row in rows {
      guard row.count >= 4, case .integer(let id) = row[0], case .integer(let parent) = row[1],
        case .text(let detail) = row[3]
      else { continue }
      let level = (depth[parent] ?? -1) + 1
      depth[id] = level
      lines.append(String(repeating: "  ", count: level) + detail)
    }
    return lines
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

extension SqliteValue {
  /// The text of a TEXT value (catalog queries' names), else `nil`.
  fileprivate var textValue: String? {
    if case .text(let text) = self { return text }
    return nil
  }
}
