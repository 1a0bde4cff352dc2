@_spi(TandemBackend) import TandemCore
import Testing

@testable import TandemSQLite

/// The compiled selects the backend keeps per ``PreparedStatement``: a query run again is found
/// by its identity, a query built for one call is not kept.
@Suite("SQLite backend: prepared select cache")
struct PreparedSelectCacheTests {
  static let schema = TableSchema("t", columns: [.column("a", .integer), .column("b", .text)])

  private func backendWithRows() throws -> SQLiteBackend {
    try inMemoryBackend(Self.schema, rows: (1...4).map { [.integer(Int64($0)), .text("r\($0)")] })
  }

  private func query(_ filter: SQLExpression, parameterNames: [String] = []) -> PreparedStatement {
    PreparedStatement(
      SelectStatement(table: "t", columns: [.column("a")], filter: filter, orderBy: [OrderingTerm(.rowid)]),
      parameterNames: parameterNames)
  }

  private func ids(_ backend: SQLiteBackend, _ query: PreparedStatement, _ bindings: StatementBindings = .named([:])) throws
    -> [Int64]
  {
    var ids: [Int64] = []
    _ = try backend.run(query, bindings) { row in
      if case .integer(let id)? = row.first { ids.append(id) }
    }
    return ids
  }

  @Test func aQueryBuiltForEachCallIsNotKept() throws {
    let backend = try backendWithRows()
    for bound in 1...3 {
      let built = query(.binary(.greater, .column("a"), .literal(.integer(Int64(bound)))))
      #expect(try ids(backend, built) == Array(Int64(bound + 1)...4))
    }
    #expect(backend.preparedSelects.count == 0, "each query ran once, and the next ran the same SQL")
  }

  @Test func queriesRunAgainAreKept() throws {
    let backend = try backendWithRows()
    let byA = query(.binary(.greater, .column("a"), .parameter("n")), parameterNames: ["n"])
    let byB = query(.binary(.equal, .column("b"), .parameter("s")), parameterNames: ["s"])
    for round in 1...2 {
      #expect(try ids(backend, byA, .positional([.integer(Int64(round))])) == Array(Int64(round + 1)...4))
      #expect(try ids(backend, byB, .positional([.text("r\(round)")])) == [Int64(round)])
    }
    #expect(backend.preparedSelects.count == 2, "two queries of different SQL replaced each other as the last used")
    // A query run twice stays kept when a query of the same SQL built afresh comes after it.
    let misses = backend.statements.misses
    let kept = query(.binary(.less, .column("a"), .parameter("n")), parameterNames: ["n"])
    #expect(try ids(backend, kept, .positional([.integer(3)])) == [1, 2])
    #expect(try ids(backend, kept, .positional([.integer(2)])) == [1])
    let fresh = query(.binary(.less, .column("a"), .parameter("n")), parameterNames: ["n"])
    #expect(try ids(backend, fresh, .positional([.integer(4)])) == [1, 2, 3])
    #expect(backend.preparedSelects.count == 3)
    #expect(try ids(backend, kept, .positional([.integer(5)])) == [1, 2, 3, 4])
    #expect(backend.statements.misses == misses + 1, "the new SQL is prepared once")
  }
}
