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
  /// Inserts rows given as one flat list, `columns.count` values per row, as one statement: the
  /// same as ``insert(into:columns:values:conflict:)`` on those rows, without an array per row.
  ///
  /// ```swift
  /// try backend.insert(into: "t", columns: ["a", "b"], flattenedRows: [1, "x", 2, "y"], conflict: .abort)
  /// ```
  func insert(
    into table: String, columns: [String], flattenedRows: [SqliteValue], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult
  /// Runs a select and hands its result rows, in order, to `body`: the same rows as
  /// ``execute(_:parameters:)`` returns for `.select(statement)`, without collecting them first.
  ///
  /// A backend may hand out one array that it overwrites for the next row (keeping a row is
  /// still safe: arrays are values, so the backend then writes to a copy); it may also hand out
  /// the rows it stores. `body` must not call the backend. An error thrown by `body` ends the
  /// select and is rethrown.
  ///
  /// ```swift
  /// var ids: [SqliteValue] = []
  /// try backend.select(statement, parameters: [:]) { row in ids.append(row[0]) }
  /// ```
  func select(
    _ statement: SelectStatement, parameters: [String: SqliteValue], eachRow body: ([SqliteValue]) throws -> Void
  ) throws
  /// Runs a prepared select with its parameters' values in the order of
  /// ``PreparedSelect/parameterNames``: exactly what ``select(_:parameters:eachRow:)`` does for
  /// `query.statement` with those values by name. The caller keeps `query` and hands the same
  /// object in again, so an engine may recognize it by identity (its statement never changes)
  /// instead of comparing statements; it must still check that its schema is the one it compiled
  /// for. Throws ``TandemError/misuse(_:)`` when `values` and the names differ in number.
  ///
  /// ```swift
  /// let query = PreparedSelect(statement, parameterNames: ["id"])
  /// try backend.select(prepared: query, values: [1]) { row in print(row) }
  /// ```
  func select(
    prepared query: PreparedSelect, values: [SqliteValue], eachRow body: ([SqliteValue]) throws -> Void
  ) throws
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
  /// Builds the ``InsertStatement`` and executes it; engines override this with a faster path.
  public func insert(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    let rows = values.map { $0.map(SQLExpression.literal) }
    return try execute(.insert(InsertStatement(table: table, columns: columns, rows: rows, conflict: conflict)), parameters: [:])
  }

  /// Splits the values into rows and inserts them with ``insert(into:columns:values:conflict:)``.
  public func insert(
    into table: String, columns: [String], flattenedRows: [SqliteValue], conflict: InsertStatement.ConflictResolution
  ) throws -> StatementResult {
    try insert(into: table, columns: columns, values: try flattenedRows.rows(of: columns.count), conflict: conflict)
  }

  /// Executes the select and hands over its rows one by one; engines override this to skip
  /// collecting the rows first.
  public func select(
    _ statement: SelectStatement, parameters: [String: SqliteValue], eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    for row in try execute(.select(statement), parameters: parameters).rows {
      try body(row)
    }
  }
}

extension DatabaseBackend {
  /// Runs the prepared select's statement with ``select(_:parameters:eachRow:)``; engines
  /// override this to recognize a query they have already compiled.
  public func select(
    prepared query: PreparedSelect, values: [SqliteValue], eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    try select(query.statement, parameters: query.parameters(values), eachRow: body)
  }
}

/// A select statement built once and run many times, with its named parameters' values given
/// by position (``DatabaseBackend/select(prepared:values:eachRow:)``).
///
/// Nothing in it changes after `init`, so an engine that has seen this object before may reuse
/// what it compiled for it, keyed by the object's identity (while holding on to it, so that the
/// identity is never reused by another query).
///
/// ```swift
/// let query = PreparedSelect(
///   SelectStatement(table: "t", columns: [.column("a")], filter: .binary(.equal, .column("id"), .parameter("id"))),
///   parameterNames: ["id"])
/// ```
public final class PreparedSelect: Sendable {
  /// The statement this query runs.
  public let statement: SelectStatement
  /// The names of the parameters whose values a run gives by position.
  public let parameterNames: [String]

  /// A prepared query for `statement`, whose runs give values for `parameterNames` in order.
  public init(_ statement: SelectStatement, parameterNames: [String] = []) {
    self.statement = statement
    self.parameterNames = parameterNames
  }

  /// The values by name (a name listed twice takes its last value); throws
  /// ``TandemError/misuse(_:)`` when there are not as many values as names.
  ///
  /// ```swift
  /// try PreparedSelect(statement, parameterNames: ["id"]).parameters([1])  // ["id": 1]
  /// ```
  public func parameters(_ values: [SqliteValue]) throws -> [String: SqliteValue] {
    try checkCount(of: values)
    var parameters: [String: SqliteValue] = [:]
    for (name, value) in zip(parameterNames, values) { parameters[name] = value }
    return parameters
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
  public func rows(of width: Int) throws -> [[SqliteValue]] {
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
