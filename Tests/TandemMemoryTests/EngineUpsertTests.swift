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

/// SQLite resolves a DO UPDATE clause only where it codes it: a rowid target the INSERT does not
/// supply never conflicts, so its SET list is never checked.
@Suite struct EngineUpsertResolutionTests {
  @Test func uncodedDoUpdateIsNotResolved() {
    let schema = TableSchema(
      "t", columns: [.column("a", .null(.integer)), .column("b", .integer, primaryKey: true), .column("u", .null(.integer), unique: true)])
    let plain = TableSchema("p", columns: [.column("a", .null(.integer)), .column("b", .integer, primaryKey: true)])
    let db = EngineTandem(schema, plain)
    func upsert(_ table: String, _ columns: [String], _ target: [String], _ set: [Assignment]) -> Statement {
      .insert(InsertStatement(table: table, columns: columns, rows: [[.literal(1)]], conflict: .update(target: target, assignments: set)))
    }
    let unknown = [Assignment(column: "a", value: .column("nosuch"))]
    db.write(upsert("t", ["a"], ["b"], unknown))
    db.write(upsert("t", ["a"], ["b"], [Assignment(column: "nosuchcolumn", value: .literal(1))]))
    db.write(upsert("t", ["a"], ["b"], [Assignment(column: "a", value: .excluded("nosuch"))]))
    db.write(upsert("t", ["a"], ["u"], unknown))
    db.write(upsert("t", ["a"], [], unknown))
    db.write(upsert("p", ["a"], [], unknown))
    db.write(upsert("t", ["b"], ["b"], unknown))
  }

  /// A DO UPDATE answering a rowid conflict reads `excluded` before the columns' affinities
  /// (only REAL columns' integers become REAL); one answering a unique constraint, after.
  @Test func excludedBeforeAffinityOnRowidConflicts() {
    let schema = TableSchema(
      "q", columns: [.column("x", .integer, primaryKey: true), .column("key", .real), .column("d", .null(.text)), .column("n", .null(.integer), unique: true)])
    let db = EngineTandem(schema)
    let big = SqliteValue.integer(9223372036853775807)
    db.write(Q.insert("q", ["x", "key", "d"], [[big, -9.223372036854776e+18, "_"], [big, 2, 2.2250738585072014e-308]],
      .update(target: ["x"], assignments: [Assignment(column: "n", value: .excluded("d"))])))
    for target in [["x"], []] {
      db.write(Q.insert("q", ["x", "key", "d"], [[big, 5, 7]],
        .update(target: target, assignments: [Assignment(column: "d", value: .binary(.concatenate, .function(.typeof, [.excluded("key")]), .function(.typeof, [.excluded("d")])))])))
    }
    db.write(Q.insert("q", ["x", "n", "key", "d"], [[2, 3, 1, "z"]]))
    db.write(Q.insert("q", ["x", "n", "key", "d"], [[1, 3, 5, 7]],
      .update(target: ["n"], assignments: [Assignment(column: "d", value: .binary(.concatenate, .function(.typeof, [.excluded("key")]), .function(.typeof, [.excluded("d")])))])))
  }

  /// Fuzzer seed 0x9999, case 9684: SQLite computes a constant default once into the row's
  /// register and applies affinity there in place, so on a rowid conflict `excluded` reads the
  /// default as written until an earlier row of the statement got past the rowid check.
  @Test func excludedDefaultsTakeAffinityAfterAnEarlierRow() {
    let schema = TableSchema(
      "t", columns: [.column("v", .null(.text)), .column("n", .integer, primaryKey: true), .column("w", .text, default: 0.3333333333333333)])
    let db = EngineTandem(schema)
    let probe = SQLExpression.binary(
      .concatenate, .function(.typeof, [.excluded("w")]), .binary(.greaterOrEqual, .excluded("w"), .excluded("n")))
    let upsert = InsertStatement.ConflictResolution.update(target: ["n"], assignments: [Assignment(column: "v", value: probe)])
    db.write(Q.insert("t", ["n"], [[5]]))
    // The only row conflicts at once: the default as written (REAL).
    db.write(Q.insert("t", ["n"], [[5]], upsert))
    // The third row conflicts after the second was inserted: the converted default (TEXT).
    db.write(Q.insert("t", ["n"], [[5], [6], [5]], upsert))
    // A new row first, then the conflict: the converted default (TEXT).
    db.write(Q.insert("t", ["n"], [[7], [7]], upsert))
    db.write(Q.insert("t", ["n"], [[4611686018427387904], [4611686018427387904]],
      .update(target: ["n"], assignments: [Assignment(column: "n", value: .between(.excluded("w"), .excluded("n"), .column("v"), negated: false))])))
  }
}
