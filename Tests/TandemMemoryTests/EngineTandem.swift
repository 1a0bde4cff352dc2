import Foundation
import Testing
import TandemCore
@testable import TandemMemory

/// What a statement produced, in the form compared across engines: the result, or the error's
/// comparable fields (kind, constraint, table, columns, message, code — not the SQL).
enum EngineOutcome: Equatable, CustomStringConvertible {
  case result(StatementResult)
  case failure(kind: String, constraint: TandemError.Constraint?, table: String?, columns: [String], message: String, code: Int32?)

  init(_ body: () throws -> StatementResult) {
    do {
      self = .result(try body())
    } catch let error as TandemError {
      self = .failure(
        kind: error.kind.description, constraint: error.constraint, table: error.table, columns: error.columns,
        message: error.message, code: error.sqliteCode)
    } catch {
      self = .failure(kind: "other", constraint: nil, table: nil, columns: [], message: "\(error)", code: nil)
    }
  }

  var rows: [[SqliteValue]] {
    if case .result(let result) = self { return result.rows }
    return []
  }

  var errorMessage: String? {
    if case .failure(_, _, _, _, let message, _) = self { return message }
    return nil
  }

  var description: String {
    switch self {
    case .result(let r):
      return "rows \(r.rows.map { $0.map { "\($0)" }.joined(separator: "|") }) lastInsertRowid \(r.lastInsertRowid) changes \(r.changes)"
    case .failure(let kind, let constraint, let table, let columns, let message, let code):
      return "\(kind) \(constraint.map { "\($0)" } ?? "-") \(table ?? "-") \(columns) \"\(message)\" \(code.map(String.init) ?? "-")"
    }
  }
}

/// The same schema and statements run on the memory engine and on real SQLite; every outcome is
/// compared (rows, storage classes, changes, last insert rowid, errors).
final class EngineTandem {
  let memory = MemoryBackend()
  let oracle = SQLiteOracle()
  private var schemas: [String: TableSchema] = [:]

  init(_ schemas: TableSchema..., sourceLocation: SourceLocation = #_sourceLocation) {
    for schema in schemas { create(schema, sourceLocation: sourceLocation) }
  }

  /// Creates a table on both engines; both must agree on success or on the error.
  @discardableResult
  func create(_ schema: TableSchema, ifNotExists: Bool = false, sourceLocation: SourceLocation = #_sourceLocation)
    -> EngineOutcome
  {
    let mine = EngineOutcome {
      try memory.create(schema, ifNotExists: ifNotExists)
      return StatementResult()
    }
    let theirs = EngineOutcome {
      try oracle.create(schema, ifNotExists: ifNotExists)
      return StatementResult()
    }
    #expect(mine == theirs, "create \(schema.name)", sourceLocation: sourceLocation)
    if case .result = theirs, !schemas.keys.contains(where: { SQLName.same($0, schema.name) }) {
      schemas[schema.name] = schema
    }
    return mine
  }

  /// Drops a table on both engines.
  @discardableResult
  func drop(_ table: String, ifExists: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) -> EngineOutcome {
    let mine = EngineOutcome {
      try memory.drop(table: table, ifExists: ifExists)
      return StatementResult()
    }
    let theirs = EngineOutcome {
      try named(.dropTable, table: table) {
        try oracle.exec("DROP TABLE " + (ifExists ? "IF EXISTS " : "") + SQLQuoting.identifier(table))
      }
      return StatementResult()
    }
    #expect(mine == theirs, "drop \(table)", sourceLocation: sourceLocation)
    if case .result = theirs { schemas = schemas.filter { !SQLName.same($0.key, table) } }
    return mine
  }

  /// Runs a statement on both engines and expects identical outcomes.
  @discardableResult
  func run(
    _ statement: Statement, _ parameters: [String: SqliteValue] = [:], sourceLocation: SourceLocation = #_sourceLocation
  ) -> EngineOutcome {
    let (sql, bindings) = EngineSQLRenderer.render(statement, parameters: parameters, schema: schemas[statement.table])
    let mine = EngineOutcome { try memory.execute(statement, parameters: parameters) }
    let theirs = EngineOutcome {
      try named(FailedWrite.Kind(statement), table: statement.table) { try oracle.run(sql, bindings) }
    }
    #expect(mine == theirs, "\(sql) \(bindings)", sourceLocation: sourceLocation)
    if mine != theirs, ProcessInfo.processInfo.environment["ENGINE_DUMP"] != nil {
      for name in schemas.keys.sorted() {
        print("TABLE \(name):", (try? oracle.run("SELECT rowid, * FROM \(SQLQuoting.identifier(name))", []).rows) ?? [])
      }
    }
    return mine
  }

  /// Runs `body` on the oracle; names a foreign key or rowid datatype error as the SQLite backend
  /// does (by ``FailedWrite``'s rule, from the schemas created).
  private func named<T>(_ kind: FailedWrite.Kind?, table: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as TandemError {
      guard let kind, FailedWrite.needsNaming(error, kind),
        let write = FailedWrite(kind: kind, table: table, schemas: Array(schemas.values))
      else { throw error }
      throw write.name(error)
    }
  }

  /// Runs `statement` on both engines (as `run`), then compares every table's full contents.
  @discardableResult
  func write(
    _ statement: Statement, _ parameters: [String: SqliteValue] = [:], sourceLocation: SourceLocation = #_sourceLocation
  ) -> EngineOutcome {
    let outcome = run(statement, parameters, sourceLocation: sourceLocation)
    compareTables(sourceLocation: sourceLocation)
    return outcome
  }

  /// Compares the rowid and every column of every table, in rowid order.
  func compareTables(sourceLocation: SourceLocation = #_sourceLocation) {
    for (name, schema) in schemas.sorted(by: { $0.key < $1.key }) {
      let columns: [SQLExpression] = [.rowid] + schema.columns.map { .column($0.name) }
      let select = SelectStatement(table: name, columns: columns, orderBy: [OrderingTerm(.rowid)])
      run(.select(select), sourceLocation: sourceLocation)
    }
  }

  func savepoint(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    both("SAVEPOINT " + SQLQuoting.identifier(name), sourceLocation: sourceLocation) { try memory.savepoint(name) }
  }

  func release(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    both("RELEASE " + SQLQuoting.identifier(name), sourceLocation: sourceLocation) { try memory.release(name) }
  }

  func rollback(to name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let quoted = SQLQuoting.identifier(name)
    both("ROLLBACK TO \(quoted); RELEASE \(quoted)", sourceLocation: sourceLocation) { try memory.rollback(to: name) }
  }

  private func both(_ sql: String, sourceLocation: SourceLocation, _ body: () throws -> Void) {
    let mine = EngineOutcome {
      try body()
      return StatementResult()
    }
    let theirs = EngineOutcome {
      try oracle.exec(sql)
      return StatementResult()
    }
    #expect(mine == theirs, "\(sql)", sourceLocation: sourceLocation)
  }
}

/// Shorthands for building statements in tests.
enum Q {
  static func col(_ name: String) -> SQLExpression { .column(name) }
  static func lit(_ value: SqliteValue) -> SQLExpression { .literal(value) }
  static func eq(_ a: SQLExpression, _ b: SQLExpression) -> SQLExpression { .binary(.equal, a, b) }

  static func select(
    _ table: String, _ columns: [SQLExpression], distinct: Bool = false, where filter: SQLExpression? = nil,
    groupBy: [SQLExpression] = [], having: SQLExpression? = nil, orderBy: [OrderingTerm] = [],
    limit: SQLExpression? = nil, offset: SQLExpression? = nil
  ) -> Statement {
    .select(
      SelectStatement(
        table: table, columns: columns, distinct: distinct, filter: filter, groupBy: groupBy, having: having,
        orderBy: orderBy, limit: limit, offset: offset))
  }

  static func insert(
    _ table: String, _ columns: [String], _ rows: [[SqliteValue]],
    _ conflict: InsertStatement.ConflictResolution = .abort
  ) -> Statement {
    .insert(InsertStatement(table: table, columns: columns, rows: rows.map { $0.map(SQLExpression.literal) }, conflict: conflict))
  }

  static func update(_ table: String, _ assignments: [(String, SQLExpression)], where filter: SQLExpression? = nil) -> Statement {
    .update(UpdateStatement(table: table, assignments: assignments.map { Assignment(column: $0.0, value: $0.1) }, filter: filter))
  }

  static func delete(_ table: String, where filter: SQLExpression? = nil) -> Statement {
    .delete(DeleteStatement(table: table, filter: filter))
  }
}
