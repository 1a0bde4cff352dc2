import Tandem
import Testing

/// `abs()` in a join or beside a subquery: it fails (`integer overflow`) only on the INTEGER
/// -9223372036854775808, and which rows SQLite evaluates it on depends on its plan. The memory
/// engine runs such a query when the data proves no argument can be that integer, and refuses
/// it otherwise.
@Suite struct AbsInJoinTests {
  /// Two tables whose columns hold `a` and `b`; ids join them.
  private static func database(_ kind: BackendKind, a: [Int64], b: [Int64]) throws -> Database {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER); CREATE TABLE u(id INTEGER PRIMARY KEY, b INTEGER)")
    for value in a { try db.execute(sql: "INSERT INTO t(a) VALUES (?)", arguments: [.integer(value)]) }
    for value in b { try db.execute(sql: "INSERT INTO u(b) VALUES (?)", arguments: [.integer(value)]) }
    return db
  }

  private static let join = """
    SELECT t.id, u.id, abs(t.a - u.b), abs(-t.a), abs(CASE WHEN t.a > 0 THEN t.a + 1 ELSE u.b / 2 END)
      FROM t JOIN u ON u.id >= t.id WHERE abs(t.a) + abs(u.b) > 0
     ORDER BY 1, 2
    """

  @Test(arguments: BackendKind.allCases)
  func absOverDataThatCannotOverflowRuns(_ kind: BackendKind) throws {
    // Large values, but no difference, sum, negation or quotient of them reaches -2^63.
    let db = try Self.database(kind, a: [5, -7, Int64.max, Int64.min / 2], b: [3, Int64.min / 2 + 1, 0])
    let rows = try db.fetchAll(sql: Self.join).map(\.values)
    #expect(rows.count == 6)
    #expect(rows.first == [1, 1, 2, 5, 6])
    // Row t3 (a = Int64.max) with u3 (b = 0): a + 1 overflows to a REAL.
    #expect(rows.last == [3, 3, .integer(Int64.max), .integer(Int64.max), .real(9.223372036854775808e18)])
    let subquery = try db.fetchAll(
      sql: "SELECT a, abs(a) FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.b < t.a) ORDER BY id"
    ).map(\.values)
    #expect(subquery == [[5, 5], [-7, 7], [.integer(Int64.max), .integer(Int64.max)]])
  }

  @Test(arguments: BackendKind.allCases)
  func absThatCouldOverflowOnSomeRowIsRefusedByTheMemoryEngine(_ kind: BackendKind) throws {
    // -2^62 - 2^62 is the INTEGER -2^63: abs(t.a + u.b) fails on that pair of rows only.
    let half = Int64.min / 2
    let sums = try Self.database(kind, a: [1, half], b: [2, half])
    let sum = "SELECT t.id, abs(t.a + u.b) FROM t, u WHERE t.id = u.id AND t.id < 2 ORDER BY 1"
    // The column itself holding -2^63, on a row the join does not reach.
    let smallest = try Self.database(kind, a: [1, Int64.min], b: [1])
    let join = "SELECT abs(t.a) FROM t JOIN u ON u.id = t.id ORDER BY t.id"
    for (db, sql) in [(sums, sum), (smallest, join)] {
      switch kind {
      case .memory:
        let error = try #require(throws: TandemError.self) { try db.fetchAll(sql: sql) }
        #expect(error.kind == .unsupported)
        #expect("\(error)".contains("abs() in a join or subquery"))
      case .tandem:
        let error = try #require(throws: TandemError.self) { try db.fetchAll(sql: sql) }
        #expect(error.kind == .divergence)
      case .sqliteFile, .sqliteInMemory:
        #expect(try db.fetchAll(sql: sql).count == 1)
      }
    }
    // Without the row that can overflow, the same query runs on every engine.
    try smallest.execute(sql: "DELETE FROM t WHERE id = 2")
    #expect(try smallest.fetchAll(sql: join).map(\.values) == [[1]])
  }

  @Test(arguments: BackendKind.allCases)
  func updateBesideASubqueryRunsWhenItsAbsCannotOverflow(_ kind: BackendKind) throws {
    let db = try Self.database(kind, a: [-4, 6], b: [1])
    let update = "UPDATE t SET a = abs(a - 1) WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.id)"
    #expect(try db.execute(sql: update).changes == 1)
    #expect(try db.values(sql: "SELECT a FROM t ORDER BY id") == [[5], [6]])
    try db.execute(sql: "INSERT INTO t(a) VALUES (?)", arguments: [.integer(Int64.min + 1)])
    // a - 1 can now be -2^63 (on a row the WHERE clause rejects).
    switch kind {
    case .memory, .tandem:
      let error = try #require(throws: TandemError.self) { try db.execute(sql: update) }
      #expect(error.kind == (kind == .memory ? .unsupported : .divergence))
      #expect("\(error)".contains("abs() in a join or subquery"))
    case .sqliteFile, .sqliteInMemory:
      #expect(try db.execute(sql: update).changes == 1)
    }
  }
}
