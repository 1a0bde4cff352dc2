import Testing
import TandemCore
@testable import TandemMemory

/// NOT NULL, UNIQUE and PRIMARY KEY constraints: what conflicts, which error is reported first,
/// and its exact message (Docs/SQLiteSemantics.md §14; the error table in Docs/Queries.md), against real SQLite.
@Suite struct EngineConstraintTests {
  @Test func nullsNeverConflictAndNumbersCollideAcrossClasses() {
    let db = EngineTandem(
      TableSchema("u", columns: [.column("a", .null(.blob), unique: true), .column("b", .null(.blob))]),
      TableSchema("i", columns: [.column("a", .null(.integer), unique: true)]),
      TableSchema(
        "c", columns: [.column("a", .null(.integer)), .column("b", .null(.integer))],
        indexes: [.index(on: ["a", "b"], unique: true)]))
    db.write(Q.insert("u", ["a", "b"], [[nil, 1], [nil, 2]]))
    db.write(Q.insert("u", ["a"], [[1], [1.0]]))
    db.write(Q.insert("u", ["a"], [[1], ["1"]]))
    db.write(Q.insert("u", ["a"], [[-0.0]]))
    db.write(Q.insert("u", ["a"], [[0]]))
    db.write(Q.insert("u", ["a"], [[.blob(.init([0x31]))]]))
    db.write(Q.insert("i", ["a"], [[1], ["1"]]))
    db.write(Q.insert("i", ["a"], [["x"], ["x "]]))
    db.write(Q.insert("c", ["a", "b"], [[1, nil], [1, nil]]))
    db.write(Q.insert("c", ["a", "b"], [[1, 2], [1, 2]]))
    db.write(Q.insert("c", ["a", "b"], [[1, 2], [2, 1]]))
  }

  @Test func textComparesByBytes() {
    let db = EngineTandem(TableSchema("t", columns: [.column("a", .text, unique: true)]))
    db.write(Q.insert("t", ["a"], [["é"], ["e\u{301}"], ["a"], ["A"]]))
    db.write(Q.insert("t", ["a"], [["e\u{301}"]]))
  }

  @Test func primaryKeys() {
    let db = EngineTandem(
      TableSchema("s", columns: [.column("code", .null(.text), primaryKey: true), .column("v", .null(.integer))]),
      TableSchema("n", columns: [.column("code", .text, primaryKey: true)]),
      TableSchema(
        "k",
        columns: [.column("a", .integer, primaryKey: true), .column("b", .text, primaryKey: true), .column("c", .null(.integer), unique: true)]),
      TableSchema("r", columns: [.column("id", .integer, primaryKey: true), .column("a", .null(.integer), unique: true)]))
    db.write(Q.insert("s", ["code"], [[nil], [nil]]))
    db.write(Q.insert("s", ["code"], [["x"], ["x"]]))
    db.write(Q.insert("s", ["code"], [[1]]))
    db.write(Q.insert("s", ["code"], [["1"]]))
    db.write(Q.insert("n", ["code"], [[nil]]))
    db.write(Q.insert("k", ["a", "b", "c"], [[1, "x", 1], [1, "y", 2]]))
    db.write(Q.insert("k", ["a", "b", "c"], [[1, "x", 3]]))
    db.write(Q.insert("k", ["a", "b", "c"], [[1, "x", 1]]))
    db.write(Q.insert("r", ["id", "a"], [[1, 1]]))
    db.write(Q.insert("r", ["id", "a"], [[1, 1]]))
    db.write(Q.insert("r", ["id", "a"], [[2, 1]]))
  }

  @Test func notNullComesFirstThenRowidThenLastDeclaredUnique() {
    let db = EngineTandem(
      TableSchema(
        "t",
        columns: [
          .column("id", .integer, primaryKey: true), .column("a", .integer, unique: true),
          .column("b", .integer, unique: true), .column("c", .integer), .column("d", .null(.integer)),
        ],
        indexes: [.index(on: ["c"], unique: true), .index("named", on: ["d", "c"], unique: true)]))
    db.write(Q.insert("t", ["id", "a", "b", "c", "d"], [[1, 1, 1, 1, 1]]))
    db.write(Q.insert("t", ["id", "a", "b", "c", "d"], [[1, 1, 1, nil, 1]]))
    db.write(Q.insert("t", ["id", "a", "b", "c", "d"], [[1, 1, 1, 1, 1]]))
    db.write(Q.insert("t", ["id", "a", "b", "c", "d"], [[2, 1, 1, 1, 1]]))
    db.write(Q.insert("t", ["id", "a", "b", "c", "d"], [[2, 1, 1, 1, 2]]))
    db.write(Q.insert("t", ["id", "a", "b", "c", "d"], [[2, 1, 1, 2, 2]]))
    db.write(Q.insert("t", ["id", "a", "b", "c", "d"], [[2, 1, 2, 2, 2]]))
    db.write(Q.insert("t", ["id", "a", "b", "c"], [[2, nil, 2, 2]]))
    db.write(Q.insert("t", ["id", "a", "b", "c"], [[2, 2, nil, nil]]))
  }

  @Test func notNullWithDefaults() {
    let db = EngineTandem(
      TableSchema(
        "t", columns: [.column("a", .integer, default: 5), .column("b", .null(.integer)), .column("c", .text)]))
    db.write(Q.insert("t", ["a", "c"], [[nil, "x"]]))
    db.write(Q.insert("t", ["c"], [["x"]]))
    db.write(Q.insert("t", ["a", "c"], [[nil, "x"]], .ignore))
    db.write(Q.insert("t", ["a", "c"], [[nil, "x"]], .replace))
    db.write(Q.insert("t", ["a", "c"], [[nil, nil]], .replace))
    db.write(Q.insert("t", ["b"], [[1]]))
  }

  @Test func conflictClauses() {
    let db = EngineTandem(
      TableSchema(
        "t",
        columns: [
          .column("id", .integer, primaryKey: true), .column("a", .null(.integer), unique: true),
          .column("b", .null(.integer), unique: true),
        ]))
    db.write(Q.insert("t", ["id", "a", "b"], [[1, 1, 1], [2, 2, 2], [3, 3, 3]]))
    db.write(Q.insert("t", ["id", "a", "b"], [[4, 1, 5], [5, 9, 9], [6, 6, 2]], .ignore))
    db.write(Q.insert("t", ["id", "a", "b"], [[7, 1, 2]], .replace))
    db.write(Q.insert("t", ["id", "a", "b"], [[3, 3, 3], [9, 7, 9]], .replace))
    db.write(Q.insert("t", ["a", "b"], [[100, 100]], .replace))
  }

  @Test func updatesCheckUniquenessRowByRow() {
    let db = EngineTandem(
      TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("a", .null(.integer), unique: true)]))
    db.write(Q.insert("t", ["a"], [[1], [2], [3]]))
    db.write(Q.update("t", [("a", .binary(.add, Q.col("a"), Q.lit(1)))]))
    db.write(Q.update("t", [("a", .binary(.subtract, Q.col("a"), Q.lit(1)))]))
    db.write(Q.update("t", [("id", .binary(.add, Q.col("id"), Q.lit(1)))]))
    db.write(Q.update("t", [("id", .binary(.add, Q.col("id"), Q.lit(10)))]))
    db.write(Q.update("t", [("a", Q.lit(7))], where: Q.eq(Q.col("id"), Q.lit(11))))
    db.write(Q.update("t", [("a", Q.lit(7))], where: .binary(.greater, Q.col("id"), Q.lit(11))))
    db.write(Q.update("t", [("a", Q.lit(7)), ("a", Q.lit(8))], where: Q.eq(Q.col("id"), Q.lit(12))))
  }

  @Test func prepareErrors() {
    let db = EngineTandem(TableSchema("t", columns: [.column("a", .null(.integer)), .column("b", .null(.integer))]))
    db.write(.insert(InsertStatement(table: "t", columns: ["c"], rows: [[.literal(1)]])))
    db.write(.insert(InsertStatement(table: "t", columns: ["a"], rows: [[.column("a")]])))
    db.write(.insert(InsertStatement(table: "t", columns: ["a", "a"], rows: [[.literal(1), .literal(2)]])))
    db.write(.insert(InsertStatement(table: "T", columns: ["A"], rows: [[.literal(3)]])))
    db.run(Q.select("nope", [Q.col("a")]))
    db.run(Q.select("t", [Q.col("c")]))
    db.write(Q.update("t", [("c", Q.lit(1))]))
    db.write(Q.update("t", [("a", Q.col("c"))]))
    db.write(Q.delete("t", where: Q.col("c")))
    db.write(Q.update("t", [("a", .aggregate(.count, nil, distinct: false))]))
    db.run(Q.select("t", [Q.col("a")], where: .binary(.greater, .aggregate(.max, Q.col("a"), distinct: false), Q.lit(0))))
    db.run(Q.select("t", [.aggregate(.sum, .aggregate(.count, nil, distinct: false), distinct: false)]))
    db.run(Q.select("t", [Q.col("a")], having: .binary(.greater, Q.col("a"), Q.lit(1))))
    db.run(Q.select("t", [Q.col("a")], orderBy: [OrderingTerm(.aggregate(.sum, Q.col("a"), distinct: false))]))
    db.run(Q.select("t", [.aggregate(.count, nil, distinct: false)], groupBy: [.aggregate(.count, nil, distinct: false)]))
    db.run(Q.select("t", [Q.col("a")], limit: Q.col("a")))
    db.run(Q.select("t", [.excluded("a")]))
    db.run(Q.select("t", [Q.col("a")], where: Q.col("zz"), orderBy: [OrderingTerm(Q.col("yy"))], limit: Q.col("xx")))
  }

  /// Shapes the SQLite backend refuses while rendering: both engines report the same misuse.
  @Test func renderingMisuses() throws {
    let memory = MemoryBackend()
    try memory.create(TableSchema("t", columns: [.column("a", .null(.integer))]), ifNotExists: false)
    let cases: [(Statement, [String: SqliteValue], String)] = [
      (Q.select("t", []), [:], "a select needs at least one result column"),
      (.insert(InsertStatement(table: "t", columns: [], rows: [[.literal(1)]])), [:],
       "an insert without columns inserts exactly one row of default values"),
      (.insert(InsertStatement(table: "t", columns: [], rows: [[]], conflict: .nothing(target: []))), [:],
       "an insert without columns cannot have an ON CONFLICT clause"),
      (.insert(InsertStatement(table: "t", columns: ["a"], rows: [])), [:], "an insert needs at least one row"),
      (.insert(InsertStatement(table: "t", columns: ["a"], rows: [[.literal(1)], []])), [:],
       "insert row 2 has 0 values for 1 columns"),
      (Q.update("t", []), [:], "an update needs at least one assignment"),
      (Q.select("t", [.function(.abs, [])]), [:], "function abs does not take 0 arguments"),
      (Q.select("t", [.function(.max, [Q.col("a")])]), [:], "function max does not take 1 argument"),
      (Q.select("t", [.aggregate(.sum, nil, distinct: false)]), [:], "aggregate sum needs an argument"),
      (Q.select("t", [.aggregate(.count, nil, distinct: true)]), [:], "count(DISTINCT *) is not an aggregate"),
      (Q.select("t", [.caseWhen(base: nil, branches: [], else: nil)]), [:], "a CASE expression needs at least one WHEN branch"),
      (Q.select("nope", [.parameter("x"), .parameter("y")], limit: .parameter("z")), ["x": 1], "missing value for parameter :y"),
      (Q.delete("t", where: .parameter("p")), [:], "missing value for parameter :p"),
    ]
    for (statement, parameters, message) in cases {
      #expect {
        try memory.execute(statement, parameters: parameters)
      } throws: { error in
        (error as? TandemError)?.kind == .misuse && (error as? TandemError)?.message == message
      }
    }
  }

  @Test func reservedNames() {
    // On a connection that never rolled back a schema change (afterwards SQLite reports code 17).
    let db = EngineTandem()
    db.create(TableSchema("sqlite_x", columns: [.column("a", .integer)]))
    db.create(TableSchema("x", columns: [.column("a", .integer)], indexes: [.index("sqlite_i", on: ["a"])]))
    db.create(TableSchema("x", columns: [.column("a", .integer)], indexes: [.index(on: ["b"])]))
    db.create(TableSchema("y", columns: []))
  }

  @Test func ddlErrors() {
    let db = EngineTandem(TableSchema("t", columns: [.column("a", .integer)], indexes: [.index("ia", on: ["a"])]))
    db.create(TableSchema("t", columns: [.column("a", .integer)]))
    db.create(TableSchema("T", columns: [.column("a", .integer)]))
    db.create(TableSchema("t", columns: [.column("a", .integer)]), ifNotExists: true)
    db.create(TableSchema("u", columns: [.column("a", .integer), .column("A", .text)]))
    db.create(TableSchema("u", columns: [.column("a", .integer)], indexes: [.index("ia", on: ["a"])]))
    db.create(TableSchema("ia", columns: [.column("a", .integer)]))
    db.create(TableSchema("v", columns: [.column("a", .integer)], indexes: [.index("t", on: ["a"])]))
    db.drop("nope")
    db.drop("nope", ifExists: true)
    db.drop("T")
    db.drop("t")
  }
}
