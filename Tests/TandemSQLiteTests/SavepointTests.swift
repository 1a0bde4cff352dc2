import Foundation
import TandemCore
import Testing

@testable import TandemSQLite

/// Savepoints on a real file: what is rolled back is gone from the file, what is released stays.
@Suite("SQLite backend: savepoints")
struct SavepointTests {
  private static let schema = TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("v", .text)])

  private func rows(_ backend: SQLiteBackend) throws -> [[SqliteValue]] {
    try backend.execute(selectAll("t", ["id", "v"]), parameters: [:]).rows
  }

  @Test func rollbackLeavesTheFileAsBefore() throws {
    let file = TemporaryDatabaseFile()
    defer { file.remove() }
    do {
      let backend = try file.open()
      try backend.create(Self.schema, ifNotExists: false)
      _ = try backend.execute(insertRow("t", ["v"], ["kept"]), parameters: [:])
      try backend.savepoint("s")
      #expect(backend.connection.isInTransaction)
      _ = try backend.execute(insertRow("t", ["v"], ["gone"]), parameters: [:])
      _ = try backend.execute(
        .update(UpdateStatement(table: "t", assignments: [Assignment(column: "v", value: .literal("changed"))])),
        parameters: [:])
      try backend.create(TableSchema("extra", columns: [.column("a", .integer)]), ifNotExists: false)
      #expect(try rows(backend) == [[1, "changed"], [2, "changed"]])
      try backend.rollback(to: "s")
      #expect(!backend.connection.isInTransaction)
      #expect(try rows(backend) == [[1, "kept"]])
    }
    // A fresh connection reads only what reached the file.
    let reopened = try file.open()
    #expect(try rows(reopened) == [[1, "kept"]])
    #expect(try reopened.run("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") == [["t"]])
  }

  @Test func releaseCommitsToTheFile() throws {
    let file = TemporaryDatabaseFile()
    defer { file.remove() }
    do {
      let backend = try file.open()
      try backend.create(Self.schema, ifNotExists: false)
      try backend.savepoint("outer")
      _ = try backend.execute(insertRow("t", ["v"], ["outer"]), parameters: [:])
      try backend.savepoint("inner")
      _ = try backend.execute(insertRow("t", ["v"], ["inner"]), parameters: [:])
      try backend.rollback(to: "inner")
      #expect(backend.connection.isInTransaction)
      try backend.release("outer")
      #expect(!backend.connection.isInTransaction)
    }
    #expect(try rows(try file.open()) == [[1, "outer"]])
  }

  /// Raw SQLite keeps no statement journal for this multi-row `INSERT OR IGNORE` (it predicts no
  /// abort), so inside a transaction its first row would survive the datatype mismatch of the
  /// second. The backend's per-statement savepoint undoes it, and the transaction goes on.
  @Test func failedStatementInsideATransactionChangesNothing() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    try backend.savepoint("tx")
    let insert = InsertStatement(
      table: "t", columns: ["id", "v"], rows: [[.literal(1), .literal("a")], [.literal("not an id"), .literal("b")]],
      conflict: .ignore)
    #expect(throws: TandemError.self) { _ = try backend.execute(.insert(insert), parameters: [:]) }
    #expect(backend.connection.isInTransaction)
    #expect(try rows(backend) == [])
    _ = try backend.execute(insertRow("t", ["v"], ["after"]), parameters: [:])
    try backend.release("tx")
    #expect(try rows(backend) == [[1, "after"]])
  }

  /// The outermost savepoint begins the transaction with `BEGIN IMMEDIATE`, and only its own
  /// release commits: a nested savepoint of the same name (SQLite compares them without ASCII
  /// case) is released on its own, as SQLite's own savepoints are.
  @Test func onlyTheOutermostSavepointCommits() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    try backend.savepoint("s")
    _ = try backend.execute(insertRow("t", ["v"], ["outer"]), parameters: [:])
    try backend.savepoint("S")
    _ = try backend.execute(insertRow("t", ["v"], ["inner"]), parameters: [:])
    try backend.release("S")
    #expect(backend.connection.isInTransaction)
    try backend.rollback(to: "s")
    #expect(!backend.connection.isInTransaction)
    #expect(try rows(backend) == [])
  }

  @Test func savepointNamesAreQuoted() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    let name = #"release "me"; --"#
    try backend.savepoint(name)
    _ = try backend.execute(insertRow("t", ["v"], ["x"]), parameters: [:])
    try backend.rollback(to: name)
    #expect(try rows(backend) == [])
    #expect(tandemError { try backend.release("never opened") }?.message == "no such savepoint: never opened")
  }

  @Test func uncommittedWritesAreInvisibleToAnotherConnection() throws {
    let file = TemporaryDatabaseFile()
    defer { file.remove() }
    let writer = try file.open()
    try writer.create(Self.schema, ifNotExists: false)
    try writer.savepoint("s")
    _ = try writer.execute(insertRow("t", ["v"], ["pending"]), parameters: [:])
    let reader = try file.open()
    #expect(try rows(reader) == [])
    try writer.release("s")
    #expect(try rows(reader) == [[1, "pending"]])
  }
}
