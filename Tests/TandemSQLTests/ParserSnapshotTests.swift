import Foundation
import TandemCore
import TandemSQL
import Testing

/// SQL text → the query model, shown rendered back by the SQLite renderer (every value a `?`,
/// every identifier quoted, every operation parenthesized) or as the model's values.
struct ParserSnapshotTests {
  static let rendered: [(String, String)] = [
    (
      "SELECT DISTINCT - col1 * + col2 AS col0 FROM tab0 AS cor0 CROSS JOIN tab1 WHERE NOT ( NULL ) IS NULL",
      #"SELECT DISTINCT ((-"col1") * (+"col2")) FROM "tab0" AS "cor0" NOT INDEXED CROSS JOIN "tab1" NOT INDEXED WHERE (NOT (? IS NULL))"#
    ),
    (
      "SELECT a+b*2 FROM t1 WHERE c BETWEEN b-2 AND d+2 ORDER BY 1",
      #"SELECT ("a" + ("b" * ?)) FROM "t1" WHERE ("c" BETWEEN ("b" - ?) AND ("d" + ?)) ORDER BY ("a" + ("b" * ?)) ASC"#
    ),
    ("SELECT x FROM t2 WHERE x IN t2", #"SELECT "x" FROM "t2" WHERE ("x" IN (SELECT "x", "Mixed Case" FROM "t2"))"#),
    (
      "SELECT a AS x FROM t1 WHERE x > 1 GROUP BY x ORDER BY x",
      #"SELECT "a" FROM "t1" NOT INDEXED WHERE ("a" > ?) GROUP BY "a" ORDER BY "a" ASC"#
    ),
    (
      "SELECT a FROM t1 UNION SELECT b FROM t1 ORDER BY a DESC LIMIT 2, 3",
      #"SELECT "a" FROM "t1" UNION SELECT "b" FROM "t1" ORDER BY 1 DESC LIMIT ? OFFSET ?"#
    ),
    (
      "SELECT t1.*, tab0.col0 FROM t1 LEFT JOIN tab0 ON t1.a = tab0.col0, t2",
      #"SELECT "t1"."a", "t1"."b", "t1"."c", "t1"."d", "t1"."e", "tab0"."col0" FROM "t1" LEFT JOIN "tab0" ON ("t1"."a" = "tab0"."col0") JOIN "t2""#
    ),
    (
      "SELECT q.y FROM (SELECT a AS y FROM t1) AS q WHERE y > 1",
      #"WITH "q"("y") AS (SELECT "a" FROM "t1") SELECT "q"."y" FROM "q" WHERE ("y" > ?)"#
    ),
    (
      "SELECT a IS NOT NULL, a NOT NULL, a ISNULL, a IS b, a IS NOT DISTINCT FROM b, a NOT LIKE 'x%' ESCAPE '\\' FROM t1",
      #"SELECT ("a" IS NOT NULL), ("a" IS NOT NULL), ("a" IS NULL), ("a" IS "b"), ("a" IS "b"), ("a" NOT LIKE ? ESCAPE ?) FROM "t1""#
    ),
    (
      "SELECT a COLLATE nocase AS k FROM t1 ORDER BY k COLLATE binary",
      #"SELECT ("a" COLLATE NOCASE) FROM "t1" ORDER BY (("a" COLLATE NOCASE) COLLATE BINARY) ASC"#
    ),
    (
      "SELECT a FROM t1 x WHERE x.rowid > 1 ORDER BY x.oid",
      #"SELECT "a" FROM "t1" AS "x" WHERE ("x".rowid > ?) ORDER BY "x".rowid ASC"#
    ),
    ("SELECT 1 OR 2 AND NOT 3 = 4 < 5 & 6 FROM t1", #"SELECT (? OR (? AND (NOT (? = (? < ?))))) FROM "t1""#),
    (
      "SELECT 1 OR 2 AND NOT 3 = 4 < 5 + 6 * 7 || 8 FROM t1",
      #"SELECT (? OR (? AND (NOT (? = (? < (? + (? * (? || ?)))))))) FROM "t1""#
    ),
    (
      "INSERT INTO t1(a) VALUES (1) ON CONFLICT (a) DO UPDATE SET b = excluded.b + 1",
      #"INSERT INTO "t1" ("a") VALUES (?) ON CONFLICT ("a") DO UPDATE SET "b" = (excluded."b" + ?)"#
    ),
    (
      "REPLACE INTO t1 VALUES (1, 2, 3, 4, 5)",
      #"INSERT OR REPLACE INTO "t1" ("a", "b", "c", "d", "e") VALUES (?, ?, ?, ?, ?)"#
    ),
    ("INSERT INTO t1 DEFAULT VALUES", #"INSERT INTO "t1" DEFAULT VALUES"#),
    ("UPDATE t1 SET a = a + 1 WHERE b > 2", #"UPDATE "t1" SET "a" = ("a" + ?) WHERE ("b" > ?)"#),
    ("DELETE FROM t1 WHERE a IS NULL", #"DELETE FROM "t1" WHERE ("a" IS NULL)"#),
    (
      "INSERT INTO t1(a) VALUES (1) ON CONFLICT DO NOTHING",
      #"INSERT INTO "t1" ("a") VALUES (?) ON CONFLICT DO NOTHING"#
    ),
    (
      "SELECT [a], `b`, \"c\" /* comment */ FROM t1 -- trailing\n WHERE\t[t1].[d] = 1",
      #"SELECT "a", "b", "c" FROM "t1" WHERE ("t1"."d" = ?)"#
    ),
    (
      "SELECT group_concat(a), group_concat(DISTINCT b), Group_Concat(c, '; '), group_concat(d, e || '-') FROM t1",
      #"SELECT group_concat("a"), group_concat(DISTINCT "b"), group_concat("c", ?), group_concat("d", ("e" || ?)) FROM "t1" NOT INDEXED"#
    ),
    ("SELECT a FROM t1 NOT INDEXED WHERE a > 1", #"SELECT "a" FROM "t1" NOT INDEXED WHERE ("a" > ?)"#),
    (
      "SELECT one.a FROM t1 AS one NOT INDEXED, t2 NOT INDEXED WHERE one.a = t2.x",
      #"SELECT "one"."a" FROM "t1" AS "one" NOT INDEXED JOIN "t2" NOT INDEXED WHERE ("one"."a" = "t2"."x")"#
    ),
    (
      "SELECT \"Mixed Case\" FROM t2 WHERE x IN (SELECT a FROM t1 WHERE a = x)",
      #"SELECT "Mixed Case" FROM "t2" WHERE ("x" IN (SELECT "a" FROM "t1" WHERE ("a" = "x")))"#
    ),
  ]

  @Test func renderedBack() throws {
    let db = try ParserFixture.database()
    for (sql, expected) in Self.rendered {
      guard case .query(let statement, _)? = try db.parse(sql)?.statement else {
        Issue.record("not a query: \(sql)")
        continue
      }
      #expect(try db.render(statement).sql == expected, "\(sql)")
    }
  }

  @Test func literals() throws {
    let parsed = try ParserFixture.database().parse(
      "SELECT -9223372036854775808, 9223372036854775808, 0x7fffffffffffffff, 0xffffffffffffffff, .5, 1., 1e3, X'ABcd', - 2, -(3), 'it''s', NULL, -'a', + 5, - + 9223372036854775808"
    )
    guard case .query(.select(let select), _)? = parsed?.statement else {
      Issue.record("not a select")
      return
    }
    #expect(select.table == "")
    #expect(
      select.columns == [
        .literal(.integer(.min)), .literal(.real(9_223_372_036_854_775_808)), .literal(.integer(.max)),
        .literal(.integer(-1)), .literal(.real(0.5)), .literal(.real(1)), .literal(.real(1000)),
        .literal(.blob(Data([0xAB, 0xCD]))), .literal(.integer(-2)), .literal(.integer(-3)), .literal(.text("it's")),
        .literal(.null), .unary(.negate, .literal(.text("a"))), .literal(.integer(5)),
        .literal(.real(-9_223_372_036_854_775_808)),
      ])
  }

  @Test func groupConcatAndNotIndexedInTheModel() throws {
    let parsed = try ParserFixture.database().parse(
      "SELECT group_concat(a, b), group_concat(DISTINCT c) FROM t1 NOT INDEXED LEFT JOIN t2 NOT INDEXED ON x = a")
    guard case .query(.select(let select), _)? = parsed?.statement else {
      Issue.record("not a select")
      return
    }
    #expect(
      select.columns == [
        .aggregate(.groupConcat, .column("a"), distinct: false, separator: .column("b")),
        .aggregate(.groupConcat, .column("c"), distinct: true),
      ])
    #expect(select.notIndexed)
    #expect(select.joins.map(\.notIndexed) == [true])
    let plain = try ParserFixture.database().parse("SELECT a FROM t1 JOIN t2 ON x = a")
    guard case .query(.select(let unpinned), _)? = plain?.statement else {
      Issue.record("not a select")
      return
    }
    #expect(!unpinned.notIndexed && unpinned.joins.map(\.notIndexed) == [false])
  }

  @Test func parametersAreNumberedAsSQLiteNumbersThem() throws {
    let parsed = try ParserFixture.database().parse("SELECT ?, :b, ?5, @c, :b, ?, $d, ?2")
    guard case .query(.select(let select), _)? = parsed?.statement else {
      Issue.record("not a select")
      return
    }
    #expect(select.columns == ["?1", "?2", "?5", "?6", "?2", "?7", "?8", "?2"].map { .parameter($0) })
    #expect(parsed?.parameterNames == [nil, ":b", nil, nil, "?5", "@c", nil, "$d"])
    #expect(parsed?.sql == "SELECT ?, :b, ?5, @c, :b, ?, $d, ?2")
  }

  @Test func createTable() throws {
    #expect(
      throws: TandemError.sqlite(
        code: 1, message: "table \"x\" has more than one primary key",
        sql: "CREATE TABLE x(id INTEGER PRIMARY KEY, k INTEGER PRIMARY KEY)")
    ) {
      try ParserFixture.database().parse("CREATE TABLE x(id INTEGER PRIMARY KEY, k INTEGER PRIMARY KEY)")
    }
    let schema = TableSchema(
      "x",
      columns: [
        .column("id", .null(.integer), primaryKey: .autoincrement),
        .column("name", .text, default: .text("n")),
        .column("v", .null(.real), default: .real(-1.5)),
        .column("r", .null(.integer), references: .table("t1", column: "a", onDelete: .cascade, onUpdate: .setNull)),
        .column("u", .null(.text), unique: true),
        .column("n", .null(.blob)),
      ],
      indexes: [.index(on: ["name", "v"], unique: true)])
    let valid = try ParserFixture.database().parse(
      """
      CREATE TABLE IF NOT EXISTS x(id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(20) NOT NULL DEFAULT 'n',
        v FLOAT DEFAULT -1.5, r INTEGER REFERENCES t1(a) ON DELETE CASCADE ON UPDATE SET NULL, u TEXT UNIQUE,
        n, UNIQUE(name, v))
      """)
    #expect(valid?.statement == .createTable(schema, ifNotExists: true))
    #expect(
      try ParserFixture.database().parse("CREATE TABLE p(a TEXT, b INTEGER NOT NULL, PRIMARY KEY(a, b))")?.statement
        == .createTable(
          TableSchema(
            "p", columns: [.column("a", .null(.text), primaryKey: .plain), .column("b", .integer, primaryKey: .plain)]),
          ifNotExists: false))
  }

  @Test func otherStatements() throws {
    let db = try ParserFixture.database()
    var reader = SQLScriptReader(
      """
      CREATE UNIQUE INDEX IF NOT EXISTS i1 ON t1(a, b ASC); CREATE INDEX i2 ON t1(b DESC, a);
      CREATE TEMP VIEW IF NOT EXISTS v(x) AS SELECT a  FROM t1 WHERE b > 1; DROP VIEW IF EXISTS v;
      DROP INDEX i1; DROP TABLE IF EXISTS t1;
      BEGIN IMMEDIATE TRANSACTION; SAVEPOINT s; RELEASE SAVEPOINT s; ROLLBACK TO s; ROLLBACK; END; ;;
      -- done
      """)
    var statements: [ParsedStatement] = []
    while let parsed = try reader.next(schema: db.columns(of:)) { statements.append(parsed.statement) }
    #expect(
      statements == [
        .createIndex(table: "t1", IndexSchema(name: "i1", columns: ["a", "b"], isUnique: true), ifNotExists: true),
        .createIndex(
          table: "t1", IndexSchema(name: "i2", columns: ["b", "a"], descendingColumns: ["b"]), ifNotExists: false),
        .createView(
          ViewDefinition(name: "v", columns: ["x"], select: "SELECT a  FROM t1 WHERE b > 1", isTemporary: true),
          ifNotExists: true),
        .dropView("v", ifExists: true),
        .dropIndex("i1", ifExists: false), .dropTable("t1", ifExists: true), .transaction(.begin),
        .transaction(.savepoint("s")), .transaction(.release("s")), .transaction(.rollbackTo("s")),
        .transaction(.rollback), .transaction(.commit),
      ])
  }

  @Test func insertSelect() throws {
    let db = try ParserFixture.database()
    let select = SelectStatement(
      table: "t1", columns: [.column("a"), .column("b")], filter: .binary(.greater, .column("a"), .literal(.integer(1)))
    )
    #expect(
      try db.parse("INSERT OR IGNORE INTO tab0(col0, col1) SELECT a, b FROM t1 WHERE a > 1")?.statement
        == .insertSelect(
          InsertStatement(table: "tab0", columns: ["col0", "col1"], rows: [], conflict: .ignore), select: select))
    #expect(
      try db.parse("INSERT INTO tab0 SELECT a, b, c FROM t1 WHERE true ON CONFLICT DO NOTHING")?.statement
        == .insertSelect(
          InsertStatement(table: "tab0", columns: [], rows: [], conflict: .nothing(target: [])),
          select: SelectStatement(
            table: "t1", columns: [.column("a"), .column("b"), .column("c")], filter: .literal(.integer(1)))))
  }

  static let refused: [(String, String)] = [
    ("SELECT a FROM t1 NATURAL JOIN t2", "NATURAL JOIN"), ("SELECT a FROM t1 JOIN t2 USING (x)", "USING"),
    ("SELECT a FROM t1 RIGHT JOIN t2 ON 1", "RIGHT JOIN"), ("SELECT a << 1 FROM t1", "<< operator"),
    ("SELECT 1 & 1.5", "& operator"),
    ("SELECT ~a FROM t1", "~ operator"), ("SELECT a MATCH 'x' FROM t1", "MATCH"),
    ("SELECT string_agg(a, ',') FROM t1", "function string_agg"), ("SELECT a FROM t1 INDEXED BY i", "INDEXED BY"), ("SELECT foo(a) FROM t1", "function foo"),
    ("SELECT count(*) OVER () FROM t1", "window function"), ("VALUES (1)", "VALUES"),
    ("INSERT INTO t1 VALUES (1, 2, 3, 4, 5) UNION SELECT * FROM t1", "VALUES in a compound"),
    ("DELETE FROM t1 RETURNING a", "RETURNING"),
    ("CREATE TABLE x(a NUMERIC)", "NUMERIC affinity column"), ("CREATE TABLE x(a INT CHECK (a > 0))", "CHECK"),
    ("CREATE TABLE x(a TEXT COLLATE nocase)", "COLLATE"), ("CREATE TABLE x(a INTEGER) STRICT", "STRICT table"),
    ("CREATE TABLE x(a INTEGER PRIMARY KEY) WITHOUT ROWID", "WITHOUT ROWID"),
    ("CREATE TABLE x(a TEXT DEFAULT CURRENT_TIMESTAMP)", "DEFAULT CURRENT_TIMESTAMP"),
    ("CREATE INDEX i ON t1(a, a DESC)", "a column indexed both ASC and DESC"), ("CREATE TRIGGER r UPDATE ON t1 BEGIN SELECT 1; END", "CREATE TRIGGER"),
    ("PRAGMA foreign_keys", "PRAGMA"), ("SELECT a FROM main.t1", "schema-qualified table name"),
    ("SELECT (1, 2) = (1, 2)", "row value"), ("SELECT a FROM t1 WHERE a REGEXP 'x'", "REGEXP"),
    ("CREATE TABLE x(a INT PRIMARY KEY)", "integer PRIMARY KEY that is not a rowid alias"),
  ]

  @Test func refusedConstructsAreNamed() throws {
    let db = try ParserFixture.database()
    for (sql, construct) in Self.refused {
      #expect(throws: TandemError.unsupported(construct, backend: "memory"), "\(sql)") { try db.parse(sql) }
    }
  }
}
