import Foundation
import TandemCore
import Testing

@testable import TandemSQLite

/// `select(_:parameters:eachRow:)`: the rows `execute` returns, handed over one at a time.
@Suite("SQLite backend: row visitor")
struct RowVisitorTests {
  static let schema = TableSchema(
    "v", columns: [.column("i", .integer), .column("t", .null(.text)), .column("r", .null(.real)), .column("b", .null(.blob))])

  @Test(arguments: DatabaseKind.allCases)
  func visitsTheRowsExecuteReturns(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(Self.schema, ifNotExists: false)
      let rows: [[SqliteValue]] = [
        [.integer(1), .text("héllo"), .real(2.5), .blob(Data([0, 1, 2]))],
        [.integer(2), .null, .real(1.5), .blob(Data())],
        [.integer(3), .text(""), .null, .null],
      ]
      _ = try backend.insert(into: "v", columns: ["i", "t", "r", "b"], values: rows, conflict: .abort)
      let statement = SelectStatement(
        table: "v", columns: ["i", "t", "r", "b"].map { .column($0) }, orderBy: [OrderingTerm(.rowid)])
      var visited: [[SqliteValue]] = []
      try backend.select(statement, parameters: [:]) { visited.append($0) }
      #expect(visited == rows)
      #expect(visited == (try backend.execute(.select(statement), parameters: [:])).rows)
    }
  }

  /// The backend reuses one array for its rows; a row kept by the caller stays as it was.
  @Test func keptRowsAreNotOverwritten() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    _ = try backend.insert(into: "v", columns: ["i"], values: (1...100).map { [.integer(Int64($0))] }, conflict: .abort)
    var kept: [[SqliteValue]] = []
    var count = 0
    try backend.select(SelectStatement(table: "v", columns: [.column("i")], orderBy: [OrderingTerm(.rowid)]), parameters: [:]) { row in
      count += 1
      if count.isMultiple(of: 10) { kept.append(row) }
    }
    #expect(count == 100)
    #expect(kept == (1...10).map { [.integer(Int64($0 * 10))] })
  }

  @Test func anErrorFromTheClosureEndsTheSelectAndLeavesTheStatementReusable() throws {
    struct Stop: Error {}
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    _ = try backend.insert(into: "v", columns: ["i"], values: (1...5).map { [.integer(Int64($0))] }, conflict: .abort)
    let statement = SelectStatement(table: "v", columns: [.column("i")], filter: .binary(.greater, .column("i"), .parameter("min")), orderBy: [OrderingTerm(.rowid)])
    var seen: [SqliteValue] = []
    #expect(throws: Stop.self) {
      try backend.select(statement, parameters: ["min": .integer(1)]) { row in
        seen.append(row[0])
        if seen.count == 2 { throw Stop() }
      }
    }
    #expect(seen == [.integer(2), .integer(3)])
    // The statement was reset: a write (which a pending read would not block here, but a
    // dangling step would leave open) and a fresh run both see every row.
    _ = try backend.insert(into: "v", columns: ["i"], values: [[.integer(6)]], conflict: .abort)
    var again: [SqliteValue] = []
    try backend.select(statement, parameters: ["min": .integer(4)]) { again.append($0[0]) }
    #expect(again == [.integer(5), .integer(6)])
  }

  @Test func errorsMatchExecute() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    for statement in [
      SelectStatement(table: "nope", columns: [.column("i")]),
      SelectStatement(table: "v", columns: [.column("nope")]),
      SelectStatement(table: "v", columns: [.column("i")], filter: .binary(.equal, .column("i"), .parameter("p"))),
      SelectStatement(table: "v", columns: []),
    ] {
      let visitError = tandemError { try backend.select(statement, parameters: [:]) { _ in } }
      let executeError = tandemError { _ = try backend.execute(.select(statement), parameters: [:]) }
      #expect(visitError != nil)
      #expect(visitError == executeError)
    }
  }
}
