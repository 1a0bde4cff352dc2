import Tandem
import Testing

/// Foreign keys are enforced on every backend, with their ON DELETE actions, and undone with the
/// statement or transaction that caused them.
@Suite struct ForeignKeyTests {
  struct Abort: Error {}

  /// Lists 1–3; todos (ON DELETE CASCADE) in lists 1 and 2; a note (NO ACTION) in list 2; tags
  /// (ON DELETE SET NULL) in lists 3 and 1.
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(TodoList.self)
    try db.create(TodoItem.self)
    try db.create(
      TableSchema(
        "notes",
        columns: [.column("id", .integer, primaryKey: true), .column("listID", .null(.integer), references: .table("lists", column: "id"))]))
    try db.create(
      TableSchema(
        "tags",
        columns: [
          .column("id", .integer, primaryKey: true),
          .column("listID", .null(.integer), references: .table("lists", column: "id", onDelete: .setNull)),
        ]))
    try db.insert([TodoList(id: 1, title: "a"), TodoList(id: 2, title: "b"), TodoList(id: 3, title: "c")])
    try db.insert([TodoItem(id: 1, listID: 1, title: "x"), TodoItem(id: 2, listID: 2, title: "y")])
    try db.insertRaw(into: "notes", columns: ["id", "listID"], values: [1, 2])
    for (id, list) in [(1, 3), (2, 3), (3, 1)] as [(Int64, Int64)] {
      try db.insertRaw(into: "tags", columns: ["id", "listID"], values: [.integer(id), .integer(list)])
    }
    return db
  }

  /// A write to `lists` that breaks a foreign key: three keys reference `lists(id)`, so no single
  /// one is to blame and the error names no column.
  static let failure = TandemError.Signature.constraint(
    .foreignKey, table: "lists", columns: [], message: "FOREIGN KEY constraint failed")

  @Test(arguments: BackendKind.allCases)
  func changingAReferencedKeyFails(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let error = try #require(throws: TandemError.self) {
      try db.update(TodoList.where { $0.id == 1 }) { $0.set(\.id, to: 5) }
    }
    #expect(error.signature == Self.failure)
    #expect(try db.fetchAll(TodoList.all.select { $0.id }) == [1, 2, 3])
  }

  @Test(arguments: BackendKind.allCases)
  func noActionBlocksTheDeleteAndItsCascade(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // List 2 has a todo (cascade) and a note (no action): the note wins, nothing is deleted.
    let error = try #require(throws: TandemError.self) { try db.delete(TodoList.where { $0.id == 2 }) }
    #expect(error.signature == Self.failure)
    #expect(try db.fetchAll(TodoItem.all.select { $0.id }) == [1, 2])
    #expect(try db.fetchCount(TodoList.all) == 3)
  }

  @Test(arguments: BackendKind.allCases)
  func setNullAndCascade(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.delete(TodoList.where { $0.id == 3 }) == 1)
    #expect(try db.storedRows(of: "tags", columns: ["id", "listID"]) == [[1, nil], [2, nil], [3, 1]])
    #expect(try db.delete(TodoList.where { $0.id == 1 }) == 1)
    #expect(try db.storedRows(of: "tags", columns: ["id", "listID"]) == [[1, nil], [2, nil], [3, nil]])
    #expect(try db.fetchAll(TodoItem.all.select { $0.id }) == [2])
    // A NULL reference refers to nothing and is allowed.
    try db.insertRaw(into: "notes", columns: ["id", "listID"], values: [2, nil])
    #expect(try db.storedRows(of: "notes", columns: ["listID"]) == [[2], [nil]])
  }

  @Test(arguments: BackendKind.allCases)
  func replacingAParentDeletesItsCascadingChildren(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // OR REPLACE deletes the old parent row, which cascades; an upsert updates it in place.
    try db.insert(TodoList(id: 1, title: "A"), onConflict: .replace)
    #expect(try db.fetchAll(TodoItem.all.select { $0.id }) == [2])
    try db.upsert(TodoList(id: 2, title: "B"))
    #expect(try db.fetchAll(TodoItem.all.select { $0.id }) == [2])
    // The note of list 2 (NO ACTION) is satisfied again by the replacing row.
    try db.insert(TodoList(id: 2, title: "B again"), onConflict: .replace)
    #expect(try db.fetchAll(TodoItem.all.select { $0.id }) == [] as [Int])
    #expect(try db.storedRows(of: "notes", columns: ["listID"]) == [[2]])
    #expect(try db.fetchAll(TodoList.all.select { $0.title }) == ["A", "B again", "c"])
  }

  @Test(arguments: BackendKind.allCases)
  func rolledBackCascadeRestoresTheChildren(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(throws: Abort.self) {
      try db.transaction { db in
        try db.delete(TodoList.where { $0.id == 1 })
        try db.delete(TodoList.where { $0.id == 3 })
        #expect(try db.fetchAll(TodoItem.all.select { $0.id }) == [2])
        throw Abort()
      }
    }
    #expect(try db.fetchAll(TodoItem.all.select { $0.id }) == [1, 2])
    #expect(try db.storedRows(of: "tags", columns: ["listID"]) == [[3], [3], [1]])
  }
}

extension ForeignKeyTests {
  /// Fuzzer seed 0x5EED1007 case 644: an UPDATE that changes no key column of a table that is
  /// its own parent checks no foreign key (SQLite's `sqlite3FkRequired`), so a row whose parent
  /// is missing can still have its other columns changed. (An upsert that takes the DO UPDATE
  /// path's statement, as here, lets SQLite insert such a row.)
  @Test(arguments: BackendKind.allCases)
  func updatingOtherColumnsOfAnOrphanChecksNoKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE node(name TEXT, id TEXT PRIMARY KEY NOT NULL, up TEXT REFERENCES node(id) ON UPDATE SET NULL);
        INSERT INTO node(name, id, up) VALUES ('a', 'abc', '-912') ON CONFLICT (id) DO UPDATE SET id = name;
        """)
    #expect(try db.execute(sql: "UPDATE node SET name = 'renamed'").changes == 1)
    #expect(try db.values(sql: "SELECT name, up FROM node") == [["renamed", "-912"]])
    // Changing the key column itself is checked.
    let error = try #require(throws: TandemError.self) { try db.execute(sql: "UPDATE node SET up = 'nowhere'") }
    #expect(error.kind == .constraintViolation)
  }

  /// Fuzzer seed 0x5EED1007 case 1276: an ON UPDATE action's UPDATE of the child table reads the
  /// old row of every key referencing that table, so a key without a unique parent column there
  /// is a `foreign key mismatch` before anything runs, even over empty tables.
  @Test(arguments: BackendKind.allCases)
  func anActionsUpdateLocatesEveryKeyReferencingItsTable(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE child(g TEXT PRIMARY KEY NOT NULL);
        CREATE TABLE kids(ref INTEGER NOT NULL REFERENCES child(g) ON UPDATE SET DEFAULT, a INTEGER);
        CREATE TABLE grandkids(ref INTEGER NOT NULL REFERENCES kids(a));
        """)
    let error = try #require(throws: TandemError.self) { try db.execute(sql: "UPDATE child SET g = g") }
    #expect(error.signature == .sqlite(code: 1, message: #"foreign key mismatch - "grandkids" referencing "kids""#))
  }

  /// Fuzzer seed 0xC0FFEE27 case 3837: an UPDATE of a table that is its own parent deletes the
  /// old row before it looks for children of the new key, so the old row's reference does not
  /// resolve the violation its new reference makes: `SET k = up, up = 10` on (5, 5) fails.
  @Test(arguments: BackendKind.allCases)
  func anUpdatedRowsOldVersionIsNotAChildOfItsNewKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE o(k INTEGER PRIMARY KEY, up INTEGER REFERENCES o(k));
        CREATE TABLE p(k TEXT PRIMARY KEY, up TEXT REFERENCES p(k) ON UPDATE CASCADE);
        INSERT INTO o VALUES (5, 5); INSERT INTO p VALUES ('5', '5');
        """)
    for sql in ["UPDATE o SET k = up, up = 10", "UPDATE p SET k = up, up = '10'"] {
      let error = try #require(throws: TandemError.self, "\(sql)") { try db.execute(sql: sql) }
      #expect(error.kind == .constraintViolation)
    }
    #expect(try db.values(sql: "SELECT k, up FROM o") == [[5, 5]])
  }

  /// Fuzzer seed 0xC0FFEE39 cases 25322 and 38067: an UPDATE that changes a parent key but no
  /// self-referencing child column, and no key with an ON UPDATE action, leaves the old record in
  /// the table while it scans for children of the new key (it removes only the entries of the
  /// indexes it changes). Setting `b`'s key to itself then finds `b` as a child of the new key,
  /// which resolves the violation the first row made, and the statement succeeds — unless the
  /// scan seeks an index the UPDATE changed.
  @Test(arguments: BackendKind.allCases)
  func anUpdatedRowsOldRecordCanResolveAViolationOfItsStatement(_ kind: BackendKind) throws {
    let update = "UPDATE o SET y = CASE WHEN y = 'a' THEN 'x' ELSE y END"
    for (index, succeeds) in [("", true), ("CREATE INDEX o_up ON o(up);", true), ("CREATE INDEX o_up ON o(up, y);", false)] {
      let db = try makeDatabase(kind)
      try db.execute(
        sql: """
          CREATE TABLE o(y TEXT PRIMARY KEY NOT NULL, up TEXT REFERENCES o(y));
          CREATE TABLE k(ref TEXT REFERENCES o(y));
          \(index)
          INSERT INTO o VALUES ('a', NULL), ('b', 'b'); INSERT INTO k VALUES ('a');
          """)
      if succeeds {
        try db.execute(sql: update)
        #expect(try db.values(sql: "SELECT y FROM o ORDER BY rowid") == [["x"], ["b"]], "\(index)")
      } else {
        let error = try #require(throws: TandemError.self, "\(index)") { try db.execute(sql: update) }
        #expect(error.kind == .constraintViolation && error.constraint == .foreignKey)
        #expect(try db.values(sql: "SELECT y FROM o ORDER BY rowid") == [["a"], ["b"]])
      }
    }
    // An upsert's DO UPDATE does the same: its first row's missing parent is forgiven.
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE o(y TEXT PRIMARY KEY NOT NULL, up TEXT REFERENCES o(y)); INSERT INTO o VALUES ('b', 'b')")
    try db.execute(sql: "INSERT INTO o (y, up) VALUES ('a', 'zz'), ('b', 'q') ON CONFLICT (y) DO UPDATE SET y = excluded.y")
    #expect(try db.values(sql: "SELECT y, up FROM o ORDER BY rowid") == [["b", "b"], ["a", "zz"]])
    // Two indexes on the child column, one the UPDATE changes and one it keeps: which one
    // SQLite's planner seeks decides the answer, so the memory engine refuses.
    let mixed = try makeDatabase(kind)
    try mixed.execute(
      sql: """
        CREATE TABLE o(y TEXT PRIMARY KEY NOT NULL, up TEXT REFERENCES o(y));
        CREATE TABLE k(ref TEXT REFERENCES o(y));
        CREATE INDEX o_up ON o(up, y); CREATE INDEX o_up2 ON o(up);
        INSERT INTO o VALUES ('a', NULL), ('b', 'b'); INSERT INTO k VALUES ('a');
        """)
    _ = try kind.answerUnlessMemoryRefuses {
      do { try mixed.execute(sql: update) } catch let error as TandemError where error.constraint == .foreignKey {}
    }
  }

  /// Fuzzer seed 0xC0FFEE40 case 82255: an upsert without a conflict target codes one DO UPDATE
  /// per check (the rowid's when the row supplies one, then each unique index's). The first one
  /// codes the ON UPDATE SET NULL action of the table's key to itself, and SQLite then takes
  /// every later check of that key for the action's own (`isSetNullAction`): the DO UPDATE for
  /// the unique index never looks up the new parent, and the orphan stays.
  @Test(arguments: BackendKind.allCases)
  func aLaterCodedDoUpdateLooksUpNoParentOfASetNullKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE g (x BLOB NOT NULL, k INTEGER NOT NULL UNIQUE, v INTEGER PRIMARY KEY,
          up INTEGER REFERENCES g (k) ON UPDATE SET NULL);
        INSERT INTO g (x, k) VALUES (1, 7);
        """)
    for sql in [
      "INSERT INTO g (x, k, v, up) VALUES (2, 7, 99, -5) ON CONFLICT (k) DO UPDATE SET up = excluded.up, k = excluded.k",
      "INSERT INTO g (x, k, up) VALUES (2, 7, -5) ON CONFLICT DO UPDATE SET up = excluded.up, k = excluded.k",
    ] {
      let error = try #require(throws: TandemError.self, "\(sql)") { try db.execute(sql: sql) }
      #expect(error.kind == .constraintViolation && error.constraint == .foreignKey)
    }
    try db.execute(sql: "INSERT INTO g (x, k, v, up) VALUES (2, 7, 99, -5) ON CONFLICT DO UPDATE SET up = excluded.up, k = excluded.k")
    #expect(try db.values(sql: "SELECT v, k, up FROM g") == [[1, 7, -5]])
  }

  /// Fuzzer seed 0xC0FFEE41 case 114987: an upsert of one row counts as writing several rows
  /// (`isMultiWrite`) only when its DO UPDATE needs foreign key processing — when it assigns a
  /// key column. Only then does the new row, as a parent, count the orphans it adopts (here the
  /// row whose `up` is 4) against its own missing parent; otherwise its orphan key fails.
  @Test(arguments: BackendKind.allCases)
  func anUpsertWritesSeveralRowsOnlyWhenItsUpdateAssignsAKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    // The first upsert leaves an orphan: its DO UPDATE codes the key's SET NULL action, which
    // makes SQLite skip the parent lookups of the statement (see the test above).
    try db.execute(
      sql: """
        CREATE TABLE c (y TEXT NOT NULL UNIQUE, id INTEGER PRIMARY KEY, up INTEGER REFERENCES c (id) ON UPDATE SET NULL);
        INSERT INTO c (y, id, up) VALUES ('a', 2, 4), ('b', 3, NULL) ON CONFLICT (id) DO UPDATE SET id = 1;
        """)
    #expect(try db.values(sql: "SELECT id, up FROM c ORDER BY id") == [[2, 4], [3, nil]])
    let sql = "INSERT INTO c (y, up) VALUES ('z', 0) ON CONFLICT (y) DO UPDATE SET y = excluded.y"
    let error = try #require(throws: TandemError.self) { try db.execute(sql: sql) }
    #expect(error.kind == .constraintViolation && error.constraint == .foreignKey)
    try db.execute(sql: "INSERT INTO c (y, up) VALUES ('z', 0) ON CONFLICT (y) DO UPDATE SET up = excluded.up")
    #expect(try db.values(sql: "SELECT id, up FROM c ORDER BY id") == [[2, 4], [3, nil], [4, 0]])
  }

  /// Fuzzer seed 0xC0FFEE27 case 6053: an INSERT OR REPLACE of one row into a table with no
  /// unique key and no rowid supplied codes no REPLACE, so it writes one row and checks none of
  /// the keys referencing the table (whose mismatch would otherwise be an error).
  @Test(arguments: BackendKind.allCases)
  func aReplaceThatCannotReplaceIsASingleRowInsert(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE parent(k REAL, b TEXT);
        CREATE TABLE child(ref TEXT REFERENCES parent(k) ON DELETE RESTRICT);
        """)
    #expect(try db.execute(sql: "INSERT OR REPLACE INTO parent(b) VALUES ('x')").changes == 1)
    let error = try #require(throws: TandemError.self) {
      try db.execute(sql: "INSERT OR REPLACE INTO parent(b) VALUES ('y'), ('z')")
    }
    #expect(error.signature == .sqlite(code: 1, message: #"foreign key mismatch - "child" referencing "parent""#))
  }

  /// Fuzzer seed 0xC0FFEE27 case 6053 and 0xC0FFEE28 case 9177: an ON DELETE action finds the
  /// children of the old key under the child column's affinity alone. With a REAL parent 5.0 and
  /// a TEXT child '5', RESTRICT finds no child (SQLite lets INSERT OR REPLACE through, the counting
  /// scans balance) and SET NULL changes no child (so the DELETE fails), where equal affinities
  /// find it.
  @Test(arguments: BackendKind.allCases)
  func anActionFindsChildrenUnderTheChildsAffinity(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE p(k INTEGER UNIQUE); CREATE TABLE c(ref INTEGER REFERENCES p(k) ON DELETE RESTRICT);
        CREATE TABLE rp(k REAL UNIQUE); CREATE TABLE rc(ref TEXT REFERENCES rp(k) ON DELETE RESTRICT);
        CREATE TABLE np(k REAL PRIMARY KEY); CREATE TABLE nc(ref TEXT REFERENCES np(k) ON DELETE SET NULL);
        INSERT INTO p VALUES (5); INSERT INTO c VALUES (5); INSERT INTO rp VALUES (5); INSERT INTO rc VALUES ('5');
        INSERT INTO np VALUES (5), (5.5); INSERT INTO nc VALUES ('5'), ('5.5');
        """)
    let restricted = try #require(throws: TandemError.self) { try db.execute(sql: "INSERT OR REPLACE INTO p(k) VALUES (5)") }
    #expect(restricted.kind == .constraintViolation)
    #expect(try db.execute(sql: "INSERT OR REPLACE INTO rp(k) VALUES ('5')").changes == 1)
    #expect(try db.execute(sql: "DELETE FROM np WHERE k = 5.5").changes == 1)
    #expect(try db.values(sql: "SELECT ref FROM nc ORDER BY rowid") == [["5"], [nil]])
    let orphaned = try #require(throws: TandemError.self) { try db.execute(sql: "DELETE FROM np") }
    #expect(orphaned.kind == .constraintViolation)
  }

  /// Fuzzer seed 0xC0FFEE44 case 532998: of several keys referencing a parent column without a
  /// unique index, SQLite's error names the one whose error it wrote last: the check stops at the
  /// newest mismatch, then each key with an action (newest first) writes its own over it. With
  /// two actions the oldest is named; without, the newest. The memory engine named the newest.
  @Test(arguments: BackendKind.allCases)
  func aForeignKeyMismatchNamesTheKeySQLiteReportsLast(_ kind: BackendKind) throws {
    func mismatch(_ actions: [String], _ statement: String) throws -> String? {
      let db = try makeDatabase(kind)
      try db.execute(sql: "CREATE TABLE p (n REAL)")
      for (index, action) in actions.enumerated() {
        try db.execute(sql: "CREATE TABLE k\(index + 1) (r REAL REFERENCES p (n) \(action))")
      }
      return SubqueryResolutionTests.errorMessage(db, statement)
    }
    #expect(try mismatch(["", "ON DELETE CASCADE", ""], "DELETE FROM p") == "foreign key mismatch - \"k2\" referencing \"p\"")
    #expect(try mismatch(["", "", ""], "DELETE FROM p") == "foreign key mismatch - \"k3\" referencing \"p\"")
    #expect(
      try mismatch(["ON DELETE SET NULL", "ON DELETE CASCADE", ""], "DELETE FROM p")
        == "foreign key mismatch - \"k1\" referencing \"p\"")
    #expect(
      try mismatch(["ON UPDATE CASCADE", "ON DELETE CASCADE", ""], "UPDATE p SET n = 1")
        == "foreign key mismatch - \"k1\" referencing \"p\"")
    #expect(try mismatch(["", "", ""], "UPDATE p SET n = 1") == "foreign key mismatch - \"k3\" referencing \"p\"")
    #expect(try mismatch(["", "", ""], "UPDATE p SET rowid = 1") == nil)
  }
}
