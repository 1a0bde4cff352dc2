import Testing
import TandemCore
@testable import TandemMemory

/// Foreign keys as SQLite enforces them with `PRAGMA foreign_keys = ON`: missing parents,
/// ON DELETE actions, statement-level counting and schema errors.
@Suite struct EngineForeignKeyTests {
  static func parent(_ name: String = "p") -> TableSchema {
    TableSchema(name, columns: [.column("id", .integer, primaryKey: true), .column("code", .null(.text), unique: true)])
  }

  static func child(_ action: ForeignKey.Action, column: String = "id", notNull: Bool = false, name: String = "c")
    -> TableSchema
  {
    TableSchema(
      name,
      columns: [
        .column("id", .integer, primaryKey: true),
        .column(
          "pid", notNull ? .integer : .null(.integer), default: 7,
          references: .table("p", column: column, onDelete: action)),
        .column("u", .null(.integer), unique: true),
      ])
  }

  static func seeded(_ action: ForeignKey.Action) -> EngineTandem {
    let db = EngineTandem(parent(), child(action))
    db.write(Q.insert("p", ["id", "code"], [[1, "a"], [2, "b"], [7, "g"]]))
    db.write(Q.insert("c", ["id", "pid", "u"], [[1, 1, 1], [2, 1, 2], [3, 2, 3], [4, nil, 4]]))
    return db
  }

  @Test func childrenNeedParents() {
    let db = Self.seeded(.noAction)
    db.write(Q.insert("c", ["pid"], [[9]]))
    db.write(Q.insert("c", ["pid"], [["1"], [1.0], [" 2 "], [nil]]))
    db.write(Q.insert("c", ["pid"], [["x"]]))
    db.write(Q.insert("c", ["pid", "u"], [[9, 10], [1, 1]]))
    db.write(Q.update("c", [("pid", Q.lit(9))], where: Q.eq(Q.col("id"), Q.lit(1))))
    db.write(Q.update("c", [("pid", Q.lit(2))], where: Q.eq(Q.col("id"), Q.lit(1))))
    db.write(Q.update("c", [("u", Q.lit(20))]))
  }

  @Test func deleteActions() {
    for action in [ForeignKey.Action.noAction, .restrict, .cascade, .setNull, .setDefault] {
      let db = Self.seeded(action)
      db.write(Q.delete("p", where: Q.eq(Q.col("id"), Q.lit(2))))
      db.write(Q.delete("p", where: Q.eq(Q.col("id"), Q.lit(7))))
      db.write(Q.delete("p"))
      db.write(Q.update("p", [("id", Q.lit(5))], where: Q.eq(Q.col("id"), Q.lit(1))))
      db.write(Q.insert("p", ["id", "code"], [[1, "z"]], .replace))
      db.write(Q.insert("p", ["id", "code"], [[3, "a"]], .replace))
      db.drop("p")
      db.write(Q.insert("c", ["pid"], [[nil]]))
      db.write(Q.delete("c"))
    }
  }

  @Test func setNullOnNotNullColumnFails() {
    let db = EngineTandem(Self.parent(), Self.child(.setNull, notNull: true))
    db.write(Q.insert("p", ["id"], [[1]]))
    db.write(Q.insert("c", ["pid"], [[1]]))
    db.write(Q.delete("p"))
  }

  @Test func uniqueParentColumnsAndAffinity() {
    let db = EngineTandem(Self.parent(), Self.child(.cascade, column: "code"))
    db.write(Q.insert("p", ["id", "code"], [[1, "1"], [2, "b"]]))
    db.write(Q.insert("c", ["pid"], [[1], ["1"], [2]]))
    db.write(Q.update("p", [("code", Q.lit("x"))], where: Q.eq(Q.col("id"), Q.lit(2))))
    db.write(Q.delete("p", where: Q.eq(Q.col("code"), Q.lit("1"))))
  }

  @Test func selfReferencesAreCountedPerStatement() {
    let tree = TableSchema(
      "p", columns: [.column("id", .integer, primaryKey: true), .column("parent", .null(.integer), references: .table("p", column: "id"))])
    let db = EngineTandem(tree)
    db.write(Q.insert("p", ["id", "parent"], [[1, 2], [2, 1]]))
    db.write(Q.insert("p", ["id", "parent"], [[3, 3]]))
    db.write(Q.insert("p", ["id", "parent"], [[4, 5]]))
    db.write(Q.delete("p", where: .binary(.less, Q.col("id"), Q.lit(3))))
    db.write(Q.update("p", [("id", Q.lit(5))], where: Q.eq(Q.col("id"), Q.lit(3))))
    db.write(Q.insert("p", ["id", "parent"], [[10, nil], [11, 10], [12, 11]]))
    db.write(Q.delete("p", where: Q.eq(Q.col("id"), Q.lit(10))))
    db.write(Q.delete("p", where: .binary(.greater, Q.col("id"), Q.lit(9))))
  }

  @Test func cascadeChainsAndTheTriggerDepthLimit() {
    let tree = TableSchema(
      "p",
      columns: [
        .column("id", .integer, primaryKey: true),
        .column("parent", .null(.integer), references: .table("p", column: "id", onDelete: .cascade)),
      ])
    for length in [999, 1000, 1001] {
      let db = EngineTandem(tree)
      let rows: [[SqliteValue]] = (1...length).map { [.integer(Int64($0)), $0 == 1 ? nil : .integer(Int64($0 - 1))] }
      db.write(Q.insert("p", ["id", "parent"], rows))
      let outcome = db.run(Q.delete("p", where: Q.eq(Q.col("id"), Q.lit(1))))
      #expect((outcome.errorMessage != nil) == (length > 1000))
      db.run(Q.select("p", [.aggregate(.count, nil, distinct: false)]))
    }
  }

  @Test func schemaErrors() {
    let db = EngineTandem(
      TableSchema("q", columns: [.column("id", .null(.integer)), .column("v", .null(.integer))]),
      TableSchema("c", columns: [.column("x", .null(.integer), references: .table("q", column: "id"))]),
      TableSchema("o", columns: [.column("x", .null(.integer), references: .table("missing", column: "id"))]))
    db.write(Q.insert("c", ["x"], [[1]]))
    db.write(Q.insert("q", ["id"], [[1]]))
    db.write(Q.insert("q", ["id"], [[1], [2]]))
    db.write(Q.delete("q"))
    db.write(Q.update("q", [("v", Q.lit(1))]))
    db.write(Q.update("q", [("id", Q.lit(1))]))
    db.write(Q.insert("o", ["x"], [[nil]]))
    db.write(Q.delete("o"))
    db.write(Q.update("o", [("x", Q.lit(1))]))
    db.run(Q.select("o", [Q.col("x")]))
    db.drop("q")
    db.drop("o")
  }
}

/// How a child value finds its parent: the parent column's affinity applied as for a comparison,
/// then an exact comparison (an integer never equals a rounded REAL).
@Suite struct EngineForeignKeyLookupTests {
  @Test func realParentsCompareExactly() {
    let parent = TableSchema("g", columns: [.column("n", .real, primaryKey: true)])
    let child = TableSchema("d", columns: [.column("ref", .null(.text), references: .table("g", column: "n"))])
    let db = EngineTandem(parent, child)
    db.write(Q.insert("g", ["n"], [[.integer(-9223372036854775807)], [.integer(9007199254740993)], [5]]))
    for value: SqliteValue in [
      .integer(-9223372036854775807), .integer(.min), -9.223372036854776e18, "-9223372036854775807", "-9223372036854775808",
      .integer(9007199254740993), "9007199254740993", .integer(9007199254740992), "5", "5.0", 5, " 5",
    ] {
      db.write(Q.insert("d", ["ref"], [[value]]))
    }
  }
}
