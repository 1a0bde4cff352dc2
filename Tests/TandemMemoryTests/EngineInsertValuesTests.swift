import Foundation
import Testing
import TandemCore
@testable import TandemMemory

/// `insert(into:columns:values:conflict:)` must do exactly what executing the equivalent
/// ``InsertStatement`` of literal rows does: same result, error, rows and atomicity.
@Suite struct EngineInsertValuesTests {
  static let parent = TableSchema(
    "p", columns: [.column("id", .integer, primaryKey: true), .column("code", .null(.text), unique: true)])
  static let child = TableSchema(
    "c",
    columns: [
      .column("id", .integer, primaryKey: .autoincrement), .column("n", .integer),
      .column("r", .null(.real), default: .real(1.5)), .column("t", .null(.text)),
      .column("pid", .null(.integer), references: ForeignKey(table: "p", column: "id")),
    ])

  /// One insert as a statement on one database and as values on another, after the same setup.
  struct Case {
    let table: String
    let columns: [String]
    let values: [[SqliteValue]]
    var conflict: InsertStatement.ConflictResolution = .abort
    var inTransaction = false
  }

  static let cases: [Case] = [
    Case(table: "c", columns: ["n", "r", "t", "pid"], values: [[1, 2, 3, 1], [2, "2.5", 3.0, nil]]),
    Case(table: "c", columns: ["id", "n", "r", "t", "pid"], values: [[10, 1, 2, "x", 1]]),
    Case(table: "c", columns: ["id", "n", "r", "t", "pid"], values: [[10, 1, 2, "x", 1], [10, 2, 2, "y", 1]]),
    Case(table: "c", columns: ["id", "n", "r", "t", "pid"], values: [[10, 1, 2, "x", 1], [10, 2, 2, "y", 1]], inTransaction: true),
    Case(table: "c", columns: ["n"], values: [[nil]]),
    Case(table: "c", columns: ["n"], values: [[nil]], conflict: .ignore),
    Case(table: "c", columns: ["n", "pid"], values: [[1, 99]]),
    Case(table: "c", columns: ["n", "pid"], values: [[1, 99], [2, 1]], inTransaction: true),
    Case(table: "c", columns: ["n", "n", "rowid"], values: [[1, 2, 7]]),
    Case(table: "c", columns: ["t", "n", "id"], values: [[.real(.nan), 3, "12"]]),
    Case(table: "c", columns: ["id", "n"], values: [["x", 1]]),
    Case(table: "c", columns: ["n", "r"], values: [[1]]),
    Case(table: "c", columns: ["n"], values: []),
    Case(table: "c", columns: [], values: [[]]),
    Case(table: "c", columns: [], values: [[]], conflict: .nothing(target: [])),
    Case(table: "c", columns: ["nope"], values: [[1]]),
    Case(table: "missing", columns: ["n"], values: [[1]]),
    Case(table: "p", columns: ["id", "code"], values: [[1, "b"]], conflict: .replace),
    Case(table: "p", columns: ["id", "code"], values: [[3, "a"]], conflict: .replace),
    Case(table: "p", columns: ["id", "code"], values: [[3, "a"], [4, "z"]]),
    Case(
      table: "p", columns: ["id", "code"], values: [[5, "a"]],
      conflict: .update(target: ["code"], assignments: [Assignment(column: "code", value: .binary(.concatenate, .excluded("code"), .column("code")))])),
    Case(
      table: "p", columns: ["id", "code"], values: [[1, "q"]],
      conflict: .update(target: ["id"], assignments: [Assignment(column: "code", value: .parameter("x"))])),
    Case(table: "p", columns: ["id", "code"], values: [[1, "q"]], conflict: .nothing(target: ["id"])),
    Case(table: "p", columns: ["code"], values: [[.blob(Data([1, 2]))], [-0.0]]),
  ]

  static func prepared() throws -> MemoryBackend {
    let backend = MemoryBackend()
    try backend.create(parent, ifNotExists: false)
    try backend.create(child, ifNotExists: false)
    _ = try backend.execute(Q.insert("p", ["id", "code"], [[1, "a"], [2, "b"]]), parameters: [:])
    _ = try backend.execute(Q.insert("c", ["n", "pid"], [[0, 1]]), parameters: [:])
    return backend
  }

  static func content(_ backend: MemoryBackend) throws -> [[SqliteValue]] {
    let parents = try backend.execute(
      .select(SelectStatement(table: "p", columns: [.rowid, .column("id"), .column("code")])), parameters: [:])
    let children = try backend.execute(
      .select(SelectStatement(table: "c", columns: [.rowid, .column("n"), .column("r"), .column("t"), .column("pid")])),
      parameters: [:])
    return parents.rows + [["-"]] + children.rows
  }

  @Test(arguments: cases.indices)
  func valuesInsertMatchesTheStatement(_ index: Int) throws {
    let testCase = Self.cases[index]
    let viaStatement = try Self.prepared()
    let viaValues = try Self.prepared()
    if testCase.inTransaction {
      try viaStatement.savepoint("s")
      try viaValues.savepoint("s")
    }
    let expected = EngineOutcome {
      try viaStatement.execute(
        .insert(
          InsertStatement(
            table: testCase.table, columns: testCase.columns, rows: testCase.values.map { $0.map(SQLExpression.literal) },
            conflict: testCase.conflict)),
        parameters: [:])
    }
    let actual = EngineOutcome {
      try viaValues.insert(into: testCase.table, columns: testCase.columns, values: testCase.values, conflict: testCase.conflict)
    }
    #expect(actual == expected)
    #expect(try Self.content(viaValues) == Self.content(viaStatement))
    // Repeated, now with a cached plan.
    let expectedAgain = EngineOutcome {
      try viaStatement.execute(
        .insert(
          InsertStatement(
            table: testCase.table, columns: testCase.columns, rows: testCase.values.map { $0.map(SQLExpression.literal) },
            conflict: testCase.conflict)),
        parameters: [:])
    }
    let actualAgain = EngineOutcome {
      try viaValues.insert(into: testCase.table, columns: testCase.columns, values: testCase.values, conflict: testCase.conflict)
    }
    #expect(actualAgain == expectedAgain)
    #expect(try Self.content(viaValues) == Self.content(viaStatement))
  }

  @Test func failedValuesInsertChangesNothing() throws {
    let backend = try Self.prepared()
    let before = try Self.content(backend)
    let outcome = EngineOutcome {
      try backend.insert(into: "c", columns: ["n", "pid"], values: [[5, 1], [6, 2], [nil, 1]], conflict: .abort)
    }
    #expect(outcome.errorMessage == "NOT NULL constraint failed: c.n")
    #expect(try Self.content(backend) == before)
    let result = try backend.insert(into: "c", columns: ["n"], values: [[5], [6]], conflict: .abort)
    #expect(result.lastInsertRowid == 3)
    #expect(result.changes == 2)
  }

  @Test func tracedValuesInsertIsDescribedAsTheStatement() throws {
    let backend = try Self.prepared()
    let lines = EngineTraceLines()
    backend.setTrace { lines.append($0) }
    _ = try backend.insert(into: "c", columns: ["n", "t"], values: [[1, "x"]], conflict: .ignore)
    let statement = Q.insert("c", ["n", "t"], [[1, "x"]], .ignore)
    #expect(lines.values == [StatementDescription.describe(statement)])
  }
}
