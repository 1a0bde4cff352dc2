import Foundation
import Tandem
import Testing

/// SQL text on every engine: SQLite runs it as written, the memory engine parses it; both must
/// give the same rows, column names, counts and errors.
@Suite struct RawSQLTests {
  static let schema = """
    CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', stock INTEGER NOT NULL DEFAULT 0,
      reorderLevel INTEGER NOT NULL DEFAULT 0, price REAL NOT NULL DEFAULT 0.0, discount INTEGER);
    """

  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.execute(sql: schema)
    try db.execute(
      sql: "INSERT INTO item(id, name, stock, price, discount) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)",
      arguments: [1, "apple", 5, 1.5, nil, 2, "banana", 20, 0.25, 10])
    return db
  }

  /// A double-quoted name that names no column is an error, never the text of the name:
  /// SQLite's legacy double-quoted strings are off (regression: the memory engine read
  /// `SELECT "titel"` as the string 'titel', in every clause, where SQLite reports the typo).
  @Test(arguments: BackendKind.allCases)
  func aDoubleQuotedNameThatNamesNoColumnIsAnError(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    for sql in [
      #"SELECT "nmae" FROM item"#, #"SELECT id FROM item WHERE "nmae" = 'nmae'"#,
      #"SELECT id FROM item ORDER BY "nmae""#, #"SELECT count(*) FROM item GROUP BY "nmae""#,
      #"SELECT id FROM item WHERE 1 IN (SELECT id FROM item ORDER BY "nmae")"#,
      #"UPDATE item SET stock = 1 WHERE "nmae" = 'nmae'"#,
    ] {
      let error = try #require(throws: TandemError.self, "\(sql)") { try db.fetchAll(sql: sql) }
      #expect(error.signature == .sqlite(code: 1, message: "no such column: nmae"), "\(sql)")
    }
    // Quoted, `true` is a name too; bare, it is the boolean.
    let quoted = try #require(throws: TandemError.self) { try db.fetchAll(sql: #"SELECT "true" FROM item"#) }
    #expect(quoted.signature == .sqlite(code: 1, message: "no such column: true"))
    #expect(try db.values(sql: "SELECT true, FALSE") == [[1, 0]])
  }

  @Test(arguments: BackendKind.allCases)
  func rowsCarryTheirColumnNamesAndDecodeByNameOrPosition(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let rows = try db.fetchAll(sql: "SELECT name, stock * 2 AS doubled, discount, price + 1 FROM item ORDER BY id")
    #expect(rows.map(\.columnNames) == Array(repeating: ["name", "doubled", "discount", "price + 1"], count: 2))
    #expect(try rows[0]["name"] as String == "apple")
    #expect(try rows[0]["DOUBLED"] as Int == 10)
    #expect(try rows[0]["discount"] as Int? == nil)
    #expect(try rows[1][2] as Int == 10)
    #expect(try rows[1][3] as Double == 1.25)
    let missing = try #require(throws: TandemError.self) { _ = try rows[0]["nope"] as Int }
    #expect(missing.kind == .misuse)
    let null = try #require(throws: TandemError.self) { _ = try rows[0]["discount"] as Int }
    #expect(null.kind == .decodingFailure)
  }

  /// A result column reading the rowid of a table with an INTEGER PRIMARY KEY is named after that
  /// column, however the rowid is spelled; `rowid` without one. The memory engine named every
  /// rowid `rowid` (found beside 0xC0FFEE75 case 1,996, where tandem mode reported the names).
  @Test(arguments: BackendKind.allCases)
  func aRowidColumnIsNamedAfterTheIntegerPrimaryKey(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "CREATE TABLE note (body TEXT)")
    let aliased = try db.fetchAll(sql: "SELECT item.rowid, item.oid, (i._rowid_), i.rowid FROM item, item AS i WHERE i.id = item.id ORDER BY 1")
    #expect(aliased.first?.columnNames == ["id", "id", "id", "id"])
    #expect(try db.fetchAll(sql: "SELECT rowid, (oid) FROM item ORDER BY 1").first?.columnNames == ["id", "id"])
    try db.execute(sql: "INSERT INTO note VALUES ('a')")
    #expect(try db.fetchAll(sql: "SELECT rowid, oid FROM note").first?.columnNames == ["rowid", "rowid"])
    #expect(try db.fetchAll(sql: "SELECT rowid AS n FROM item ORDER BY 1").first?.columnNames == ["n"])
  }

  @Test(arguments: BackendKind.allCases)
  func argumentsBindByPositionOrByName(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.fetchOne(String.self, sql: "SELECT name FROM item WHERE id = ?", arguments: [2]) == "banana")
    #expect(try db.fetchOne(String.self, sql: "SELECT name FROM item WHERE id = ?2 AND stock > ?1", arguments: [1, 2]) == "banana")
    for name in [":id", "@id", "$id"] {
      #expect(try db.fetchOne(String.self, sql: "SELECT name FROM item WHERE id = \(name)", arguments: ["id": 1]) == "apple")
    }
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM item WHERE stock > :n OR id = :n", arguments: ["n": 1]) == 2)
    // A value that reads like SQL stays a value.
    let injected = "x'); DROP TABLE item; --"
    try db.execute(sql: "INSERT INTO item(id, name) VALUES (3, ?)", arguments: [.text(injected)])
    #expect(try db.fetchOne(String.self, sql: "SELECT name FROM item WHERE id = 3") == injected)
  }

  @Test(arguments: BackendKind.allCases)
  func missingOrExtraArgumentsAreMisuseAndRunNothing(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let tooFew = try #require(throws: TandemError.self) {
      try db.execute(sql: "UPDATE item SET stock = ? WHERE id = ?", arguments: [7])
    }
    #expect(tooFew.kind == .misuse)
    let unnamed = try #require(throws: TandemError.self) {
      try db.execute(sql: "UPDATE item SET stock = :stock WHERE id = :id", arguments: ["stock": 7])
    }
    #expect(unnamed.kind == .misuse)
    #expect(try db.fetchAll(sql: "SELECT stock FROM item ORDER BY id").map { try $0[0] as Int } == [5, 20])
  }

  @Test(arguments: BackendKind.allCases)
  func recordsAndValuesFromSQL(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let items = try db.fetchAll(Item.self, sql: "SELECT * FROM item WHERE price < ? ORDER BY id DESC", arguments: [2.0])
    #expect(items == [
      Item(id: 2, name: "banana", stock: 20, reorderLevel: 0, price: 0.25, discount: 10),
      Item(id: 1, name: "apple", stock: 5, reorderLevel: 0, price: 1.5, discount: nil),
    ])
    #expect(try db.fetchOne(Item.self, sql: "SELECT * FROM item WHERE id = 9") == nil)
    let missingColumn = try #require(throws: TandemError.self) {
      _ = try db.fetchAll(Item.self, sql: "SELECT id, name FROM item")
    }
    #expect(missingColumn.kind == .misuse)
    #expect(try db.fetchOne(Int.self, sql: "SELECT sum(stock) FROM item") == 25)
  }

  @Test(arguments: BackendKind.allCases)
  func aScriptRunsEveryStatementAndReportsTheLast(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    let result = try db.execute(sql: """
      CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT);  -- a comment
      INSERT INTO note(body) VALUES (?), (?), (?);
      /* another */ UPDATE note SET body = upper(body) WHERE id >= ?;
      """, arguments: ["a", "b", "c", 2])
    #expect(result.changes == 2)
    let insert = try db.execute(sql: "INSERT INTO note(body) VALUES ('d')")
    #expect(insert.lastInsertRowid == 4 && insert.changes == 1)
    #expect(try db.execute(sql: "CREATE TABLE other(x)").changes == 0)
    #expect(try db.fetchAll(sql: "SELECT body FROM note ORDER BY id").map { try $0["body"] as String } == ["a", "B", "C", "d"])
  }

  @Test(arguments: BackendKind.allCases)
  func syntaxErrorsAreSQLitesOwn(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    for (sql, message) in [
      ("SELECT name FROM item WHERE", "incomplete input"),
      ("SELECT name FROM FROM item", #"near "FROM": syntax error"#),
      ("SELEC 1", #"near "SELEC": syntax error"#),
      ("SELECT nope FROM item", "no such column: nope"),
      ("SELECT * FROM missing", "no such table: missing"),
    ] {
      let error = try #require(throws: TandemError.self) { _ = try db.fetchAll(sql: sql) }
      #expect(error.signature == .sqlite(code: 1, message: message), "\(sql)")
    }
  }

  @Test(arguments: BackendKind.allCases)
  func rowsBeforeAnErrorAreHandedOverFirst(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "INSERT INTO item(id, name, stock) VALUES (3, 'min', -9223372036854775808)")
    var seen: [Int] = []
    let error = try #require(throws: TandemError.self) {
      try db.forEachRow(sql: "SELECT abs(stock) FROM item ORDER BY id") { seen.append(try $0[0]) }
    }
    #expect(seen == [5, 20])
    #expect(error.signature == .sqlite(code: 1, message: "integer overflow"))
  }

  @Test(arguments: BackendKind.allCases)
  func transactionStatementsInSQL(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "BEGIN; DELETE FROM item WHERE id = 1; SAVEPOINT s; DELETE FROM item; ROLLBACK TO s; RELEASE s;")
    try db.execute(sql: "ROLLBACK")
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM item") == 2)
    try db.execute(sql: "BEGIN; DELETE FROM item WHERE id = 1; SAVEPOINT s; DELETE FROM item; ROLLBACK TO s; COMMIT")
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM item") == 1)
    for (sql, message) in [
      ("COMMIT", "cannot commit - no transaction is active"),
      ("ROLLBACK", "cannot rollback - no transaction is active"),
      ("RELEASE nowhere", "no such savepoint: nowhere"),
    ] {
      let error = try #require(throws: TandemError.self) { try db.execute(sql: sql) }
      #expect(error.signature == .sqlite(code: 1, message: message), "\(sql)")
    }
  }

  @Test(arguments: BackendKind.allCases)
  func indexesCreatedAndDroppedInSQL(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "INSERT INTO item(id, name) VALUES (3, 'apple')")
    let duplicate = try #require(throws: TandemError.self) {
      try db.execute(sql: "CREATE UNIQUE INDEX by_name ON item(name)")
    }
    #expect(duplicate.signature == .constraint(.unique, table: "item", columns: ["name"], message: "UNIQUE constraint failed: item.name"))
    try db.execute(sql: "CREATE INDEX by_name ON item(name); CREATE INDEX IF NOT EXISTS by_name ON item(stock)")
    let again = try #require(throws: TandemError.self) { try db.execute(sql: "CREATE INDEX by_name ON item(stock)") }
    #expect(again.signature == .sqlite(code: 1, message: "index by_name already exists"))
    #expect(try db.fetchAll(sql: "SELECT id FROM item WHERE name = 'apple' ORDER BY id").map { try $0[0] as Int } == [1, 3])
    try db.execute(sql: "DROP INDEX by_name; DROP INDEX IF EXISTS by_name")
    let gone = try #require(throws: TandemError.self) { try db.execute(sql: "DROP INDEX by_name") }
    #expect(gone.signature == .sqlite(code: 1, message: "no such index: by_name"))
    try db.execute(sql: "DELETE FROM item WHERE id = 3; CREATE UNIQUE INDEX by_name ON item(name)")
    let taken = try #require(throws: TandemError.self) { try db.execute(sql: "INSERT INTO item(id, name) VALUES (4, 'apple')") }
    #expect(taken.kind == .constraintViolation && taken.constraint == .unique)
  }

  @Test func versionsAreReported() {
    #expect(Database.memoryEngineSQLiteVersion == "3.40.1")
    #expect(Database.sqliteVersion.split(separator: ".").count == 3)
  }
}

extension RawSQLTests {
  @Test(arguments: BackendKind.allCases)
  func reindexNamesAnIndexATableOrACollation(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "CREATE INDEX by_name ON item(name); REINDEX by_name; REINDEX item; REINDEX nocase; REINDEX")
    let error = try #require(throws: TandemError.self) { try db.execute(sql: "REINDEX nothing_here") }
    #expect(error.signature == .sqlite(code: 1, message: "unable to identify the object to be reindexed"))
  }

  @Test(arguments: BackendKind.allCases)
  func insertFromASelect(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "CREATE TABLE copy(id INTEGER PRIMARY KEY, name TEXT, doubled INTEGER)")
    let result = try db.execute(sql: "INSERT INTO copy SELECT id, upper(name), stock * 2 FROM item WHERE stock > ?", arguments: [1])
    #expect(result.changes == 2 && result.lastInsertRowid == 2)
    #expect(try db.values(sql: "SELECT * FROM copy ORDER BY id") == [[1, "APPLE", 10], [2, "BANANA", 40]])
    // Again: the keys are taken, and the whole statement changes nothing.
    let taken = try #require(throws: TandemError.self) { try db.execute(sql: "INSERT INTO copy(id, name) SELECT id + 1, name FROM item") }
    #expect(taken.kind == .constraintViolation)
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM copy") == 2)
    let width = try #require(throws: TandemError.self) { try db.execute(sql: "INSERT INTO copy SELECT id FROM item") }
    #expect(width.signature == .sqlite(code: 1, message: "table copy has 3 columns but 1 values were supplied"))
  }

  @Test(arguments: BackendKind.allCases)
  func rowsOfAJoinWithoutOrderCanBeFetchedUnordered(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "CREATE TABLE tag(itemID INTEGER, label TEXT); INSERT INTO tag VALUES (1, 'fruit'), (2, 'fruit'), (2, 'yellow')")
    let sql = "SELECT item.name, tag.label FROM item, tag WHERE tag.itemID = item.id"
    let rows = try db.fetchAll(sql: sql, rowOrder: .unordered).map(\.values)
    #expect(Set(rows) == [["apple", "fruit"], ["banana", "fruit"], ["banana", "yellow"]] && rows.count == 3)
    // In SQLite's order, the rows of a join without ORDER BY come as its plan finds them: the
    // memory engine does not know that plan and refuses.
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.fetchAll(sql: sql) }) {
      #expect(rows.count == 3)
    }
    // With ORDER BY the order is SQLite's on every engine.
    #expect(try db.values(sql: sql + " ORDER BY 2, 1") == [["apple", "fruit"], ["banana", "fruit"], ["banana", "yellow"]])
  }
}

extension RawSQLTests {
  /// Regression: a savepoint the backend opened inside a transaction begun by SQL text's BEGIN
  /// committed that transaction when it was released.
  @Test(arguments: BackendKind.allCases)
  func aTransactionInsideSQLsBeginDoesNotCommitIt(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "BEGIN")
    try db.transaction { db in try db.execute(sql: "DELETE FROM item WHERE id = 1") }
    try db.execute(sql: "UPDATE item SET stock = stock + 1")
    try db.execute(sql: "ROLLBACK")
    #expect(try db.values(sql: "SELECT id, stock FROM item ORDER BY id") == [[1, 5], [2, 20]])
  }

  /// A floating-point sum over a CROSS JOIN of tables without indexes: SQLite visits the rows in
  /// FROM order, each table in rowid order, as the memory engine does.
  @Test(arguments: BackendKind.allCases)
  func floatingPointSumOverACrossJoinOfUnindexedTables(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE a(x REAL); CREATE TABLE b(y REAL);
      INSERT INTO a VALUES (0.1), (1e16), (0.7), (-1e16);
      INSERT INTO b VALUES (0.3), (3.0);
      """)
    let total = try db.fetchOne(Double.self, sql: "SELECT total(x * y) FROM a CROSS JOIN b")
    #expect(total != nil)
    // A comma join may be reordered by SQLite's planner: the memory engine refuses it.
    _ = try kind.answerUnlessMemoryRefuses { try db.fetchOne(sql: "SELECT total(x * y) FROM a, b") }
  }

  /// DISTINCT over a join SQLite plans freely keeps the first of equal rows its plan meets: the
  /// memory engine answers when the rows it drops are identical to those it keeps, and refuses
  /// when they only compare equal (1 and 1.0).
  @Test(arguments: BackendKind.allCases)
  func distinctOverAFreeJoinNeedsIdenticalDuplicates(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE a(x); CREATE TABLE b(y); INSERT INTO a VALUES (1), (2); INSERT INTO b VALUES (1), (2)")
    let same = try db.fetchAll(sql: "SELECT DISTINCT x FROM a, b WHERE x <= y", rowOrder: .unordered)
    #expect(Set(same.map(\.values)) == [[1], [2]])
    try db.execute(sql: "INSERT INTO a VALUES (1.0)")
    let distinct = { try db.fetchAll(sql: "SELECT DISTINCT x FROM a, b WHERE x <= y", rowOrder: .unordered) }
    if let rows = try kind.answerUnlessMemoryRefuses(distinct) {
      #expect(rows.count == 2)
    }
  }
}

extension RawSQLTests {
  /// Regression (corpus random/aggregates, random/groupby): over a comma join SQLite may
  /// reorder, an expression whose value is the same in every row — `coalesce(29, col)`, a sum
  /// with a NULL constant, `min()` of a constant — reads no row, so the memory engine answers
  /// instead of refusing. A bare column in the same place still depends on the plan.
  @Test(arguments: BackendKind.allCases)
  func constantValuesOverAFreeJoinDoNotDependOnItsOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE a(k INTEGER, v INTEGER); CREATE TABLE b(k INTEGER, w INTEGER);
      INSERT INTO a VALUES (1, 10), (2, 20), (1, 30); INSERT INTO b VALUES (1, 5), (2, 6), (2, 7);
      """)
    #expect(try db.values(sql: "SELECT MIN(+ - CAST(NULL AS REAL)) FROM a, b") == [[nil]])
    #expect(
      try db.values(sql: "SELECT DISTINCT + COALESCE(29, + a.v) AS c FROM a, b GROUP BY b.k") == [[29]])
    #expect(
      try db.fetchAll(sql: "SELECT COALESCE(+ 1, a.v) + - CAST(NULL AS REAL) FROM a, b GROUP BY a.k").map(\.values)
        == [[nil], [nil]])
    #expect(
      try db.fetchAll(sql: "SELECT - COALESCE(+ COALESCE(- 21, a.v), b.w) * - b.k FROM a, b GROUP BY b.k").map(\.values)
        == [[-21], [-42]])
    // coalesce(a.v, 29) is a's value: which row of the group it comes from is the plan's choice.
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.fetchAll(sql: "SELECT COALESCE(a.v, 29) FROM a, b GROUP BY b.k") }) {
      #expect(rows.count == 2)
    }
  }
}

extension RawSQLTests {
  /// Regression (corpus index/random): one table under an alias (`FROM t AS x`) is planned as
  /// the table itself, so an aggregate whose answer depends on SQLite's visiting order — here a
  /// floating-point sum read through an index in descending order — answers instead of being
  /// refused; the table's own name then names no column.
  @Test(arguments: BackendKind.allCases)
  func anAliasedTableIsPlannedAsTheTableItself(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE t(id INTEGER PRIMARY KEY, x REAL); CREATE INDEX t_x ON t(x DESC);
      INSERT INTO t VALUES (1, 1e16), (2, 0.5), (3, -1e16), (4, 0.75), (5, 2.0);
      """)
    let sum = "SELECT sum(c.x) FROM t AS c WHERE c.x > -1e17"
    let indexed = try #require(try db.fetchOne(Double.self, sql: sum))
    let inRowidOrder = try #require(try db.fetchOne(Double.self, sql: "SELECT sum(x) FROM t NOT INDEXED WHERE x > -1e17"))
    // Largest first, 0.75 and 0.5 vanish beside 1e16: 1e16 + 2.0 + 0.75 + 0.5 - 1e16 is 2.0;
    // in rowid order, 1e16 + 0.5 - 1e16 + 0.75 + 2.0 is 2.75.
    #expect(indexed == 2.0 && inRowidOrder == 2.75)
    #expect(try db.values(sql: "SELECT c.id FROM t AS c WHERE x < 1.0") == [[4], [2], [3]])
    let hidden = try #require(throws: TandemError.self) { _ = try db.fetchAll(sql: "SELECT t.id FROM t AS c") }
    #expect(hidden.signature == .sqlite(code: 1, message: "no such column: t.id"))
  }
}

extension RawSQLTests {
  /// Fuzzer seed 0xC0FFEE29 case 41177: in an UPDATE's subquery, a source named like the
  /// updated table (`child AS T` inside `UPDATE t`) hides it only for its own columns; `t.y`
  /// still reads the updated row, whose column must be decoded for the WHERE.
  @Test(arguments: BackendKind.allCases)
  func anInnerSourceNamedLikeTheUpdatedTableHidesOnlyItsOwnColumns(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE child(x BLOB); CREATE TABLE t(ref INTEGER, c1 REAL, y INTEGER, e BLOB);
      INSERT INTO child VALUES ('a '); INSERT INTO t(c1, y) VALUES (1.5, 'b');
      """)
    let changed = try db.execute(sql: "UPDATE t SET e = 1 WHERE (SELECT count(*) FROM child AS T WHERE t.y > T.x) = 0")
    #expect(changed.changes == 0)
    #expect(try db.execute(sql: "UPDATE t SET e = 2 WHERE (SELECT count(*) FROM child AS T WHERE t.y > T.x) = 1").changes == 1)
  }

  /// A DISTINCT select without ORDER BY: SQLite asks its planner for rows in the order of the
  /// result columns (`WHERE_DISTINCTBY`), so the index on `a` is scanned and the rows come in
  /// `a` order — unless no row can repeat them (a NOT NULL column of a UNIQUE index), when the
  /// table is scanned as without DISTINCT. The memory engine scanned the table each time, and
  /// answered in another order (found while reading SQLite's DISTINCT planning for statement
  /// fuzzer 0xD1FF004F case 40,731).
  @Test(arguments: BackendKind.allCases)
  func distinctWithoutOrderByComesInTheOrderOfItsColumns(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE t(a INTEGER, b INTEGER); CREATE INDEX t_a ON t(a);
      CREATE TABLE u(a INTEGER NOT NULL UNIQUE, b INTEGER); CREATE TABLE w(a INTEGER UNIQUE, b INTEGER);
      INSERT INTO t VALUES (3, 1), (1, 2), (2, 3), (1, 4);
      INSERT INTO u VALUES (3, 1), (1, 2), (2, 3); INSERT INTO w VALUES (3, 1), (1, 2), (2, 3);
      """)
    #expect(try db.values(sql: "SELECT DISTINCT a FROM t WHERE b > 0") == [[1], [2], [3]])
    #expect(try db.values(sql: "SELECT DISTINCT a FROM w WHERE b > 0") == [[1], [2], [3]])
    #expect(try db.values(sql: "SELECT DISTINCT a FROM u WHERE b > 0") == [[3], [1], [2]])
  }
}
