import Foundation
import Testing
import TandemCore
@testable import TandemMemory

/// Plans shared between databases (``SharedPlanCache``, ``SchemaRegistry``) and the value insert
/// path: each database must still answer from its own schema and rows.
@Suite struct EngineSharedPlanTests {
  static let narrow = TableSchema(
    "t", columns: [.column("id", .integer, primaryKey: true), .column("a", .null(.integer)), .column("b", .null(.text))])
  /// The same table name with other columns, in another order and with other affinities.
  static let wide = TableSchema(
    "t",
    columns: [
      .column("b", .null(.integer)), .column("a", .null(.text)), .column("id", .integer, primaryKey: true),
      .column("c", .null(.real)),
    ])

  static func database(_ schemas: TableSchema...) throws -> MemoryBackend {
    let backend = MemoryBackend()
    for schema in schemas { try backend.create(schema, ifNotExists: false) }
    return backend
  }

  static func rows(_ backend: MemoryBackend, _ statement: SelectStatement, _ parameters: [String: SqliteValue] = [:])
    throws -> [[SqliteValue]]
  {
    try backend.execute(.select(statement), parameters: parameters).rows
  }

  static let lookup = SelectStatement(
    table: "t", columns: [.column("a"), .column("b"), .rowid],
    filter: .binary(.equal, .column("a"), .parameter("a")), orderBy: [OrderingTerm(.rowid)])

  @Test func sameStatementOnDifferentSchemasOfOneTableName() throws {
    let first = try Self.database(Self.narrow)
    let second = try Self.database(Self.wide)
    #expect(first.schemaFingerprint != second.schemaFingerprint)
    _ = try first.insert(into: "t", columns: ["a", "b"], values: [[1, "x"], [2, "y"]], conflict: .abort)
    _ = try second.insert(into: "t", columns: ["a", "b"], values: [[1, "x"], [2, "y"]], conflict: .abort)
    // INTEGER a in the first table, TEXT a (and INTEGER b) in the second: the same statement
    // compares and stores under each table's own affinities.
    #expect(try Self.rows(first, Self.lookup, ["a": 2]) == [[2, "y", 2]])
    #expect(try Self.rows(second, Self.lookup, ["a": 2]) == [["2", "y", 2]])
    #expect(try Self.rows(second, Self.lookup, ["a": "2"]) == [["2", "y", 2]])
    #expect(try Self.rows(first, Self.lookup, ["a": 1]) == [[1, "x", 1]])
    let all = SelectStatement(table: "t", columns: [.column("id"), .column("a"), .column("b")])
    #expect(try Self.rows(first, all) == [[1, 1, "x"], [2, 2, "y"]])
    #expect(try Self.rows(second, all) == [[1, "1", "x"], [2, "2", "y"]])
  }

  @Test func sameSchemaSharesPlansButNotRows() throws {
    let first = try Self.database(Self.narrow)
    let second = try Self.database(Self.narrow)
    #expect(first.schemaFingerprint == second.schemaFingerprint)
    _ = try first.insert(into: "t", columns: ["a", "b"], values: [[1, "first"]], conflict: .abort)
    #expect(try Self.rows(first, Self.lookup, ["a": 1]) == [[1, "first", 1]])
    // The plan the first database compiled runs on the second database's own (empty) table.
    #expect(try Self.rows(second, Self.lookup, ["a": 1]) == [])
    _ = try second.insert(into: "t", columns: ["b", "a"], values: [["second", 1], ["third", 1]], conflict: .abort)
    #expect(try Self.rows(second, Self.lookup, ["a": 1]) == [[1, "second", 1], [1, "third", 2]])
    #expect(try Self.rows(first, Self.lookup, ["a": 1]) == [[1, "first", 1]])
  }

  @Test func fingerprintFollowsTheWholeSchemaList() throws {
    let other = TableSchema("u", columns: [.column("x", .null(.integer))])
    let a = try Self.database(Self.narrow, other)
    let b = try Self.database(Self.narrow, other)
    let reversed = try Self.database(other, Self.narrow)
    #expect(a.schemaFingerprint == b.schemaFingerprint)
    #expect(a.schemaFingerprint != reversed.schemaFingerprint)
    // Dropping and creating another table under the same name changes the plans it gets.
    try b.drop(table: "t", ifExists: false)
    try b.create(Self.wide, ifNotExists: false)
    #expect(a.schemaFingerprint != b.schemaFingerprint)
    _ = try b.insert(into: "t", columns: ["a", "b"], values: [[5, 6]], conflict: .abort)
    #expect(try Self.rows(b, Self.lookup, ["a": "5"]) == [["5", 6, 1]])
    try b.drop(table: "t", ifExists: false)
    try b.create(Self.narrow, ifNotExists: false)
    #expect(try Self.rows(b, Self.lookup, ["a": 5]) == [])
  }

  @Test func rolledBackCreateRestoresTheSchemaPlans() throws {
    let backend = try Self.database(Self.narrow)
    let before = backend.schemaFingerprint
    try backend.savepoint("s")
    try backend.create(TableSchema("u", columns: [.column("x", .null(.integer))]), ifNotExists: false)
    #expect(backend.schemaFingerprint != before)
    try backend.rollback(to: "s")
    #expect(backend.schemaFingerprint == before)
    _ = try backend.insert(into: "t", columns: ["a"], values: [[7]], conflict: .abort)
    #expect(try Self.rows(backend, Self.lookup, ["a": 7]) == [[7, nil, 1]])
  }

  @Test func concurrentDatabasesShareTheCache() async throws {
    let results = try await withThrowingTaskGroup(of: (Int, [[SqliteValue]]).self) { group in
      for task in 0..<8 {
        group.addTask {
          let backend = try Self.database(task % 2 == 0 ? Self.narrow : Self.wide)
          var found: [[SqliteValue]] = []
          for round in 0..<50 {
            let value: SqliteValue = task % 2 == 0 ? .integer(Int64(round)) : .text("\(round)")
            _ = try backend.insert(into: "t", columns: ["a", "b"], values: [[value, .text("t\(task)")]], conflict: .abort)
            found += try Self.rows(backend, Self.lookup, ["a": value])
          }
          return (task, found)
        }
      }
      var collected: [Int: [[SqliteValue]]] = [:]
      for try await (task, rows) in group { collected[task] = rows }
      return collected
    }
    for task in 0..<8 {
      let expected: [[SqliteValue]] = (0..<50).map { round in
        let value: SqliteValue = task % 2 == 0 ? .integer(Int64(round)) : .text("\(round)")
        return [value, .text("t\(task)"), .integer(Int64(round + 1))]
      }
      #expect(results[task] == expected)
    }
  }

  @Test func missingParameterIsReportedOnEveryRun() throws {
    let backend = try Self.database(Self.narrow)
    // SQLite's parser drops `:p IN ()`, but the placeholder still needs a value.
    let statement = SelectStatement(
      table: "t", columns: [.column("a")], filter: .inList(.parameter("p"), [], negated: false))
    for _ in 0..<2 {
      let outcome = EngineOutcome { try backend.execute(.select(statement), parameters: [:]) }
      #expect(outcome.errorMessage == "missing value for parameter :p")
    }
    #expect(try Self.rows(backend, statement, ["p": 1]) == [])
  }

  @Test func tableNamesMatchByBytes() throws {
    let precomposed = TableSchema("\u{E9}", columns: [.column("x", .null(.integer))])
    let backend = try Self.database(precomposed)
    _ = try backend.insert(into: "\u{E9}", columns: ["x"], values: [[1]], conflict: .abort)
    let decomposed = SelectStatement(table: "e\u{301}", columns: [.column("x")])
    let outcome = EngineOutcome { try backend.execute(.select(decomposed), parameters: [:]) }
    #expect(outcome.errorMessage == "no such table: e\u{301}")
    #expect(try Self.rows(backend, SelectStatement(table: "\u{E9}", columns: [.column("x")])) == [[1]])
  }

  /// Column names that Swift's `String ==` calls equal (precomposed and decomposed "é") are two
  /// names to SQLite: schemas and statements spelled differently never share a definition or a
  /// plan, across databases or within one.
  @Test func namesSpelledDifferentlyNeverSharePlans() throws {
    let precomposed = TableSchema("t", columns: [.column("\u{E9}", .null(.integer))])
    let decomposed = TableSchema("t", columns: [.column("e\u{301}", .null(.text))])
    let first = try Self.database(precomposed)
    _ = try first.insert(into: "t", columns: ["\u{E9}"], values: [[1]], conflict: .abort)
    #expect(try Self.rows(first, SelectStatement(table: "t", columns: [.column("\u{E9}")])) == [[1]])

    // Against real SQLite, after the first database compiled its plans.
    let db = EngineTandem(decomposed)
    db.write(.insert(InsertStatement(table: "t", columns: ["e\u{301}"], rows: [[.literal(2)]])))
    db.write(.insert(InsertStatement(table: "t", columns: ["\u{E9}"], rows: [[.literal(3)]])))
    db.run(.select(SelectStatement(table: "t", columns: [.column("e\u{301}")])))
    db.run(.select(SelectStatement(table: "t", columns: [.column("\u{E9}")])))
    db.run(.select(SelectStatement(table: "t", columns: [.column("e\u{301}")])))
    let mixed = EngineTandem(TableSchema("m", columns: [.column("\u{E9}", .null(.integer)), .column("e\u{301}", .null(.text))]))
    mixed.write(.insert(InsertStatement(table: "m", columns: ["\u{E9}", "e\u{301}"], rows: [[.literal(4), .literal(4)]])))
    mixed.run(.select(SelectStatement(table: "m", columns: [.column("\u{E9}")])))
    mixed.run(.select(SelectStatement(table: "m", columns: [.column("e\u{301}")])))
    mixed.write(.insert(InsertStatement(table: "m", columns: ["e\u{301}"], rows: [[.literal(5)]])))
    mixed.write(.insert(InsertStatement(table: "m", columns: ["\u{E9}"], rows: [[.literal(5)]])))
  }
}
