import Foundation
import Testing
import TandemCore
@testable import TandemMemory
import SeededRandomness

/// Statement atomicity and savepoints, against real SQLite.
@Suite struct EngineTransactionTests {
  static let schema = TableSchema(
    "t",
    columns: [.column("id", .integer, primaryKey: .autoincrement), .column("a", .null(.integer), unique: true)])

  @Test func failedStatementsLeaveNoTrace() {
    let db = EngineTandem(Self.schema)
    db.write(Q.insert("t", ["a"], [[1], [2], [1]]))
    db.write(Q.insert("t", ["a"], [[5]]))
    db.write(Q.insert("t", ["id", "a"], [[100, 6], [101, 5]]))
    db.write(Q.insert("t", ["a"], [[7]]))
    db.write(Q.insert("t", ["a"], [[8], [9], [7]], .replace))
    db.write(Q.update("t", [("a", .binary(.add, Q.col("a"), Q.lit(1)))]))
    db.write(Q.delete("t", where: .binary(.greater, Q.col("a"), Q.lit(6))))
  }

  @Test func nestedSavepoints() {
    let db = EngineTandem(Self.schema)
    db.savepoint("outer")
    db.write(Q.insert("t", ["a"], [[1], [2]]))
    db.savepoint("inner")
    db.write(Q.insert("t", ["a"], [[3]]))
    db.write(Q.delete("t", where: Q.eq(Q.col("a"), Q.lit(1))))
    db.write(Q.update("t", [("a", .binary(.multiply, Q.col("a"), Q.lit(10)))]))
    db.rollback(to: "inner")
    db.compareTables()
    db.write(Q.insert("t", ["a"], [[4]]))
    db.savepoint("again")
    db.write(Q.insert("t", ["a"], [[5]]))
    db.release("again")
    db.savepoint("x")
    db.savepoint("y")
    db.write(Q.insert("t", ["a"], [[6]]))
    db.release("x")
    db.rollback(to: "y")
    db.release("outer")
    db.rollback(to: "outer")
    db.write(Q.insert("t", ["a"], [[7]]))
  }

  @Test func rollingBackTheOutermostUndoesEverythingIncludingTables() {
    let db = EngineTandem(Self.schema)
    db.write(Q.insert("t", ["a"], [[1]]))
    db.savepoint("tx")
    db.write(Q.insert("t", ["a"], [[2], [3]]))
    db.create(TableSchema("u", columns: [.column("x", .null(.text))]))
    db.write(Q.insert("u", ["x"], [["hello"]]))
    db.drop("t")
    db.rollback(to: "tx")
    db.run(Q.select("u", [Q.col("x")]))
    db.write(Q.insert("t", ["a"], [[4]]))
    db.savepoint("tx")
    db.savepoint("TX")
    db.write(Q.insert("t", ["a"], [[5]]))
    db.rollback(to: "tx")
    db.release("tx")
    db.release("tx")
    db.rollback(to: "missing")
  }
}

/// Larger tables: out-of-order rowids, deletions and reinsertions keep scans in rowid order and
/// indexes consistent (the debug invariant checks run after every statement).
@Suite struct EngineStorageTests {
  @Test func randomOrderInsertsAndDeletes() {
    let schema = TableSchema(
      "t", columns: [.column("id", .integer, primaryKey: true), .column("k", .null(.integer), unique: true), .column("v", .null(.text))])
    let db = EngineTandem(schema)
    var generator = SplitMix64(state: 7)
    for batch in 0..<30 {
      let rows: [[SqliteValue]] = (0..<60).map { _ in
        let id = Int64.random(in: -5_000...5_000, using: &generator)
        return [.integer(id), .integer(Int64.random(in: 0...4_000, using: &generator)), .text("b\(batch)")]
      }
      db.run(Q.insert("t", ["id", "k", "v"], rows, .ignore))
      let low = Int64.random(in: -5_000...5_000, using: &generator)
      db.run(Q.delete("t", where: .between(Q.col("id"), Q.lit(.integer(low)), Q.lit(.integer(low + 150)), negated: false)))
      db.run(Q.insert("t", ["k", "v"], [[.integer(Int64(10_000 + batch)), "auto"]]))
    }
    db.compareTables()
    db.run(Q.select("t", [.aggregate(.count, nil, distinct: false), .aggregate(.min, .rowid, distinct: false), .aggregate(.max, Q.col("k"), distinct: false)]))
    for probe in stride(from: -5_000, through: 5_000, by: 97) {
      db.run(Q.select("t", [Q.col("v")], where: Q.eq(Q.col("id"), Q.lit(.integer(Int64(probe))))))
      db.run(Q.select("t", [Q.col("id")], where: Q.eq(Q.col("k"), Q.lit(.integer(Int64(probe))))))
    }
  }

  @Test func traceDescribesStatements() throws {
    let memory = MemoryBackend()
    let lines = EngineTraceLines()
    memory.setTrace { lines.append($0) }
    try memory.create(TableSchema("t", columns: [.column("a", .null(.integer))]), ifNotExists: false)
    _ = try memory.execute(Q.insert("t", ["a"], [[1]]), parameters: [:])
    _ = try memory.execute(Q.select("t", [Q.col("a")], where: .binary(.greater, Q.col("a"), .parameter("min"))), parameters: ["min": 0])
    // A join names its tables, their aliases and ON clauses (they were left out).
    let joined = SelectStatement(
      table: "t", joins: [JoinClause(.left, table: "t", alias: "u", on: .binary(.equal, .qualifiedColumn(source: "t", name: "a"), .qualifiedColumn(source: "u", name: "a")))],
      columns: [.qualifiedColumn(source: "u", name: "a")], orderBy: [OrderingTerm(.qualifiedRowid(source: "t"))])
    _ = try memory.execute(.select(joined), parameters: [:])
    memory.setTrace(nil)
    _ = try memory.execute(Q.delete("t"), parameters: [:])
    #expect(lines.values == [
      // Values are never shown, as in the SQLite backend's SQL.
      "memory: create table t", "memory: insert into t(a) values (?)", "memory: select a from t where a > :min",
      "memory: select u.a from t left join t as u on t.a = u.a order by t.rowid",
    ])
  }
}

/// Collects trace lines from the backend's `@Sendable` trace closure.
final class EngineTraceLines: @unchecked Sendable {
  // Guarded by `lock`; the trace closure may be called from any thread.
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var values: [String] { lock.withLock { lines } }
}

/// Cases the project's differential fuzzer found, kept as regressions.
@Suite struct EngineRegressionTests {
  @Test func fullDatabaseWithoutStatementJournalRollsBackTheTransaction() {
    let schema = TableSchema(
      "t", columns: [.column("y", .null(.text)), .column("b", .integer, primaryKey: .autoincrement)])
    let db = EngineTandem(schema)
    db.savepoint("sp1")
    db.write(Q.insert("t", ["y"], [["x"]]))
    db.write(Q.insert("t", ["b"], [[.integer(.max - 1)], [nil], [nil]], .replace))
    db.release("sp1")
    db.write(Q.insert("t", ["y"], [["again"]]))
    db.savepoint("sp2")
    db.write(Q.insert("t", ["y"], [["kept"]]))
    db.write(Q.insert("t", ["b", "y"], [[.integer(.max), "max"]]))
    db.write(Q.insert("t", ["y"], [["z"], ["w"]]))
    db.release("sp2")
  }

  @Test func isNullOnColumnsThatCannotBeNull() {
    let schema = TableSchema("t", columns: [.column("y", .null(.blob)), .column("n", .real), .column("id", .integer, primaryKey: true)])
    let db = EngineTandem(schema)
    let count = SQLExpression.aggregate(.total, .column("y"), distinct: false)
    db.run(Q.select("t", [count], having: .isNull(.column("n"), negated: false)))
    db.run(Q.select("t", [count, .isNull(.column("n"), negated: false), .isNull(.unary(.negate, .column("id")), negated: true)]))
    db.run(Q.select("t", [count], having: .isNull(.column("y"), negated: false)))
  }

  @Test func excludedHasNoAffinity() {
    let db = EngineTandem(TableSchema("o", columns: [.column("x", .null(.text), unique: true)]))
    db.write(Q.insert("o", ["x"], [[10.0], [0]]))
    let set = InsertStatement.ConflictResolution.update(
      target: ["x"], assignments: [Assignment(column: "x", value: .binary(.less, .excluded("x"), .literal(100)))])
    db.write(Q.insert("o", ["x"], [[10.0]], set))
    db.run(Q.select("o", [.rowid], where: .binary(.equal, .literal("1"), .rowid)))
  }
}

/// A failing statement inside a transaction leaves nothing behind, including the cases where raw
/// SQLite keeps no statement journal and would keep the rows written before the failure (the
/// oracle, like the SQLite backend, runs each write in a savepoint).
@Suite struct EngineStatementJournalTests {
  static let overflow = SQLExpression.function(.abs, [.column("b")])

  @Test func failedStatementsLeaveNothingWithOrWithoutAJournal() {
    let plain = TableSchema("t", columns: [.column("x", .integer, primaryKey: true), .column("b", .null(.integer))])
    let checked = TableSchema(
      "c", columns: [.column("x", .integer, primaryKey: true), .column("b", .null(.integer), unique: true)])
    let db = EngineTandem(plain, checked)
    db.write(Q.insert("t", ["x", "b"], [[1, 1], [2, 2], [3, .integer(.min)], [4, 4]]))
    db.write(Q.insert("c", ["x", "b"], [[1, 1], [2, 2], [3, .integer(.min)], [4, 4]]))
    db.savepoint("tx")
    db.write(Q.insert("t", ["x"], [[1000], ["%a"]], .nothing(target: ["x"])))
    db.write(Q.insert("t", ["x"], [[2000], ["%a"]]))
    db.write(Q.update("t", [("b", .binary(.add, Self.overflow, .literal(0)))]))
    db.write(Q.update("c", [("b", .binary(.add, Self.overflow, .literal(100)))]))
    db.write(Q.delete("t", where: .binary(.greater, Self.overflow, .literal(0))))
    db.write(Q.delete("c", where: .binary(.greater, Self.overflow, .literal(0))))
    db.release("tx")
    db.write(Q.update("t", [("b", Self.overflow)]))
    db.write(Q.delete("t", where: .binary(.greater, Self.overflow, .literal(0))))
  }

  /// A function call anywhere in the statement (but not the inline coalesce/ifnull) counts as a
  /// possible abort; a conflict target moves the rowid check from ABORT to the upsert.
  @Test func functionCallsAndConflictTargetsDecide() {
    let table = TableSchema(
      "p", columns: [.column("x", .integer, primaryKey: true), .column("y", .null(.integer)), .column("u", .null(.integer), unique: true)])
    let db = EngineTandem(table)
    let min = SQLExpression.literal(.integer(.min))
    func rows(_ third: SQLExpression) -> Statement {
      .insert(InsertStatement(table: "p", columns: ["x"], rows: [[.literal(1)], [.literal("a")], [third]], conflict: .nothing(target: [])))
    }
    func rows(_ conflict: InsertStatement.ConflictResolution, _ third: SQLExpression = .literal(3)) -> Statement {
      .insert(InsertStatement(table: "p", columns: ["x"], rows: [[.literal(1)], [.literal("a")], [third]], conflict: conflict))
    }
    db.savepoint("tx")
    db.write(rows(.function(.abs, [.literal(1)])))
    db.write(rows(.function(.coalesce, [.literal(1), .literal(2)])))
    db.write(Q.delete("p"))
    db.write(rows(.function(.ifnull, [.literal(1), .function(.abs, [min])])))
    db.write(Q.delete("p"))
    db.write(rows(.function(.typeof, [.literal(1)])))
    db.write(rows(.like(.literal("x"), pattern: .literal("y"), escape: nil, negated: false)))
    db.write(rows(.glob(.literal("x"), pattern: .literal("y"), negated: false)))
    db.write(rows(.ignore))
    db.write(Q.delete("p"))
    db.write(rows(.replace))
    db.write(Q.delete("p"))
    db.write(rows(.ignore, .function(.min, [.literal(1), .literal(2)])))
    db.write(rows(.nothing(target: ["x"])))
    db.write(Q.delete("p"))
    db.write(rows(.nothing(target: ["u"])))
    db.write(rows(.update(target: ["x"], assignments: [Assignment(column: "y", value: .literal(1))])))
    db.write(Q.delete("p"))
    db.write(rows(.update(target: ["x"], assignments: [Assignment(column: "u", value: .literal(1))])))
    db.write(rows(.update(target: ["x"], assignments: [Assignment(column: "y", value: .function(.abs, [.literal(1)]))])))
    db.release("tx")
  }

  /// Foreign keys make the statement abortable on the child side and, for parents, unless the
  /// action is CASCADE or SET NULL on an unchecked column.
  @Test func foreignKeysDecide() {
    let parent = TableSchema("par", columns: [.column("id", .integer, primaryKey: true)])
    let cascade = TableSchema(
      "kid", columns: [.column("k", .null(.integer), references: .table("par", column: "id", onDelete: .cascade))])
    let db = EngineTandem(parent, cascade)
    db.write(Q.insert("par", ["id"], [[1], [2], [3]]))
    db.write(Q.insert("kid", ["k"], [[1], [2], [3]]))
    db.savepoint("tx")
    db.write(Q.insert("par", ["id"], [[10], ["z"]]))
    db.write(Q.insert("par", ["id"], [[11], ["z"]], .replace))
    db.write(Q.insert("par", ["id"], [[12], ["z"]], .nothing(target: [])))
    db.write(.insert(InsertStatement(table: "kid", columns: ["k"], rows: [[.literal(1)], [.function(.abs, [.literal(.integer(.min))])]])))
    db.write(Q.delete("par", where: .binary(.less, .function(.abs, [.binary(.subtract, .column("id"), .literal(.integer(.max)))]), .literal(0))))
    db.release("tx")
  }
}
