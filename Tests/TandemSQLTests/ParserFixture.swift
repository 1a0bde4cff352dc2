import TandemCore
import TandemSQL

/// The tables every parser test reads, created in a fresh reference database.
enum ParserFixture {
  static let schema = """
    CREATE TABLE t1(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER);
    CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER);
    CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER);
    CREATE TABLE t2(x INTEGER, "Mixed Case" TEXT);
    INSERT INTO t1 VALUES (1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (NULL, 2, NULL, 4, 11), (3, 3, 3, 3, 3);
    INSERT INTO tab0 VALUES (97, 1, 99), (15, 81, 47), (87, 21, 10);
    INSERT INTO tab1 VALUES (51, 14, 96), (85, 5, 59), (91, 47, 68);
    INSERT INTO t2 VALUES (1, 'one'), (3, 'three'), (NULL, NULL);
    """

  /// A reference database holding the fixture's tables and rows.
  static func database() throws -> ReferenceSQLite {
    let db = try ReferenceSQLite()
    try db.exec(schema)
    return db
  }

  /// The message of the SQLite error the parser reports for `sql`, or nil when it parses.
  static func parseError(_ sql: String, in db: ReferenceSQLite) -> String? {
    do {
      _ = try db.parse(sql)
      return nil
    } catch let error as TandemError {
      return error.kind == .sqlite ? error.message : "unsupported: \(error.message)"
    } catch {
      return "\(error)"
    }
  }
}
