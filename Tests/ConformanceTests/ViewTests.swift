import Tandem
import Testing

/// Views in SQL text: `CREATE VIEW` keeps a SELECT, which every statement reading the view runs
/// as a subquery against the tables of that moment; SQLite's refusals come with its messages.
@Suite struct ViewTests {
  /// `t(id, x)` with ids 1…4 and x 10, 20, 30, NULL; `big` shows the rows with x > 15.
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE t(id INTEGER PRIMARY KEY, x INTEGER);
        INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, NULL);
        CREATE VIEW big AS SELECT id, x FROM t WHERE x > 15;
        """)
    return db
  }

  static func values(_ db: Database, _ sql: String) throws -> [[SqliteValue]] {
    try db.fetchAll(sql: sql, rowOrder: .unordered).map(\.values).sorted { "\($0)" < "\($1)" }
  }

  @Test(arguments: BackendKind.allCases)
  func aViewIsReadAsItsSelect(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.values(sql: "SELECT id, x FROM big ORDER BY id") == [[2, 20], [3, 30]])
    #expect(try db.fetchAll(sql: "SELECT * FROM big AS b WHERE b.x < 25").map(\.columnNames) == [["id", "x"]])
    // It reads the table as it is now.
    try db.execute(sql: "INSERT INTO t VALUES (5, 50)")
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM big") == 3)
    // A view of a view, with its own column names; read twice in one compound.
    try db.execute(sql: "CREATE VIEW doubled(n, twice) AS SELECT id, x * 2 FROM big")
    #expect(try db.fetchAll(sql: "SELECT * FROM doubled ORDER BY n").map(\.columnNames).first == ["n", "twice"])
    #expect(try Self.values(db, "SELECT n FROM doubled UNION ALL SELECT n FROM doubled") == [[2], [2], [3], [3], [5], [5]])
    #expect(try Self.values(db, "SELECT big.id FROM t JOIN big ON big.id = t.id WHERE t.x = 20") == [[2]])
  }

  @Test(arguments: BackendKind.allCases)
  func aViewCannotBeChangedIndexedOrDroppedAsATable(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    for sql in ["INSERT INTO big VALUES (9, 90)", "UPDATE big SET x = 0", "DELETE FROM big"] {
      let error = try #require(throws: TandemError.self) { try db.execute(sql: sql) }
      #expect(error.signature == .sqlite(code: 1, message: "cannot modify big because it is a view"))
    }
    let refusals = [
      ("CREATE INDEX big_x ON big(x)", "views may not be indexed"),
      ("DROP TABLE big", "use DROP VIEW to delete view big"),
      ("DROP VIEW t", "use DROP TABLE to delete table t"),
      ("DROP VIEW missing", "no such view: missing"),
      ("CREATE VIEW big AS SELECT 1", "view big already exists"),
      ("CREATE VIEW t AS SELECT 1", "table t already exists"),
      ("CREATE TABLE big(a)", "view big already exists"),
      ("CREATE VIEW p AS SELECT x FROM t WHERE id = ?", "parameters are not allowed in views"),
    ]
    for (sql, message) in refusals {
      let error = try #require(throws: TandemError.self) { try db.execute(sql: sql) }
      #expect(error.signature == .sqlite(code: 1, message: message), "\(sql)")
    }
    try db.execute(sql: "DROP VIEW IF EXISTS missing; CREATE VIEW IF NOT EXISTS big AS SELECT 1")
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM big") == 2)
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM t") == 4)
  }

  /// SQLite reads a view's SELECT only when a statement reads the view: its errors come then.
  @Test(arguments: BackendKind.allCases)
  func aViewsErrorsComeWhenItIsRead(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(
      sql: """
        CREATE VIEW wrong AS SELECT nope FROM t;
        CREATE VIEW two(a, b) AS SELECT id FROM t;
        CREATE VIEW onBig AS SELECT id FROM big;
        CREATE VIEW loop1 AS SELECT 1 AS one;
        CREATE VIEW loop2 AS SELECT * FROM loop1;
        DROP VIEW loop1;
        CREATE VIEW loop1 AS SELECT * FROM loop2;
        DROP VIEW big;
        """)
    let expected = [
      ("SELECT * FROM wrong", "no such column: nope"),
      ("SELECT * FROM two", "expected 2 columns for 'two' but got 1"),
      ("SELECT * FROM onBig", "no such table: main.big"),
      ("SELECT * FROM loop1", "view loop1 is circularly defined"),
    ]
    for (sql, message) in expected {
      let error = try #require(throws: TandemError.self) { _ = try db.fetchAll(sql: sql) }
      #expect(error.signature == .sqlite(code: 1, message: message), "\(sql)")
    }
  }

  @Test(arguments: BackendKind.allCases)
  func creatingAndDroppingAViewRollBack(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "BEGIN; CREATE VIEW small AS SELECT id FROM t WHERE x < 15; DROP VIEW big; ROLLBACK")
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM big") == 2)
    let gone = try #require(throws: TandemError.self) { _ = try db.fetchAll(sql: "SELECT * FROM small") }
    #expect(gone.signature == .sqlite(code: 1, message: "no such table: small"))
    try db.execute(sql: "CREATE TEMP VIEW small AS SELECT id FROM t WHERE x < 15")
    #expect(try db.values(sql: "SELECT id FROM small") == [[1]])
  }
}
