@_spi(TandemBackend) import TandemCore

/// Runs every statement on two engines and throws a ``TandemError/Kind/divergence`` error the
/// moment their answers differ: rows, values, storage classes, row counts, or one failing where
/// the other succeeds. Open it with `Database(.tandem)`.
///
/// ```swift
/// let db = try Database(.tandem)   // SQLite in memory + the memory engine
/// ```
///
/// The divergence names the statement by its SQL, which shows no value; its message shows both
/// answers, values included, since telling them apart is what tandem mode is for.
///
/// After a divergence the two engines may hold different data; start over with a fresh database.
final class TandemBackend: DatabaseBackend {
  let reference: any DatabaseBackend
  let candidate: any DatabaseBackend

  init(reference: any DatabaseBackend, candidate: any DatabaseBackend) {
    self.reference = reference
    self.candidate = candidate
  }

  var name: String { "tandem(\(reference.name), \(candidate.name))" }

  func create(_ schema: TableSchema, ifNotExists: Bool) throws {
    _ = try both("CREATE TABLE \(schema.name)") { try $0.create(schema, ifNotExists: ifNotExists); return true }
  }

  func drop(table: String, ifExists: Bool) throws {
    _ = try both("DROP TABLE \(table)") { try $0.drop(table: table, ifExists: ifExists); return true }
  }

  /// Runs the statement on both engines (each through its own path for the bindings): a select's
  /// rows are handed over once they agree (see ``handOver(_:to:_:)``), any other statement's
  /// result is returned once both results agree.
  ///
  /// The rows are handed over once, after both engines ran: `onRestart` is never called.
  func run(
    _ statement: PreparedStatement, _ bindings: StatementBindings, onRestart: (() -> Void)?,
    eachRow body: ([SqliteValue]) throws -> Void
  ) throws -> StatementResult {
    switch (statement.statement, bindings) {
    case (.select(let select), .named), (.select(let select), .positional):
      try handOver(Self.describe(.select(select)), to: body) { backend, restart, collect in
        _ = try backend.run(statement, bindings, onRestart: restart, eachRow: collect)
      }
      return StatementResult()
    case (.insert(let insert), .rows(let values)):
      return try both(Self.describeInsert(insert.table, insert.columns, values, insert.conflict)) {
        try $0.run(statement, bindings) { _ in }
      }
    case (.insert(let insert), .flattenedRows(let values)):
      let rows = try values.rows(of: insert.columns.count)
      return try both(Self.describeInsert(insert.table, insert.columns, rows, insert.conflict)) {
        try $0.run(statement, .rows(rows)) { _ in }
      }
    case (let other, _):
      return try both(Self.describe(other)) { try $0.run(statement, bindings) { _ in } }
    }
  }

  /// Runs a select on both engines, keeping the rows each produced before it failed, and hands
  /// them to `body` once both agree, then throws the error that ended both: the caller sees what
  /// one engine alone shows it. A select that fails on a later row has already handed over the
  /// earlier ones, so an error `body` throws for one of those (a decoding failure) wins over the
  /// engine's error, as it does on SQLite.
  private func handOver(
    _ statement: @autoclosure () -> String, to body: ([SqliteValue]) throws -> Void,
    _ run: (any DatabaseBackend, _ restart: @escaping () -> Void, _ collect: ([SqliteValue]) -> Void) throws -> Void
  ) throws {
    func collect(_ backend: any DatabaseBackend) -> (rows: [[SqliteValue]], failure: (any Error)?) {
      var rows: [[SqliteValue]] = []
      do {
        try run(backend, { rows.removeAll() }) { rows.append($0) }
        return (rows, nil)
      } catch {
        return (rows, error)
      }
    }
    let expected = collect(reference)
    let actual = collect(candidate)
    let agree: Bool
    switch (expected.failure, actual.failure) {
    case (nil, nil): agree = expected.rows == actual.rows
    case (let a?, let b?): agree = expected.rows == actual.rows && Self.sameFailure(a, b)
    default: agree = false
    }
    guard agree else {
      throw Self.divergence(
        statement: statement(),
        message: "\(reference.name) \(Self.outcome(expected)) but \(candidate.name) \(Self.outcome(actual))")
    }
    for row in expected.rows { try body(row) }
    if let failure = expected.failure { throw failure }
  }

  /// Runs SQL text on both engines and hands over the rows, with their column names, once both
  /// agree on them and on the outcome. Errors agree by kind, message and SQLite code: the
  /// table and columns the typed API names are not part of SQL text's errors. With
  /// `.unordered`, the rows agree as multisets.
  func execute(
    sql: String, arguments: StatementArguments, rowOrder: RowOrder, eachRow body: (Row) throws -> Void
  ) throws -> StatementResult {
    func collect(_ backend: any DatabaseBackend) -> (rows: [Row], result: Result<StatementResult, any Error>) {
      var rows: [Row] = []
      let result = Result { try backend.execute(sql: sql, arguments: arguments, rowOrder: rowOrder) { rows.append($0) } }
      return (rows, result)
    }
    let expected = collect(reference)
    let actual = collect(candidate)
    func sameRows() -> Bool {
      guard rowOrder == .unordered else { return expected.rows == actual.rows }
      var counts: [Row: Int] = [:]
      for row in expected.rows { counts[row, default: 0] += 1 }
      for row in actual.rows { counts[row, default: 0] -= 1 }
      return counts.values.allSatisfy { $0 == 0 }
    }
    let agree: Bool
    switch (expected.result, actual.result) {
    case (.success(let a), .success(let b)): agree = sameRows() && a == b
    case (.failure(let a), .failure(let b)): agree = sameRows() && Self.sameSQLFailure(a, b)
    default: agree = false
    }
    guard agree else {
      throw Self.divergence(
        statement: sql,
        message: "\(reference.name) \(Self.outcome(expected)) but \(candidate.name) \(Self.outcome(actual))")
    }
    for row in expected.rows { try body(row) }
    return try expected.result.get()
  }

  /// Errors of SQL text agree when their kind, message and SQLite code agree: the table and
  /// columns the typed API names are not part of SQL text's errors.
  static func sameSQLFailure(_ a: any Error, _ b: any Error) -> Bool {
    guard a is TandemError, b is TandemError else { return false }
    return TandemError.Signature(a).withoutNames == TandemError.Signature(b).withoutNames
  }

  /// What SQL text did: its rows with their column names, then its result or its error.
  private static func outcome(_ run: (rows: [Row], result: Result<StatementResult, any Error>)) -> String {
    let names = run.rows.first.map { " named (" + $0.columnNames.joined(separator: ", ") + ")" } ?? ""
    let rows = describe(StatementResult(rows: run.rows.map(\.values))) + names
    switch run.result {
    case .success(let result): return "returned \(rows); changes \(result.changes), last rowid \(result.lastInsertRowid)"
    case .failure(let error): return "failed with \(error) after \(rows)"
    }
  }

  /// What a select did: "returned …", "failed with …", or "failed with … after …" the rows it
  /// produced first.
  private static func outcome(_ run: (rows: [[SqliteValue]], failure: (any Error)?)) -> String {
    guard let failure = run.failure else { return "returned " + describe(StatementResult(rows: run.rows)) }
    if run.rows.isEmpty { return "failed with \(failure)" }
    return "failed with \(failure) after " + describe(StatementResult(rows: run.rows))
  }

  /// The insert as the SQL of the equivalent statement (only built for a divergence).
  private static func describeInsert(
    _ table: String, _ columns: [String], _ values: [[SqliteValue]], _ conflict: InsertStatement.ConflictResolution
  ) -> String {
    let rows = values.map { $0.map(SQLExpression.literal) }
    return describe(.insert(InsertStatement(table: table, columns: columns, rows: rows, conflict: conflict)))
  }

  /// A statement as SQLite's SQL text, which shows no value (`?` stands for each), as every
  /// error description does; a statement SQL cannot express is named by its table.
  private static func describe(_ statement: Statement) -> String {
    if let sql = try? statement.renderedSQL().sql { return sql }
    return "a statement on \(statement.table)"
  }

  /// Open only while both engines have it open.
  var isInTransaction: Bool { reference.isInTransaction && candidate.isInTransaction }

  func savepoint(_ name: String) throws { _ = try both("SAVEPOINT \(name)") { try $0.savepoint(name); return true } }
  func release(_ name: String) throws { _ = try both("RELEASE \(name)") { try $0.release(name); return true } }
  func rollback(to name: String) throws { _ = try both("ROLLBACK TO \(name)") { try $0.rollback(to: name); return true } }

  func setTrace(_ trace: (@Sendable (String) -> Void)?) {
    reference.setTrace(trace)
  }

  /// Runs `operation` on both engines and returns the reference result when they agree.
  private func both<T: Equatable>(
    _ statement: @autoclosure () -> String, _ operation: (any DatabaseBackend) throws -> T
  ) throws -> T {
    let expected = Result { try operation(reference) }
    let actual = Result { try operation(candidate) }
    switch (expected, actual) {
    case (.success(let a), .success(let b)):
      guard a == b else {
        throw Self.divergence(
          statement: statement(),
          message: "\(reference.name) returned \(Self.describe(a)) but \(candidate.name) returned \(Self.describe(b))")
      }
      return a
    case (.failure(let a), .failure(let b)):
      guard Self.sameFailure(a, b) else {
        throw Self.divergence(
          statement: statement(), message: "\(reference.name) failed with \(a) but \(candidate.name) failed with \(b)")
      }
      throw a
    case (.success(let a), .failure(let b)):
      throw Self.divergence(
        statement: statement(), message: "\(reference.name) returned \(Self.describe(a)) but \(candidate.name) failed with \(b)")
    case (.failure(let a), .success(let b)):
      throw Self.divergence(
        statement: statement(), message: "\(reference.name) failed with \(a) but \(candidate.name) returned \(Self.describe(b))")
    }
  }

  /// A divergence error; when the linked SQLite is not the version the memory engine
  /// reproduces, its message says so (some answers differ between SQLite versions).
  private static func divergence(statement: String, message: String) -> TandemError {
    guard Database.sqliteVersion != Database.memoryEngineSQLiteVersion else {
      return .divergence(statement: statement, message: message)
    }
    return .divergence(
      statement: statement,
      message: message + " (the linked SQLite is \(Database.sqliteVersion); the memory engine reproduces "
        + "\(Database.memoryEngineSQLiteVersion))")
  }

  /// Errors agree when their signatures (kind, constraint, table, columns, message and SQLite
  /// code) agree.
  static func sameFailure(_ a: any Error, _ b: any Error) -> Bool {
    guard a is TandemError, b is TandemError else { return false }
    return TandemError.Signature(a) == TandemError.Signature(b)
  }

  private static func describe<T>(_ value: T) -> String {
    guard let result = value as? StatementResult else { return "\(value)" }
    let rows = result.rows.map { "(" + $0.map { "\($0.storageClass) \($0)" }.joined(separator: ", ") + ")" }
    return "\(result.rows.count) row(s) [\(rows.joined(separator: ", "))], changes \(result.changes), last rowid \(result.lastInsertRowid)"
  }
}

