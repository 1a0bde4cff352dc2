@_spi(TandemBackend) import TandemCore
import Testing

@testable import Tandem

/// Tandem mode names a diverging statement by its SQL, which shows no value (it used to print the
/// statement of the query model, literals included).
@Suite struct DivergenceDescriptionTests {
  /// An engine with scripted answers: a select hands over `rows`, then throws `failure` if any;
  /// any other statement changes one row, or throws `failure`.
  final class ScriptedBackend: DatabaseBackend {
    let name: String
    let rows: [[SqliteValue]]
    let failure: TandemError?
    init(_ name: String, rows: [[SqliteValue]], failure: TandemError? = nil) {
      self.name = name
      self.rows = rows
      self.failure = failure
    }
    func create(_ schema: TableSchema, ifNotExists: Bool) throws {}
    func drop(table: String, ifExists: Bool) throws {}
    func run(
      _ statement: PreparedStatement, _ bindings: StatementBindings, onRestart: (() -> Void)?,
      eachRow body: ([SqliteValue]) throws -> Void
    ) throws -> StatementResult {
      guard case .select = statement.statement else {
        if let failure { throw failure }
        return StatementResult(changes: 1)
      }
      for row in rows { try body(row) }
      if let failure { throw failure }
      return StatementResult()
    }
    func execute(
      sql: String, arguments: StatementArguments, rowOrder: RowOrder, eachRow body: (Row) throws -> Void
    ) throws -> StatementResult {
      for row in rows { try body(Row(columnNames: row.indices.map { "c\($0)" }, values: row)) }
      if let failure { throw failure }
      return StatementResult()
    }
    var isInTransaction: Bool { false }
    func savepoint(_ name: String) throws {}
    func release(_ name: String) throws {}
    func rollback(to name: String) throws {}
    func setTrace(_ trace: (@Sendable (String) -> Void)?) {}
  }

  @Test func theStatementOfADivergenceShowsNoValue() throws {
    let backend = TandemBackend(reference: ScriptedBackend("sqlite", rows: [[1]]), candidate: ScriptedBackend("memory", rows: [[2]]))
    let secret = "Secret-7f3a"
    let select = SelectStatement(
      table: "t", columns: [.column("a")], filter: .binary(.equal, .column("b"), .literal(.text(secret))))
    let error = try #require(throws: TandemError.self) { _ = try backend.execute(.select(select), parameters: [:]) }
    #expect(error.kind == .divergence)
    #expect(error.statement == #"SELECT "a" FROM "t" WHERE ("b" = ?)"#)
    #expect(error.message == "sqlite returned 1 row(s) [(integer 1)], changes 0, last rowid 0 but memory returned 1 row(s) [(integer 2)], changes 0, last rowid 0")

    let insert = try #require(throws: TandemError.self) {
      _ = try TandemBackend(reference: ScriptedBackend("sqlite", rows: []), candidate: ScriptedBackend("memory", rows: [], failure: .misuse("no")))
        .insert(into: "t", columns: ["b"], values: [[.text(secret)]], conflict: .abort)
    }
    #expect(insert.statement == #"INSERT INTO "t" ("b") VALUES (?)"#)
    #expect(!"\(insert)".contains(secret))
  }

  /// A select that fails on a later row hands over the earlier ones first, as SQLite does, so the
  /// caller's own error for such a row (a decoding failure) is the one it sees; the rows before
  /// the failure are compared too.
  @Test func rowsBeforeAFailureAreHandedOverAndCompared() throws {
    let select = SelectStatement(table: "t", columns: [.column("a")])
    let overflow = TandemError.sqlite(code: 1, message: "integer overflow", sql: nil)
    func failsAfterOneRow(_ name: String, _ row: [SqliteValue]) -> ScriptedBackend {
      ScriptedBackend(name, rows: [row], failure: overflow)
    }
    let agreeing = TandemBackend(reference: failsAfterOneRow("sqlite", [1]), candidate: failsAfterOneRow("memory", [1]))
    var seen: [[SqliteValue]] = []
    let engineError = try #require(throws: TandemError.self) {
      try agreeing.select(select, parameters: [:]) { seen.append($0) }
    }
    #expect(seen == [[1]])
    #expect(engineError.message == "integer overflow")
    let callerError = try #require(throws: TandemError.self) {
      try agreeing.select(select, parameters: [:]) { _ in throw TandemError.misuse("cannot decode") }
    }
    #expect(callerError.message == "cannot decode")

    let diverging = TandemBackend(reference: failsAfterOneRow("sqlite", [1]), candidate: failsAfterOneRow("memory", [2]))
    let divergence = try #require(throws: TandemError.self) {
      try diverging.select(select, parameters: [:]) { _ in Issue.record("rows that differ were handed over") }
    }
    #expect(divergence.kind == .divergence)
    #expect(divergence.message.hasPrefix("sqlite failed with "))
    #expect(divergence.message.contains(" after 1 row(s) [(integer 1)]"))
    #expect(divergence.message.contains(" but memory failed with "))
    #expect(divergence.message.hasSuffix(" after 1 row(s) [(integer 2)], changes 0, last rowid 0"))
  }
}
