import TandemCore
import TandemSQL
import Testing

/// The parser reports SQLite's own errors: the same text fails `sqlite3_prepare_v2` with the
/// same message.
struct SyntaxErrorTests {
  static let statements = [
    "SELECT 1 FROM", "SELECT", "SELECT 1 +", "SELECT 1 +;", "SELECT FROM t1", "SELECT a FROM t1 WHERE",
    "SELECT a FROM t1 WHERE a = = 1", "SELECT (1", "SELECT 1)", "SELECT X'a'", "SELECT x'abc'", "SELECT 'abc",
    "SELECT 1abc", "SELECT 0x", "SELECT @", "SELECT :", "SELECT !", "SELECT \"abc", "SELECT [abc",
    "SELECT 0x1ffffffffffffffffff", "SELECT ?0", "SELECT ?250001", "SELECT abs(1, 2)", "SELECT count(1, 2)",
    "SELECT count(DISTINCT *)", "SELECT count(ALL *)", "SELECT min()", "SELECT sum(*)", "SELECT coalesce(1)",
    "SELECT a FROM t1 ORDER BY 2", "SELECT a FROM t1 ORDER BY 0", "SELECT a FROM t1 ORDER BY a, -1",
    "SELECT a FROM t1 GROUP BY 3", "SELECT a FROM t1 UNION SELECT b FROM t1 ORDER BY 2",
    "SELECT a FROM t1 UNION SELECT b FROM t1 ORDER BY c", "SELECT a, b FROM t1 UNION SELECT b FROM t1",
    "SELECT a FROM nope", "SELECT * FROM t1 WHERE a IN nope", "SELECT *", "SELECT nope.* FROM t1",
    "SELECT a FROM t1 ON a = 1", "SELECT CASE END", "SELECT CASE 1 ELSE 2 END",
    "SELECT 1 BETWEEN 2", "SELECT 1 IS", "SELECT a FROM t1 WHERE a IN (1,", "SELECT a FROM t1 LIMIT",
    "SELECT a FROM t1 ORDER BY a NULLS", "SELECT 1 LIKE 2 ESCAPE", "INSERT INTO t1 VALUES (1, 2)",
    "INSERT INTO t1(a, b) VALUES (1, 2, 3)", "INSERT INTO t1(a) VALUES (1), (1, 2)", "INSERT INTO t1",
    "INSERT t1 VALUES (1)", "UPDATE t1 SET", "UPDATE t1 SET a", "DELETE t1", "DELETE FROM", "CREATE TABLE",
    "CREATE TABLE x(", "CREATE TABLE x(a INT PRIMARY KEY AUTOINCREMENT)",
    "CREATE TABLE x(a INTEGER PRIMARY KEY, b TEXT PRIMARY KEY)", "CREATE TABLE x(a, PRIMARY KEY(a), PRIMARY KEY(a))",
    "CREATE INDEX i ON", "DROP", "DROP TABLE", "BEGIN garbage", "SELECT 1 2", "FOO", "SELECT 1 FROM t1 JOIN",
    "SELECT * FROM t1 WHERE a = 1 UNION", "WITH x AS (SELECT 1) SELECT", "SELECT a FROM t1 GROUP BY",
    "SELECT 1 IS DISTINCT 2", "SELECT ~", "SELECT - FROM t1", "SELECT a. FROM t1", "SELECT t1.",
    "SELECT 1 COLLATE", "SELECT a FROM t1 AS", "SELECT NOT", "SELECT 1 NOT 2", "SELECT 1 ISNULL NOTNULL 2",
    "WITH c(x, y) AS (SELECT 1) SELECT * FROM c", "SELECT abs(1, 2) FROM", "SELECT 0x1ffffffffffffffffff FROM",
    "SELECT -0x1ffffffffffffffffff", "SELECT - ( 0x1ffffffffffffffffff )", "SELECT a FROM nope WHERE",
    "SELECT 'a' GLOB 'b' ESCAPE 'c'", "SELECT x'0g'", "SELECT a FROM t1 ORDER BY 5 LIMIT",
    "SELECT a FROM t1 UNION SELECT b FROM t1 ORDER BY nope LIMIT", "SELECT * FROM nope, t1 WHERE",
    "INSERT INTO tab0 SELECT a FROM t1", "INSERT INTO tab0(col0) SELECT a, b FROM t1", "INSERT INTO nope SELECT 1",
    "INSERT INTO tab0 SELECT", "INSERT INTO tab0 SELECT * FROM t1 ON CONFLICT DO NOTHING",
    "INSERT INTO nope VALUES (1) garbage", "INSERT INTO nope VALUES (1)", "UPDATE nope SET a = 1", "DELETE FROM nope",
    "SELECT a FROM t1 ORDER BY a UNION SELECT 1", "SELECT " + String(repeating: "1 + ", count: 1000) + "1",
    "SELECT " + String(repeating: "- ", count: 200) + "1",
    "SELECT " + String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000),
    "SELECT a FROM t1 LIMIT 1 UNION ALL SELECT 1 UNION SELECT 2",
    "SELECT a FROM nope ORDER BY 7 EXCEPT SELECT 1", "INSERT INTO t1 VALUES (1), (2, 3) garbage",
  ]

  @Test(arguments: statements)
  func sameErrorAsSQLite(_ sql: String) throws {
    let db = try ParserFixture.database()
    let expected = db.prepareError(sql)
    #expect(expected != nil, "SQLite accepts \(sql)")
    #expect(ParserFixture.parseError(sql, in: db) == expected, "\(sql)")
  }

  @Test func errorsCarryTheStatementText() throws {
    var reader = SQLScriptReader("SELECT 1; SELECT a FROM  ; SELECT 2")
    _ = try reader.next(schema: { _ in nil })
    #expect(throws: TandemError.sqlite(code: 1, message: "near \";\": syntax error", sql: "SELECT a FROM")) {
      try reader.next(schema: { _ in nil })
    }
    #expect(try reader.next(schema: { _ in nil })?.sql == "SELECT 2")
    #expect(try reader.next(schema: { _ in nil }) == nil)
  }

  @Test func aTriggerIsOneStatement() throws {
    var reader = SQLScriptReader("CREATE TRIGGER r AFTER INSERT ON t1 BEGIN DELETE FROM t1; END; COMMIT")
    #expect(throws: TandemError.unsupported("CREATE TRIGGER", backend: "memory")) {
      try reader.next(schema: { _ in nil })
    }
    #expect(try reader.next(schema: { _ in nil })?.statement == .transaction(.commit))
    #expect(try reader.next(schema: { _ in nil }) == nil)
  }
}
