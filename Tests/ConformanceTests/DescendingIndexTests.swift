import Tandem
import Testing

/// An index column declared `DESC` keeps its larger values first: SQLite walks it that way (so
/// rows come in that order where no ORDER BY decides, and ties of a backwards walk come in
/// descending rowid order), searches its ranges from the other end, and picks the row a bare
/// column of `min()` reads from it. Every engine answers alike.
@Suite struct DescendingIndexTests {
  /// `t(id, x, y)` with `x` indexed descending; x is 3, NULL, 1, 3, 2, NULL, 1 for ids 1…7.
  static func database(_ kind: BackendKind, index: String = "CREATE INDEX t_x ON t(x DESC)") throws -> Database {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE t(id INTEGER PRIMARY KEY, x INTEGER, y TEXT);
        \(index);
        INSERT INTO t VALUES (1, 3, 'a'), (2, NULL, 'b'), (3, 1, 'c'), (4, 3, 'd'), (5, 2, 'e'), (6, NULL, 'f'),
          (7, 1, 'g');
        """)
    return db
  }

  /// The ids of a query's rows, in the order they come.
  static func ids(_ db: Database, _ sql: String) throws -> [Int] {
    try db.fetchAll(sql: sql).map { try $0[0] as Int }
  }

  @Test(arguments: BackendKind.allCases)
  func rangesAreWalkedFromTheLargestValue(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x > 1") == [1, 4, 5])
    // Bounded above only: the walk starts past the bound and stops at the NULLs.
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x < 3") == [5, 3, 7])
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x BETWEEN 1 AND 2") == [5, 3, 7])
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x >= 2 AND x < 3") == [5])
    // An IN list's values are looked up largest first.
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x IN (1, 3)") == [1, 4, 3, 7])
  }

  @Test(arguments: BackendKind.allCases)
  func anAscendingOrderWalksTheIndexBackwards(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // Ties of a backwards walk come in descending rowid order.
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x > 0 ORDER BY x") == [7, 3, 5, 4, 1])
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x > 0 ORDER BY x DESC") == [1, 4, 5, 3, 7])
  }

  @Test(arguments: BackendKind.allCases)
  func nullsAtTheOtherEndAreWalkedInTwoPasses(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(
      try Self.ids(db, "SELECT id FROM t WHERE x > 0 OR x IS NULL ORDER BY x DESC NULLS FIRST") == [2, 6, 1, 4, 5, 3, 7])
    #expect(
      try Self.ids(db, "SELECT id FROM t WHERE x > 0 OR x IS NULL ORDER BY x ASC NULLS LAST") == [7, 3, 5, 4, 1, 6, 2])
  }

  /// `min(x)` reads the index backwards from its last non-NULL entry, so its bare column is the
  /// last row of the smallest value; `max(x)` reads it forwards.
  @Test(arguments: BackendKind.allCases)
  func minAndMaxReadTheirBareColumnFromTheIndex(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try Self.ids(db, "SELECT id, min(x) FROM t") == [7])
    #expect(try Self.ids(db, "SELECT id, max(x) FROM t") == [1])
  }

  /// Equal leading values, then a descending second column: each key's rows by that column.
  @Test(arguments: BackendKind.allCases)
  func aMixedIndexOrdersEachColumnItsOwnWay(_ kind: BackendKind) throws {
    let db = try Self.database(kind, index: "CREATE INDEX t_xy ON t(x, y DESC)")
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x = 3 AND y > ''") == [4, 1])
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x = 1 ORDER BY y") == [3, 7])
    #expect(try Self.ids(db, "SELECT id FROM t WHERE x >= 1 ORDER BY x, y DESC") == [7, 3, 5, 4, 1])
  }

  /// A unique DESC index refuses a repeated key like any other, and leaves the table as it was.
  @Test(arguments: BackendKind.allCases)
  func aUniqueDescendingIndexRefusesARepeatedKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE u(id INTEGER PRIMARY KEY, k TEXT); CREATE UNIQUE INDEX u_k ON u(k DESC)")
    try db.execute(sql: "INSERT INTO u VALUES (1, 'a'), (2, 'b')")
    let error = try #require(throws: TandemError.self) { try db.execute(sql: "INSERT INTO u VALUES (3, 'a')") }
    #expect(error.message == "UNIQUE constraint failed: u.k")
    #expect(try Self.ids(db, "SELECT id FROM u WHERE k < 'z'") == [2, 1])
  }

  /// The typed schema declares the direction and renders it; its queries answer alike.
  @Test(arguments: BackendKind.allCases)
  func aTypedSchemaDeclaresDescendingColumns(_ kind: BackendKind) throws {
    var schema = Item.schema
    schema.indexes = [.index("items_by_stock", on: ["stock", "name"], descending: ["stock"])]
    #expect(
      schema.createIndexSQL() == [#"CREATE INDEX "items_by_stock" ON "items" ("stock" DESC, "name")"#])
    let db = try makeDatabase(kind)
    try db.create(schema)
    try db.insert((1...6).map { Item(id: $0, name: "item \($0)", stock: $0 % 3) })
    #expect(try db.fetchAll(Item.where { $0.stock > 0 }.order { $0.stock.desc() }.select { $0.id }) == [2, 5, 1, 4])
    #expect(try Self.ids(db, "SELECT id FROM items WHERE stock > 0") == [2, 5, 1, 4])
  }

  /// A descending column that is not among the index's columns is a mistake, refused before
  /// anything is created.
  @Test(arguments: BackendKind.allCases)
  func aDescendingColumnOutsideTheIndexIsMisuse(_ kind: BackendKind) throws {
    var schema = Item.schema
    schema.indexes = [.index("items_by_stock", on: ["stock"], descending: ["name"])]
    let db = try makeDatabase(kind)
    let error = try #require(throws: TandemError.self) { try db.create(schema) }
    #expect(error.kind == .misuse)
    #expect(error.message.contains("items_by_stock"))
    // Nothing was created: the table can be created now.
    try db.create(Item.schema)
  }
}
