import Tandem
import Testing

/// A foreign key's ON UPDATE action runs, on every backend, when an UPDATE (or an upsert) changes
/// the referenced key of a parent row — as SQLite runs it: after the parent row is written, only
/// when the key's value really changed, on the child rows that held the old key.
@Suite struct ForeignKeyUpdateActionTests {
  /// `parents(id INTEGER PRIMARY KEY, code TEXT UNIQUE)` 1 "a", 2 "b", 7 "z", and one child table
  /// `children(id, parentID, parentCode)` whose two keys have `action` as their ON UPDATE action.
  static func database(
    _ kind: BackendKind, _ action: ForeignKey.Action, childType: SqliteTypeName = .null(.integer),
    childDefault: SqliteValue? = nil
  ) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema(
        "parents",
        columns: [.column("id", .integer, primaryKey: true), .column("code", .text, unique: true)]))
    try db.create(
      TableSchema(
        "children",
        columns: [
          .column("id", .integer, primaryKey: true),
          .column(
            "parentID", childType, default: childDefault, references: .table("parents", column: "id", onUpdate: action)),
          .column("parentCode", .null(.text), references: .table("parents", column: "code", onUpdate: action)),
        ]))
    for (id, code) in [(1, "a"), (2, "b"), (7, "z")] as [(Int64, String)] {
      try db.insertRaw(into: "parents", columns: ["id", "code"], values: [.integer(id), .text(code)])
    }
    for (id, parent, code) in [(1, 1, "a"), (2, 2, "b"), (3, 1, "b")] as [(Int64, Int64, String)] {
      try db.insertRaw(
        into: "children", columns: ["id", "parentID", "parentCode"], values: [.integer(id), .integer(parent), .text(code)])
    }
    return db
  }

  /// `UPDATE parents SET <column> = <value> WHERE id = <id>`, returning the changes.
  @discardableResult
  static func updateParent(_ db: Database, id: Int64, set column: String, to value: SQLExpression) throws -> Int {
    try db.execute(
      .update(
        UpdateStatement(
          table: "parents", assignments: [Assignment(column: column, value: value)],
          filter: .binary(.equal, .column("id"), .literal(.integer(id))))
      )
    ).changes
  }

  static func children(_ db: Database) throws -> [[SqliteValue]] {
    try db.storedRows(of: "children", columns: ["id", "parentID", "parentCode"])
  }

  static let foreignKeyFailure = TandemError.Signature.constraint(
    .foreignKey, table: "parents", columns: ["id"], message: "FOREIGN KEY constraint failed")

  @Test(arguments: BackendKind.allCases)
  func cascadeGivesTheChildrenTheNewKey(_ kind: BackendKind) throws {
    let db = try Self.database(kind, .cascade)
    // Changes count the parent row only, not the rows the action updated.
    #expect(try Self.updateParent(db, id: 1, set: "id", to: .literal(10)) == 1)
    #expect(try Self.children(db) == [[1, 10, "a"], [2, 2, "b"], [3, 10, "b"]])
    try Self.updateParent(db, id: 2, set: "code", to: .literal("bb"))
    #expect(try Self.children(db) == [[1, 10, "a"], [2, 2, "bb"], [3, 10, "bb"]])
  }

  @Test(arguments: BackendKind.allCases)
  func setNullClearsTheChildren(_ kind: BackendKind) throws {
    let db = try Self.database(kind, .setNull)
    try Self.updateParent(db, id: 1, set: "id", to: .literal(10))
    try Self.updateParent(db, id: 2, set: "code", to: .literal("bb"))
    #expect(try Self.children(db) == [[1, nil, "a"], [2, 2, nil], [3, nil, nil]])
  }

  @Test(arguments: BackendKind.allCases)
  func setDefaultGivesTheChildrenTheirDefault(_ kind: BackendKind) throws {
    let db = try Self.database(kind, .setDefault, childType: .integer, childDefault: 7)
    try Self.updateParent(db, id: 1, set: "id", to: .literal(10))
    // parentCode has no DEFAULT: it becomes NULL.
    try Self.updateParent(db, id: 2, set: "code", to: .literal("bb"))
    #expect(try Self.children(db) == [[1, 7, "a"], [2, 2, nil], [3, 7, nil]])
  }

  @Test(arguments: BackendKind.allCases)
  func setDefaultToAMissingParentFails(_ kind: BackendKind) throws {
    let db = try Self.database(kind, .setDefault, childType: .integer, childDefault: 99)
    let error = try #require(throws: TandemError.self) { try Self.updateParent(db, id: 1, set: "id", to: .literal(10)) }
    #expect(error.signature == Self.foreignKeyFailure)
    #expect(try db.storedRows(of: "parents", columns: ["id"]) == [[1], [2], [7]])
    #expect(try Self.children(db) == [[1, 1, "a"], [2, 2, "b"], [3, 1, "b"]])
  }

  @Test(arguments: BackendKind.allCases)
  func setNullOnANotNullColumnFails(_ kind: BackendKind) throws {
    let db = try Self.database(kind, .setNull, childType: .integer)
    let error = try #require(throws: TandemError.self) { try Self.updateParent(db, id: 1, set: "id", to: .literal(10)) }
    #expect(
      error.signature
        == .constraint(.notNull, table: "children", columns: ["parentID"], message: "NOT NULL constraint failed: children.parentID"))
    #expect(try Self.children(db) == [[1, 1, "a"], [2, 2, "b"], [3, 1, "b"]])
  }

  @Test(arguments: BackendKind.allCases)
  func restrictFailsAtOnceWhereNoActionWaitsForTheStatementsEnd(_ kind: BackendKind) throws {
    // Moving keys: 1 → 3 orphans the children of 1 for a moment, 2 → 1 gives them a parent again.
    let swap = UpdateStatement(
      table: "parents",
      assignments: [
        Assignment(
          column: "id",
          value: .caseWhen(
            base: .column("id"),
            branches: [CaseBranch(when: .literal(1), then: .literal(3)), CaseBranch(when: .literal(2), then: .literal(1))],
            else: .column("id")))
      ],
      filter: .inList(.column("id"), [.literal(1), .literal(2)], negated: false))
    let onlyChildrenOfOne = DeleteStatement(table: "children", filter: .binary(.notEqual, .column("parentID"), .literal(1)))
    let noAction = try Self.database(kind, .noAction)
    try noAction.execute(.delete(onlyChildrenOfOne))
    #expect(try noAction.execute(.update(swap)).changes == 2)
    #expect(try noAction.storedRows(of: "parents", columns: ["id", "code"]) == [[1, "b"], [3, "a"], [7, "z"]])

    let restrict = try Self.database(kind, .restrict)
    try restrict.execute(.delete(onlyChildrenOfOne))
    let error = try #require(throws: TandemError.self) { try restrict.execute(.update(swap)) }
    #expect(error.signature == .constraint(.foreignKey, table: "parents", columns: ["id"], message: "FOREIGN KEY constraint failed"))
    #expect(try restrict.storedRows(of: "parents", columns: ["id", "code"]) == [[1, "a"], [2, "b"], [7, "z"]])
  }

  @Test(arguments: BackendKind.allCases)
  func anActionRunsOnlyWhenTheKeyValueChanges(_ kind: BackendKind) throws {
    let db = try Self.database(kind, .restrict)
    // Assigning the same key (even as 1.0, which the INTEGER column stores as 1) restricts nothing.
    #expect(try Self.updateParent(db, id: 1, set: "id", to: .column("id")) == 1)
    #expect(try Self.updateParent(db, id: 1, set: "id", to: .literal(1.0)) == 1)
    #expect(try Self.updateParent(db, id: 2, set: "code", to: .literal("b")) == 1)
    // A parent without children may change its key.
    #expect(try Self.updateParent(db, id: 7, set: "id", to: .literal(8)) == 1)
    let error = try #require(throws: TandemError.self) { try Self.updateParent(db, id: 2, set: "code", to: .literal("c")) }
    #expect(error.signature == .constraint(.foreignKey, table: "parents", columns: ["code"], message: "FOREIGN KEY constraint failed"))
  }

  @Test(arguments: BackendKind.allCases)
  func cascadeThroughASelfReferencingTable(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema(
        "categories",
        columns: [
          .column("id", .integer, primaryKey: true),
          .column("parentID", .null(.integer), references: .table("categories", column: "id", onUpdate: .cascade)),
        ]))
    for (id, parent) in [(1, nil), (2, 1), (3, 2), (4, 1)] as [(Int64, Int64?)] {
      try db.insertRaw(into: "categories", columns: ["id", "parentID"], values: [.integer(id), parent.map { .integer($0) } ?? .null])
    }
    let shift = UpdateStatement(
      table: "categories", assignments: [Assignment(column: "id", value: .binary(.add, .column("id"), .literal(10)))])
    #expect(try db.execute(.update(shift)).changes == 4)
    #expect(try db.storedRows(of: "categories", columns: ["id", "parentID"]) == [[11, nil], [12, 11], [13, 12], [14, 11]])
  }

  @Test(arguments: BackendKind.allCases)
  func aCascadeIntoAnotherTablesRowidNamesNoTable(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema("codes", columns: [.column("id", .integer, primaryKey: true), .column("code", .text, unique: true)]))
    try db.create(
      TableSchema(
        "kids", columns: [.column("id", .integer, primaryKey: true, references: .table("codes", column: "code", onUpdate: .cascade))]))
    try db.insertRaw(into: "codes", columns: ["id", "code"], values: [1, "1"])
    try db.insertRaw(into: "kids", columns: ["id"], values: [1])
    let setCode = { (code: SqliteValue) in
      try db.execute(.update(UpdateStatement(table: "codes", assignments: [Assignment(column: "code", value: .literal(code))])))
    }
    // The cascade writes 'x' into kids' rowid; SQLite's error does not say which table's.
    let error = try #require(throws: TandemError.self) { try setCode("x") }
    #expect(error.signature == .sqlite(code: 20, message: "datatype mismatch"))
    _ = try setCode("7")
    #expect(try db.storedRows(of: "kids", columns: ["id"]) == [[7]])
  }

  @Test(arguments: BackendKind.allCases)
  func anUpsertRunsTheAction(_ kind: BackendKind) throws {
    let db = try Self.database(kind, .cascade)
    // ON CONFLICT (id) DO UPDATE SET code = excluded.code.
    let upsert = InsertStatement(
      table: "parents", columns: ["id", "code"], rows: [[.literal(1), .literal("aa")]],
      conflict: .update(target: ["id"], assignments: [Assignment(column: "code", value: .excluded("code"))]))
    try db.execute(.insert(upsert))
    #expect(try Self.children(db) == [[1, 1, "aa"], [2, 2, "b"], [3, 1, "b"]])
  }

  @Test(arguments: BackendKind.allCases)
  func aFailedTransactionUndoesTheCascade(_ kind: BackendKind) throws {
    struct Abort: Error {}
    let db = try Self.database(kind, .cascade)
    #expect(throws: Abort.self) {
      try db.transaction { db in
        _ = try db.execute(
          .update(
            UpdateStatement(
              table: "parents", assignments: [Assignment(column: "id", value: .literal(10))],
              filter: .binary(.equal, .column("id"), .literal(1)))))
        throw Abort()
      }
    }
    #expect(try Self.children(db) == [[1, 1, "a"], [2, 2, "b"], [3, 1, "b"]])
  }

  /// Relational fuzzer, seed 0xC0FFEE6D, case 166,446: the UPDATE's subquery reads `c` through an
  /// automatic index SQLite builds once, on the first parent row; the SET NULL that row's update
  /// runs on `c` does not reach the index, so the second parent row still meets `'a'` and takes
  /// the first one's key (a UNIQUE failure). The engine reads `c` afresh: a subquery reading a table
  /// the statement's foreign key actions change through an automatic index is refused. Without the
  /// action, every engine meets the same `'a'` and fails alike.
  @Test(arguments: BackendKind.allCases)
  func anUpdatesSubqueryReadingATableItsActionsChangeIsRefused(_ kind: BackendKind) throws {
    for action in ["ON UPDATE SET NULL", ""] {
      let db = try makeDatabase(kind)
      try db.execute(sql: "CREATE TABLE p (a TEXT, d TEXT PRIMARY KEY)")
      try db.execute(sql: "CREATE TABLE c (ref TEXT REFERENCES p (d) \(action), id INTEGER PRIMARY KEY, x BLOB)")
      try db.execute(sql: "INSERT INTO p (d, a) VALUES ('a', 'b')")
      try db.execute(sql: "INSERT INTO p (a) VALUES ('e')")
      try db.execute(sql: "INSERT INTO c (ref, x) VALUES ('a', X'00')")
      let update = """
        UPDATE p SET d = (a IN (SELECT k.ref FROM c AS b JOIN c AS k ON b.x = k.x \
        WHERE b.ref NOT IN (SELECT c.id FROM c WHERE p.d)))
        """
      let error = try #require(throws: TandemError.self, "\(action)") { try db.execute(sql: update) }
      if action.isEmpty || kind == .sqliteFile || kind == .sqliteInMemory {
        #expect(error.kind == .constraintViolation, "\(action)")
      } else {
        #expect(error.kind == (kind == .memory ? .unsupported : .divergence), "\(action)")
      }
      #expect(try db.values(sql: "SELECT d FROM p ORDER BY rowid") == [["a"], [nil]], "\(action)")
    }
  }

  /// Relational fuzzer, seed 0xC0FFEE6E, case 2,104: the refusal above, raised while the subquery
  /// was compiled, cut name resolution short, and the engine reported `no_such_column` where
  /// SQLite reports the outer column its DISTINCT subquery's ORDER BY cannot see. It is raised
  /// when the subquery runs: names come first.
  @Test(arguments: BackendKind.allCases)
  func theRefusalOfAnAutomaticIndexComesAfterNameErrors(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE p (y INTEGER PRIMARY KEY)")
    try db.execute(sql: "CREATE TABLE c (ref INTEGER REFERENCES p (y) ON UPDATE CASCADE)")
    let update = """
      UPDATE p SET y = 5 WHERE no_such_column IN \
      (SELECT DISTINCT p.y FROM c WHERE c.ref = p.y ORDER BY p.y)
      """
    let error = try #require(throws: TandemError.self) { try db.execute(sql: update) }
    #expect(error.signature == .sqlite(code: 1, message: "no such column: p.y"))
  }
}
