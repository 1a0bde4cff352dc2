import Foundation
import TandemCore
import Testing

@testable import TandemSQLite

/// Prepared statements are reused by SQL text and evicted least recently used first.
@Suite("SQLite backend: statement cache")
struct StatementCacheTests {
  private static let schema = TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("v", .null(.text))])

  @Test func sameSQLIsPreparedOnce() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    let insert = Statement.insert(InsertStatement(table: "t", columns: ["v"], rows: [[.parameter("v")]]))
    _ = try backend.execute(insert, parameters: ["v": "a"])
    let missesAfterFirst = backend.statements.misses
    #expect(backend.statements.contains(#"INSERT INTO "t" ("v") VALUES (?)"#))
    for value in ["b", "c", "d"] {
      _ = try backend.execute(insert, parameters: ["v": .text(value)])
    }
    // Literal values are bound too, so different literals share one statement as well.
    _ = try backend.execute(insertRow("t", ["v"], ["e"]), parameters: [:])
    #expect(backend.statements.misses == missesAfterFirst)
    #expect(try backend.execute(selectAll("t", ["v"]), parameters: [:]).rows == [["a"], ["b"], ["c"], ["d"], ["e"]])
  }

  @Test func aCachedStatementIsReusableAfterItFailed() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    let insert = Statement.insert(InsertStatement(table: "t", columns: ["id"], rows: [[.parameter("id")]]))
    _ = try backend.execute(insert, parameters: ["id": 1])
    #expect(tandemError { _ = try backend.execute(insert, parameters: ["id": 1]) }?.constraint == .primaryKey)
    #expect(try backend.execute(insert, parameters: ["id": 2]).lastInsertRowid == 2)
    // Cached statements are reset, so they hold no lock that would block DROP TABLE.
    try backend.drop(table: "t", ifExists: false)
    #expect(tandemError { _ = try backend.execute(insert, parameters: ["id": 3]) }?.message == "no such table: t")
  }

  @Test func leastRecentlyUsedIsEvicted() throws {
    let backend = try SQLiteBackend(path: ":memory:", statementCacheCapacity: 3)
    try backend.create(Self.schema, ifNotExists: false)
    let sqlA = "SELECT 1"
    let sqlB = "SELECT 2"
    let sqlC = "SELECT 3"
    let sqlD = "SELECT 4"
    _ = try backend.run(sqlA)
    _ = try backend.run(sqlB)
    _ = try backend.run(sqlA)  // A is now more recent than B.
    // The cache may also hold the backend's own statements; fill it deterministically.
    backend.statements.removeAll()
    _ = try backend.run(sqlA)
    _ = try backend.run(sqlB)
    _ = try backend.run(sqlC)
    _ = try backend.run(sqlA)
    _ = try backend.run(sqlD)  // evicts B, the least recently used
    #expect(backend.statements.count == 3)
    #expect(backend.statements.contains(sqlA))
    #expect(!backend.statements.contains(sqlB))
    #expect(backend.statements.contains(sqlC))
    #expect(backend.statements.contains(sqlD))
    #expect(try backend.run(sqlB) == [[2]])
  }

  @Test func defaultCapacityBoundsTheCache() throws {
    let backend = try SQLiteBackend.inMemory()
    for index in 0..<200 {
      #expect(try backend.run("SELECT \(index)") == [[.integer(Int64(index))]])
    }
    #expect(backend.statements.count == 64)
  }
}
