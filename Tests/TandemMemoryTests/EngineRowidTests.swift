import Testing
import TandemCore
@testable import TandemMemory

/// Rowid assignment and the INTEGER PRIMARY KEY alias (Docs/SQLiteSemantics.md §2.4), against real SQLite.
@Suite struct EngineRowidTests {
  static let aliased = TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("v", .null(.text))])
  static let autoincrement = TableSchema(
    "t", columns: [.column("id", .integer, primaryKey: .autoincrement), .column("v", .null(.text))])
  static let plain = TableSchema("p", columns: [.column("v", .null(.text))])

  @Test func maxPlusOneAndReuseAfterDeletingTheMaximum() {
    let db = EngineTandem(Self.aliased)
    db.write(Q.insert("t", ["v"], [["a"]]))
    db.write(Q.insert("t", ["id", "v"], [[10, "b"]]))
    db.write(Q.insert("t", ["v"], [["c"]]))
    db.write(Q.insert("t", ["id", "v"], [[nil, "d"]]))
    db.write(Q.delete("t", where: Q.eq(Q.col("id"), Q.lit(12))))
    db.write(Q.insert("t", ["v"], [["e"]]))
    let rows = db.run(Q.select("t", [Q.col("id"), .rowid, Q.col("_rowid_"), Q.col("oid"), Q.col("v")])).rows
    #expect(rows.map { $0[0] } == [1, 10, 11, 12])
  }

  @Test func autoincrementNeverReuses() {
    let db = EngineTandem(Self.autoincrement)
    db.write(Q.insert("t", ["v"], [["a"]]))
    db.write(Q.insert("t", ["id", "v"], [[10, "b"]]))
    db.write(Q.insert("t", ["v"], [["c"]]))
    db.write(Q.delete("t", where: Q.eq(Q.col("id"), Q.lit(11))))
    let outcome = db.write(Q.insert("t", ["v"], [["e"]]))
    #expect(outcome == .result(StatementResult(lastInsertRowid: 12, changes: 1)))
  }

  @Test func negativeKeysCount() {
    let db = EngineTandem(Self.aliased)
    db.write(Q.insert("t", ["id", "v"], [[-5, "a"]]))
    db.write(Q.insert("t", ["v"], [["b"]]))
  }

  @Test func aliasConversionAndDatatypeMismatch() {
    let db = EngineTandem(Self.aliased)
    db.write(Q.insert("t", ["id", "v"], [["12", "a"], [3.0, "b"], [" 7 ", "c"]]))
    let mismatches: [SqliteValue] = [3.5, "abc", .blob(.init([1])), "1e400"]
    for value in mismatches {
      let outcome = db.write(Q.insert("t", ["id", "v"], [[value, "x"]]))
      #expect(outcome.errorMessage == "datatype mismatch")
    }
    db.write(Q.update("t", [("id", Q.lit(nil))]))
    db.write(Q.update("t", [("rowid", Q.lit(2.5))]))
  }

  @Test func exhaustedRowids() {
    let db = EngineTandem(Self.autoincrement)
    db.write(Q.insert("t", ["id", "v"], [[.integer(.max), "a"]]))
    let outcome = db.write(Q.insert("t", ["v"], [["b"]]))
    #expect(outcome.errorMessage == "database or disk is full")

    let memory = MemoryBackend()
    try? memory.create(Self.aliased, ifNotExists: false)
    _ = try? memory.execute(Q.insert("t", ["id"], [[.integer(.max)]]), parameters: [:])
    #expect(throws: TandemError.self) { try memory.execute(Q.insert("t", ["v"], [["b"]]), parameters: [:]) }
  }

  @Test func ignoredRowsStillAdvanceTheSequence() {
    let schema = TableSchema(
      "t", columns: [.column("id", .integer, primaryKey: .autoincrement), .column("b", .integer, unique: true)])
    let db = EngineTandem(schema)
    db.write(Q.insert("t", ["id", "b"], [[1, 1]]))
    db.write(Q.insert("t", ["id", "b"], [[100, 1]], .ignore))
    db.write(Q.insert("t", ["id", "b"], [[200, nil]], .ignore))
    db.write(Q.insert("t", ["b"], [[2]]))
    // A failed statement does not advance it.
    db.write(Q.insert("t", ["id", "b"], [[500, 3], [501, 2]]))
    db.write(Q.insert("t", ["b"], [[4]]))
  }

  @Test func tablesWithoutAliasUseTheHiddenRowid() {
    let db = EngineTandem(Self.plain)
    db.write(Q.insert("p", ["v"], [["a"], ["b"]]))
    db.write(Q.delete("p", where: Q.eq(.rowid, Q.lit(2))))
    db.write(Q.insert("p", ["v"], [["c"]]))
    db.write(Q.insert("p", ["rowid", "v"], [[5, "d"]]))
    db.write(Q.insert("p", ["oid", "v"], [[5, "e"]]))
    db.write(Q.insert("p", ["_rowid_", "v"], [["x", "e"]]))
    db.write(Q.update("p", [("rowid", Q.lit(1))], where: Q.eq(.rowid, Q.lit(5))))
  }

  @Test func scansAreInRowidOrder() {
    let db = EngineTandem(Self.aliased)
    db.write(Q.insert("t", ["id", "v"], [[5, "a"], [1, "b"], [3, "c"]]))
    #expect(db.run(Q.select("t", [Q.col("id"), Q.col("v")])).rows == [[1, "b"], [3, "c"], [5, "a"]])
    for id in stride(from: 2000, to: 0, by: -7) { _ = try? db.memory.execute(Q.insert("t", ["id"], [[.integer(Int64(id))]]), parameters: [:]) }
    for id in stride(from: 2000, to: 0, by: -7) { _ = try? db.oracle.run("INSERT INTO t(id) VALUES(?)", [.integer(Int64(id))]) }
    db.run(Q.select("t", [Q.col("id")], where: .binary(.greater, Q.col("id"), Q.lit(0))))
  }
}
