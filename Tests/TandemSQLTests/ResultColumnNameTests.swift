import TandemCore
import TandemSQL
import Testing

/// The parser names result columns as SQLite 3.40 does (`sqlite3_column_name`).
struct ResultColumnNameTests {
  static let queries = [
    "SELECT a, b AS x, c y, 'z' FROM t1", "SELECT * FROM t1", "SELECT t1.* FROM t1", "SELECT * FROM t1, tab0",
    "SELECT tab0.*, t1.a FROM t1 CROSS JOIN tab0", "SELECT A, T1.B, (c), ((d)) FROM t1",
    "SELECT rowid, _ROWID_, t1.oid FROM t1", "SELECT - col1 * + col2 FROM tab0", "SELECT ALL - 94 * 62",
    "SELECT CAST ( NULL AS INTEGER ) / 3", "SELECT count(*), COUNT( * ), sum(a)   FROM t1",
    "SELECT \"Mixed Case\", \"mixed case\" AS m, [x] FROM t2", "SELECT [a], true, FALSE FROM t1",
    "SELECT DISTINCT col0 FROM tab0 AS cor0", "SELECT cor0.col1 FROM tab0 cor0",
    "SELECT a FROM t1 UNION SELECT b AS bee FROM t1", "SELECT y FROM (SELECT a AS y FROM t1) AS q",
    "SELECT * FROM (SELECT a, a FROM t1) AS q", "WITH c(n) AS (SELECT 1) SELECT n, * FROM c",
    "SELECT (SELECT x FROM t2), EXISTS (SELECT 1) FROM t1", "SELECT 1 -- comment\n, 2 /* c */ FROM t1",
    "SELECT a   +   b FROM t1", "SELECT 'a' 'b'", "SELECT x'ab', 1e3, .5, -7",
    "SELECT CASE WHEN a THEN 1 END FROM t1", "SELECT a COLLATE nocase FROM t1",
    "WITH RECURSIVE c AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM c WHERE n < 3) SELECT * FROM c",
    "WITH RECURSIVE c AS (SELECT 1 AS n, 2 AS m UNION ALL SELECT c.* FROM c WHERE n < 0) SELECT * FROM c",
  ]

  @Test(arguments: queries)
  func sameNamesAsSQLite(_ sql: String) throws {
    let db = try ParserFixture.database()
    guard case .query(_, let names)? = try db.parse(sql)?.statement else {
      Issue.record("not a query: \(sql)")
      return
    }
    #expect(names == (try db.columnNames(sql)), "\(sql)")
  }
}
