import Foundation
import Testing
import TandemCore
@testable import TandemMemory

/// `select(_:parameters:eachRow:)` hands over exactly the rows `execute` returns, even when it
/// reuses one array for every row.
@Suite struct EngineRowVisitTests {
  static let schema = TableSchema(
    "t",
    columns: [
      .column("id", .integer, primaryKey: true), .column("a", .null(.integer)), .column("b", .null(.text)),
      .column("c", .null(.real), unique: true),
    ])

  static func database() throws -> MemoryBackend {
    let backend = MemoryBackend()
    try backend.create(schema, ifNotExists: false)
    let rows: [[SqliteValue]] = (1...12).map { [.integer(Int64($0 * 3)), .integer(Int64($0 % 4)), .text("b\($0)"), .real(Double($0) / 2)] }
    _ = try backend.insert(into: "t", columns: ["id", "a", "b", "c"], values: rows, conflict: .abort)
    return backend
  }

  static let all: [SQLExpression] = [.column("id"), .column("a"), .column("b"), .column("c")]

  static let statements: [SelectStatement] = [
    SelectStatement(table: "t", columns: all, orderBy: [OrderingTerm(.rowid)]),
    SelectStatement(table: "t", columns: all),
    SelectStatement(table: "t", columns: [.column("c"), .rowid, .column("a")], orderBy: [OrderingTerm(.rowid, descending: true)]),
    SelectStatement(table: "t", columns: all, filter: .binary(.equal, .column("a"), .literal(1)), limit: .literal(2), offset: .literal(1)),
    SelectStatement(table: "t", columns: all, filter: .binary(.equal, .column("id"), .parameter("k"))),
    SelectStatement(table: "t", columns: all, filter: .binary(.equal, .column("c"), .literal(2.5))),
    SelectStatement(table: "t", columns: all, limit: .literal(0)),
    SelectStatement(table: "t", columns: all, limit: .literal(-1), offset: .literal(10)),
    SelectStatement(table: "t", columns: [.column("b")], orderBy: [OrderingTerm(.column("a")), OrderingTerm(.rowid)]),
    SelectStatement(table: "t", columns: [.column("a")], distinct: true),
    SelectStatement(table: "t", columns: [.aggregate(.count, nil, distinct: false)], groupBy: [.column("a")]),
    SelectStatement(table: "t", columns: [.binary(.add, .column("a"), .literal(1))], filter: .literal(0)),
  ]

  @Test(arguments: statements.indices)
  func visitedRowsAreTheExecutedRows(_ index: Int) throws {
    let backend = try Self.database()
    let statement = Self.statements[index]
    let parameters: [String: SqliteValue] = ["k": 9]
    let expected = try backend.execute(.select(statement), parameters: parameters).rows
    var kept: [[SqliteValue]] = []
    try backend.select(statement, parameters: parameters) { row in kept.append(row) }
    #expect(kept == expected)
    // A second run uses the cached plan.
    var again: [[SqliteValue]] = []
    try backend.select(statement, parameters: parameters) { row in again.append(row) }
    #expect(again == expected)
  }

  @Test func errorsOfTheCallerAreRethrownAsTheyAre() throws {
    struct Stop: Error, Equatable {}
    let backend = try Self.database()
    var seen = 0
    #expect(throws: Stop()) {
      try backend.select(Self.statements[0], parameters: [:]) { _ in
        seen += 1
        if seen == 3 { throw Stop() }
      }
    }
    #expect(seen == 3)
    let decoding = TandemError.misuse("caller")
    do {
      try backend.select(Self.statements[0], parameters: [:]) { _ in throw decoding }
      Issue.record("the caller's error was not rethrown")
    } catch let error as TandemError {
      #expect(error == decoding)
    }
  }

  @Test func engineErrorsNameTheStatement() throws {
    let backend = try Self.database()
    let missing = SelectStatement(table: "t", columns: [.column("a")], filter: .binary(.equal, .column("a"), .parameter("p")))
    let viaExecute = EngineOutcome { try backend.execute(.select(missing), parameters: [:]) }
    let viaVisit = EngineOutcome {
      try backend.select(missing, parameters: [:]) { _ in }
      return StatementResult()
    }
    #expect(viaVisit == viaExecute)
    #expect(viaVisit.errorMessage == "missing value for parameter :p")
  }
}
