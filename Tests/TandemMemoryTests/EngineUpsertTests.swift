import Testing
import TandemCore
@testable import TandemMemory

/// INSERT … ON CONFLICT DO UPDATE / DO NOTHING, against real SQLite: which conflict takes the
/// update, `excluded`, and what `changes` and `lastInsertRowid` report.
@Suite struct EngineUpsertTests {
  static let schema = TableSchema(
    "t",
    columns: [
      .column("id", .integer, primaryKey: true), .column("a", .null(.integer), unique: true),
      .column("b", .null(.integer), unique: true), .column("n", .integer, default: 0),
    ])

  static func seeded() -> EngineTandem {
    let db = EngineTandem(schema)
    db.write(Q.insert("t", ["id", "a", "b", "n"], [[1, 1, 1, 0], [3, 3, 3, 0]]))
    return db
  }

  static func increment(_ target: [String]) -> InsertStatement.ConflictResolution {
    .update(target: target, assignments: [Assignment(column: "n", value: .binary(.add, .column("n"), .literal(1)))])
  }

  @Test func targetIsCheckedFirst() {
    let rows: [[SqliteValue]] = [[2, 1, 1, 0], [1, 5, 3, 0], [3, 1, 5, 0], [2, 5, 1, 0], [9, 9, 9, 9]]
    for target in [["a"], ["b"], ["id"], ["b", "a"], []] {
      for row in rows {
        let db = Self.seeded()
        db.write(Q.insert("t", ["id", "a", "b", "n"], [row], Self.increment(target)))
        db.write(Q.insert("t", ["id", "a", "b", "n"], [row], .nothing(target: target)))
      }
    }
  }

  @Test func targetMustMatchAConstraint() {
    let db = Self.seeded()
    db.write(Q.insert("t", ["id", "a"], [[5, 5]], .nothing(target: ["n"])))
    db.write(Q.insert("t", ["id", "a"], [[5, 5]], .nothing(target: ["zz"])))
    db.write(Q.insert("t", ["id", "a"], [[5, 5]], .nothing(target: ["a", "b"])))
    db.write(Q.insert("t", ["id", "a"], [[1, 5]], .nothing(target: ["rowid"])))
  }

  @Test func excludedAndRowidChanges() {
    let db = Self.seeded()
    let set = { (assignments: [(String, SQLExpression)]) -> InsertStatement.ConflictResolution in
      .update(target: ["a"], assignments: assignments.map { Assignment(column: $0.0, value: $0.1) })
    }
    db.write(Q.insert("t", ["id", "a", "b"], [[2, 1, 5]], set([("id", .excluded("id")), ("n", .excluded("b"))])))
    db.write(Q.insert("t", ["id", "a", "b"], [[7, "3", "8"]], set([("b", .binary(.add, .excluded("b"), .column("b")))])))
    db.write(Q.insert("t", ["id", "a", "b"], [[2, 1, 5]], set([("b", .literal(3))])))
    db.write(Q.insert("t", ["id", "a", "b"], [[2, 1, 5]], set([("n", .literal(nil))])))
    db.write(Q.insert("t", ["id", "a", "b"], [[2, 1, 5]], set([("id", .literal("x"))])))
    db.write(Q.insert("t", ["a"], [[5], [5], [5]], set([("n", .binary(.add, .column("n"), .excluded("a")))])))
    db.write(Q.insert("t", ["a"], [[5]], set([("zz", .literal(1))])))
    db.write(Q.insert("t", ["a"], [[5]], set([("n", .excluded("zz"))])))
  }

  @Test func parametersInAssignments() {
    let db = Self.seeded()
    let statement = Statement.insert(
      InsertStatement(
        table: "t", columns: ["a", "b"], rows: [[.parameter("a"), .parameter("b")]],
        conflict: .update(target: ["a"], assignments: [Assignment(column: "n", value: .parameter("n"))])))
    db.write(statement, ["a": 1, "b": 10, "n": 42])
    db.write(statement, ["a": 2, "b": 11, "n": 43])
  }
}
