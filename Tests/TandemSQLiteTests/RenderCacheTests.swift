import Foundation
import TandemCore
import Testing

@testable import TandemSQLite

/// The SQL rendered per statement shape: statements that differ only in literal values share it,
/// and every other difference gets its own.
@Suite("SQLite backend: render cache")
struct RenderCacheTests {
  static let schema = TableSchema(
    "t", columns: [.column("a", .integer), .column("b", .text), .column("c", .null(.real))])

  private func backendWithRows() throws -> SQLiteBackend {
    try inMemoryBackend(
      Self.schema,
      rows: (1...6).map { [.integer(Int64($0)), .text("r\($0)"), $0.isMultiple(of: 2) ? .null : .real(Double($0) / 2)] })
  }

  private func select(_ filter: SQLExpression?, limit: SQLExpression? = nil, columns: [String] = ["a"]) -> Statement {
    .select(SelectStatement(table: "t", columns: columns.map { .column($0) }, filter: filter, orderBy: [OrderingTerm(.rowid)], limit: limit))
  }

  private func ids(_ backend: SQLiteBackend, _ statement: Statement, _ parameters: [String: SqliteValue] = [:]) throws -> [Int64] {
    try backend.execute(statement, parameters: parameters).rows.compactMap {
      if case .integer(let id)? = $0.first { return id }
      return nil
    }
  }

  @Test func statementsDifferingOnlyInLiteralsShareTheirSQL() throws {
    let backend = try backendWithRows()
    let before = backend.renderCache.count
    #expect(try ids(backend, select(.binary(.greater, .column("a"), .literal(4)))) == [5, 6])
    #expect(try ids(backend, select(.binary(.greater, .column("a"), .literal(1)))) == [2, 3, 4, 5, 6])
    // Text compared with an INTEGER column takes its affinity: '3' is 3.
    #expect(try ids(backend, select(.binary(.greater, .column("a"), .literal(.text("3"))))) == [4, 5, 6])
    #expect(backend.renderCache.count == before + 1)
  }

  @Test func literalsAreBoundInRenderingOrder() throws {
    let backend = try backendWithRows()
    let between = { (low: Int64, high: Int64, limit: Int64) in
      self.select(
        .binary(.and, .between(.column("a"), .literal(.integer(low)), .literal(.integer(high)), negated: false),
                .like(.column("b"), pattern: .literal("r%"), escape: nil, negated: false)),
        limit: .literal(.integer(limit)))
    }
    #expect(try ids(backend, between(2, 5, 10)) == [2, 3, 4, 5])
    #expect(try ids(backend, between(3, 6, 2)) == [3, 4])
    #expect(try ids(backend, between(1, 1, 5)) == [1])
    let inList = { (values: [Int64]) in self.select(.inList(.column("a"), values.map { .literal(.integer($0)) }, negated: false)) }
    #expect(try ids(backend, inList([6, 2])) == [2, 6])
    #expect(try ids(backend, inList([1, 3])) == [1, 3])
    #expect(try ids(backend, inList([4, 5, 1])) == [1, 4, 5])
  }

  @Test func differentShapesGetDifferentSQL() throws {
    let backend = try backendWithRows()
    let before = backend.renderCache.count
    let shapes: [(Statement, [Int64])] = [
      (select(.binary(.equal, .column("a"), .literal(2))), [2]),
      (select(.binary(.notEqual, .column("a"), .literal(2))), [1, 3, 4, 5, 6]),
      (select(.binary(.equal, .column("a"), .literal(2)), columns: ["a", "b"]), [2]),
      (select(.binary(.equal, .column("a"), .parameter("x"))), [3]),
      (select(.isNull(.column("c"), negated: false)), [2, 4, 6]),
      (select(nil, limit: .literal(2)), [1, 2]),
      (select(nil), [1, 2, 3, 4, 5, 6]),
    ]
    for (statement, expected) in shapes {
      #expect(try ids(backend, statement, ["x": .integer(3)]) == expected)
    }
    // Each shape is cached once and answers correctly again from the cache.
    for (statement, expected) in shapes {
      #expect(try ids(backend, statement, ["x": .integer(3)]) == expected)
    }
    #expect(backend.renderCache.count == before + shapes.count)
  }

  /// A shape keeps its prepared statement: a query built afresh for every call runs it again,
  /// with its own values, after the statement cache has let it go.
  @Test func aShapeKeepsItsPreparedStatement() throws {
    let backend = try SQLiteBackend(path: ":memory:", statementCacheCapacity: 1)
    try backend.create(Self.schema, ifNotExists: false)
    _ = try backend.insert(
      into: "t", columns: ["a", "b", "c"], values: (1...4).map { [.integer(Int64($0)), .text("r\($0)"), .null] },
      conflict: .abort)
    #expect(try ids(backend, select(.binary(.greater, .column("a"), .literal(2)))) == [3, 4])
    _ = try backend.run("SELECT 1")  // takes the statement cache's only place
    let misses = backend.statements.misses
    #expect(try ids(backend, select(.binary(.greater, .column("a"), .literal(3)))) == [4])
    #expect(try ids(backend, select(.binary(.less, .column("a"), .literal(2)))) == [1])
    #expect(backend.statements.misses == misses + 1, "only the new shape is prepared")
    // A shape whose SQL fails to prepare keeps no statement: it fails alike every time.
    let unknown = select(.binary(.equal, .column("a"), .literal(1)), columns: ["zz"])
    let first = tandemError { _ = try backend.execute(unknown, parameters: [:]) }
    let second = tandemError { _ = try backend.execute(unknown, parameters: [:]) }
    #expect(first?.kind == .sqlite)
    #expect(first?.message == second?.message)
    #expect(first?.message.contains("no such column: zz") == true)
  }

  @Test func parametersAreResolvedOnEveryRun() throws {
    let backend = try backendWithRows()
    let statement = select(.binary(.equal, .column("a"), .parameter("id")))
    #expect(try ids(backend, statement, ["id": .integer(4)]) == [4])
    #expect(try ids(backend, statement, ["id": .integer(5)]) == [5])
    let error = tandemError { _ = try backend.execute(statement, parameters: [:]) }
    #expect(error?.kind == .misuse)
    #expect(error?.message == "missing value for parameter :id")
    #expect(error?.statement == #"SELECT "a" FROM "t" WHERE ("a" = ?) ORDER BY rowid ASC"#)
  }

  @Test func writesUseTheCacheToo() throws {
    let backend = try backendWithRows()
    for (id, name) in [(1, "x"), (2, "y")] {
      let update = UpdateStatement(
        table: "t", assignments: [Assignment(column: "b", value: .literal(.text(name)))],
        filter: .binary(.equal, .column("a"), .literal(.integer(Int64(id)))))
      #expect(try backend.execute(.update(update), parameters: [:]).changes == 1)
    }
    let delete = { (id: Int64) in Statement.delete(DeleteStatement(table: "t", filter: .binary(.equal, .column("a"), .literal(.integer(id))))) }
    #expect(try backend.execute(delete(3), parameters: [:]).changes == 1)
    #expect(try backend.execute(delete(4), parameters: [:]).changes == 1)
    let rows = try backend.execute(select(nil, columns: ["a", "b"]), parameters: [:]).rows
    #expect(rows.map { $0[1] } == [.text("x"), .text("y"), .text("r5"), .text("r6")])
  }

  /// The rowid's spelling depends on the table's columns, so a new table of the same name
  /// (created after a drop) gets its SQL rendered again.
  @Test func schemaChangesEmptyTheCache() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(TableSchema("s", columns: [.column("v", .integer)]), ifNotExists: false)
    _ = try backend.insert(into: "s", columns: ["v"], values: [[.integer(10)]], conflict: .abort)
    let byRowid = Statement.select(SelectStatement(table: "s", columns: [.rowid], filter: .binary(.equal, .rowid, .literal(1))))
    #expect(try backend.execute(byRowid, parameters: [:]).rows == [[.integer(1)]])
    #expect(backend.renderCache.count > 0)
    try backend.drop(table: "s", ifExists: false)
    #expect(backend.renderCache.count == 0)
    try backend.create(TableSchema("s", columns: [.column("rowid", .text), .column("v", .integer)]), ifNotExists: false)
    _ = try backend.insert(into: "s", columns: ["rowid", "v"], values: [[.text("shadow"), .integer(10)]], conflict: .abort)
    #expect(try backend.execute(byRowid, parameters: [:]).rows == [[.integer(1)]])
  }

  @Test func theShapeIgnoresOnlyLiteralValues() {
    let a = StatementShape.lifting(select(.binary(.equal, .column("a"), .literal(1)), limit: .literal(3)))
    let b = StatementShape.lifting(select(.binary(.equal, .column("a"), .literal(.text("z"))), limit: .literal(9)))
    let c = StatementShape.lifting(select(.binary(.equal, .column("b"), .literal(1)), limit: .literal(3)))
    #expect(a.shape == b.shape)
    #expect(a.shape.hashValue == b.shape.hashValue)
    #expect(a.shape != c.shape)
    #expect(a.literals == [.integer(1), .integer(3)])
    #expect(b.literals == [.text("z"), .integer(9)])
  }
}
