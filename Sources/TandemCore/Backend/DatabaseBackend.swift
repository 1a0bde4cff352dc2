/// The one seam between the `Database` facade and an engine.
///
/// An engine sees only schemas, statements of the query model and ``SqliteValue``s; encoding and
/// decoding of records happens above it. Calls are serialized by the facade, so a backend needs
/// no locking of its own and is not required to be `Sendable`.
///
/// Every data statement goes through one streaming entry point, ``run(_:_:eachRow:)``; the
/// calls the facade makes (`execute`, `select`, `insert`) are built on it. That entry point,
/// ``PreparedStatement`` and ``StatementBindings`` are for engines only: they are
/// `@_spi(TandemBackend)`, seen by a module that imports `@_spi(TandemBackend) import TandemCore`.
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
  /// Runs one data statement — the one way an engine runs them — and hands its result rows, in
  /// order, to `body`; returns its `changes` and `lastInsertRowid` (its `rows` stay empty).
  ///
  /// `statement` may be an object the caller keeps and hands in again: an engine may then reuse
  /// what it compiled for it, keyed by its identity. `bindings` gives the values of its
  /// parameters, or, for an insert, its rows as plain values (bulk data: the statement's own rows
  /// are then not read). A backend may hand out one array that it overwrites for the next row;
  /// `body` must not call the backend, and an error it throws ends the statement and is rethrown.
  /// ``execute(_:parameters:)``, ``select(_:parameters:eachRow:)``, ``insert(into:columns:values:conflict:)``
  /// and the other conveniences are built on it.
  ///
  /// A caller that can take back the rows it was handed passes `onRestart`: the engine may then
  /// hand out rows before it knows they come in order (the SQLite backend streams a join while
  /// its rows come in rowid order), and, when one does not, calls `onRestart` — every row handed
  /// out so far is void — and hands out all the rows again, in order. What `body` is handed after
  /// the last `onRestart`, and the error the run ends with, are what a run without `onRestart`
  /// gives. With `nil`, rows are handed out once, in order.
  ///
  /// ```swift
  /// let query = PreparedStatement(.select(statement), parameterNames: ["id"])
  /// var rows: [[SqliteValue]] = []
  /// try backend.run(query, .positional([1]), onRestart: { rows.removeAll() }) { rows.append($0) }
  /// ```
  @_spi(TandemBackend) func run(
    _ statement: PreparedStatement, _ bindings: StatementBindings, onRestart: (() -> Void)?,
    eachRow body: ([SqliteValue]) throws -> Void
  ) throws -> StatementResult
  /// Runs SQL text — one statement or a script of several — with `arguments` bound, and hands
  /// the result rows of each statement, in order, to `body`; returns the `changes` and
  /// `lastInsertRowid` of the last statement. Rows handed over before an error stay handed over.
  ///
  /// SQLite runs the text as written; an engine that does not take SQL parses it, and refuses
  /// with ``TandemError/Kind/unsupported`` what it cannot run exactly as SQLite would.
  ///
  /// ```swift
  /// `rowOrder` says whether the caller depends on the order of rows SQL leaves open (see
  /// ``RowOrder``).
  ///
  /// ```swift
  /// try backend.execute(sql: "SELECT a AS x FROM t WHERE a > ?", arguments: [1], rowOrder: .sqlite) { row in print(row["x"]) }
  /// ```
  func execute(
    sql: String, arguments: StatementArguments, rowOrder: RowOrder, eachRow body: (Row) throws -> Void
  ) throws -> StatementResult
  /// Whether a transaction is open. An engine may end one on its own: SQLite rolls back the
  /// whole transaction on some errors (`database or disk is full`), savepoints included.
  var isInTransaction: Bool { get }
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
  /// Runs one data statement and hands its rows, once and in order, to `body`
  /// (``run(_:_:onRestart:eachRow:)`` without `onRestart`).
  ///
  /// ```swift
  /// let query = PreparedStatement(.select(statement), parameterNames: ["id"])
  /// try backend.run(query, .positional([1])) { row in print(row) }
  /// ```
  @_spi(TandemBackend) public func run(
    _ statement: PreparedStatement, _ bindings: StatementBindings, eachRow body: ([SqliteValue]) throws -> Void
  ) throws -> StatementResult {
    try run(statement, bindings, onRestart: nil, eachRow: body)
  }

  /// Runs one statement with values for its named parameters and returns its rows with its result.
  ///
  /// ```swift
  /// try backend.execute(.delete(DeleteStatement(table: "t")), parameters: [:]).changes
  /// ```
  public func execute(_ statement: Statement, parameters: [String: SqliteValue]) throws -> StatementResult {
    var rows: [[SqliteValue]] = []
    var result = try run(PreparedStatement(statement), .named(parameters), onRestart: { rows.removeAll() }) {
      rows.append($0)
    }
    result.rows = rows
    return result
  }

  /// Runs a select and hands its rows, in order, to `body`.
  ///
  /// ```swift
  /// var ids: [SqliteValue] = []
  /// try backend.select(statement, parameters: [:]) { row in ids.append(row[0]) }
  /// ```
  public func select(
    _ statement: SelectStatement, parameters: [String: SqliteValue], eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    _ = try run(PreparedStatement(.select(statement)), .named(parameters), eachRow: body)
  }

  /// Runs a prepared statement with its parameters' values in the order of
  /// ``PreparedStatement/parameterNames``, handing its rows to `body`.
  ///
  /// ```swift
  /// let query = PreparedStatement(statement, parameterNames: ["id"])
  /// try backend.select(prepared: query, values: [1]) { row in print(row) }
  /// ```
  @_spi(TandemBackend) public func select(
    prepared query: PreparedStatement, values: [SqliteValue], eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    _ = try run(query, .positional(values), eachRow: body)
  }

  /// Inserts rows of plain values as one statement: the same rows, errors and result as
  /// ``execute(_:parameters:)`` on an ``InsertStatement`` whose rows are these values as literals,
  /// without building an expression per value.
  ///
  /// ```swift
  /// try backend.insert(into: "t", columns: ["a", "b"], values: [[1, "x"], [2, "y"]], conflict: .abort)
  /// ```
  public func insert(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    try run(
      PreparedStatement(.insert(InsertStatement(table: table, columns: columns, rows: [], conflict: conflict))),
      .rows(values), eachRow: { _ in })
  }

  /// Inserts rows given as one flat list, `columns.count` values per row, as one statement: the
  /// same as ``insert(into:columns:values:conflict:)`` on those rows, without an array per row.
  ///
  /// ```swift
  /// try backend.insert(into: "t", columns: ["a", "b"], flattenedRows: [1, "x", 2, "y"], conflict: .abort)
  /// ```
  @_spi(TandemBackend) public func insert(
    into table: String, columns: [String], flattenedRows: [SqliteValue], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    try run(
      PreparedStatement(.insert(InsertStatement(table: table, columns: columns, rows: [], conflict: conflict))),
      .flattenedRows(flattenedRows), eachRow: { _ in })
  }
}

/// What a run of a ``PreparedStatement`` binds (``DatabaseBackend/run(_:_:eachRow:)``).
///
/// ```swift
/// try backend.run(PreparedStatement(.select(statement)), .named(["id": 1])) { print($0) }
/// ```
@_spi(TandemBackend) public enum StatementBindings: Sendable {
  /// Values for the statement's named parameters.
  case named([String: SqliteValue])
  /// Values for ``PreparedStatement/parameterNames``, in that order.
  case positional([SqliteValue])
  /// An insert's rows as plain values, one array per row (its statement's rows are not read).
  case rows([[SqliteValue]])
  /// An insert's rows as one flat list, as many values per row as the insert names columns.
  case flattenedRows([SqliteValue])

  /// The misuse of giving rows as data to a statement that is not an insert.
  public static var rowsWithoutInsert: TandemError {
    .misuse("rows given as data to a statement that is not an insert")
  }
}

/// A data statement built once and run many times (``DatabaseBackend/run(_:_:eachRow:)``), with
/// the names its positional values bind.
///
/// Nothing in it changes after `init`, so an engine that has seen this object before may reuse
/// what it compiled for it, keyed by the object's identity (while holding on to it, so that the
/// identity is never reused by another statement).
///
/// ```swift
/// let query = PreparedStatement(
///   SelectStatement(table: "t", columns: [.column("a")], filter: .binary(.equal, .column("id"), .parameter("id"))),
///   parameterNames: ["id"])
/// ```
@_spi(TandemBackend) public final class PreparedStatement: Sendable {
  /// What a statement does, read without copying it (an engine dispatches on it for every run).
  public enum Kind: Sendable { case select, insert, update, delete }

  /// The statement this runs.
  public let statement: Statement
  /// The names of the parameters whose values a run gives by position.
  public let parameterNames: [String]
  /// What the statement does.
  public let kind: Kind

  /// A prepared statement whose runs give values for `parameterNames` in order.
  public init(_ statement: Statement, parameterNames: [String] = []) {
    self.statement = statement
    self.parameterNames = parameterNames
    kind =
      switch statement {
      case .select: .select
      case .insert: .insert
      case .update: .update
      case .delete: .delete
      }
  }

  /// A prepared select.
  public convenience init(_ select: SelectStatement, parameterNames: [String] = []) {
    self.init(.select(select), parameterNames: parameterNames)
  }

  /// The values by name (a name listed twice takes its last value); throws
  /// ``TandemError/misuse(_:)`` when there are not as many values as names.
  ///
  /// ```swift
  /// try PreparedStatement(statement, parameterNames: ["id"]).parameters([1])  // ["id": 1]
  /// ```
  public func parameters(_ values: [SqliteValue]) throws -> [String: SqliteValue] {
    try checkCount(of: values)
    var parameters: [String: SqliteValue] = [:]
    for (name, value) in zip(parameterNames, values) { parameters[name] = value }
    return parameters
  }

  /// The values by name that `bindings` gives for parameters (none for an insert's rows).
  public func parameters(_ bindings: StatementBindings) throws -> [String: SqliteValue] {
    switch bindings {
    case .named(let values): values
    case .positional(let values): try parameters(values)
    case .rows, .flattenedRows: [:]
    }
  }

  /// The insert whose rows a run gives as data (``StatementBindings/rows(_:)``,
  /// ``StatementBindings/flattenedRows(_:)``); throws ``StatementBindings/rowsWithoutInsert`` for
  /// any other statement.
  public func insertTakingRows() throws -> InsertStatement {
    guard case .insert(let insert) = statement else { throw StatementBindings.rowsWithoutInsert }
    return insert
  }

  /// Throws ``TandemError/misuse(_:)`` unless there is one value per parameter name.
  public func checkCount(of values: [SqliteValue]) throws {
    guard values.count == parameterNames.count else {
      throw TandemError.misuse("\(values.count) values for \(parameterNames.count) parameters")
    }
  }
}

extension [SqliteValue] {
  /// The values cut into rows of `width`; throws ``TandemError/misuse(_:)`` when they do not
  /// divide evenly.
  ///
  /// ```swift
  /// try [1, 2, 3, 4].rows(of: 2)  // [[1, 2], [3, 4]]
  /// ```
  @_spi(TandemBackend) public func rows(of width: Int) throws -> [[SqliteValue]] {
    guard width > 0, count.isMultiple(of: width) else {
      throw TandemError.misuse("\(count) values do not make rows of \(width) columns")
    }
    return stride(from: 0, to: count, by: width).map { Array(self[$0..<$0 + width]) }
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
