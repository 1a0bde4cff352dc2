import Foundation
import Tandem
import Testing

/// How names resolve in joins and subqueries, and which error comes first when a statement has
/// several: every engine gives SQLite 3.40's answer (`resolve.c`). Found by the relational
/// differential fuzzer.
///
/// Tables: `t(a, d)` holding (1, 2) and (3, 4); `u(v, a)` holding (1, 10) and (2, 20).
@Suite struct SubqueryResolutionTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("a", .integer), .column("d", .integer)]))
    try db.create(TableSchema("u", columns: [.column("v", .integer), .column("a", .integer)]))
    try db.execute(.insert(InsertStatement(table: "t", columns: ["a", "d"], rows: [[1, 2], [3, 4]].map(Self.row))))
    try db.execute(.insert(InsertStatement(table: "u", columns: ["v", "a"], rows: [[1, 10], [2, 20]].map(Self.row))))
    return db
  }

  static func row(_ values: [Int64]) -> [SQLExpression] { values.map { .literal(.integer($0)) } }

  /// The message of the error any statement (a write too) fails with, or `nil` when it runs.
  static func errorMessage(_ db: Database, _ sql: String) -> String? {
    do {
      try db.execute(sql: sql)
      return nil
    } catch {
      return (error as? TandemError)?.message
    }
  }

  /// Expects `sql` to fail with SQLite's `misuse of aggregate: function()`: on SQLite exactly; on
  /// the memory engine, which does not place an aggregate in a query around its own, a refusal
  /// (a divergence in tandem mode) or the same error.
  static func expectAggregateMisuse(
    _ db: Database, _ sql: String, function: String, kind: BackendKind,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let error = try #require(throws: TandemError.self, sourceLocation: sourceLocation) { try db.execute(sql: sql) }
    let misuse = TandemError.Signature.sqlite(code: 1, message: "misuse of aggregate: \(function)()")
    switch kind {
    case .sqliteFile, .sqliteInMemory:
      #expect(error.signature == misuse, sourceLocation: sourceLocation)
    case .memory, .tandem:
      #expect(
        error.kind == .unsupported || error.kind == .divergence || error.signature == misuse,
        sourceLocation: sourceLocation)
    }
  }

  static func failure(_ db: Database, _ statement: SelectStatement, sourceLocation: SourceLocation = #_sourceLocation)
    -> TandemError.Signature?
  {
    do {
      _ = try db.execute(.select(statement))
      Issue.record("expected an error", sourceLocation: sourceLocation)
      return nil
    } catch let error as TandemError {
      return error.signature
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
      return nil
    }
  }

  static func noSuchColumn(_ name: String) -> TandemError.Signature { .sqlite(code: 1, message: "no such column: \(name)") }

  /// `(SELECT u.v FROM u ORDER BY <term>)` as the only result column of a query over t.
  static func firstOfU(orderedBy term: SQLExpression) -> SelectStatement {
    let inner = SelectStatement(
      table: "u", columns: [.qualifiedColumn(source: "u", name: "v")], orderBy: [OrderingTerm(term)])
    return SelectStatement(table: "t", columns: [.subquery(inner)], orderBy: [OrderingTerm(.rowid)])
  }

  @Test(arguments: BackendKind.allCases)
  func subqueryOrderByCannotNameTheOuterQuery(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // SELECT (SELECT u.v FROM u ORDER BY t.d) FROM t: no such column, though WHERE could name t.d.
    let outer = Self.firstOfU(orderedBy: .qualifiedColumn(source: "t", name: "d"))
    #expect(Self.failure(db, outer) == Self.noSuchColumn("t.d"))
    var grouped = SelectStatement(table: "u", columns: [.aggregate(.count, nil, distinct: false)])
    grouped.groupBy = [.qualifiedColumn(source: "t", name: "a")]
    #expect(
      Self.failure(db, SelectStatement(table: "t", columns: [.subquery(grouped)])) == Self.noSuchColumn("t.a"))
    // Its own columns are fine: ORDER BY u.v DESC picks 2 for every row of t.
    let own = SelectStatement(
      table: "u", columns: [.qualifiedColumn(source: "u", name: "v")],
      orderBy: [OrderingTerm(.qualifiedColumn(source: "u", name: "v"), descending: true)])
    let rows = try db.execute(.select(SelectStatement(table: "t", columns: [.subquery(own)], orderBy: [OrderingTerm(.rowid)]))).rows
    #expect(rows == [[.integer(2)], [.integer(2)]])
  }

  @Test(arguments: BackendKind.allCases)
  func inSubqueryIsResolvedBeforeItsOperand(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // SELECT (nosuch1 IN (SELECT nosuch2 FROM u)) FROM t: SQLite names the subquery's column.
    let inner = SelectStatement(table: "u", columns: [.column("nosuch2")])
    let statement = SelectStatement(table: "t", columns: [.inSubquery(.column("nosuch1"), inner, negated: false)])
    #expect(Self.failure(db, statement) == Self.noSuchColumn("nosuch2"))
  }

  @Test(arguments: BackendKind.allCases)
  func whereIsResolvedBeforeOnClauses(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // SELECT … FROM t JOIN u ON a WHERE nosuch: `a` is ambiguous, but SQLite appends ON to WHERE.
    let statement = SelectStatement(
      table: "t", joins: [JoinClause(.inner, table: "u", on: .column("a"))], columns: [.literal(1)],
      filter: .column("nosuch"))
    #expect(Self.failure(db, statement) == Self.noSuchColumn("nosuch"))
  }

  @Test(arguments: BackendKind.allCases)
  func unqualifiedRowidOfAJoinIsNoSuchColumn(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // With two sources, `rowid` is no source's, and SQLite does not look in the outer query
    // either (it counts the sources it passed): no such column, not "ambiguous".
    let top = SelectStatement(table: "t", joins: [JoinClause(.cross, table: "u")], columns: [.rowid])
    #expect(Self.failure(db, top) == Self.noSuchColumn("rowid"))
    let inner = SelectStatement(
      table: "u", alias: "x", joins: [JoinClause(.cross, table: "u", alias: "y")], columns: [.rowid], limit: .literal(1))
    #expect(Self.failure(db, SelectStatement(table: "t", columns: [.subquery(inner)])) == Self.noSuchColumn("rowid"))
    // With one source, the innermost level's.
    let one = SelectStatement(table: "u", columns: [.rowid], orderBy: [OrderingTerm(.rowid, descending: true)])
    let rows = try db.execute(.select(SelectStatement(table: "t", columns: [.subquery(one)], orderBy: [OrderingTerm(.rowid)]))).rows
    #expect(rows == [[.integer(2)], [.integer(2)]])
  }

  @Test(arguments: BackendKind.allCases)
  func aliasedSingleTable(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // SELECT x.d FROM t AS x ORDER BY x.rowid
    let statement = SelectStatement(
      table: "t", alias: "x", columns: [.qualifiedColumn(source: "x", name: "d")],
      orderBy: [OrderingTerm(.qualifiedRowid(source: "x"))])
    #expect(try db.execute(.select(statement)).rows == [[.integer(2)], [.integer(4)]])
    let byTableName = SelectStatement(table: "t", alias: "x", columns: [.qualifiedColumn(source: "t", name: "d")])
    #expect(Self.failure(db, byTableName) == Self.noSuchColumn("t.d"))
  }

  @Test(arguments: BackendKind.allCases)
  func aggregateOfOnlyOuterColumnsIsSQLitesOrRefused(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // SELECT (SELECT count(t.a) FROM u) FROM t: the count belongs to the outer query, which
    // becomes an aggregate of one row. The memory engine does not model it and refuses.
    let inner = SelectStatement(table: "u", columns: [.aggregate(.count, .qualifiedColumn(source: "t", name: "a"), distinct: false)])
    let statement = SelectStatement(table: "t", columns: [.subquery(inner)])
    switch kind {
    case .sqliteFile, .sqliteInMemory:
      #expect(try db.execute(.select(statement)).rows == [[.integer(2)]])
    case .memory:
      #expect(Self.failure(db, statement)?.kind == .unsupported)
    case .tandem:
      // SQLite answers, the memory engine refuses: tandem mode reports the difference.
      #expect([.unsupported, .divergence].contains(Self.failure(db, statement)?.kind))
    }
  }

  /// Fuzzer seed 0xC0FFEE35 case 7334: a subquery the walk reaches after an error resolves
  /// nothing when it has a LIMIT (`resolveSelectStep` resolves the LIMIT first, and reports the
  /// parse's error there), so its ambiguous column is not the error; without a LIMIT it
  /// resolves its first result column, and that error replaces the first.
  @Test(arguments: BackendKind.allCases)
  func aSubqueryWithALimitReachedAfterAnErrorResolvesNothing(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let limited = "SELECT (count(x.a) >= (SELECT a FROM t JOIN u LIMIT 1)) FROM t"
    #expect(db.failure(sql: limited)?.signature == .sqlite(code: 1, message: "no such column: x.a"))
    let unlimited = "SELECT (count(x.a) >= (SELECT a FROM t JOIN u)) FROM t"
    #expect(db.failure(sql: unlimited)?.signature == .sqlite(code: 1, message: "ambiguous column name: a"))
  }

  /// Fuzzer seed 0xC0FFEE35 case 18509: a HAVING error inside a nested subquery ends SQLite's
  /// walk, so it is the error even when the memory engine would refuse something around it (an
  /// aggregate there that belongs to the outermost query).
  @Test(arguments: BackendKind.allCases)
  func aHavingErrorInANestedSubqueryOutranksARefusalAroundIt(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let sql = "SELECT (SELECT avg(o.d) FROM u WHERE EXISTS (SELECT 1 FROM t AS w HAVING max(1))) FROM t JOIN t AS o"
    #expect(db.failure(sql: sql)?.signature == .sqlite(code: 1, message: "HAVING clause on a non-aggregate query"))
  }

  /// Fuzzer seed 0xC0FFEE35 case 36604: SQLite resolves the WHERE clause and the ON clauses as
  /// one walk (it appends each ON to the WHERE). After an error inside `x IS NULL` the walk goes
  /// on into the ON clause, whose ambiguous name is then the error; after one under IN it stops.
  /// The memory engine's refusal of the unordered aggregate waits until every name resolves.
  @Test(arguments: BackendKind.allCases)
  func whereAndOnClausesAreResolvedAsOneWalk(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let underIsNull = "SELECT max(u.v) FROM t JOIN t AS o ON a JOIN u WHERE (1 IN (SELECT d FROM t ORDER BY u.v)) IS NULL"
    #expect(db.failure(sql: underIsNull)?.signature == .sqlite(code: 1, message: "ambiguous column name: a"))
    let underIn = "SELECT max(u.v) FROM t JOIN t AS o ON a JOIN u WHERE 1 IN (SELECT d FROM t ORDER BY u.v)"
    #expect(db.failure(sql: underIn)?.signature == .sqlite(code: 1, message: "no such column: u.v"))
  }

  /// Fuzzer seed 0xC0FFEE35 case 4617: `rowid IN (SELECT …)` drives a rowid seek in SQLite's
  /// plan, which never finds a REAL -2⁶³, though a test compares it equal to the smallest rowid.
  /// The memory engine refuses that meeting rather than guess the plan.
  @Test(arguments: BackendKind.allCases)
  func theSmallestRowidInASubqueryOfTheRealMinimumIsSQLitesOrRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE k (id INTEGER PRIMARY KEY, n INTEGER)")
    try db.execute(sql: "INSERT INTO k VALUES (-9223372036854775808, 1), (5, 2)")
    let sql = "SELECT n FROM k WHERE id IN (SELECT total(id) FROM k WHERE id < 0)"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.fetchAll(sql: sql) }) {
      #expect(rows.isEmpty)
    }
    // Integers seek and compare alike.
    #expect(try db.values(sql: "SELECT n FROM k WHERE id IN (SELECT min(id) FROM k)") == [[1]])
  }

  /// Fuzzer seed 0xC0FFEE43 case 860107: `y IN (SELECT rowid FROM k)` with `y` leading an index
  /// may be answered by seeking that index with each rowid, which finds a REAL -2⁶³ equal to the
  /// smallest rowid, or by testing each row with a rowid seek, which never finds it. SQLite chose
  /// the index; the memory engine tested and answered no row. It now refuses that meeting.
  @Test(arguments: BackendKind.allCases)
  func theRealMinimumInTheRowidsOfASubqueryOnAnIndexedColumnIsSQLitesOrRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE k (y REAL NOT NULL UNIQUE, d INTEGER PRIMARY KEY)")
    try db.execute(sql: "INSERT INTO k VALUES (X'86', -9223372036854775808), (-9223372036854775807, 5)")
    let sql = "SELECT d FROM k WHERE y IN (SELECT d FROM k)"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
      #expect(rows == [[5]])
    }
    // Without an index on y, only the test remains: no row.
    try db.execute(sql: "CREATE TABLE m (y REAL NOT NULL, d INTEGER PRIMARY KEY)")
    try db.execute(sql: "INSERT INTO m VALUES (X'86', -9223372036854775808), (-9223372036854775807, 5)")
    #expect(try db.values(sql: "SELECT d FROM m WHERE y IN (SELECT d FROM m)").isEmpty)
  }

  /// Fuzzer seed 0xC0FFEE3A case 15408: `oid` inside a subquery of two sources is no source's
  /// rowid there (SQLite's `cntTab`), so it names the column `oid` of the query around; an
  /// aggregate over it belongs to that query, which is then an aggregate one and may have a
  /// HAVING. The memory engine took `oid` for the inner rowid and reported the HAVING error.
  @Test(arguments: BackendKind.allCases)
  func anUnqualifiedRowidNameOfTwoSourcesReadsTheQueryAround(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.execute(sql: "CREATE TABLE q (oid INTEGER)")
    let owned = """
      SELECT sum(t.a) FROM t WHERE EXISTS (SELECT max((EXISTS (SELECT avg(u.v) FROM u JOIN t AS t2 ON oid WHERE t.d)))
      FROM q HAVING 1) GROUP BY nope.c
      """
    #expect(db.failure(sql: owned)?.signature == .sqlite(code: 1, message: "no such column: nope.c"))
    // Without the column, the aggregate reads only the outermost query: the HAVING is an error.
    let around = """
      SELECT sum(t.a) FROM t WHERE EXISTS (SELECT max((EXISTS (SELECT avg(u.v) FROM u WHERE t.d))) FROM u AS w HAVING 1)
      GROUP BY nope.c
      """
    #expect(db.failure(sql: around)?.signature == .sqlite(code: 1, message: "HAVING clause on a non-aggregate query"))
  }

  /// Fuzzer seed 0xC0FFEE3A case 15922: SQLite's resolver answers `x.rowid IS NULL` up front (a
  /// rowid is never NULL) and drops the reference before it decides which query an aggregate
  /// belongs to; `total()` then reads only the UPDATE's table, where an aggregate is a misuse.
  /// The memory engine kept the reference and ran the statement.
  @Test(arguments: BackendKind.allCases)
  func aRowidIsNullReadsNoSourceWhenAnAggregateIsPlaced(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let sql = "UPDATE t SET a = (SELECT total((SELECT avg(1) FROM u WHERE t.d) * (w.rowid IS NULL)) FROM u AS w)"
    try Self.expectAggregateMisuse(db, sql, function: "total", kind: kind)
  }

  /// Fuzzer seed 0xC0FFEE43 case 960275: SQLite's name lookup marks a column as possibly NULL
  /// when a level it searched before finding it ends with the right side of a LEFT JOIN (the
  /// last source that could have held its rowid), so `x IS NULL` of a NOT NULL column of a level
  /// around is computed, not answered up front. The memory engine folded it, dropped the
  /// reference, and kept `total()` in the subquery, where SQLite gives it to the outer query's
  /// WHERE: a misuse.
  @Test(arguments: BackendKind.allCases)
  func aNameLookedUpPastALeftJoinIsNotAnsweredUpFrontByIsNull(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE n (k INTEGER NOT NULL, id INTEGER PRIMARY KEY)")
    try db.execute(sql: "CREATE TABLE a (p)")
    try db.execute(sql: "CREATE TABLE b (q)")
    try db.execute(sql: "INSERT INTO a VALUES (1)")
    // Over no rows, the aggregate query's row reads NULL for `k`: computing `k IS NULL` says so.
    #expect(try db.values(sql: "SELECT max(n.k), (SELECT 7 FROM a LEFT JOIN b WHERE k IS NULL) FROM n") == [[nil, 7]])
    // Qualified, the name is looked up only in sources of its name: answered up front.
    #expect(try db.values(sql: "SELECT max(n.k), (SELECT 7 FROM a LEFT JOIN b WHERE n.k IS NULL) FROM n") == [[nil, nil]])
    #expect(try db.values(sql: "SELECT max(n.k), (SELECT 7 FROM a JOIN b AS c WHERE k IS NULL) FROM n") == [[nil, nil]])
    let misuse = "SELECT 1 FROM n WHERE (SELECT total(EXISTS (SELECT 1 FROM a LEFT JOIN b WHERE id IS NOT NULL)) FROM a)"
    try Self.expectAggregateMisuse(db, misuse, function: "total", kind: kind)
    // With the last source an inner join's, the test is answered up front and the sum stays inside.
    #expect(try db.values(sql: misuse.replacingOccurrences(of: "LEFT JOIN b", with: "LEFT JOIN b JOIN a AS c")).isEmpty)
  }

  /// Fuzzer seed 0xC0FFEE44 case 603645: SQLite counts, across the levels it searches, every
  /// table a rowid name could mean (`cntTab`); past a subquery of two tables, no level's rowid is
  /// `_rowid_` any more, and the name is the UPDATE table's column of that name. The `max()`
  /// around it then belongs to the UPDATE: a misuse. The memory engine took the middle query's
  /// rowid, kept the aggregate there, and ran the statement.
  @Test(arguments: BackendKind.allCases)
  func aRowidNamePastTwoTablesIsAColumnAroundWhenAnAggregateIsPlaced(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE k (id TEXT); CREATE TABLE s (_rowid_ REAL NOT NULL); CREATE TABLE o (n BLOB)")
    let sql = "UPDATE s SET _rowid_ = 1 WHERE (SELECT max(EXISTS (SELECT _rowid_ FROM o AS x JOIN k)) FROM o)"
    try Self.expectAggregateMisuse(db, sql, function: "max", kind: kind)
  }

  /// Fuzzer seed 0xC0FFEE3C case 24154: SQLite's parser folds `avg(x) IN ()` to 0, aggregate
  /// and all, so a query whose only aggregate sits there is no aggregate query and its HAVING is
  /// an error, reported before a bad name later in the statement.
  @Test(arguments: BackendKind.allCases)
  func anAggregateFoldedAwayMakesNoAggregateQuery(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let sql = """
      SELECT EXISTS (SELECT 1 FROM u WHERE EXISTS (SELECT (avg(t.a) IN ()) FROM t HAVING count(o.d))) FROM t AS o
      ORDER BY nope
      """
    #expect(db.failure(sql: sql)?.signature == .sqlite(code: 1, message: "HAVING clause on a non-aggregate query"))
  }

  /// Fuzzer seed 0xC0FFEE46 case 146559: `y` of `x IS y` is looked up first, and visited again,
  /// a resolved column, after `x`: its step ends the walk when `x` recorded an error, so a bad
  /// name later in the statement is not the one reported. `y IS x` and `x = y` go on to it.
  @Test(arguments: BackendKind.allCases)
  func aNameAfterIsEndsTheWalkOnceItsLeftSideFailed(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE c (x TEXT, f REAL NOT NULL); CREATE TABLE u (ref REAL, a TEXT);
      CREATE TABLE s (ref TEXT, x INTEGER NOT NULL, id INTEGER NOT NULL);
      """)
    let cases = [
      ("CASE WHEN avg(x) IS id THEN sum(u.a) ELSE min(ref) END", "x"),
      ("(abs(x) IS id) + abs(ref)", "x"),
      ("(id IS abs(x)) + abs(ref)", "ref"),
      ("(abs(x) = id) + abs(ref)", "ref"),
    ]
    for (expression, name) in cases {
      let sql = "SELECT \(expression) FROM u JOIN c JOIN s GROUP BY id, (c.f COLLATE BINARY)"
      #expect(db.failure(sql: sql)?.signature == .sqlite(code: 1, message: "ambiguous column name: \(name)"), "\(expression)")
    }
  }

  /// Found beside seed 0xC0FFEE47 (checked with the sqlite3 CLI): SQLite counts, over the levels
  /// it passes, the sources whose rows have a rowid a query may name — a common table
  /// expression's have none (`TF_NoVisibleRowid`) — so an unqualified rowid in a subquery over a
  /// common table, or without FROM, is the query around's, and one beside a common table is the
  /// other table's. The memory engine looked only in the innermost level and failed with `no
  /// such column: rowid`.
  @Test(arguments: BackendKind.allCases)
  func aRowidNameIsFoundPastSourcesWithoutOne(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (5), (6)")
    let common = "WITH c(x) AS (SELECT 1) "
    #expect(try db.values(sql: common + "SELECT (SELECT rowid FROM c) FROM t ORDER BY a") == [[1], [2]])
    #expect(try db.values(sql: common + "SELECT (SELECT rowid FROM c, t AS w) FROM t ORDER BY a") == [[1], [1]])
    #expect(try db.values(sql: "SELECT (SELECT rowid) FROM t ORDER BY a") == [[1], [2]])
    for sql in [common + "SELECT rowid FROM c", "SELECT (SELECT rowid FROM t AS p, t AS q) FROM t"] {
      #expect(db.failure(sql: sql)?.signature == .sqlite(code: 1, message: "no such column: rowid"), "\(sql)")
    }
  }

  /// The rowid of a subquery in FROM, or of a view, is NULL when SQLite runs the subquery as a
  /// co-routine or flattens it, and the row's position when it materializes it (a join's inner
  /// loop): the memory engine, which cannot know, refuses it.
  @Test(arguments: BackendKind.allCases)
  func theRowidOfADerivedTableIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (5), (6); CREATE VIEW v AS SELECT a FROM t")
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: "SELECT rowid, a FROM (SELECT a FROM t)") }) {
      #expect(rows == [[nil, 5], [nil, 6]])
    }
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: "SELECT x.rowid FROM v AS x") }) {
      #expect(rows == [[nil], [nil]])
    }
  }

  /// Fuzzer seed 0xC0FFEE40 case 501286: a SELECT expands its subqueries before it resolves any
  /// name, so one its walk reaches after an error (here after the first subquery's ORDER BY,
  /// which may not name the query around it) is still resolved, and its error is the one
  /// reported. An UPDATE or DELETE resolves its own expressions without expanding first: a
  /// later subquery is only expanded (a missing table is still reported), never resolved.
  @Test(arguments: BackendKind.allCases)
  func aWriteResolvesNoSubqueryAfterAnError(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let first = "max(1, (SELECT 1 FROM u ORDER BY (t.d <= 3)))"
    func message(_ sql: String) -> String? { Self.errorMessage(db, sql) }
    let ambiguous = "EXISTS (SELECT a FROM u JOIN u AS w)"
    #expect(message("SELECT \(first) * \(ambiguous) FROM t") == "ambiguous column name: a")
    #expect(message("UPDATE t SET d = \(first) * \(ambiguous)") == "no such column: t.d")
    #expect(message("DELETE FROM t WHERE \(first) * \(ambiguous)") == "no such column: t.d")
    #expect(message("DELETE FROM t WHERE \(first) * EXISTS (SELECT a FROM nosuch)") == "no such table: nosuch")
    #expect(try db.values(sql: "SELECT a, d FROM t ORDER BY a") == [[1, 2], [3, 4]])
  }

  /// Fuzzer seed 0xC0FFEE40 case 735434: `x IN (SELECT rowid FROM c)` with nothing else to the
  /// query (no WHERE, LIMIT, DISTINCT; an ORDER BY does not count) is answered by seeking c's
  /// rowids (`IN_INDEX_ROWID`), which the REAL -2⁶³ never finds though it equals the smallest
  /// rowid. Any other shape compares the values, and finds it.
  @Test(arguments: BackendKind.allCases)
  func inASubqueryOfRowidsSeeksThem(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE c (k INTEGER PRIMARY KEY, id); CREATE TABLE o (key INTEGER, t TEXT);
      INSERT INTO c VALUES (-9223372036854775808, 7); INSERT INTO o (key) VALUES (-9223372036854775809.0);
      """)
    for (subquery, count) in [
      ("SELECT k FROM c ORDER BY rowid", 0), ("SELECT c.rowid FROM c", 0), ("SELECT k FROM c WHERE 1", 1),
      ("SELECT k FROM c LIMIT 5", 1), ("SELECT DISTINCT k FROM c", 1), ("SELECT +k FROM c", 1),
    ] {
      #expect(try db.values(sql: "SELECT count(*) FROM o WHERE key IN (\(subquery))") == [[.integer(Int64(count))]], "\(subquery)")
    }
  }

  /// Fuzzer seed 0xC0FFEE40 case 764730: a subquery with an OFFSET and no LIMIT is written
  /// `LIMIT -1 OFFSET n`, so it has a LIMIT clause to SQLite: reached after an error, it resolves
  /// none of its columns, and the earlier error stands.
  @Test(arguments: BackendKind.allCases)
  func aSubqueryWithAnOffsetResolvesNoColumnAfterAnError(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    var inner = SelectStatement(
      table: "u", joins: [JoinClause(.inner, table: "t", alias: "w", on: nil)], columns: [.column("a")])
    func statement(_ inner: SelectStatement) -> SelectStatement {
      SelectStatement(table: "t", columns: [.binary(.add, .function(.abs, [.column("nosuch1")]), .subquery(inner))])
    }
    #expect(Self.failure(db, statement(inner)) == .sqlite(code: 1, message: "ambiguous column name: a"))
    inner.offset = .literal(0)
    #expect(Self.failure(db, statement(inner)) == Self.noSuchColumn("nosuch1"))
  }

  /// Fuzzer seed 0xC0FFEE41 cases 550245–551643: SQLite resolves a WHERE clause in one walk, and
  /// the step of `x IS NULL` goes on after its operand fails, so a later name's error replaces
  /// the first (`no such column: q.b`, not `q.a`). The memory engine compiled the clause term by
  /// term and reported the first — on one table, in a join, a subquery, an UPDATE and a DELETE.
  @Test(arguments: BackendKind.allCases)
  func aLaterNameErrorInTheWhereClauseReplacesOneUnderIsNull(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func message(_ sql: String) -> String? { Self.errorMessage(db, sql) }
    let clause = "q.a IS NULL AND q.b IS NOT NULL"
    #expect(message("SELECT a FROM t WHERE \(clause)") == "no such column: q.b")
    #expect(message("SELECT t.a FROM t JOIN u ON u.v = t.a WHERE \(clause)") == "no such column: q.b")
    #expect(message("SELECT t.a FROM t JOIN u ON q.a IS NULL WHERE q.b IS NULL") == "no such column: q.a")
    #expect(message("SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE \(clause))") == "no such column: q.b")
    #expect(message("UPDATE t SET d = 1 WHERE \(clause)") == "no such column: q.b")
    #expect(message("DELETE FROM t WHERE \(clause)") == "no such column: q.b")
    // Without IS NULL the walk stops at the first error.
    #expect(message("SELECT a FROM t WHERE q.a = 1 AND q.b = 2") == "no such column: q.a")
    #expect(try db.values(sql: "SELECT a, d FROM t ORDER BY a") == [[1, 2], [3, 4]])
  }

  /// Fuzzer seed 0xC0FFEE40 cases 371231, 371498, 371537: a query whose only aggregate belongs
  /// to the query around it (its argument reads only that query) is no aggregate query, and
  /// SQLite refuses its HAVING right after resolving its result columns. A refused subquery
  /// inside (`LIKE … ESCAPE` may fail on rows SQLite's plan picks) kept that error back, and
  /// the memory engine reported a later name instead.
  @Test(arguments: BackendKind.allCases)
  func aHavingWithoutAggregateIsReportedBesideARefusedSubquery(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (d INTEGER); CREATE TABLE g (x REAL NOT NULL); CREATE TABLE o (id INTEGER)")
    for inner in ["sum(1)", "sum(x'31' LIKE 'a' ESCAPE NULL)"] {
      let middle = "(SELECT total((SELECT \(inner) FROM t WHERE q.d)) FROM g AS w HAVING total(w.x))"
      #expect(db.failure(sql: "SELECT \(middle) + (SELECT nosuch) FROM o AS b JOIN t AS q")?.message
        == "HAVING clause on a non-aggregate query")
    }
  }

  /// An aggregate in a subquery whose argument reads only the query around it belongs to that
  /// query, which is then an aggregate query: its HAVING is no error. The memory engine refuses
  /// such an aggregate, and the HAVING error that now outranks a refusal (above) must not be
  /// reported in its place: the test for it looks into the result columns' subqueries.
  @Test(arguments: BackendKind.allCases)
  func anAggregateInASubqueryMakesTheQueryAroundAnAggregateOne(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (d INTEGER); CREATE TABLE g (x REAL NOT NULL); INSERT INTO t VALUES (1), (2); INSERT INTO g VALUES (5), (7)")
    let rows = try kind.answerUnlessMemoryRefuses { try db.values(sql: "SELECT (SELECT max(w.x) FROM t) FROM g AS w HAVING 1") }
    if let rows { #expect(rows == [[7.0]]) }
    // Reading the subquery's own table too, the aggregate is the subquery's.
    #expect(db.failure(sql: "SELECT (SELECT max(t.d + w.x) FROM t) FROM g AS w HAVING 1")?.message
      == "HAVING clause on a non-aggregate query")
  }
}
