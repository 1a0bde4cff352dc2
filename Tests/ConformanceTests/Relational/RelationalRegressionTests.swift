import Foundation
import Tandem
import Testing

/// Named regressions the relational fuzzer found after joins and subqueries arrived, each checked
/// on every engine against SQLite 3.40's answer.
@Suite struct RelationalRegressionTests {
  /// `"t"."w"` in a statement over `t` alone is planned like `"w"`: before, the single-table
  /// planner did not see the column (max() read NULL, a WHERE on it found nothing).
  @Test(arguments: BackendKind.allCases)
  func columnQualifiedByItsOnlyTable(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("w", .integer)]))
    _ = try db.insertRaw(into: "t", columns: ["w"], values: [2])
    let qualified = SQLExpression.qualifiedColumn(source: "t", name: "id")
    let max = SelectStatement(table: "t", columns: [.aggregate(.max, qualified, distinct: false)], filter: qualified)
    #expect(try db.execute(.select(max)).rows == [[1]])
    let rows = SelectStatement(
      table: "t", columns: [.qualifiedColumn(source: "t", name: "w")], filter: .qualifiedColumn(source: "t", name: "w"))
    #expect(try db.execute(.select(rows)).rows == [[2]])
  }

  /// A DELETE whose correlated EXISTS reads the deleted table's rowid: the term reads the row,
  /// so it is evaluated for each row, not once before the loop (which deleted nothing).
  @Test(arguments: BackendKind.allCases)
  func deleteWithCorrelatedExistsOnTheRowid(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("w", .integer)]))
    try db.create(TableSchema("u", columns: [.column("v", .integer)]))
    _ = try db.insertRaw(into: "t", columns: ["w"], values: [5])
    _ = try db.insertRaw(into: "u", columns: ["v"], values: [1])
    let exists = SelectStatement(table: "u", columns: [.column("v")], filter: .qualifiedRowid(source: "t"))
    let result = try db.execute(.delete(DeleteStatement(table: "t", filter: .exists(exists, negated: false))))
    #expect(result.changes == 1)
  }

  /// An error naming the rowid of a table with a column called `rowid` spells it `_rowid_`, as
  /// the SQL SQLite reported on does.
  @Test(arguments: BackendKind.allCases)
  func rowidSpellingInErrors(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("c", columns: [.column("rowid", .integer)]))
    try db.create(TableSchema("q", columns: [.column("e", .text)]))
    // The ORDER BY of a subquery cannot read the query around it.
    var inner = SelectStatement(table: "q", columns: [.column("e")])
    inner.orderBy = [OrderingTerm(.qualifiedRowid(source: "c"))]
    let outer = SelectStatement(table: "c", columns: [.column("rowid")], filter: .exists(inner, negated: false))
    let error = try #require(throws: TandemError.self) { try db.execute(.select(outer)) }
    #expect(error.signature == .sqlite(code: 1, message: "no such column: c._rowid_"))
  }

  /// SQLite omits the new row's parent lookup for a key from a table to itself when the newest
  /// foreign key program it coded for the statement is that key's SET NULL action: an INSERT OR
  /// REPLACE under ON DELETE SET NULL, an upsert assigning the parent column under ON UPDATE SET
  /// NULL. The orphan row is then inserted.
  @Test(arguments: BackendKind.allCases)
  func selfReferenceSetNullActionOmitsTheParentLookup(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema(
        "nodes",
        columns: [
          .column("c", .null(.blob), unique: true),
          .column("up", .null(.blob), references: ForeignKey(table: "nodes", column: "c", onDelete: .setNull)),
        ]))
    let replace = InsertStatement(table: "nodes", columns: ["up"], rows: [[.literal(5)]], conflict: .replace)
    #expect(try db.execute(.insert(replace)).changes == 1)
    // Without REPLACE no action is coded first: the orphan fails.
    let plain = InsertStatement(table: "nodes", columns: ["up"], rows: [[.literal(6)]])
    let error = try #require(throws: TandemError.self) { try db.execute(.insert(plain)) }
    #expect(error.kind == .constraintViolation)

    try db.create(
      TableSchema(
        "tree",
        columns: [
          .column("b", .null(.blob), primaryKey: true),
          .column("up", .null(.blob), references: ForeignKey(table: "tree", column: "b", onUpdate: .setNull)),
        ]))
    let upsert = InsertStatement(
      table: "tree", columns: ["up"], rows: [[.literal(5)]],
      conflict: .update(target: ["b"], assignments: [Assignment(column: "b", value: .column("b"))]))
    #expect(try db.execute(.insert(upsert)).changes == 1)
  }
}

extension RelationalRegressionTests {
  /// Fuzzer seed 0x5EED1007 case 621: SQLite's resolver answers `x IS [NOT] NULL` up front when x
  /// is a NOT NULL column or a rowid — in a join too, so an aggregate over no rows reports
  /// `y IS NOT NULL` as 1 — but not for the right side of a LEFT JOIN, whose columns can be NULL.
  @Test(arguments: BackendKind.allCases)
  func isNullOfANotNullColumnInAJoinIsAnsweredUpFront(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("a", columns: [.column("x", .integer)]))
    try db.create(TableSchema("b", columns: [.column("y", .blob)]))
    _ = try db.insertRaw(into: "a", columns: ["x"], values: [1])
    // `b` is empty: the aggregate's one row reads no row of the join.
    #expect(
      try db.fetchAll(sql: "SELECT count(*), b.y IS NOT NULL, a.x IS NULL, b.rowid NOTNULL FROM a CROSS JOIN b")
        .map(\.values) == [[0, 1, 0, 1]])
    let left = try db.fetchAll(sql: "SELECT b.y IS NOT NULL, b.y IS NULL, a.x ISNULL FROM a LEFT JOIN b", rowOrder: .unordered)
    #expect(left.map(\.values) == [[0, 1, 0]])
  }

  /// Fuzzer seed 0x5EED1007 case 682: the same answer when the SQLite backend reads the join
  /// through its ordered-rows subquery (an aggregate whose answer depends on the visiting
  /// order), whose columns SQLite no longer knows to be NOT NULL: the renderer writes the
  /// resolver's answer itself.
  @Test(arguments: BackendKind.allCases)
  func isNullOfANotNullColumnOverOrderedRows(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("a", columns: [.column("x", .integer)]))
    try db.create(TableSchema("b", columns: [.column("y", .text)]))
    let notNull = SQLExpression.isNull(.qualifiedColumn(source: "b", name: "y"), negated: true)
    let select = SelectStatement(
      table: "a", joins: [JoinClause(.inner, table: "b")],
      columns: [.binary(.and, notNull, .binary(.greater, .literal(.blob(Data("abc".utf8))), .aggregate(.count, nil, distinct: false)))])
    #expect(try db.execute(.select(select)).rows == [[1]])
  }

  /// Fuzzer seed 0x5EED1007 case 1477: a subquery whose sum() overflows, in a join's ON clause,
  /// fails only if SQLite's plan reaches the loop that evaluates it (here it puts the empty table
  /// outside, and answers). The memory engine, which cannot follow that plan, refuses.
  @Test(arguments: BackendKind.allCases)
  func anOverflowingSubqueryInAJoinConditionIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("s", columns: [.column("v", .integer, primaryKey: true)]))
    try db.create(TableSchema("m", columns: [.column("ref", .null(.integer)), .column("a", .integer)]))
    _ = try db.insertRaw(into: "s", columns: ["v"], values: [.integer(.min)])
    _ = try db.insertRaw(into: "s", columns: ["v"], values: [.integer(.min + 1)])
    let overflowing = SelectStatement(table: "s", columns: [.aggregate(.sum, .qualifiedColumn(source: "s", name: "v"), distinct: false)])
    let select = SelectStatement(
      table: "s",
      joins: [
        JoinClause(.inner, table: "s", alias: "q", on: .subquery(overflowing)),
        JoinClause(.inner, table: "m", on: .qualifiedColumn(source: "m", name: "ref")),
      ],
      columns: [.aggregate(.avg, .qualifiedColumn(source: "m", name: "a"), distinct: false)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows == [[nil]])
    }
  }

  /// A subquery in a grouped join's result columns reads the group's row (each list's own
  /// count here). It is refused only where SQLite may convert the group's value in place: a
  /// TEXT, BLOB or REAL column compared inside the subquery, in a group whose value the numeric
  /// affinity changes ('12' becomes 12 when sought in an INTEGER index, and a result column read
  /// after the subquery shows the integer).
  @Test(arguments: BackendKind.allCases)
  func aSubqueryInAGroupedJoinReadsTheGroupsRow(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE item(listID INTEGER, label TEXT, n INTEGER);
        CREATE INDEX item_label ON item(label);
        CREATE INDEX item_n ON item(n);
        INSERT INTO list VALUES (1, 'home'), (2, 'work');
        INSERT INTO item VALUES (1, 'a', 12), (1, 'b', 5), (2, 'c', 7);
        """)
    func column(_ source: String, _ name: String) -> SQLExpression { .qualifiedColumn(source: source, name: name) }
    func select(_ groupColumn: String, comparedWith itemColumn: String) -> SelectStatement {
      let count = SelectStatement(
        table: "item", alias: "i", columns: [.aggregate(.count, nil, distinct: false)],
        filter: .binary(.equal, column("i", itemColumn), column("list", groupColumn)))
      return SelectStatement(
        table: "list", joins: [JoinClause(.inner, table: "item", on: .binary(.equal, column("item", "listID"), column("list", "id")))],
        columns: [column("list", groupColumn), .subquery(count)], groupBy: [column("list", "id")], orderBy: [OrderingTerm(column("list", "id"))])
    }
    #expect(try db.execute(.select(select("id", comparedWith: "listID"))).rows == [[1, 2], [2, 1]])
    #expect(try db.execute(.select(select("name", comparedWith: "label"))).rows == [["home", 0], ["work", 0]])
    #expect(try db.execute(.select(select("name", comparedWith: "n"))).rows == [["home", 0], ["work", 0]])
    try db.execute(sql: "UPDATE list SET name = '12' WHERE id = 1")
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select("name", comparedWith: "n"))).rows }) {
      #expect(rows == [["12", 1], ["work", 0]])
    }
  }

  /// Fuzzer seed 0xC0FFEE61 case 247008: a common table's column made of an expression has no
  /// affinity, so where a subquery in a grouped query's ORDER BY seeks it in a TEXT index, SQLite
  /// applies TEXT affinity to the group's register in place, and the result column then shows
  /// the number as text ('1', not 1). Numbers without affinity compared with a column there are
  /// refused; text values, a column with affinity and the rowid are answered.
  @Test(arguments: BackendKind.allCases)
  func aGroupsNumberWithoutAffinitySoughtInATextIndexIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE t(v INTEGER NOT NULL);
        CREATE TABLE d(k TEXT PRIMARY KEY);
        INSERT INTO t VALUES (1), (0), (1);
        INSERT INTO d VALUES ('1');
        """)
    // WITH w(n) AS (SELECT <made> FROM t LIMIT 9)
    // SELECT w.n, count(*) FROM w GROUP BY w.n ORDER BY (SELECT 1 FROM d WHERE <key> = w.n), w.n
    func grouped(_ made: SQLExpression, comparedWith key: SQLExpression) throws -> [[SqliteValue]] {
      let n = SQLExpression.qualifiedColumn(source: "w", name: "n")
      let seek = SelectStatement(table: "d", columns: [.literal(1)], filter: .binary(.equal, key, n))
      var select = SelectStatement(
        table: "w", columns: [n, .aggregate(.count, nil, distinct: false)], groupBy: [n],
        orderBy: [OrderingTerm(.subquery(seek)), OrderingTerm(n)])
      select.with = WithClause(tables: [
        CommonTableExpression(name: "w", columns: ["n"], select: SelectStatement(table: "t", columns: [made], limit: .literal(9)))
      ])
      return try db.execute(.select(select)).rows
    }
    let v = SQLExpression.column("v")
    let k = SQLExpression.qualifiedColumn(source: "d", name: "k")
    let vPlusZero = SQLExpression.binary(.add, v, .literal(0))
    if let rows = try kind.answerUnlessMemoryRefuses({ try grouped(vPlusZero, comparedWith: k) }) {
      #expect(rows == [[.text("0"), .integer(1)], [.text("1"), .integer(2)]])
    }
    let text = SQLExpression.binary(.concatenate, .literal(.text("x")), v)
    #expect(try grouped(text, comparedWith: k) == [[.text("x0"), .integer(1)], [.text("x1"), .integer(2)]])
    #expect(try grouped(v, comparedWith: k) == [[.integer(0), .integer(1)], [.integer(1), .integer(2)]])
    #expect(try grouped(vPlusZero, comparedWith: .qualifiedRowid(source: "d")) == [[.integer(0), .integer(1)], [.integer(1), .integer(2)]])
  }

  /// Fuzzer seed 0xC0FFEE62 case 597470: SQLite flattens a common table made of one table into
  /// the query that groups (or deduplicates) by its column, and then reads that table through an
  /// index holding the column (here the primary key on (c, v)) to meet each group's rows
  /// together, in the index's order: the group of 7 and 7.0 shows 7.0 (whose v, 'a', sorts
  /// before X'00'), and a bare column comes from that row; the memory engine read them in rowid
  /// order. Such groups are now checked as an unpinned join's (keys stored differently, bare
  /// columns beyond the keys and sums are refused); a column made of an expression (no index
  /// serves it) is answered.
  @Test(arguments: BackendKind.allCases)
  func groupsOfACommonTableThatSQLiteReadsInAnIndexOrderAreChecked(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE t(c BLOB, v TEXT, x REAL, PRIMARY KEY (c, v));
        INSERT INTO t(c, v, x) VALUES (7, X'00', 1.5), (7.0, 'a', 2.5), (8, X'00', 3.5);
        """)
    let n = SQLExpression.qualifiedColumn(source: "w", name: "n")
    let m = SQLExpression.qualifiedColumn(source: "w", name: "m")
    // WITH w(n, m) AS (SELECT <made>, x FROM t) SELECT <columns> FROM w GROUP BY w.n (or SELECT DISTINCT)
    func overW(_ made: SQLExpression, _ columns: [SQLExpression], distinct: Bool = false) throws -> [[SqliteValue]] {
      var select = SelectStatement(table: "w", columns: columns, groupBy: distinct ? [] : [n])
      select.distinct = distinct
      select.with = WithClause(tables: [
        CommonTableExpression(name: "w", columns: ["n", "m"], select: SelectStatement(table: "t", columns: [made, .column("x")]))
      ])
      return try db.execute(.select(select)).rows
    }
    let c = SQLExpression.column("c")
    if let rows = try kind.answerUnlessMemoryRefuses({ try overW(c, [n]) }) {
      #expect(rows == [[.real(7)], [.integer(8)]])
    }
    if let rows = try kind.answerUnlessMemoryRefuses({ try overW(c, [n], distinct: true) }) {
      #expect(rows == [[.real(7)], [.integer(8)]])
    }
    if let rows = try kind.answerUnlessMemoryRefuses({ try overW(c, [m]) }) {
      #expect(rows == [[.real(2.5)], [.real(3.5)]])
    }
    let cPlusZero = SQLExpression.binary(.add, c, .literal(0))
    #expect(try overW(cPlusZero, [n, m]) == [[.integer(7), .real(1.5)], [.integer(8), .real(3.5)]])
  }

  /// Fuzzer seed 0xC0FFEE62 case 633946: SQLite's resolver replaces `x IS NOT NULL` by 1 where
  /// `x` cannot be NULL (the rowid, a NOT NULL column), so `NOT (t.id IS NOT NULL)` in HAVING reads
  /// no column and moves to WHERE (`havingToWhere`): no row passes, no group forms, and the sum
  /// that would overflow never finishes. The engine kept it in HAVING and failed. A term it does
  /// not fold (a LEFT JOIN's column may be NULL) or that stays as a true term still overflows.
  @Test(arguments: BackendKind.allCases)
  func havingOnANotNullColumnsNullnessMovesToWhere(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE t(k TEXT, a REAL NOT NULL, id INTEGER PRIMARY KEY);
        INSERT INTO t(k, a, id) VALUES (NULL, 12, 9223372036853775807), (NULL, 7.0, 9223372036853775806);
        """)
    func column(_ source: String, _ name: String) -> SQLExpression { .qualifiedColumn(source: source, name: name) }
    func isNotNull(_ operand: SQLExpression) -> SQLExpression { .isNull(operand, negated: true) }
    // SELECT sum(t.id) FROM t [<join> t AS u [ON 0]] GROUP BY <key> HAVING <having>
    func grouped(_ join: JoinClause?, key: SQLExpression, having: SQLExpression) throws -> [[SqliteValue]] {
      let select = SelectStatement(
        table: "t", joins: join.map { [$0] } ?? [], columns: [.aggregate(.sum, column("t", "id"), distinct: false)],
        groupBy: [key], having: having)
      return try db.execute(.select(select)).rows
    }
    let inner = JoinClause(.inner, table: "t", alias: "u")
    #expect(try grouped(inner, key: column("u", "k"), having: .unary(.not, isNotNull(column("t", "id")))) == [])
    #expect(try grouped(nil, key: column("t", "k"), having: .unary(.not, isNotNull(column("t", "a")))) == [])
    let left = JoinClause(.left, table: "t", alias: "u", on: .literal(0))
    for (join, having) in [
      (nil, isNotNull(column("t", "a"))),
      (left, .unary(.not, isNotNull(column("u", "a")))),
    ] {
      let error = try #require(throws: TandemError.self) { try grouped(join, key: column("t", "k"), having: having) }
      #expect(error.signature == .sqlite(code: 1, message: "integer overflow"))
    }
  }

  /// Fuzzer seed 0xC0FFEE62 case 213962, and what probing it found: SQLite answers `ref > 0`
  /// by searching the index on `ref`, so the rows come in `ref` order ('y' with ref 3 before 'x',
  /// the first rowid), where the engine's loops read them in rowid order. A group's bare column
  /// over a common table made of that select (flattened into the query), a scalar subquery's
  /// first row (silently 'x' on `.memory`) and SQL text's rows without ORDER BY all took the
  /// rowid order's row; they are now refused (the SQL text with `rowOrder: .unordered` is answered).
  @Test(arguments: BackendKind.allCases)
  func rowsSQLiteSearchesAnIndexForComeInKeyOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE child(ref INTEGER NOT NULL, b TEXT NOT NULL);
        CREATE INDEX child_on_ref ON child(ref);
        CREATE TABLE one(k INTEGER);
        INSERT INTO child VALUES (4, 'x'), (3, 'y');
        INSERT INTO one VALUES (1);
        """)
    let searched = SelectStatement(
      table: "child", columns: [.qualifiedColumn(source: "child", name: "b")],
      filter: .binary(.greater, .qualifiedColumn(source: "child", name: "ref"), .literal(0)))
    // SELECT (SELECT child.b FROM child WHERE child.ref > 0) FROM one
    let first = SelectStatement(table: "one", columns: [.subquery(searched)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(first)).rows }) {
      #expect(rows == [[.text("y")]])
    }
    // WITH w(n) AS (SELECT child.b FROM child WHERE child.ref > 0) SELECT w.n FROM one CROSS JOIN w GROUP BY one.k
    var grouped = SelectStatement(
      table: "one", joins: [JoinClause(.cross, table: "w")], columns: [.qualifiedColumn(source: "w", name: "n")],
      groupBy: [.qualifiedColumn(source: "one", name: "k")])
    grouped.with = WithClause(tables: [CommonTableExpression(name: "w", columns: ["n"], select: searched)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(grouped)).rows }) {
      #expect(rows == [[.text("y")]])
    }
    let sql = "SELECT b, (SELECT 1) FROM child WHERE ref > 0"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
      #expect(rows == [["y", 1], ["x", 1]])
    }
    let unordered = try db.fetchAll(sql: sql, rowOrder: .unordered).map { $0.values[0] }
    #expect(Set(unordered) == [.text("x"), .text("y")] && unordered.count == 2)
  }

  /// An aggregate that reads only the query around its subquery belongs to that query, so the
  /// subquery is no aggregate query: its HAVING is SQLite's error, found right after its result
  /// columns (fuzzer seed 0xC0FFEE27's HAVING mismatches).
  @Test(arguments: BackendKind.allCases)
  func havingInASubqueryWhoseAggregateBelongsAround(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("a", .integer)]))
    try db.create(TableSchema("u", columns: [.column("b", .integer)]))
    let inner = SelectStatement(
      table: "u", columns: [.aggregate(.count, .qualifiedColumn(source: "t", name: "a"), distinct: false)],
      having: .literal(.integer(1)))
    let select = SelectStatement(table: "t", columns: [.subquery(inner)])
    let error = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
    #expect(error.signature == .sqlite(code: 1, message: "HAVING clause on a non-aggregate query"))
  }

  /// Fuzzer seed 0xC0FFEE28 case 4327: a join looks up its inner table through an index on
  /// several columns, whose entries for one key follow the index's other columns; the loop still
  /// visits them in rowid order, as SQLite's pinned scan does, so a group's bare column comes
  /// from the same row.
  @Test(arguments: BackendKind.allCases)
  func aLookupThroughALongerIndexVisitsRowsInRowidOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    var child = TableSchema("child", columns: [.column("k", .real), .column("b", .null(.text))])
    child.indexes = [IndexSchema(columns: ["k", "b"])]
    try db.create(child)
    try db.create(TableSchema("m", columns: [.column("t", .integer), .column("v", .integer)]))
    _ = try db.insertRaw(into: "child", columns: ["k", "b"], values: [1.0, "z"])
    _ = try db.insertRaw(into: "child", columns: ["k", "b"], values: [1.0, "a"])
    _ = try db.insertRaw(into: "m", columns: ["t", "v"], values: [1, 7])
    let select = SelectStatement(
      table: "m",
      joins: [JoinClause(.inner, table: "child", on: .binary(.equal, .qualifiedColumn(source: "m", name: "t"), .qualifiedColumn(source: "child", name: "k")))],
      columns: [.qualifiedColumn(source: "child", name: "b")], groupBy: [.qualifiedColumn(source: "m", name: "v")])
    #expect(try db.execute(.select(select)).rows == [["z"]])
  }

  /// Fuzzer seed 0xC0FFEE28 case 11340: `column IN (SELECT …)` outside the aggregates of an
  /// aggregate join without GROUP BY converts SQLite's register of the column in place (TEXT '2'
  /// compared with a REAL column shows as 2), as with GROUP BY: the memory engine refuses both.
  @Test(arguments: BackendKind.allCases)
  func inOnABareColumnOfAnAggregateJoinIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("o", columns: [.column("ref", .null(.text)), .column("up", .null(.text))]))
    try db.create(TableSchema("t", columns: [.column("x", .null(.real))]))
    _ = try db.insertRaw(into: "o", columns: ["ref"], values: ["2"])
    let reals = SelectStatement(table: "t", columns: [.qualifiedColumn(source: "t", name: "x")])
    let ref = SQLExpression.qualifiedColumn(source: "o", name: "ref")
    let select = SelectStatement(
      table: "o", joins: [JoinClause(.inner, table: "o", alias: "w")],
      columns: [.binary(.add, .inSubquery(ref, reals, negated: false), .aggregate(.count, nil, distinct: false)), ref])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows == [[1, 2]])
    }
  }

  /// Fuzzer seed 0xC0FFEE29 case 13949: SQLite resolves ORDER BY terms in order, so a name error
  /// in the first term comes before the second term's ordinal 0 (an AND folded to 0) is out of
  /// range.
  @Test(arguments: BackendKind.allCases)
  func orderByTermsAreResolvedInOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("a", .integer)]))
    try db.create(TableSchema("u", columns: [.column("b", .integer)]))
    let ambiguous = SelectStatement(table: "u", joins: [JoinClause(.cross, table: "u", alias: "v")], columns: [.column("b")])
    let folded = SQLExpression.binary(.and, .column("a"), .inList(.column("a"), [], negated: false))
    let select = SelectStatement(
      table: "t", columns: [.literal(1)], orderBy: [OrderingTerm(.subquery(ambiguous)), OrderingTerm(folded)])
    let error = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
    #expect(error.signature == .sqlite(code: 1, message: "ambiguous column name: b"))
  }

  /// Fuzzer seed 0xC0FFEE29 case 33977: SQLite moves a HAVING term that reads only GROUP BY
  /// terms (here the constant NULL) into WHERE, in a query with a subquery too, so no group
  /// forms and the sum() that would overflow is never finalized.
  @Test(arguments: BackendKind.allCases)
  func havingThatReadsOnlyGroupTermsFiltersRowsFirst(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("g", .null(.integer)), .column("n", .integer)]))
    try db.create(TableSchema("u", columns: [.column("x", .null(.blob))]))
    _ = try db.insertRaw(into: "t", columns: ["n"], values: [.integer(.max)])
    _ = try db.insertRaw(into: "t", columns: ["n"], values: [1])
    let group = SQLExpression.qualifiedColumn(source: "t", name: "g")
    let select = SelectStatement(
      table: "t",
      columns: [
        .aggregate(.sum, .qualifiedColumn(source: "t", name: "n"), distinct: false),
        .subquery(SelectStatement(table: "u", columns: [.qualifiedColumn(source: "u", name: "x")])),
      ],
      groupBy: [group], having: .binary(.or, .literal(.null), .binary(.greater, group, .literal(5))))
    #expect(try db.execute(.select(select)).rows.isEmpty)
  }

  /// Fuzzer seed 0xC0FFEE29 case 48938: `x IN ()` is folded away by SQLite's parser with the
  /// references inside it, so an aggregate whose argument then reads only the query around its
  /// subquery belongs to that query — which the memory engine refuses rather than answering as
  /// if the aggregate were the subquery's.
  @Test(arguments: BackendKind.allCases)
  func anAggregateReadingAroundOnlyOutsideAFoldedInIsTheOuterQuerys(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("d", columns: [.column("y", .null(.text))]))
    try db.create(TableSchema("u", columns: [.column("y", .null(.text))]))
    let folded = SQLExpression.inList(.qualifiedColumn(source: "u", name: "y"), [], negated: false)
    let argument = SQLExpression.binary(.add, folded, .qualifiedRowid(source: "a"))
    let inner = SelectStatement(table: "u", columns: [.aggregate(.min, argument, distinct: false)])
    let select = SelectStatement(table: "d", joins: [JoinClause(.cross, table: "u", alias: "a")], columns: [.subquery(inner)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows == [[nil]])
    }
  }

  /// Fuzzer seed 0xC0FFEE29 case 24469: SQLite counts an EXISTS subquery's rows without its
  /// DISTINCT and ORDER BY (it deletes both once names are resolved), so two rows holding the
  /// same NULL are two rows, and `OFFSET 1` still leaves one. The same goes down a UNION ALL.
  @Test(arguments: BackendKind.allCases)
  func existsCountsRowsWithoutDistinctOrOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("s", columns: [.column("id", .null(.integer))]))
    try db.create(TableSchema("v", columns: [.column("e", .null(.real))]))
    _ = try db.insertRaw(into: "s", columns: ["id"], values: [603])
    _ = try db.insertRaw(into: "v", columns: ["e"], values: [nil])
    _ = try db.insertRaw(into: "v", columns: ["e"], values: [nil])
    let e = SQLExpression.qualifiedColumn(source: "v", name: "e")
    var distinct = SelectStatement(table: "v", columns: [e], distinct: true)
    distinct.orderBy = [OrderingTerm(e)]
    distinct.limit = .literal(-1)
    distinct.offset = .literal(1)
    let exists = SelectStatement(table: "s", columns: [.exists(distinct, negated: false)])
    #expect(try db.execute(.select(exists)).rows == [[1]])

    // A scalar subquery keeps its DISTINCT: one distinct row, none after OFFSET 1.
    let scalar = SelectStatement(
      table: "s", columns: [.exists(distinct, negated: false), .subquery(distinct)])
    #expect(try db.execute(.select(scalar)).rows == [[1, nil]])

    var none = SelectStatement(table: "v", columns: [e], distinct: true, filter: .literal(0))
    none.compound = [CompoundTerm(.unionAll, SelectStatement(table: "v", columns: [e], distinct: true))]
    none.limit = .literal(1)
    none.offset = .literal(1)
    #expect(try db.execute(.select(SelectStatement(table: "s", columns: [.exists(none, negated: false)]))).rows == [[1]])
    // Under UNION the members are combined distinct first: one row, none after OFFSET 1.
    none.compound[0].operator = .union
    #expect(try db.execute(.select(SelectStatement(table: "s", columns: [.exists(none, negated: false)]))).rows == [[0]])
  }

  /// An EXISTS subquery's deleted ORDER BY still has its names resolved (a bad name fails), but
  /// an aggregate in it is never misused: SQLite deletes it before looking for aggregates.
  @Test(arguments: BackendKind.allCases)
  func existsResolvesItsOrderByButNeverRunsIt(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("v", columns: [.column("e", .null(.real))]))
    _ = try db.insertRaw(into: "v", columns: ["e"], values: [1.5])
    let e = SQLExpression.qualifiedColumn(source: "v", name: "e")
    var inner = SelectStatement(table: "v", columns: [e])
    inner.orderBy = [OrderingTerm(.aggregate(.max, e, distinct: false))]
    let outer = SelectStatement(table: "v", columns: [.exists(inner, negated: false)])
    #expect(try db.execute(.select(outer)).rows == [[1]])
    inner.orderBy = [OrderingTerm(.qualifiedColumn(source: "v", name: "nosuch"))]
    let error = try #require(throws: TandemError.self) {
      try db.execute(.select(SelectStatement(table: "v", columns: [.exists(inner, negated: false)])))
    }
    #expect(error.signature == .sqlite(code: 1, message: "no such column: v.nosuch"))
  }

  /// Fuzzer seed 0xC0FFEE29 case 40210: `total(x) NOT IN (SELECT id …)` in HAVING converts the
  /// aggregate's own register to the subquery column's INTEGER affinity, so the result column
  /// then reads 87 where it computed 87.0 — and in the result columns the change shows only in
  /// those after the IN. The memory engine refuses what such a conversion can change, and
  /// answers a count compared with an INTEGER column, which it cannot change.
  @Test(arguments: BackendKind.allCases)
  func anAggregateConvertedInPlaceByInIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("d", columns: [.column("id", .integer)]))
    try db.create(TableSchema("a", columns: [.column("k", .integer)]))
    _ = try db.insertRaw(into: "d", columns: ["id"], values: [43])
    _ = try db.insertRaw(into: "d", columns: ["id"], values: [44])
    _ = try db.insertRaw(into: "a", columns: ["k"], values: [1])
    let id = SQLExpression.qualifiedColumn(source: "s", name: "id")
    let ids = SelectStatement(table: "d", alias: "e", columns: [.qualifiedColumn(source: "e", name: "id")])
    let total = SQLExpression.aggregate(.total, id, distinct: false)
    let select = SelectStatement(
      table: "a", joins: [JoinClause(.inner, table: "d", alias: "s")], columns: [total],
      groupBy: [.qualifiedColumn(source: "a", name: "k")], having: .inSubquery(total, ids, negated: true))
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows == [[.integer(87)]])
    }
    let count = SQLExpression.aggregate(.count, nil, distinct: false)
    let counted = SelectStatement(
      table: "a", joins: [JoinClause(.inner, table: "d", alias: "s")], columns: [count],
      groupBy: [.qualifiedColumn(source: "a", name: "k")], having: .inSubquery(count, ids, negated: true))
    #expect(try db.execute(.select(counted)).rows == [[2]])
    // Fuzzer seed 0xC0FFEE31 case 81282: REAL affinity makes even a count a REAL in place.
    try db.create(TableSchema("r", columns: [.column("v", .real)]))
    let reals = SelectStatement(table: "r", columns: [.qualifiedColumn(source: "r", name: "v")])
    let countedAsReal = SelectStatement(table: "a", columns: [.inSubquery(count, reals, negated: false), count])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(countedAsReal)).rows }) {
      #expect(rows == [[0, .real(1)]])
    }
  }

  /// Fuzzer seed 0xC0FFEE44 case 686496: SQLite 3.40 drops from its plan a LEFT JOIN table that
  /// nothing but its ON clause reads, but keeps each later loop's direction by its old position:
  /// the loop it runs backwards for `u.a DESC` runs forwards, and the rows come out of their
  /// ORDER BY. The memory engine sorted them; it now refuses such a query.
  @Test(arguments: BackendKind.allCases)
  func aDroppedLeftJoinTableMisordersALaterDescendingLoopOrIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (a INTEGER PRIMARY KEY); INSERT INTO t VALUES (10), (11)")
    let sql = "SELECT t.a, u.a FROM t LEFT JOIN t AS x ON t.a = x.rowid JOIN t AS u ORDER BY t.a, u.a DESC"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
      #expect(rows == [[10, 10], [10, 11], [11, 10], [11, 11]])
    }
    // Read in the result, the LEFT JOIN table stays in the plan, and the order is the ORDER BY's.
    let kept = "SELECT t.a, u.a, x.a FROM t LEFT JOIN t AS x ON t.a = x.rowid JOIN t AS u ORDER BY t.a, u.a DESC"
    #expect(try db.values(sql: kept) == [[10, 11, 10], [10, 10, 10], [11, 11, 11], [11, 10, 11]])
  }

  /// Fuzzer seed 0xC0FFEE44 cases 576093, 559229: `u.rowid = (SELECT total(…))` in a join, the subquery
  /// a constant REAL -2⁶³ and the smallest rowid present. SQLite seeks the rowid by it and finds
  /// nothing; the memory engine scanned the one-row table and compared, which finds them equal.
  /// Whether a plan seeks or tests is SQLite's choice: the meeting is refused.
  @Test(arguments: BackendKind.allCases)
  func aJoinTestingTheSmallestRowidAgainstAConstantRealMinimumIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE u (x INTEGER PRIMARY KEY); CREATE TABLE c (ref INTEGER, n TEXT)")
    try db.execute(sql: "INSERT INTO u VALUES (-9223372036854775808); INSERT INTO c VALUES (-9223372036854775808, 'a')")
    let sql = "SELECT c2.n FROM c JOIN u JOIN c AS c2 WHERE x = (SELECT total(c.ref) FROM c) ORDER BY c.rowid, u.rowid, c2.rowid"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
      #expect(rows.isEmpty)
    }
    // Case 559229: a constant text out of range reads as that REAL; here the memory engine seeks
    // by it too (the fuzzer's three-table form is refused).
    let constant = "SELECT c.n FROM c JOIN u ON u.rowid IS '-9223372036854775809' ORDER BY c.rowid, u.rowid"
    #expect(try db.values(sql: constant).isEmpty)
    // An integer seeks and compares alike.
    #expect(try db.values(sql: "SELECT c2.n FROM c JOIN u JOIN c AS c2 WHERE x = (SELECT min(c.ref) FROM c) ORDER BY c.rowid, u.rowid, c2.rowid")
      == [["a"]])
  }

  /// Fuzzer seed 0xC0FFEE47 case 77321: `u.rowid IN (c.ref)` seeks the rowid by each value of
  /// the list as `=` does, and a REAL -2⁶³ finds no row by seeking; the memory engine tested the
  /// term and joined the pair. The meeting is refused; an INTEGER -2⁶³ joins on every engine.
  @Test(arguments: BackendKind.allCases)
  func aJoinSeekingTheSmallestRowidThroughAnInListIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE u (v REAL, x INTEGER PRIMARY KEY); CREATE TABLE c (ref REAL, n INTEGER)")
    try db.execute(sql: "INSERT INTO u (x) VALUES (-9223372036854775808); INSERT INTO c VALUES ('-9223372036854775809', 1)")
    let sql = "SELECT a.x FROM u JOIN c ON (u.x IN (c.ref)) JOIN u AS a ORDER BY u.rowid, c.rowid, a.rowid"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
      #expect(rows.isEmpty)
    }
    try db.execute(sql: "UPDATE c SET ref = NULL, n = -9223372036854775808")
    #expect(
      try db.values(sql: "SELECT a.x FROM u JOIN c ON (u.x IN (c.n, 7)) JOIN u AS a ORDER BY u.rowid, c.rowid, a.rowid")
        == [[.integer(.min)]])
  }

  /// Fuzzer seed 0xC0FFEE29 case 5789: a join on `a.v = child.rowid` where `a.v` is the REAL
  /// -2⁶³ and the smallest rowid exists. Compared, the two are equal; sought by rowid
  /// (`OP_SeekRowid`), the REAL finds nothing. SQLite's free plan seeks (no row); which way it
  /// goes is its plan's choice, so the memory engine refuses the pair, whichever way it meets it.
  @Test(arguments: BackendKind.allCases)
  func aJoinMatchingTheSmallestRowidWithTheRealMinimumIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema(
        "child",
        columns: [.column("v", .null(.real)), .column("k", .integer, primaryKey: true), .column("b", .blob)]))
    _ = try db.insertRaw(into: "child", columns: ["v", "k", "b"], values: [10.0, .integer(.min), .blob(Data())])
    _ = try db.insertRaw(into: "child", columns: ["v", "k", "b"], values: [.real(-9_223_372_036_854_775_808.0), 0, 100])
    let v = SQLExpression.qualifiedColumn(source: "a", name: "v")
    let b = SQLExpression.qualifiedColumn(source: "child", name: "b")
    let select = SelectStatement(
      table: "child",
      joins: [JoinClause(.inner, table: "child", alias: "a", on: .binary(.equal, v, .qualifiedColumn(source: "child", name: "k")))],
      columns: [.aggregate(.count, nil, distinct: false)], groupBy: [v, b], orderBy: [OrderingTerm(v), OrderingTerm(b)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows.isEmpty)
    }
    // With the rowid the other way round, no REAL meets it: both plans find the pairs alike.
    let plain = SelectStatement(
      table: "child",
      joins: [JoinClause(.inner, table: "child", alias: "a", on: .binary(.equal, .qualifiedColumn(source: "a", name: "k"), .qualifiedColumn(source: "child", name: "k")))],
      columns: [.aggregate(.count, nil, distinct: false)])
    #expect(try db.execute(.select(plain)).rows == [[2]])
  }

  /// Fuzzer seeds 0x5EED1007 case 32 and 0x7A4DE11A case 2616: a subquery the memory engine
  /// refuses (an aggregate there belongs to the query around it) still has every name resolved
  /// first, as SQLite resolves them, so a bad name later in the statement is the error — not the
  /// ambiguous name the walk used to go on to, nor the refusal.
  @Test(arguments: BackendKind.allCases)
  func aRefusedSubqueryStillResolvesTheNamesAfterIt(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("n", .integer), .column("m", .integer)]))
    try db.create(TableSchema("u", columns: [.column("x", .integer)]))
    func column(_ source: String, _ name: String) -> SQLExpression { .qualifiedColumn(source: source, name: name) }
    let badOrder = [OrderingTerm(column("t", "n"))]  // an ORDER BY cannot name the query around it
    // The refused aggregate is the subquery's own result column; the bad name is in its WHERE.
    let innermost = SelectStatement(table: "u", alias: "w", columns: [.literal(1)], orderBy: badOrder)
    let owning = SelectStatement(
      table: "u", columns: [.aggregate(.min, column("a", "n"), distinct: false)],
      filter: .inSubquery(column("u", "x"), innermost, negated: false))
    // The refused aggregate is in a subquery of the subquery's WHERE; the bad name in its ORDER BY.
    let nested = SelectStatement(
      table: "u", columns: [column("u", "x")],
      filter: .subquery(SelectStatement(table: "u", columns: [.aggregate(.sum, column("a", "m"), distinct: false)])),
      orderBy: badOrder)
    for (subquery, after) in [(owning, SQLExpression.aggregate(.avg, .column("n"), distinct: false)), (nested, .column("n"))] {
      let select = SelectStatement(
        table: "t", joins: [JoinClause(.inner, table: "t", alias: "a")], columns: [.subquery(subquery), after])
      let error = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
      #expect(error.signature == .sqlite(code: 1, message: "no such column: t.n"))
    }
    // Fuzzer seed 0x7A4DE11A case 1796: what the refused subquery holds (an aggregate of the
    // query around) makes that query an aggregate one, so its HAVING is no error in SQLite; the
    // memory engine reports the refusal, not the HAVING error it would find without it.
    let outerMax = SelectStatement(table: "u", columns: [.aggregate(.max, column("a", "x"), distinct: false)])
    let having = SelectStatement(
      table: "u", alias: "a", columns: [.subquery(outerMax)], having: .literal(.text("\\")))
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(having)).rows }) {
      #expect(rows.isEmpty)
    }
  }

  /// Fuzzer seed 0xC0FFEE31 cases 11600 and 12119: the walk that resolves names goes on after a
  /// function whose argument failed, and a subquery it then meets is still resolved; its error
  /// replaces the function's, as SQLite's message does.
  @Test(arguments: BackendKind.allCases)
  func aSubqueryAfterAFailedFunctionArgumentReportsItsOwnError(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("e", .null(.text)), .column("d", .integer)]))
    try db.create(TableSchema("u", columns: [.column("x", .blob)]))
    let inner = SelectStatement(table: "u", columns: [.column("e")])  // `e` of t and of t_2
    let function = SQLExpression.function(.instr, [.column("d"), .qualifiedColumn(source: "t_2", name: "e")])
    let select = SelectStatement(
      table: "t", alias: "t_2", joins: [JoinClause(.inner, table: "t")],
      columns: [.binary(.isNot, function, .exists(inner, negated: false))])
    let error = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
    #expect(error.signature == .sqlite(code: 1, message: "ambiguous column name: e"))
  }

  /// Fuzzer seed 0xC0FFEE31 case 15188: any error SQLite finds while resolving a subquery
  /// (HAVING on a non-aggregate query here) stops its walk, so a bad name after it is not the
  /// error; an error SQLite finds only as it generates code (a scalar subquery of two columns)
  /// gives way to a bad name found after it.
  @Test(arguments: BackendKind.allCases)
  func resolutionErrorsStopTheWalkAndCodeGenerationErrorsWait(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("a", .integer)]))
    try db.create(TableSchema("u", columns: [.column("x", .integer)]))
    let x = SQLExpression.qualifiedColumn(source: "u", name: "x")
    let bad = SelectStatement(table: "u", columns: [.column("nosuch")])
    let having = SelectStatement(table: "u", columns: [x], having: x)
    let first = SelectStatement(
      table: "t", columns: [.literal(1)], filter: .binary(.lessOrEqual, .subquery(having), .subquery(bad)))
    let error = try #require(throws: TandemError.self) { try db.execute(.select(first)) }
    #expect(error.signature == .sqlite(code: 1, message: "HAVING clause on a non-aggregate query"))

    let twoColumns = SelectStatement(table: "u", columns: [x, x])
    let second = SelectStatement(table: "t", columns: [.subquery(twoColumns), .subquery(bad)])
    let later = try #require(throws: TandemError.self) { try db.execute(.select(second)) }
    #expect(later.signature == .sqlite(code: 1, message: "no such column: nosuch"))
  }

  /// The default relational fuzzer seed's case that `aSubqueryAfterAFailedFunctionArgument…`
  /// first broke: a subquery SQLite's walk reaches after an error has only its first result
  /// column resolved (`sqlite3ResolveExprListNames` stops there once the parse has an error), and
  /// within it each step stops the walk, so an error in its WHERE or ORDER BY, or under an
  /// operator, never replaces the first one.
  @Test(arguments: BackendKind.allCases)
  func aSubqueryReachedAfterAnErrorResolvesItsFirstColumnOnly(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("child", columns: [.column("id", .null(.real)), .column("c", .text)]))
    let ac = SQLExpression.qualifiedColumn(source: "a", name: "c")
    let aid = SQLExpression.qualifiedColumn(source: "a", name: "id")
    func inner(_ columns: [SQLExpression], filter: SQLExpression? = nil) -> SQLExpression {
      .subquery(SelectStatement(table: "child", columns: columns, filter: filter))
    }
    func maxOf(_ expression: SQLExpression) -> SQLExpression { .function(.max, [expression, .literal(1)]) }
    let cases: [(SQLExpression, SQLExpression, String)] = [
      (maxOf(inner([ac])), maxOf(inner([.literal(1)], filter: aid)), "a.c"),
      (maxOf(inner([ac])), maxOf(inner([aid])), "a.id"),
      (maxOf(ac), inner([.literal(1)], filter: aid), "a.c"),
      (maxOf(ac), inner([.binary(.add, aid, .literal(1))]), "a.c"),
      (maxOf(ac), inner([.function(.abs, [aid])]), "a.id"),
    ]
    for (lhs, rhs, name) in cases {
      let select = SelectStatement(table: "child", columns: [.literal(1)], filter: .binary(.equal, lhs, rhs))
      let error = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
      #expect(error.signature == .sqlite(code: 1, message: "no such column: \(name)"))
    }
  }

  /// Fuzzer seed 0xC0FFEE31 case 33481: an INTEGER column holds the REAL -2⁶³ (a text too large
  /// for an integer) beside the integer -2⁶³ it equals. A DISTINCT join over it is not pinned
  /// (integer columns need not be), so which of the two SQLite keeps is its plan's choice: the
  /// memory engine refuses rather than keep its own first.
  @Test(arguments: BackendKind.allCases)
  func distinctOverAnIntegerColumnHoldingTheRealMinimumIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE t(y INTEGER NOT NULL, b REAL, PRIMARY KEY (y, b));
        INSERT INTO t(y) VALUES (-9223372036854775808), ('-9223372036854775809');
        """)
    let y = SQLExpression.qualifiedColumn(source: "t", name: "y")
    var select = SelectStatement(table: "t", joins: [JoinClause(.inner, table: "t", alias: "o")], columns: [y], distinct: true)
    select.orderBy = [OrderingTerm(y, descending: true)]
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows.count == 1)
    }
  }

  /// Two sources named alike but for case (`child AS T, t`) are no error: a qualified name looks
  /// in both and is ambiguous only when both have the column, and their rowid is no one's
  /// (found with the reproduction of fuzzer seed 0xC0FFEE29 case 41177 in SQL text).
  @Test(arguments: BackendKind.allCases)
  func twoSourcesNamedAlikeShareTheirQualifier(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("a", .integer), .column("y", .integer)]))
    try db.create(TableSchema("child", columns: [.column("b", .integer), .column("y", .integer)]))
    _ = try db.insertRaw(into: "t", columns: ["a", "y"], values: [1, 2])
    _ = try db.insertRaw(into: "child", columns: ["b", "y"], values: [3, 4])
    func select(_ column: SQLExpression) -> Statement {
      .select(SelectStatement(table: "child", alias: "T", joins: [JoinClause(.cross, table: "t")], columns: [column]))
    }
    #expect(try db.execute(select(.qualifiedColumn(source: "t", name: "a"))).rows == [[1]])
    #expect(try db.execute(select(.qualifiedColumn(source: "T", name: "b"))).rows == [[3]])
    let ambiguous = try #require(throws: TandemError.self) { try db.execute(select(.qualifiedColumn(source: "T", name: "y"))) }
    #expect(ambiguous.signature == .sqlite(code: 1, message: "ambiguous column name: T.y"))
    let rowid = try #require(throws: TandemError.self) { try db.execute(select(.qualifiedRowid(source: "t"))) }
    #expect(rowid.signature == .sqlite(code: 1, message: "no such column: t.rowid"))
  }

  /// Fuzzer seed 0xC0FFEE31 case 46588: in a subquery, `ORDER BY k, rowid` where the WHERE
  /// holds `k = <outer rowid>` is sorted by the rowid alone (SQLite counts `k` as one value), so
  /// of the two rows whose `k` are '-0' and 0 — both equal to 0 — the first stored comes first.
  /// The memory engine refuses when the rows hold such different forms; otherwise it answers.
  @Test(arguments: BackendKind.allCases)
  func orderByAColumnAnEqualityPinsIsNotSorted(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("o", columns: [.column("e", .integer, primaryKey: true)]))
    try db.create(TableSchema("c", columns: [.column("n", .null(.integer)), .column("k", .blob)]))
    _ = try db.insertRaw(into: "o", columns: ["e"], values: [0])
    _ = try db.insertRaw(into: "c", columns: ["n", "k"], values: [1, "-0"])
    _ = try db.insertRaw(into: "c", columns: ["n", "k"], values: [2, 0])
    let k = SQLExpression.qualifiedColumn(source: "c", name: "k")
    var inner = SelectStatement(
      table: "c", columns: [.qualifiedColumn(source: "c", name: "n")], filter: .binary(.equal, k, .qualifiedRowid(source: "o")))
    inner.orderBy = [OrderingTerm(k), OrderingTerm(.qualifiedRowid(source: "c"))]
    let select = SelectStatement(table: "o", columns: [.subquery(inner)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows == [[1]])
    }
    // With one form of the value, the order is the rowid's on every engine.
    _ = try db.execute(.update(UpdateStatement(table: "c", assignments: [Assignment(column: "k", value: .literal(0))])))
    #expect(try db.execute(.select(select)).rows == [[1]])
  }

  /// Fuzzer seed 0xC0FFEE31 case 65618: `n IN (SELECT sum(x) …)` on a rowid drives SQLite's
  /// loop, so SQLite runs the subquery (and its sum() overflows) before reading any row, even of
  /// an empty table; the memory engine, testing the term row by row, would never run it. It
  /// refuses the statement.
  @Test(arguments: BackendKind.allCases)
  func anInSubqueryDrivingARowidLookupRunsBeforeAnyRow(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("m", columns: [.column("n", .integer, primaryKey: true)]))
    let sum = try Self.overflowingSum(in: db)
    let delete = DeleteStatement(table: "m", filter: .inSubquery(.column("n"), sum, negated: false))
    try Self.expectOverflowUnlessRefused(kind) { try db.execute(.delete(delete)) }
  }

  /// A select whose sum() overflows, over a table `child` it creates in `db`.
  static func overflowingSum(in db: Database) throws -> SelectStatement {
    try db.create(TableSchema("child", columns: [.column("x", .integer, primaryKey: true)]))
    _ = try db.insertRaw(into: "child", columns: ["x"], values: [.integer(1 << 62)])
    _ = try db.insertRaw(into: "child", columns: ["x"], values: [.integer(1 << 62 + 1)])
    return SelectStatement(table: "child", columns: [.aggregate(.sum, .column("x"), distinct: false)])
  }

  /// Expects `body` to fail with SQLite's `integer overflow` on the SQLite engines, refused on
  /// the memory engine (a divergence on `.tandem`).
  static func expectOverflowUnlessRefused(
    _ kind: BackendKind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
  ) throws {
    let error = try #require(throws: TandemError.self, sourceLocation: sourceLocation) { try body() }
    switch kind {
    case .memory: #expect(error.kind == .unsupported, sourceLocation: sourceLocation)
    case .tandem: #expect(error.kind == .divergence, sourceLocation: sourceLocation)
    case .sqliteFile, .sqliteInMemory:
      #expect(error.signature == .sqlite(code: 1, message: "integer overflow"), sourceLocation: sourceLocation)
    }
  }

  /// Fuzzer seed 0xC0FFEE5B case 24345: a branch of an OR counts as a top-level term does. With
  /// both branches on indexed columns SQLite plans `c IN (SELECT sum(…)) OR d IS 0` as a
  /// `MULTI-INDEX OR`, one lookup per branch, and runs the subquery (its sum() overflows) before
  /// reading any row, of an empty table too; the memory engine refuses, for a DELETE and a SELECT.
  @Test(arguments: BackendKind.allCases)
  func anInSubqueryInABranchOfAnOrRunsBeforeAnyRow(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema("m", columns: [.column("c", .integer, unique: true), .column("d", .integer, unique: true)]))
    let sum = try Self.overflowingSum(in: db)
    let filter = SQLExpression.binary(
      .or, .inSubquery(.column("c"), sum, negated: false), .binary(.is, .column("d"), .literal(.real(-0.0))))
    let statements: [Statement] = [
      .delete(DeleteStatement(table: "m", filter: filter)),
      .select(SelectStatement(table: "m", columns: [.column("c")], filter: filter)),
    ]
    for statement in statements {
      try Self.expectOverflowUnlessRefused(kind) { _ = try db.execute(statement) }
    }
  }

  /// Fuzzer seed 0xC0FFEE77 case 685687: SQLite's planner follows the WHERE clause's
  /// equivalences. With `y = d`, `d` the INTEGER PRIMARY KEY and both of INTEGER affinity, a term
  /// on `y` seeks the rowid: `y IN (SELECT sum(…))` and `y = (SELECT sum(…))` drive a `SEARCH …
  /// USING INTEGER PRIMARY KEY (rowid=?)`, so SQLite runs the overflowing subquery before reading
  /// any row; the memory engine, finding `y = d` false on every row, never ran it and answered.
  /// It refuses. Where `y` has TEXT affinity the term is no equivalence: SQLite tests it row by
  /// row, and every engine answers.
  @Test(arguments: BackendKind.allCases)
  func aColumnEquatedWithTheRowidSeeksItByASubqueryBeforeAnyRow(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE kids (d INTEGER PRIMARY KEY, y INTEGER NOT NULL, t TEXT);
      CREATE TABLE child (x INTEGER);
      INSERT INTO child VALUES (4611686018427387904), (4611686018427387905);
      INSERT INTO kids VALUES (1, 5, 'a'), (2, 7, 'b');
      """)
    let failing = [
      "SELECT min(1) FROM kids WHERE y = d AND y IN (SELECT sum(x) FROM child)",
      "DELETE FROM kids WHERE d IS y AND y = (SELECT sum(x) FROM child)",
    ]
    for sql in failing {
      try Self.expectOverflowUnlessRefused(kind) { try db.execute(sql: sql) }
    }
    #expect(try db.values(sql: "SELECT min(1) FROM kids WHERE t = d AND t IN (SELECT sum(x) FROM child)") == [[.null]])
    #expect(try db.values(sql: "SELECT count(*) FROM kids") == [[2]])
  }

  /// Fuzzer seed 0xC0FFEE5B cases 59926 and 63761: a common table whose sum() overflows. The
  /// memory engine computes every row of a common table before the query runs; SQLite may compute
  /// fewer or none — it runs a table read once only when its loop needs a row (after LIMIT 0, or a
  /// false WHERE term reading none of the query's tables, has ended the query), one read twice
  /// before anything (so LIMIT 0 did not stop it: the memory engine had no row), and it flattens
  /// tables and pushes WHERE terms into them. A table whose computation fails is refused; SQLite
  /// answers these with rows or the overflow, as its plan decides.
  @Test(arguments: BackendKind.allCases)
  func aCommonTableWhoseComputationFailsIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE big (x INTEGER); CREATE TABLE u (a INTEGER); CREATE TABLE v (k INTEGER, w INTEGER);
        INSERT INTO big VALUES (9223372036854775807), (1); INSERT INTO u VALUES (1);
        INSERT INTO v VALUES (1, 9223372036854775807), (2, 5)
        """)
    let overflowing = "WITH c(n) AS (SELECT sum(x) FROM big)"
    let running = "WITH c(k, s) AS (SELECT k, (SELECT sum(w) FROM v AS v2 WHERE v2.k <= v.k) FROM v)"
    let answers: [(String, [[SqliteValue]]?)] = [
      ("\(overflowing) SELECT * FROM c JOIN u WHERE X'31' IS NULL ORDER BY 1", []),
      ("\(overflowing) SELECT count(*) FROM c JOIN u WHERE 0", [[0]]),
      ("\(overflowing) SELECT * FROM c WHERE X'31' IS NULL", []),
      ("SELECT * FROM u WHERE EXISTS (\(overflowing) SELECT * FROM c WHERE u.a IS NULL)", []),
      ("\(running) SELECT c.k FROM c JOIN u WHERE c.k = 1 ORDER BY 1", [[1]]),
      ("\(running) SELECT k, s FROM c WHERE k = 1", [[1, 9_223_372_036_854_775_807]]),
      ("\(overflowing) SELECT c.n FROM c JOIN c AS d ORDER BY 1 LIMIT 0", nil),
      ("\(overflowing) SELECT c.n FROM c JOIN c AS d WHERE X'31' IS NULL ORDER BY 1", nil),
      ("\(overflowing) SELECT * FROM u JOIN c ORDER BY 1", nil),
      ("\(running) SELECT c.k FROM c JOIN c AS d WHERE c.k = 1 ORDER BY 1", nil),
    ]
    for (sql, answer) in answers {
      switch (kind, answer) {
      case (.memory, _), (.tandem, _):
        _ = try kind.answerUnlessMemoryRefuses { try db.values(sql: sql) }
      case (_, let rows?):
        #expect(try db.values(sql: sql) == rows, "\(sql)")
      case (_, nil):
        let error = try #require(throws: TandemError.self) { try db.values(sql: sql) }
        #expect(error.signature == .sqlite(code: 1, message: "integer overflow"), "\(sql)")
      }
    }
  }

  /// Fuzzer seed 0xC0FFEE5C cases 27773 and 48521: SQLite scans an index instead of its table
  /// when the index holds every column a query reads (a covering index, narrower than the
  /// table), and rows then come in the index's order. A recursive table's first select did, so
  /// its queue, cut by LIMIT, kept other rows; a scalar subquery's first row is another alike.
  /// The memory engine scans in rowid order: such a query without ORDER BY is refused where the
  /// order shows — a scalar subquery with several rows, a common table with LIMIT or OFFSET.
  @Test(arguments: BackendKind.allCases)
  func rowsSQLiteMayReadThroughACoveringIndexAreRefusedWhereTheirOrderShows(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE q (c INTEGER, y INTEGER NOT NULL, id INTEGER PRIMARY KEY); CREATE INDEX q_c ON q (c);
        INSERT INTO q (id, c, y) VALUES (1, 298, 1), (2, NULL, 0), (3, 5000, 100)
        """)
    let inIndexOrder: [(String, [[SqliteValue]])] = [
      ("SELECT (SELECT id FROM q)", [[2]]),
      ("WITH RECURSIVE r(n) AS (SELECT id FROM q UNION ALL SELECT n + 10 FROM r WHERE n < 6 LIMIT 4) SELECT n FROM r ORDER BY n",
       [[1], [2], [3], [12]]),
    ]
    for (sql, sqliteAnswer) in inIndexOrder {
      if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
        #expect(rows == sqliteAnswer, "\(sql)")
      }
    }
    // A column outside the index keeps the table's scan; one row has no order.
    #expect(try db.values(sql: "SELECT (SELECT y FROM q)") == [[1]])
    #expect(try db.values(sql: "SELECT (SELECT id FROM q WHERE id > 2)") == [[3]])
  }

  /// Fuzzer seed 0xC0FFEE5D case 535930 (and 534397): a bare column in HAVING over a common
  /// table of one table that an index covers. SQLite flattens the table into the query and scans
  /// the index (in the order of `v`), so the group's last row, which the bare column reads, is
  /// another than in rowid order: refused, as over a common table of a join.
  @Test(arguments: BackendKind.allCases)
  func aBareColumnOverACommonTableACoveringIndexMayOrderIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE vals (v TEXT NOT NULL, e BLOB NOT NULL); CREATE INDEX vals_v ON vals (v);
        INSERT INTO vals (v, e) VALUES (X'3132', X'36'), ('*', X'36')
        """)
    // WITH w(n, x) AS (SELECT -2.5, v FROM vals) SELECT 1 FROM w GROUP BY n HAVING x ORDER BY n
    // (through the query model: SQL text refuses an order-dependent aggregate over any index)
    let body = SelectStatement(table: "vals", columns: [.literal(.real(-2.5)), .column("v")])
    var select = SelectStatement(
      table: "w", columns: [.literal(1)], groupBy: [.column("n")], having: .column("x"), orderBy: [OrderingTerm(.column("n"))])
    select.with = WithClause(tables: [CommonTableExpression(name: "w", columns: ["n", "x"], select: body)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows.isEmpty)  // SQLite's last row, in the index's order, holds '*': false
    }
  }

  /// Tables `g(k REAL PRIMARY KEY, v)` and `q(ref, pad, x)`, with an index on `q.ref` that covers
  /// the join below, which SQLite scans instead of `q` (its rows then come ref 0, 1.5, 5, not in
  /// rowid order 5, 1.5, 0); returns `SELECT g.v FROM g JOIN q ON g.k = q.ref`. The row of `g` with
  /// k 0 has `v` `lastV`, the others 2.5 and 2^62.
  static func joinOverACoveringIndex(in db: Database, lastV: Int64) throws -> SelectStatement {
    try db.execute(
      sql: """
        CREATE TABLE g (k REAL PRIMARY KEY, v INTEGER);
        CREATE TABLE q (ref INTEGER NOT NULL, pad BLOB NOT NULL, x REAL NOT NULL); CREATE INDEX q_ref ON q (ref);
        INSERT INTO g (k, v) VALUES (5, 2.5), (1.5, 4611686018427387904), (0, ?);
        INSERT INTO q (ref, pad, x) VALUES (5, X'00', 1), (1.5, X'00', 1), (0, X'00', 1)
        """, arguments: [.integer(lastV)])
    return SelectStatement(
      table: "g",
      joins: [
        JoinClause(
          .inner, table: "q", alias: "q",
          on: .binary(.equal, .qualifiedColumn(source: "g", name: "k"), .qualifiedColumn(source: "q", name: "ref")))
      ],
      columns: [.qualifiedColumn(source: "g", name: "v")])
  }

  /// Fuzzer seed 0xC0FFEE5F case 513676: an aggregate over a common table made of a join. The
  /// SQLite backend pins an order-dependent aggregate's loops (FROM order, each source in rowid
  /// order), but a common table's own rows come in the order its plan reads them: SQLite scans the
  /// index of `q` (it covers the join's column), so 2^62 comes first twice and the integer sum
  /// overflows before the REAL 2.5 makes it approximate. The memory engine, reading `q` in rowid
  /// order, answered a REAL, and joined group_concat()'s values in another order. It now checks
  /// such a table's aggregates as an unpinned join's (a non-integer value is refused) and refuses
  /// a group_concat() over it.
  @Test(arguments: BackendKind.allCases)
  func anAggregateOverACommonTableInPlanOrderIsCheckedAsAnUnpinnedJoin(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    // WITH w(n) AS (SELECT g.v FROM g JOIN q ON g.k = q.ref) SELECT <aggregate> FROM w [AS w3 JOIN w]
    let body = try Self.joinOverACoveringIndex(in: db, lastV: 4_611_686_018_427_387_904)
    func overW(_ aggregate: SQLExpression, selfJoined: Bool) -> SelectStatement {
      var select = SelectStatement(
        table: "w", alias: selfJoined ? "w3" : nil, joins: selfJoined ? [JoinClause(.inner, table: "w", alias: "w")] : [],
        columns: [aggregate])
      select.with = WithClause(tables: [CommonTableExpression(name: "w", columns: ["n"], select: body)])
      return select
    }
    let n = SQLExpression.qualifiedColumn(source: "w", name: "n")
    for selfJoined in [true, false] {
      try Self.expectOverflowUnlessRefused(kind) {
        _ = try db.execute(.select(overW(.aggregate(.sum, n, distinct: false), selfJoined: selfJoined)))
      }
    }
    let concatenated = overW(.aggregate(.groupConcat, n, distinct: false), selfJoined: false)
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(concatenated)).rows }) {
      #expect(rows == [[.text("4611686018427387904,4611686018427387904,2.5")]])
    }
  }

  /// Found probing case 513676's class: rows without ORDER BY, at the top of a statement or as a
  /// scalar subquery's first row, from a table SQLite reads through an index that covers it
  /// (here `q`'s index on `ref`), or from a common table whose rows come in its plan's order. SQLite
  /// returns them in the index's order (0, 1.5, 5); the memory engine returned them in rowid order
  /// (5, 1.5, 0) through the query model and through SQL text alike. They are now refused, unless
  /// SQL text is fetched with `rowOrder: .unordered`.
  @Test(arguments: BackendKind.allCases)
  func rowsWithoutOrderByThatSQLiteReadsInAnIndexOrderAreRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    let body = try Self.joinOverACoveringIndex(in: db, lastV: 4_611_686_018_427_387_903)
    let sql = "SELECT ref, (SELECT 1) FROM q"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
      #expect(rows == [[0, 1], [1.5, 1], [5, 1]])
    }
    let unordered = try db.fetchAll(sql: sql, rowOrder: .unordered).map { $0.values[0] }
    #expect(Set(unordered) == [.integer(0), .real(1.5), .integer(5)] && unordered.count == 3)

    // WITH w(n) AS (SELECT g.v FROM g JOIN q ON g.k = q.ref) SELECT (SELECT n FROM w) FROM g LIMIT 1
    var select = SelectStatement(
      table: "g", columns: [.subquery(SelectStatement(table: "w", columns: [.column("n")]))], limit: .literal(1))
    select.with = WithClause(tables: [CommonTableExpression(name: "w", columns: ["n"], select: body)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows == [[.integer(4_611_686_018_427_387_903)]])
    }
  }

  /// Fuzzer seed 0xC0FFEE5F case 571185: which WHERE terms SQLite tests last. `exprAnalyze` marks
  /// a term TERM_VARSELECT when a subquery in it reads a level around that subquery, but for
  /// `x IN (SELECT …)` at the top of the term it looks only inside the subquery: the IN reading
  /// `g` by itself is tested first, and a nested subquery reading `g` makes the other term last.
  /// The memory engine took every term holding a correlated subquery for a last one: it ran the
  /// nested sum() (which overflows) where SQLite's false IN had already ended the row.
  @Test(arguments: BackendKind.allCases)
  func anInSubqueryIsTestedLastOnlyWhenItHoldsACorrelatedSubquery(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE t (x INTEGER PRIMARY KEY, c REAL NOT NULL, a REAL NOT NULL);
        CREATE TABLE g (ref REAL, a BLOB NOT NULL, id INTEGER PRIMARY KEY);
        INSERT INTO t VALUES (-9223372036854775807, X'EDA080', 0.2), (-9223372036854775806, 9e18, 0.2);
        INSERT INTO g VALUES (X'EDA080', '5.', 1)
        """)
    let overflowing = "(SELECT sum(m.x) FROM t AS m JOIN t AS s WHERE g.ref IS m.c)"
    let nested = "NULL IN (SELECT total(t.c) FROM t WHERE \(overflowing))"
    // The IN is tested first, is false, and the nested sum() never runs; so with NOT IN (a NOT
    // over the IN, which counts its own correlation).
    #expect(try db.values(sql: "SELECT g.id FROM g WHERE \(nested) AND g.a IN (SELECT t.a FROM t WHERE t.x = g.id)").isEmpty)
    let negated = "SELECT g.id FROM g WHERE NULL NOT IN \(overflowing) AND g.a IN (SELECT t.a FROM t WHERE t.x = g.id)"
    #expect(try db.values(sql: negated).isEmpty)
    // Tested in WHERE order: the sum() runs first and overflows (the memory engine refuses a sum
    // over a join whose values could overflow in some order).
    for sql in [
      "SELECT g.id FROM g WHERE NULL IN \(overflowing) AND g.a IN (SELECT t.a FROM t WHERE t.x = g.id)",
      "SELECT g.id FROM g WHERE \(nested) AND g.a = (SELECT t.a FROM t WHERE t.x = g.id)",
    ] {
      try Self.expectOverflowUnlessRefused(kind) { _ = try db.values(sql: sql) }
    }
  }

  /// Fuzzer seed 0xC0FFEE60 case 580880: a compound common table's column takes its leftmost
  /// member's affinity (TEXT here, from `q.ref`), but SQLite 3.40 pushes a WHERE term into each
  /// member, substituting the member's expression for the column: in the second, `trim(…)` has
  /// no affinity, so `12.0 > '1.5'` compares a number with text and is false. The memory engine
  /// compared under the column's TEXT affinity ('12.0' > '1.5': one row). A comparison with such a
  /// column is refused; one whose members agree is answered.
  @Test(arguments: BackendKind.allCases)
  func aComparisonWithACompoundColumnWhoseMembersDifferInAffinityIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE o (v REAL, k TEXT NOT NULL); CREATE TABLE q (ref TEXT);
        INSERT INTO o (v, k) VALUES (1.5, '0.3')
        """)
    let mixed = "WITH c(x) AS (SELECT q.ref FROM q UNION ALL SELECT trim(o.v, ' ') FROM o GROUP BY o.k) SELECT count(*) FROM c WHERE 12.0 > c.x"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: mixed) }) {
      #expect(rows == [[0]])
    }
    let agreeing = "WITH c(x) AS (SELECT q.ref FROM q UNION ALL SELECT o.k FROM o GROUP BY o.k) SELECT count(*) FROM c WHERE 12.0 > c.x"
    #expect(try db.values(sql: agreeing) == [[1]])
  }

  /// Fuzzer seed 0xC0FFEE5D case 550364: `x IS (t.n COLLATE NOCASE)` with `n` the rowid. SQLite
  /// reads the column side through the COLLATE and seeks the rowid by `x`; with `x` the REAL -2⁶³
  /// the seek finds nothing where the comparison finds the smallest rowid equal. The memory engine
  /// tested the term (1); it now reads a rowid side through the COLLATE too, and seeks it alike.
  @Test(arguments: BackendKind.allCases)
  func aRowidUnderCollateIsSoughtAsTheRowid(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE a (c BLOB); CREATE TABLE t (e REAL NOT NULL, n INTEGER PRIMARY KEY);
        INSERT INTO a (c) VALUES (-9.223372036854776e+18); INSERT INTO t (e, n) VALUES (0.5, -9223372036854775808)
        """)
    let sql = "SELECT EXISTS (SELECT t.e FROM t WHERE a.c IS (t.n COLLATE NOCASE)) FROM a ORDER BY rowid"
    #expect(try db.values(sql: sql) == [[0]])
  }

  /// Fuzzer seed 0xC0FFEE31 case 66686: `IS` seeks a rowid as `=` does, so a join on
  /// `a.c IS b.rowid` with `a.c` the REAL -2⁶³ is refused like the `=` join of case 5789.
  @Test(arguments: BackendKind.allCases)
  func anIsJoinMatchingTheSmallestRowidWithTheRealMinimumIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("q", columns: [.column("c", .real), .column("k", .integer, primaryKey: true)]))
    _ = try db.insertRaw(into: "q", columns: ["c", "k"], values: [.real(-9_223_372_036_854_775_808.0), .integer(.min)])
    let c = SQLExpression.qualifiedColumn(source: "q", name: "c")
    let select = SelectStatement(
      table: "q",
      joins: [JoinClause(.inner, table: "q", alias: "s", on: .binary(.is, c, .qualifiedColumn(source: "s", name: "k")))],
      columns: [.aggregate(.total, .literal(.null), distinct: false)],
      groupBy: [.collate(.qualifiedColumn(source: "s", name: "c"), .nocase)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows.isEmpty)
    }
  }

  /// Fuzzer seed 0xC0FFEE31 case 78620: `x IS name`'s step looks the bare name up even after an
  /// earlier error (to see whether it is TRUE or FALSE), so its error replaces the earlier one.
  @Test(arguments: BackendKind.allCases)
  func isLooksUpItsBareNameAfterAnError(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("s", .text)]))
    try db.create(TableSchema("k", columns: [.column("d", .null(.integer))]))
    try db.create(TableSchema("c", columns: [.column("d", .null(.text))]))
    let select = SelectStatement(
      table: "t", alias: "b",
      joins: [JoinClause(.inner, table: "k"), JoinClause(.inner, table: "c"), JoinClause(.inner, table: "t")],
      columns: [
        .caseWhen(
          base: nil,
          branches: [
            // A function's step goes on after its argument's error (a literal's would stop the walk).
            CaseBranch(when: .aggregate(.min, .column("s"), distinct: false), then: .function(.lower, [.literal("x")])),
            CaseBranch(when: .binary(.isNot, .aggregate(.count, nil, distinct: false), .column("d")), then: .literal(2)),
          ], else: nil)
      ])
    let error = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
    #expect(error.signature == .sqlite(code: 1, message: "ambiguous column name: d"))
  }

  /// Fuzzer seed 0xC0FFEE33 cases 65998 and 66094: `x NOT IN (SELECT …)` is the parser's NOT
  /// over the IN, and that NOT's step stops the walk once there is an error, so the subquery's
  /// own bad name is never reached and the earlier error stands.
  @Test(arguments: BackendKind.allCases)
  func notInAfterAnErrorIsNotResolved(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("u", columns: [.column("e", .integer), .column("o", .null(.blob))]))
    let ambiguousE = SelectStatement(
      table: "u", alias: "t", joins: [JoinClause(.inner, table: "u", alias: "q")], columns: [.column("e")])
    for negated in [true, false] {
      let select = SelectStatement(
        table: "u", joins: [JoinClause(.inner, table: "u", alias: "q")],
        columns: [
          .binary(
            .lessOrEqual, .aggregate(.max, .column("o"), distinct: false),
            .inSubquery(.qualifiedColumn(source: "u", name: "e"), ambiguousE, negated: negated))
        ])
      let error = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
      // Without the NOT, the IN's step resolves its subquery's first column, whose error replaces.
      #expect(error.signature == .sqlite(code: 1, message: "ambiguous column name: " + (negated ? "o" : "e")))
    }
  }

  /// Fuzzer seed 0xC0FFEE34 case 29528: under REAL affinity, `IN (SELECT …)` stores and probes
  /// integers as REALs, losing digits past 2⁵³, so the integer 2⁶³−2 is found equal to the REAL
  /// 2⁶³ — where `=` and an IN list, which compare the integer exactly, find nothing.
  @Test(arguments: BackendKind.allCases)
  func inSubqueryUnderRealAffinityComparesIntegersAsReals(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("d", columns: [.column("o", .null(.real))]))
    try db.create(TableSchema("c", columns: [.column("r", .null(.real))]))
    _ = try db.insertRaw(into: "d", columns: ["o"], values: [.real(9.223372036854776e18)])
    _ = try db.insertRaw(into: "c", columns: ["r"], values: [2])
    let big = SQLExpression.literal(.integer(9_223_372_036_854_775_806))
    let o = SQLExpression.column("o")
    let member = SelectStatement(table: "c", columns: [big])
    let count = SQLExpression.aggregate(.count, nil, distinct: false)
    #expect(try db.execute(.select(SelectStatement(table: "d", columns: [count], filter: .inSubquery(o, member, negated: false)))).rows == [[1]])
    #expect(try db.execute(.select(SelectStatement(table: "d", columns: [count], filter: .binary(.equal, o, big)))).rows == [[0]])
    #expect(try db.execute(.select(SelectStatement(table: "d", columns: [count], filter: .inList(o, [big], negated: false)))).rows == [[0]])
    #expect(try db.execute(.delete(DeleteStatement(table: "d", filter: .inSubquery(o, member, negated: false)))).changes == 1)
  }

  /// Fuzzer seed 0xC0FFEE34 case 107002: SQLite 3.40 loses a LEFT JOIN's row of NULLs when its
  /// ON clause holds `rowid LIKE 'a%'` (the LIKE optimization seeks the rowid with text bounds),
  /// returning no row where one is due. The memory engine refuses rather than answer otherwise;
  /// GLOB, which SQLite gets right, still answers.
  @Test(arguments: BackendKind.allCases)
  func likeOnALeftJoinedRowidIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("u", columns: [.column("f", .null(.integer))]))
    try db.create(TableSchema("s", columns: [.column("x", .null(.text)), .column("id", .integer, primaryKey: true)]))
    _ = try db.insertRaw(into: "u", columns: ["f"], values: [1])
    let id = SQLExpression.qualifiedColumn(source: "s", name: "id")
    func select(_ condition: SQLExpression) -> Statement {
      .select(
        SelectStatement(
          table: "u", joins: [JoinClause(.left, table: "s", on: condition)],
          columns: [.qualifiedColumn(source: "u", name: "f")]))
    }
    if let rows = try kind.answerUnlessMemoryRefuses({
      try db.execute(select(.like(id, pattern: .literal("a%"), escape: nil, negated: false))).rows
    }) {
      #expect(rows.isEmpty)  // SQLite's answer, though the row of NULLs is due
    }
    #expect(try db.execute(select(.glob(id, pattern: .literal("a*"), negated: false))).rows == [[1]])
  }

  /// Fuzzer seed 0xC0FFEE35 case 53829: the rowid of a source named `t` inside a subquery whose
  /// own source is `T` (names compared without ASCII case, innermost first) is `T`'s rowid. Its
  /// table has a column named `rowid`, so SQLite must be told `_rowid_`; the SQLite backend used
  /// to spell it for the outer `t`, and SQLite read the column instead.
  @Test(arguments: BackendKind.allCases)
  func aRowidQualifiedByAnotherCaseOfAnInnerAliasIsThatSourcesRowid(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("quoted", columns: [.column("v", .integer), .column("rowid", .text)]))
    try db.create(TableSchema("t", columns: [.column("e", .integer)]))
    try db.execute(.insert(InsertStatement(table: "quoted", columns: ["v", "rowid"], rows: [[.literal(1), .literal("-5")]])))
    try db.execute(.insert(InsertStatement(table: "t", columns: ["e"], rows: [[.literal(7)]])))
    let matches = SQLExpression.binary(.equal, .qualifiedRowid(source: "t"), .qualifiedColumn(source: "T", name: "rowid"))
    let inner = SelectStatement(table: "quoted", alias: "T", columns: [.literal("Abc")], filter: matches)
    let delete = DeleteStatement(table: "t", filter: .exists(inner, negated: false))
    #expect(try db.execute(.delete(delete)).changes == 0)  // T's rowid is 1, its column "rowid" '-5'
    let real = SQLExpression.binary(.equal, .qualifiedRowid(source: "t"), .literal(1))
    let found = SelectStatement(table: "quoted", alias: "T", columns: [.literal("Abc")], filter: real)
    #expect(try db.execute(.delete(DeleteStatement(table: "t", filter: .exists(found, negated: false)))).changes == 1)
  }

  /// Fuzzer seed 0xC0FFEE35 case 66439: `rowid IS x` seeks the rowid as `=` does, so a REAL
  /// -2⁶³ read from the query around finds no row, though a comparison finds it equal to the
  /// smallest rowid. The memory engine looked `IS` up by comparing.
  @Test(arguments: BackendKind.allCases)
  func rowidIsAnOuterValueSeeksAsEqualityDoes(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE outside (b INTEGER NOT NULL)")
    try db.execute(sql: "CREATE TABLE keyed (y INTEGER PRIMARY KEY)")
    try db.execute(sql: "INSERT INTO outside VALUES (-9.223372036854776e+18), (5)")
    try db.execute(sql: "INSERT INTO keyed VALUES (-9223372036854775808), (5)")
    for op in ["IS", "="] {
      let rows = try db.fetchAll(sql: "SELECT (SELECT 159 FROM keyed WHERE keyed.y \(op) outside.b) FROM outside ORDER BY rowid")
      #expect(rows.map(\.values) == [[nil], [159]], "\(op)")
    }
  }

  /// Fuzzer seed 0xC0FFEE36 cases 10530 and 11442: SQLite's parser folds `a AND x IN ()` to 0 in
  /// a LEFT JOIN's ON clause too, so a bad name in `a` is never resolved and the left rows come
  /// with NULLs; the memory engine resolved the ON clause's terms one by one.
  @Test(arguments: BackendKind.allCases)
  func aLeftJoinsOnClauseFoldedByTheParserResolvesNothing(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE l (x TEXT); CREATE TABLE r (y TEXT)")
    try db.execute(sql: "INSERT INTO l VALUES ('a'); INSERT INTO r VALUES ('b')")
    let sql = """
      SELECT l.x, r.y FROM l LEFT JOIN r ON (r.y IN (SELECT y FROM r ORDER BY nope.z) AND 1 IN ()) AND r.y = 'b'
      ORDER BY l.rowid, r.rowid
      """
    #expect(try db.values(sql: sql) == [["a", nil]])
  }

  /// Fuzzer seed 0xC0FFEE37 cases 48261 and 60642: a WHERE term holding a subquery is never
  /// constant to SQLite (`sqlite3SelectWalkFail`), so it is tested per row of the outermost loop,
  /// and over an empty table the subquery never runs: its overflow is no error.
  @Test(arguments: BackendKind.allCases)
  func aSubqueryTermOverAnEmptyTableNeverRuns(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE empty (n TEXT); CREATE TABLE big (x INTEGER)")
    try db.execute(sql: "INSERT INTO big VALUES (9223372036853775806), (9007199254740993)")
    let overflowing = "(SELECT sum(x) FROM big AS b)"
    #expect(try db.values(sql: "SELECT count(*) FROM empty WHERE \(overflowing)") == [[0]])
    #expect(try db.values(sql: "SELECT EXISTS (SELECT total(n) FROM empty WHERE \(overflowing))") == [[1]])
    let failure = try #require(throws: TandemError.self) { try db.fetchAll(sql: "SELECT count(*) FROM big WHERE \(overflowing)") }
    #expect(failure.signature == .sqlite(code: 1, message: "integer overflow"))
  }

  /// Fuzzer seed 0xC0FFEE37 case 50445: SQLite steps a group's aggregates only after the groups
  /// before it were output, so a scalar subquery or EXISTS, which stops at its first row, never
  /// meets a later group's overflow; the memory engine computed every group first.
  @Test(arguments: BackendKind.allCases)
  func aSubqueryStopsBeforeItsLaterGroups(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE k (g INTEGER, x INTEGER)")
    try db.execute(sql: "INSERT INTO k VALUES (1, 5), (2, 9223372036854775807), (2, 9223372036854775807)")
    #expect(try db.values(sql: "SELECT (SELECT sum(x) FROM k GROUP BY g)") == [[5]])
    #expect(try db.values(sql: "SELECT EXISTS (SELECT sum(x) FROM k GROUP BY g)") == [[1]])
    let all = try #require(throws: TandemError.self) { try db.fetchAll(sql: "SELECT sum(x) FROM k GROUP BY g") }
    #expect(all.signature == .sqlite(code: 1, message: "integer overflow"))
  }

  /// Fuzzer seed 0xC0FFEE38 cases 8900 and 9728: a HAVING term that reads only a GROUP BY term
  /// moves to WHERE (`havingToWhere`) even when another GROUP BY term holds a subquery, so its
  /// rows are dropped before any group forms and an overflowing sum() is never computed.
  @Test(arguments: BackendKind.allCases)
  func havingMovesToWhereBesideAGroupTermWithASubquery(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("o", columns: [.column("g", .null(.integer))]))
    try db.create(TableSchema("c", columns: [.column("r", .integer)]))
    try db.execute(.insert(InsertStatement(table: "o", columns: ["g"], rows: [[.literal(.null)]])))
    try db.execute(.insert(InsertStatement(table: "c", columns: ["r"], rows: [[.literal(1)], [.literal(2)]])))
    let g = SQLExpression.qualifiedColumn(source: "o", name: "g")
    let select = SelectStatement(
      table: "o", joins: [JoinClause(.inner, table: "c")],
      columns: [.aggregate(.sum, .literal(9_223_372_036_854_775_806), distinct: false)],
      groupBy: [g, .subquery(SelectStatement(table: "c", columns: [.literal(1)], limit: .literal(1)))],
      having: g, orderBy: [OrderingTerm(g)])
    #expect(try db.execute(.select(select)).rows.isEmpty)
  }

  /// Fuzzer seed 0xC0FFEE38 case 22558: a LEFT JOIN whose WHERE compares the right table's rowid
  /// with a REAL -2⁶³ from the query around: SQLite makes it an inner join and may seek the rowid
  /// by that value, which finds nothing, where a comparison finds the smallest rowid equal. The
  /// memory engine refuses rather than guess the plan.
  @Test(arguments: BackendKind.allCases)
  func aLeftJoinsRowidAgainstTheRealMinimumIsSQLitesOrRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE outside (v REAL); CREATE TABLE keyed (y INTEGER PRIMARY KEY)")
    try db.execute(sql: "INSERT INTO outside VALUES (-9223372036854775807); INSERT INTO keyed VALUES (-9223372036854775808)")
    let sql = "SELECT (SELECT count(*) FROM keyed LEFT JOIN keyed AS s WHERE s.y = outside.v) FROM outside"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.fetchAll(sql: sql, rowOrder: .unordered) }) {
      #expect(rows.map(\.values) == [[0]])
    }
  }

  /// Fuzzer seed 0xC0FFEE3C case 19819: a query whose only loop finds at most one row (a UNIQUE
  /// key's equality) has its ORDER BY satisfied to SQLite (`WHERE_ONEROW`), which never computes
  /// the terms, so an overflowing sum() inside them is no error.
  @Test(arguments: BackendKind.allCases)
  func aOneRowLookupNeverComputesItsOrderBy(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE k (v BLOB PRIMARY KEY NOT NULL, n INTEGER); CREATE TABLE o (r BLOB)")
    try db.execute(sql: "INSERT INTO k VALUES ('a', NULL), (308, 9223372036854775807), (X'7F', 9223372036854775807)")
    try db.execute(sql: "INSERT INTO o VALUES ('a')")
    let overflowing = "(k.n NOT IN (SELECT sum(n) FROM k)) DESC, rowid"
    let one = "SELECT (SELECT k.n FROM k WHERE k.v = o.r ORDER BY \(overflowing)) FROM o"
    #expect(try db.values(sql: one) == [[nil]])
  }

  /// Fuzzer seed 0xC0FFEE39 case 17169: a LEFT JOIN whose WHERE rejects the right table's row of
  /// NULLs is an inner join to SQLite, which may reorder it; the bare column of a group then came
  /// from another row than the memory engine's. A pinned one is now written as that inner join.
  @Test(arguments: BackendKind.allCases)
  func aLeftJoinThatIsAnInnerJoinKeepsItsPinnedOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("g", columns: [.column("x", .null(.blob)), .column("grp", .integer, primaryKey: true)]))
    try db.create(TableSchema("s", columns: [.column("ref", .integer), .column("tab", .null(.blob))]))
    try db.execute(.insert(InsertStatement(table: "g", columns: ["x", "grp"], rows: [
      [.literal(.blob(Data([0x41]))), .literal(1)], [.literal(.null), .literal(-1)],
    ])))
    try db.execute(.insert(InsertStatement(table: "s", columns: ["ref", "tab"], rows: [
      [.literal(1), .literal(.blob(Data([0x41])))], [.literal(-1), .literal(.blob(Data([0x41])))],
    ])))
    let tab = SQLExpression.qualifiedColumn(source: "o", name: "tab")
    let select = SelectStatement(
      table: "g",
      joins: [JoinClause(.left, table: "s", alias: "o", on: .binary(.equal, .qualifiedColumn(source: "g", name: "grp"), .qualifiedColumn(source: "o", name: "ref")))],
      columns: [.column("ref")], filter: .binary(.greaterOrEqual, tab, .literal(.real(2.2250738585072014e-308))),
      groupBy: [tab], orderBy: [OrderingTerm(tab)])
    // In FROM order, each source in rowid order (g's rowid -1, then 1), the group's bare column
    // is read from its first row, as SQLite's sorter hands equal keys back.
    #expect(try db.execute(.select(select)).rows == [[.integer(-1)]])
  }

  /// Fuzzer seed 0xC0FFEE40 cases 13916, 14594, 14768, 15026, 15077: such a pinned LEFT JOIN
  /// whose ON clause folds to false (`x IN ()`) stays a LEFT JOIN. Written as an inner join, its
  /// false ON makes SQLite drop every condition of the query unresolved, so the ambiguous `v` of
  /// the WHERE was never reported.
  @Test(arguments: BackendKind.allCases)
  func aLeftJoinWhoseOnFoldsToFalseStaysALeftJoin(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("kids", columns: [.column("id", .null(.real)), .column("v", .null(.integer))]))
    try db.create(TableSchema("o", columns: [.column("v", .null(.integer))]))
    // A maximum of a subquery's answer, which pins the join's order.
    let found = SQLExpression.inSubquery(
      .qualifiedColumn(source: "kids", name: "v"),
      SelectStatement(table: "o", alias: "b", columns: [.qualifiedColumn(source: "b", name: "v")], orderBy: [OrderingTerm(.rowid)]),
      negated: false)
    let select = SelectStatement(
      table: "kids",
      joins: [JoinClause(.left, table: "kids", alias: "s", on: .inList(.qualifiedColumn(source: "kids", name: "v"), [], negated: false))],
      columns: [.aggregate(.max, found, distinct: false)],
      filter: .binary(.lessOrEqual, .qualifiedColumn(source: "s", name: "id"), .column("v")))
    let error = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
    #expect(error.message == "ambiguous column name: v")
  }

  /// Fuzzer seed 0xC0FFEE40 case 115453: a scan of one table in rowid order delivers an ORDER BY
  /// that starts with the rowid, and every later term that reads the row (here through a
  /// correlated subquery) comes with it: SQLite uses no sorter and never computes those terms,
  /// so their sum's overflow is no error. A later term that reads nothing but a subquery makes
  /// SQLite sort, computing it.
  @Test(arguments: BackendKind.allCases)
  func aRowidScanDeliversTheOrderWithoutComputingLaterTerms(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (s REAL, id INTEGER PRIMARY KEY); INSERT INTO t (id) VALUES (4611686018427387904); INSERT INTO t (s) VALUES (1.0)")
    let correlated = "(SELECT sum(x.id) FROM t AS x WHERE x.s IS NOT t.s OR 1)"
    #expect(try db.values(sql: "SELECT s FROM t ORDER BY id, \(correlated)") == [[nil], [1.0]])
    #expect(try db.values(sql: "SELECT s FROM t ORDER BY id DESC, \(correlated)") == [[1.0], [nil]])
    #expect(db.failure(sql: "SELECT s FROM t ORDER BY id, (SELECT sum(x.id) FROM t AS x) = 1")?.message == "integer overflow")
  }

  /// Fuzzer seed 0xC0FFEE40 case 611683: SQLite tests a loop's WHERE terms that hold a correlated
  /// subquery after all its other terms. The uncorrelated sum runs first and overflows, though
  /// the correlated term before it in the WHERE clause is NULL; terms without subqueries keep
  /// their order.
  @Test(arguments: BackendKind.allCases)
  func termsWithACorrelatedSubqueryAreTestedLast(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE o (c INTEGER, v REAL); CREATE TABLE g (id REAL, k TEXT);
      INSERT INTO o (v) VALUES (1); INSERT INTO g (id) VALUES (42), (43);
      """)
    let filter = "(SELECT g.k FROM g WHERE o.c) AND (SELECT sum(-9223372036854775807) FROM g)"
    for sql in ["SELECT v FROM o WHERE \(filter)", "UPDATE o SET v = 2 WHERE \(filter)", "DELETE FROM o WHERE \(filter)"] {
      let error = try #require(throws: TandemError.self, "\(sql)") { try db.execute(sql: sql) }
      #expect(error.message == "integer overflow", "\(sql)")
    }
    #expect(try db.values(sql: "SELECT v FROM o WHERE o.c AND (SELECT sum(-9223372036854775807) FROM g)") == [])
    #expect(try db.values(sql: "SELECT v FROM o") == [[1.0]])
  }

  /// Fuzzer seed 0xC0FFEE40 case 317532: without a sorter (here the rowid scan delivers the ORDER
  /// BY) SQLite skips the OFFSET's rows before it computes their result columns, so a scalar
  /// subquery that overflows is never run when every row is skipped.
  @Test(arguments: BackendKind.allCases)
  func rowsSkippedByOffsetComputeNoResultColumn(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE g (b INTEGER NOT NULL); INSERT INTO g VALUES (-1), (-9223372036854775807)")
    let overflowing = "(SELECT sum(9223372036854775806) FROM g)"
    #expect(try db.values(sql: "SELECT \(overflowing) FROM g AS t ORDER BY rowid LIMIT -1 OFFSET 4") == [])
    #expect(try db.values(sql: "SELECT \(overflowing) FROM g AS t LIMIT -1 OFFSET 2") == [])
    #expect(db.failure(sql: "SELECT \(overflowing) FROM g AS t ORDER BY rowid LIMIT -1 OFFSET 1")?.message == "integer overflow")
  }

  /// Fuzzer seed 0xC0FFEE41 case 518721: SQLite answers `e IS NOT NULL` of a NOT NULL column up
  /// front (true), unless a LEFT JOIN can make it NULL; an aggregate over no row reads `e` as
  /// NULL, so its HAVING fails and no row comes out. Written as an inner join without more, the
  /// SQLite backend returned one row: the test is now written `e COLLATE BINARY IS NOT NULL`.
  @Test(arguments: BackendKind.allCases)
  func aLeftJoinWrittenAsAnInnerJoinKeepsItsNullTests(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("c", columns: [.column("x", .null(.blob))]))
    try db.create(TableSchema("o", columns: [.column("a", .null(.text)), .column("e", .blob)]))
    let select = SelectStatement(
      table: "c",
      joins: [JoinClause(.left, table: "o", on: nil)],
      // An average of text, whose sum depends on the order it is added in: the join is pinned.
      columns: [
        .aggregate(
          .avg,
          .subquery(
            SelectStatement(
              table: "o", alias: "o3", columns: [.qualifiedColumn(source: "o3", name: "a")], orderBy: [OrderingTerm(.rowid)])),
          distinct: false)
      ],
      filter: .binary(.equal, .qualifiedColumn(source: "o", name: "a"), .qualifiedColumn(source: "c", name: "x")),
      having: .isNull(.qualifiedColumn(source: "o", name: "e"), negated: true))
    #expect(try db.execute(.select(select)).rows == [])
  }

  /// Fuzzer seed 0xC0FFEE42 case 50863: SQLite plans a LEFT JOIN as an inner join — and may then
  /// reorder it — whenever its WHERE clause cannot accept the row of NULLs by SQLite's own test
  /// (`sqlite3ExprImpliesNonNullRow`): a bare `q.ref`, `NOT q.ref` or `q.ref + 1` as well as a
  /// comparison. The SQLite backend pinned only comparisons; here SQLite read `q` first, and the
  /// bare column (the first row's) came from another row than on the memory engine. With an
  /// IS NULL test the join is written as an inner join all the same, the test kept from being
  /// answered up front (`NullTestsOfJoinedTables`).
  @Test(arguments: BackendKind.allCases)
  func aLeftJoinSQLitePlansAsAnInnerJoinIsPinned(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("a", columns: [.column("c", .blob), .column("key", .null(.real))]))
    try db.create(TableSchema("q", columns: [.column("ref", .null(.real)), .column("id", .integer, primaryKey: .plain)]))
    try db.execute(sql: """
      INSERT INTO a (c, key) VALUES ('?', 1), (9223372036854775807, 1e16);
      INSERT INTO q (ref, id) VALUES (1, 397), (1e16, 61);
      """)
    let ref = SQLExpression.qualifiedColumn(source: "q", name: "ref")
    let c = SQLExpression.qualifiedColumn(source: "a", name: "c")
    func select(_ filter: SQLExpression) -> Statement {
      .select(
        SelectStatement(
          table: "a",
          joins: [JoinClause(.left, table: "q", on: .binary(.equal, .qualifiedColumn(source: "a", name: "key"), ref))],
          // A subquery among the outputs: the SQLite backend pins the join itself.
          columns: [
            .aggregate(.sum, c, distinct: false), c,
            .exists(SelectStatement(table: "q", columns: [.literal(1)]), negated: false),
          ],
          filter: filter))
    }
    // With an IS NULL test too: SQLite answers it as it would with the LEFT JOIN.
    for filter in [ref, .unary(.not, .unary(.not, ref)), .binary(.add, ref, .literal(0)), .isNull(ref, negated: true)] {
      // Visited in FROM order, a's rows first: the bare column is the first row's.
      #expect(try db.execute(select(filter)).rows == [[.real(9.223372036854776e18), .text("?"), 1]])
    }
  }

  /// Fuzzer seed 0xC0FFEE42 case 165459: `x IS (y NOT IN ())` is SQLite's truth test `x IS TRUE`
  /// (the parser folds the empty list and never resolves `y`), not an equality a join can seek
  /// the rowid by. The memory engine's join looked up rowid 1 and found no row.
  @Test(arguments: BackendKind.allCases)
  func aTruthTestIsNoEqualityAJoinSeeksBy(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (e INTEGER PRIMARY KEY); INSERT INTO t VALUES (4), (5)")
    #expect(
      try db.values(sql: "SELECT max(t.e), count(*) FROM t JOIN t AS q WHERE q.e IS (nosuch.id NOT IN ())") == [[5, 4]])
    #expect(try db.values(sql: "SELECT count(*) FROM t JOIN t AS q WHERE q.e IS (nosuch.id IN ())") == [[0]])
    #expect(try db.values(sql: "SELECT count(*) FROM t JOIN t AS q WHERE q.e IS NOT (nosuch.id IN ())") == [[4]])
  }

  /// Fuzzer seed 0xC0FFEE43 case 76029 (and 0xC0FFEE40 case 317532, its index form): SQLite
  /// delivers `ORDER BY v, …` by scanning the unique index on `v`, so it never computes the later
  /// terms (and under LIMIT, no result column of the rows past it); a subquery there that
  /// overflows fails on the memory engine, which sorts. The relational path does not model index
  /// order: it refuses where such a subquery can fail, and answers where it cannot.
  @Test(arguments: BackendKind.allCases)
  func aSubqueryAnIndexOrderLeavesUncomputedIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE s (n TEXT NOT NULL); CREATE TABLE t (v TEXT PRIMARY KEY NOT NULL, w REAL);
      INSERT INTO s VALUES (0), (1.5); INSERT INTO t (v) VALUES (0.25);
      """)
    let overflowing = "(w IN (SELECT sum(upper(9223372036854775806)) FROM s))"
    let rows = try kind.answerUnlessMemoryRefuses { try db.values(sql: "SELECT w FROM t ORDER BY v, \(overflowing), rowid") }
    if let rows { #expect(rows == [[nil]]) }
    let limited = try kind.answerUnlessMemoryRefuses {
      try db.values(sql: "SELECT v, (SELECT sum(n) FROM s) FROM t ORDER BY v, rowid LIMIT 1")
    }
    if let limited { #expect(limited == [["0.25", 1.5]]) }
    #expect(try db.values(sql: "SELECT v, (SELECT count(*) FROM s) FROM t ORDER BY v, (w IN (SELECT count(*) FROM s)) LIMIT 1") == [["0.25", 2]])
  }

  /// Fuzzer seed 0xC0FFEE40 cases 355535, 356459: SQLite seeks `rowid < (SELECT sum(x) …)` as a
  /// range, so it computes the subquery (which overflows) before its loop even when no row is
  /// tested; on an unindexed column it tests the term row by row, after `ref = 1`, and never
  /// runs it. The memory engine tests terms row by row: it refuses the range it cannot follow.
  @Test(arguments: BackendKind.allCases)
  func aRangeSeekComputesItsFailingBoundBeforeTheLoop(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE k (x INTEGER NOT NULL); CREATE TABLE c (ref TEXT);
      INSERT INTO k VALUES (-9223372036854775808), (-9223372036854775808); INSERT INTO c VALUES (NULL);
      """)
    let overflowing = "(SELECT sum(x) FROM k)"
    let failure = db.failure(sql: "SELECT count(*) FROM c WHERE ref = 1 AND rowid < \(overflowing)")
    switch kind {
    case .memory: #expect(failure?.kind == .unsupported)
    case .tandem: #expect(failure?.kind == .divergence)
    case .sqliteFile, .sqliteInMemory: #expect(failure?.message == "integer overflow")
    }
    #expect(try db.values(sql: "SELECT count(*) FROM c WHERE ref = 1 AND ref < \(overflowing)") == [[0]])
  }

  /// Fuzzer seed 0xC0FFEE44 case 213141: an UPDATE whose `x IS (SELECT … sum() …)` SQLite seeks
  /// the primary key's index by computes the overflowing sum before its loop, with no row in
  /// the table; the memory engine tested no row and changed nothing. It now refuses, as it does
  /// for a range bound.
  @Test(arguments: BackendKind.allCases)
  func anUpdateSeekingByAFailingSubqueryComputesItBeforeTheLoop(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE k (n INTEGER NOT NULL); CREATE TABLE d (x REAL PRIMARY KEY)")
    try db.execute(sql: "INSERT INTO k VALUES (9223372036854775806), (9223372036854775806)")
    let update = "UPDATE d SET x = 1 WHERE x IS (SELECT sum(n) FROM k)"
    let error = try #require(throws: TandemError.self) { try db.execute(sql: update) }
    switch kind {
    case .memory: #expect(error.kind == .unsupported)
    case .tandem: #expect(error.kind == .divergence)
    case .sqliteFile, .sqliteInMemory: #expect(error.message == "integer overflow")
    }
    // On a column no index leads, the value is computed only for a row: none, no error.
    try db.execute(sql: "CREATE TABLE e (x REAL)")
    try db.execute(sql: "UPDATE e SET x = 1 WHERE x IS (SELECT sum(n) FROM k)")
  }

  /// Fuzzer seed 0xC0FFEE78 case 847526: a BETWEEN is also two range bounds to SQLite's
  /// planner, and an IN list one equality per value. `s BETWEEN (SELECT sum(…)) AND ref` on a
  /// UNIQUE column seeks its index from the lower bound, and `s IN ((SELECT sum(…)), 5)` by each
  /// value; SQLite computes them before its loop, with no row in the table, and reports the
  /// overflow, where the memory engine tested no row and answered. It refuses, as for
  /// `s >= (SELECT sum(…))`. Without an index on `s` the terms are tested row by row: no row, no
  /// error.
  @Test(arguments: BackendKind.allCases)
  func aRangeOrListHoldingAFailingSubqueryIsComputedBeforeTheLoop(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE child (v INTEGER NOT NULL); CREATE TABLE m (ref INTEGER, s BLOB NOT NULL UNIQUE);
      CREATE TABLE plain (ref INTEGER, s BLOB NOT NULL);
      INSERT INTO child VALUES (9007199254740992), (9223372036853775806);
      """)
    let terms = ["s BETWEEN (SELECT sum(v) FROM child) AND ref", "s IN ((SELECT sum(v) FROM child), 5)"]
    for term in terms {
      for sql in ["DELETE FROM m WHERE \(term)", "SELECT count(*) FROM m WHERE \(term)"] {
        try Self.expectOverflowUnlessRefused(kind) { try db.execute(sql: sql) }
      }
      #expect(try db.values(sql: "SELECT count(*) FROM plain WHERE \(term)") == [[0]])
      try db.execute(sql: "DELETE FROM plain WHERE \(term)")
    }
  }

  /// Fuzzer seed 0xC0FFEE44 case 220842: the renderer pins `LEFT JOIN q ON c.ref … WHERE q.k` as
  /// the inner join SQLite plans (`CROSS JOIN`); written so, its ON clause `c.ref` makes SQLite
  /// plan the LEFT JOIN of `c` before it as inner too, which was left unpinned: SQLite read `c`
  /// first, and the aggregate's bare column came from another row than the memory engine's. The
  /// renderer now pins every LEFT JOIN that becomes inner once the others are written as inner.
  @Test(arguments: BackendKind.allCases)
  func aLeftJoinThatBecomesInnerThroughAPinnedJoinsOnClauseIsPinned(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE o (k INTEGER PRIMARY KEY); CREATE TABLE c (ref INTEGER, n BLOB);
      INSERT INTO o VALUES (4), (3); INSERT INTO c VALUES (4, 'x'), (3, NULL);
      """)
    let k = SQLExpression.qualifiedColumn(source: "o", name: "k")
    let smallest = SelectStatement(
      table: "c", alias: "s", columns: [.aggregate(.min, .qualifiedColumn(source: "s", name: "n"), distinct: false)],
      filter: .binary(.equal, .qualifiedColumn(source: "s", name: "ref"), k))
    let select = SelectStatement(
      table: "o",
      joins: [
        JoinClause(.left, table: "c", on: .binary(.equal, k, .qualifiedColumn(source: "c", name: "ref"))),
        JoinClause(.left, table: "o", alias: "q", on: .qualifiedColumn(source: "c", name: "ref")),
      ],
      // A subquery among the result columns makes the renderer pin the loops with CROSS JOIN.
      columns: [.subquery(smallest), k, .aggregate(.count, nil, distinct: false)],
      filter: .qualifiedColumn(source: "q", name: "k"))
    #expect(try db.execute(.select(select)).rows == [[nil, 3, 4]])
  }

  /// Fuzzer seed 0xC0FFEE46 case 471710: a join's aggregate whose answer depends on the visiting
  /// order is written over an ordered subquery, which SQLite resolves before the query around
  /// it — it reported the unknown column of WHERE, where the statement as written fails first
  /// with its HAVING on a query that does not aggregate (`avg(…) AND (x IN ())` is folded to 0).
  /// The SQLite backend now reports the statement's own error.
  @Test(arguments: BackendKind.allCases)
  func aJoinOverOrderedRowsFailsWithTheStatementsOwnError(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("g", columns: [.column("ref", .null(.text))]))
    let folded = SQLExpression.binary(
      .and, .aggregate(.avg, .qualifiedColumn(source: "h", name: "ref"), distinct: false),
      .inList(.literal(-5), [], negated: false))
    let select = SelectStatement(
      table: "g", joins: [JoinClause(.inner, table: "g", alias: "h")], columns: [folded],
      filter: .qualifiedColumn(source: "a", name: "group"), having: .aggregate(.count, nil, distinct: false))
    let error = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
    #expect(error.signature == .sqlite(code: 1, message: "HAVING clause on a non-aggregate query"))
  }

  /// Fuzzer seed 0xC0FFEE47 case 120253: in a subquery, `o.v` where the subquery's own `o` (a LEFT
  /// JOIN's table) has no column `v` names the query around's `o`. The SQLite renderer took it
  /// for a read of the joined table, which makes SQLite plan the LEFT JOIN as an inner one, and
  /// pinned it as a CROSS JOIN: over an empty table the subquery found no row, and the statement
  /// none (a wrong answer on the SQLite backend).
  @Test(arguments: BackendKind.allCases)
  func aQualifiedNameTheJoinedTableLacksLeavesTheLeftJoinOuter(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE g (v TEXT); CREATE TABLE u (e BLOB NOT NULL); CREATE TABLE d (x INTEGER);
      INSERT INTO g VALUES (675); INSERT INTO u VALUES ('NaN');
      """)
    let inner = SelectStatement(
      table: "u", joins: [JoinClause(.left, table: "d", alias: "o")], columns: [.literal(.real(0.5))],
      filter: .qualifiedColumn(source: "o", name: "v"), groupBy: [.qualifiedColumn(source: "u", name: "e")])
    let select = SelectStatement(
      table: "u", joins: [JoinClause(.inner, table: "g", alias: "o")], columns: [.qualifiedColumn(source: "o", name: "v")],
      filter: .subquery(inner),
      orderBy: [OrderingTerm(.qualifiedRowid(source: "u")), OrderingTerm(.qualifiedRowid(source: "o"))])
    #expect(try db.execute(.select(select)).rows == [["675"]])
  }

  /// Fuzzer seed 0xC0FFEE48 case 14722: reading the table through the index of its PRIMARY KEY
  /// (for the ORDER BY), SQLite tests first the WHERE term that index covers — a subquery counts
  /// as covered — so `(SELECT avg(…))` (here max), NULL, ended the row before `x IN (SELECT sum(…))`
  /// overflowed. The memory engine tested in WHERE order and failed; it now refuses such a
  /// statement, and answers the one written in the order SQLite tests it.
  @Test(arguments: BackendKind.allCases)
  func aSumSubqueryTermAnIndexMayReorderIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE v (x BLOB, k TEXT PRIMARY KEY NOT NULL); CREATE TABLE t (d INTEGER NOT NULL);
      INSERT INTO t VALUES (-5), (-9223372036854775808); INSERT INTO v (k) VALUES ('926');
      """)
    let overflowing = SQLExpression.inSubquery(
      .column("x"), SelectStatement(table: "t", columns: [.aggregate(.sum, .column("d"), distinct: false)]), negated: false)
    let null = SQLExpression.subquery(SelectStatement(table: "v", columns: [.aggregate(.max, .column("x"), distinct: false)]))
    func select(_ first: SQLExpression, _ second: SQLExpression) -> Statement {
      .select(
        SelectStatement(
          table: "v", columns: [.column("k")], filter: .binary(.and, first, second),
          orderBy: [OrderingTerm(.column("k"), descending: true)]))
    }
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(select(overflowing, null)).rows }) {
      #expect(rows.isEmpty)
    }
    #expect(try db.execute(select(null, overflowing)).rows.isEmpty)
    // A DELETE seeking the index of k tests the covered NULL term first as well.
    let delete = "DELETE FROM v WHERE x IN (SELECT sum(d) FROM t) AND (SELECT max(d) FROM t WHERE 0) AND k > '0'"
    if try kind.answerUnlessMemoryRefuses({ try db.execute(sql: delete) }) != nil {
      #expect(try db.values(sql: "SELECT k FROM v") == [["926"]])
    }
  }

  /// Fuzzer seed 0xC0FFEE48 case 160326: a join's `max(DISTINCT t3.y)` beside a bare `t.y` (here
  /// read by a subquery). SQLite checked distinctness against the previous row, as its plan
  /// delivered the values in order, so the duplicates ran max() and were skipped, and `t.y` came
  /// from the first row holding the maximum; over its ordered-rows subquery it keeps a table of
  /// the values seen, the duplicates do not run, and `t.y` comes from the last row. The memory
  /// engine, which cannot know which, refuses.
  @Test(arguments: BackendKind.allCases)
  func aDistinctMaximumBesideBareColumnsInAJoinIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (d BLOB NOT NULL, y INTEGER PRIMARY KEY); INSERT INTO t (d) VALUES (-9e999), (X'61C3')")
    let inner = SelectStatement(
      table: "t", alias: "s", columns: [.qualifiedColumn(source: "t", name: "y")], orderBy: [OrderingTerm(.rowid)])
    let select = SelectStatement(
      table: "t", joins: [JoinClause(.inner, table: "t", alias: "t3")],
      columns: [.aggregate(.max, .qualifiedColumn(source: "t3", name: "y"), distinct: true), .subquery(inner)])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(select)).rows }) {
      #expect(rows == [[2, 1]])
    }
    var plain = select
    plain.columns[0] = .aggregate(.max, .qualifiedColumn(source: "t3", name: "y"), distinct: false)
    #expect(try db.execute(.select(plain)).rows == [[2, 1]])
  }

  /// Fuzzer seed 0xC0FFEE48 cases 238407 and nine more, all found after the `rowid IN (list)`
  /// refusal of case 77321: that check looked up the name of `ref IN ()` in a join's ON clause,
  /// which the parser folds to 0 and SQLite never resolves, and failed with `ambiguous column
  /// name: ref` where SQLite answers.
  @Test(arguments: BackendKind.allCases)
  func anEmptyInListsNameIsNotLookedUpByTheRowidCheck(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (ref INTEGER NOT NULL, ref2 TEXT)")
    let select = SelectStatement(
      table: "t", alias: "q",
      joins: [JoinClause(.left, table: "t", on: .inList(.column("ref"), [], negated: false))],
      columns: [.aggregate(.min, .qualifiedColumn(source: "q", name: "ref2"), distinct: false)])
    #expect(try db.execute(.select(select)).rows == [[nil]])
  }

  /// Fuzzer seed 0xC0FFEE48 case 256534: `max("child"."n")` and `max("n")` name the same column,
  /// so SQLite computes one aggregate (`sqlite3ExprCompare` compares resolved columns): the bare
  /// `child.x` comes from the row on which `min(x)`, the last min()/max() to run, did not skip.
  /// The memory engine took the two spellings for two aggregates, ran the second max() last, and
  /// read the bare column from the other row.
  @Test(arguments: BackendKind.allCases)
  func twoSpellingsOfOneColumnMakeOneAggregate(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE child (a TEXT, x BLOB, n BLOB); CREATE TABLE m (ref BLOB, b INTEGER);
      INSERT INTO child (n) VALUES (9007199254740992.0); INSERT INTO child (x) VALUES (X'C3A9'); INSERT INTO m (b) VALUES (1);
      """)
    let n = SQLExpression.qualifiedColumn(source: "child", name: "n")
    let x = SQLExpression.qualifiedColumn(source: "child", name: "x")
    let select = SelectStatement(
      table: "m", joins: [JoinClause(.inner, table: "child")],
      columns: [
        .caseWhen(
          base: .aggregate(.max, n, distinct: false),
          branches: [CaseBranch(when: .aggregate(.min, x, distinct: false), then: .aggregate(.max, .column("n"), distinct: false))],
          else: nil),
        x,
      ])
    #expect(try db.execute(.select(select)).rows == [[nil, .blob(Data([0xC3, 0xA9]))]])
  }

  /// Fuzzer seed 0xC0FFEE4D case 124104: `ON m.ref2 = x.a WHERE m.ref2 = -2⁶³.0`, `x.a` a rowid
  /// alias. SQLite carries the WHERE value across the equivalence (a transitive constraint) and
  /// seeks `x.a` by the REAL, which finds nothing; the memory engine tested both terms, found both
  /// equal and joined the pair. The meeting is refused; an INTEGER or a value the equivalence
  /// does not reach joins on every engine.
  @Test(arguments: BackendKind.allCases)
  func aRowidSoughtThroughAnEquivalentColumnByTheRealMinimumIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE m (ref2 INTEGER, n INTEGER); CREATE TABLE x (a INTEGER PRIMARY KEY);
      INSERT INTO x VALUES (-9223372036854775808); INSERT INTO m VALUES (-9223372036854775808, 1);
      """)
    let sql = "SELECT m.n FROM m JOIN x ON (m.ref2 = x.a) WHERE m.ref2 = -9223372036854775808.0 ORDER BY m.rowid, x.rowid"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
      #expect(rows.isEmpty)
    }
    // `IN (list)` is a lookup too: SQLite may seek x.a by each value of the list.
    let listed = "SELECT m.n FROM m JOIN x ON (m.ref2 = x.a) WHERE m.ref2 IN (-9223372036854775808.0) ORDER BY m.rowid, x.rowid"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: listed) }) {
      #expect(rows.isEmpty)
    }
    #expect(try db.values(sql: "SELECT m.n FROM m JOIN x ON (m.ref2 = x.a) WHERE m.ref2 = -9223372036854775808 ORDER BY m.rowid, x.rowid") == [[1]])
    #expect(try db.values(sql: "SELECT m.n FROM m JOIN x ON (m.ref2 = x.a) WHERE m.ref2 IN (-9223372036854775808, 5) ORDER BY m.rowid, x.rowid") == [[1]])
    #expect(try db.values(sql: "SELECT m.n FROM m JOIN x ON (m.ref2 = x.a) WHERE m.ref2 + 0 = -9223372036854775808.0 ORDER BY m.rowid, x.rowid") == [[1]])
  }

  /// Fuzzer seed 0xC0FFEE4E case 193363: `('a ' COLLATE RTRIM) = d.a` in a join. SQLite looks the
  /// term up through an automatic index, whose Bloom filter (3.40) hashes a string by its length:
  /// `'a '` is turned away though it equals the stored `'a  '` under RTRIM, and no row comes out;
  /// the memory engine compared and joined. The meeting is refused; strings of one length (or
  /// NOCASE, which keeps lengths) join on every engine.
  @Test(arguments: BackendKind.allCases)
  func aJoinMatchingStringsOfDifferentLengthsUnderRtrimIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE m (w INTEGER NOT NULL); CREATE TABLE d (a INTEGER NOT NULL, t TEXT);
      INSERT INTO m VALUES (1); INSERT INTO d VALUES ('a  ', 'A  ');
      """)
    let joined = "SELECT m.w FROM d JOIN m WHERE ('a ' COLLATE RTRIM) = d.a ORDER BY d.rowid, m.rowid"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: joined) }) {
      #expect(rows.isEmpty)
    }
    let left = "SELECT d.t FROM m LEFT JOIN d ON d.t = ('A' COLLATE RTRIM) ORDER BY m.rowid, d.rowid"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: left) }) {
      #expect(rows == [[nil]])
    }
    #expect(try db.values(sql: "SELECT m.w FROM d JOIN m WHERE ('a  ' COLLATE RTRIM) = d.a ORDER BY d.rowid, m.rowid") == [[1]])
    #expect(try db.values(sql: "SELECT m.w FROM d JOIN m WHERE ('a  ' COLLATE NOCASE) = d.t ORDER BY d.rowid, m.rowid") == [[1]])
  }

  /// Fuzzer seed 0xC0FFEE4F case 418207: with ORDER BY and LIMIT, SQLite keeps only the
  /// LIMIT+OFFSET first rows in its sorter and computes a row's result columns only when it keeps
  /// the row, so a correlated scalar subquery never runs on a row that sorts after them. The memory
  /// engine projected every row of the join before sorting and met the `sum()` overflow (or refused
  /// it) on rows SQLite drops unprojected.
  @Test(arguments: BackendKind.allCases)
  func aLimitedSortComputesResultColumnsOnlyForTheRowsItKeeps(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE v (v INTEGER NOT NULL);
      INSERT INTO v VALUES (-9223372036854775808), (1), (2), (3), (3037000500);
      """)
    // The subquery overflows for every outer row but the first (-2^63 five times over).
    let sum = "(SELECT sum(s.v) FROM v AS s JOIN v AS t WHERE s.v <> outer_v.v)"
    #expect(
      try db.values(sql: "SELECT \(sum) FROM v AS outer_v JOIN v ORDER BY outer_v.v + 0, outer_v.rowid, v.rowid LIMIT 5")
        == Array(repeating: [15_185_002_530], count: 5))
    let having = "(SELECT max(s.v) FROM v AS s JOIN v AS t WHERE s.v <> outer_v.v HAVING max(s.v) BETWEEN sum(s.v) AND 5)"
    #expect(
      try db.values(sql: "SELECT \(having) FROM v AS outer_v JOIN v ORDER BY outer_v.rowid, v.rowid LIMIT 5")
        == Array(repeating: [nil], count: 5))
    // LIMIT + OFFSET past Int64.max keeps every row (the sum once trapped).
    #expect(
      try db.values(sql: "SELECT v.v FROM v AS outer_v JOIN v ORDER BY v.v, outer_v.rowid, v.rowid LIMIT 9223372036854775807 OFFSET 9223372036854775804")
        .isEmpty)
  }

  /// Fuzzer seed 0xC0FFEE50 case 126153: `x IS NULL` of a NOT NULL column is an always-false
  /// constant to SQLite's resolver, and SQLite leaves an always-false HAVING term in HAVING
  /// (another constant it moves into WHERE): every group is aggregated, and an overflowing sum()
  /// fails. Over the ordered-rows subquery the SQLite backend writes for an aggregate whose answer
  /// depends on the visiting order, that answer was written as a bound value, which SQLite moved
  /// into WHERE: no row was aggregated and the query answered nothing.
  @Test(arguments: BackendKind.allCases)
  func isNullOfANotNullColumnInHavingStaysInHaving(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("d", columns: [.column("x", .integer), .column("a", .blob)]))
    _ = try db.insertRaw(into: "d", columns: ["x", "a"], values: [.integer(1000), .integer(-9_223_372_036_854_775_807)])
    _ = try db.insertRaw(into: "d", columns: ["x", "a"], values: [.integer(100), .blob(Data([0xFF]))])
    let a = SQLExpression.qualifiedColumn(source: "d2", name: "a")
    func select(having: SQLExpression) -> Statement {
      .select(
        SelectStatement(
          table: "d", joins: [JoinClause(.inner, table: "d", alias: "d2")],
          columns: [.aggregate(.sum, a, distinct: false)], groupBy: [a], having: having, orderBy: [OrderingTerm(a)]))
    }
    let failure = try #require(throws: TandemError.self) { try db.execute(select(having: .isNull(a, negated: false))) }
    #expect(failure.signature == .sqlite(code: 1, message: "integer overflow"))
    // Beside it, a term that reads only the grouped column still moves into WHERE, and keeps the
    // overflowing rows out of the sums.
    let blobOnly = SQLExpression.binary(.and, .isNull(a, negated: false), .binary(.equal, a, .literal(.blob(Data([0xFF])))))
    #expect(try db.execute(select(having: blobOnly)).rows.isEmpty)
  }

  /// Fuzzer seed 0xC0FFEE51 case 274876: an INTEGER column keeps the REAL -2^63 as a REAL (its
  /// affinity converts no value at the ends of the integer range), and it equals the INTEGER
  /// -2^63, so a join grouped by that column puts both in one group. A join's GROUP BY over an
  /// INTEGER column is planned freely, and which of the two the group shows is the one SQLite's
  /// plan meets first (here it reads the composite key's index, where the integer's row comes
  /// first). The memory engine, which met the REAL first, refuses such a group.
  @Test(arguments: BackendKind.allCases)
  func aJoinGroupingTheIntegerAndTheRealMinimumTogetherIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE t (d INTEGER, n TEXT NOT NULL, e INTEGER NOT NULL, PRIMARY KEY (d, e));
      INSERT INTO t (d, n, e) VALUES (-9.223372036854776e18, 'x', 9007199254740993), (-9223372036854775808, '5.', 3037000500);
      """)
    let d = SQLExpression.qualifiedColumn(source: "a", name: "d")
    let grouped = Statement.select(
      SelectStatement(
        table: "t", alias: "a", joins: [JoinClause(.inner, table: "t")], columns: [d], groupBy: [d],
        orderBy: [OrderingTerm(d)]))
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(grouped).rows }) {
      #expect(rows == [[.integer(.min)]])
    }
    // Keys stored alike leave nothing to choose.
    try db.execute(sql: "DELETE FROM t WHERE typeof(d) = 'real'")
    #expect(try db.execute(grouped).rows == [[.integer(.min)]])
  }

  /// Found beside 0xC0FFEE51 case 274876: `max()` and `min()` keep the first of two equal values,
  /// so over a join SQLite plans freely, an INTEGER column holding both the INTEGER and the REAL
  /// -2^63 gives the type of whichever SQLite's plan meets first (the memory engine meets the
  /// REAL first, in rowid order). Refused.
  @Test(arguments: BackendKind.allCases)
  func aJoinsExtremumMeetingTheIntegerAndTheRealMinimumIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE t (d INTEGER, n TEXT NOT NULL, e INTEGER NOT NULL, PRIMARY KEY (d, e));
      INSERT INTO t (d, n, e) VALUES (-9.223372036854776e18, 'x', 9007199254740993), (-9223372036854775808, '5.', 3037000500);
      """)
    let d = SQLExpression.qualifiedColumn(source: "a", name: "d")
    for (function, distinct) in [(AggregateFunction.max, false), (.min, false), (.max, true)] {
      let extremum = Statement.select(
        SelectStatement(
          table: "t", alias: "a", joins: [JoinClause(.inner, table: "t")],
          columns: [.function(.typeof, [.aggregate(function, d, distinct: distinct)])]))
      // SQLite's answer is the type of the value its plan met first: either one.
      if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(extremum).rows }) {
        #expect(rows == [["integer"]] || rows == [["real"]])
      }
    }
    // Values stored alike leave nothing to choose.
    try db.execute(sql: "DELETE FROM t WHERE typeof(d) = 'real'")
    let maximum = Statement.select(
      SelectStatement(table: "t", alias: "a", joins: [JoinClause(.inner, table: "t")], columns: [.aggregate(.max, d, distinct: false)]))
    #expect(try db.execute(maximum).rows == [[.integer(.min)]])
  }

  /// 0xC0FFEE53 case 521313: a scalar subquery hands its value out without its column's
  /// collation (SQLite's `sqlite3ExprCollSeq` stops at a one-column subquery), so a comparison
  /// with it is BINARY unless the other side names one. The memory engine compared with the
  /// subquery column's collation: `(SELECT name COLLATE NOCASE …) = 'WORK'` was true.
  @Test(arguments: BackendKind.allCases)
  func aScalarSubqueryLeavesItsCollationInside(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(WorkList.self)
    try db.insert(WorkList(id: 1, name: "work"))
    func names(_ query: Select<WorkList, WorkList>) throws -> [String] { try db.fetchAll(query).map(\.name) }
    let inside = WorkList.where { list in
      WorkList.where { $0.id == list.id }.select { $0.name.collate(.nocase) }.value() == "WORK"
    }
    #expect(try names(inside) == [])
    let outside = WorkList.where { list in
      WorkList.where { $0.id == list.id }.select { $0.name }.value().collate(.nocase) == "WORK"
    }
    #expect(try names(outside) == ["work"])
    // `IN (SELECT …)` is the one place the subquery column's collation counts.
    let member = WorkList.where { list in
      TypedExpression<String>.constant("WORK").in(WorkList.where { $0.id == list.id }.select { $0.name.collate(.nocase) })
    }
    #expect(try names(member) == ["work"])
    #expect(try db.values(sql: "SELECT (SELECT 'a' COLLATE NOCASE) = 'A', (SELECT 'a' COLLATE NOCASE) < 'N'") == [[0, 0]])
  }

  /// Found beside 0xC0FFEE53 case 521313: a common table's (or a view's, or a subquery in FROM's)
  /// column takes the collation of its leftmost member's expression, and every comparison
  /// reading the column uses it (as an explicit COLLATE where SQLite flattens the subquery). The
  /// memory engine's columns there compared as BINARY (`x = 'A'` below was 0); such a column is
  /// refused, as is a recursive UNION comparing a column so collated.
  @Test(arguments: BackendKind.allCases)
  func aCommonTableColumnCollatedOtherThanBinaryIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    let collated = [
      "WITH c(x) AS (SELECT 'a' COLLATE NOCASE) SELECT (SELECT x FROM c) = 'A', 'A' IN (SELECT x FROM c), x = 'A' FROM c",
      "SELECT x = 'A', x < 'N' FROM (SELECT 'a' COLLATE NOCASE AS x)",
      """
      WITH RECURSIVE c(x) AS (SELECT 'a' UNION SELECT upper(x) COLLATE NOCASE FROM c) SELECT count(*) FROM c
      """,
    ]
    let sqliteAnswers: [[SqliteValue]] = [[0, 1, 1], [1, 1], [1]]
    for (sql, expected) in zip(collated, sqliteAnswers) {
      if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
        #expect(rows == [expected], "\(sql)")
      }
    }
    // BINARY, or no collation at all, is answered; so is a recursive UNION ALL.
    #expect(try db.values(sql: "WITH c(x) AS (SELECT 'a' COLLATE BINARY) SELECT x = 'A', x < 'N' FROM c") == [[0, 0]])
    let unionAll = "WITH RECURSIVE c(x) AS (SELECT 'a' UNION ALL SELECT upper(x) COLLATE NOCASE FROM c WHERE x = 'a') SELECT x FROM c"
    #expect(try db.values(sql: unionAll) == [["a"], ["A"]])
  }

  /// 0xC0FFEE54 case 117830: an ORDER BY led by the rowid is delivered by the rowid scan even
  /// with NULLS LAST (NULLS FIRST descending), so SQLite computes none of the later terms. The
  /// memory engine took such a first term for one the scan does not deliver, computed a later
  /// term's subquery, and reported its overflow.
  @Test(arguments: BackendKind.allCases)
  func aRowidLedOrderWithNullsLastComputesNoLaterTerm(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE d (b INTEGER PRIMARY KEY); INSERT INTO d VALUES (-62), (-9223372036854775807)")
    let overflowing = "(SELECT sum(DISTINCT x.b) + d.b FROM d AS x)"
    #expect(try db.values(sql: "SELECT d.b FROM d ORDER BY d.b NULLS LAST, \(overflowing)") == [[-9_223_372_036_854_775_807], [-62]])
    #expect(try db.values(sql: "SELECT d.b FROM d ORDER BY d.b DESC NULLS FIRST, \(overflowing)") == [[-62], [-9_223_372_036_854_775_807]])
    // Computed when it is the first term.
    let error = try #require(throws: TandemError.self) { try db.values(sql: "SELECT d.b FROM d ORDER BY \(overflowing)") }
    #expect(error.signature == .sqlite(code: 1, message: "integer overflow"))
  }

  /// 0xC0FFEE57 cases 501801, 501876 and others: an aggregate whose argument is a compound
  /// subquery belongs to the innermost query whose tables any member reads. The memory engine
  /// looked at the compound's first member only, gave `max()` below to the outermost query,
  /// and took the middle one for a query without aggregates ("HAVING clause on a non-aggregate
  /// query").
  @Test(arguments: BackendKind.allCases)
  func anAggregateOfACompoundBelongsToTheQueryAnyMemberReads(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (a INTEGER); CREATE TABLE u (b INTEGER); INSERT INTO t VALUES (1), (0); INSERT INTO u VALUES (5)")
    let intersect = """
      SELECT (SELECT max((SELECT 1 FROM u WHERE o.a INTERSECT SELECT 1 FROM u WHERE m.a)) FROM t AS m HAVING 1)
      FROM t AS o ORDER BY o.rowid
      """
    #expect(try db.values(sql: intersect) == [[1], [nil]])
    let union = """
      SELECT (SELECT max((SELECT 1 FROM u WHERE o.a UNION SELECT 2 FROM u WHERE m.a ORDER BY 1)) FROM t AS m HAVING 1)
      FROM t AS o ORDER BY o.rowid
      """
    #expect(try db.values(sql: union) == [[1], [2]])
  }

  /// 0xC0FFEE57 cases 8718, 8894, 507156, 507198, 509159: SQLite converts a common table's
  /// values to its columns' affinities where it stores the table's rows (materialized: read
  /// twice, or in a join) and reads a REAL column with REAL affinity, but leaves them as they are
  /// where it runs the table as a co-routine or flattens it. The memory engine never converted
  /// them (the INTEGER 3 for the REAL 3.0, the REAL 2.5 for the TEXT '2.5'); a value its
  /// column's affinity would convert is refused, and values already of their column's kind are
  /// answered.
  @Test(arguments: BackendKind.allCases)
  func aCommonTableValueItsColumnsAffinityConvertsIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (v TEXT, r REAL); INSERT INTO t VALUES ('0.3', 1)")
    let converted: [(String, [[SqliteValue]])] = [
      ("WITH c(n) AS (SELECT v FROM t UNION ALL SELECT 2.5) SELECT c.n FROM c JOIN c AS d ORDER BY 1",
       [["0.3"], ["0.3"], ["2.5"], ["2.5"]]),
      ("WITH c(n) AS (SELECT r FROM t UNION SELECT 3) SELECT n FROM c ORDER BY 1", [[1.0], [3.0]]),
    ]
    for (sql, sqliteAnswer) in converted {
      if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
        #expect(rows == sqliteAnswer, "\(sql)")
      }
    }
    let kept = "WITH c(n) AS (SELECT r FROM t UNION ALL SELECT 2.5) SELECT c.n FROM c JOIN c AS d ORDER BY 1"
    #expect(try db.values(sql: kept) == [[1.0], [1.0], [2.5], [2.5]])
  }

  /// 0xC0FFEE57 case 12362: a sorted join's result column holding a compound scalar subquery
  /// whose last member reads a REAL column. The SQLite backend computes a sorted join's columns
  /// in a subquery, whose column took that REAL affinity, and SQLite read the INTEGER 1000 back
  /// as the REAL 1000.0; the statement as written hands over the INTEGER.
  @Test(arguments: BackendKind.allCases)
  func aSortedJoinHandsOverACompoundSubquerysValueAsItIs(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE k (it REAL NOT NULL); CREATE TABLE q (ref REAL); INSERT INTO k VALUES (-5), (-6); INSERT INTO q VALUES (NULL)")
    var scalar = SelectStatement(table: "q", columns: [.literal(1000)])
    let matching = SQLExpression.binary(.equal, .qualifiedColumn(source: "k", name: "it"), .qualifiedColumn(source: "q", name: "ref"))
    scalar.compound = [CompoundTerm(.union, SelectStatement(table: "q", columns: [.qualifiedColumn(source: "q", name: "ref")], filter: matching))]
    let select = SelectStatement(
      table: "k", joins: [JoinClause(.inner, table: "k", alias: "k2")], columns: [.subquery(scalar)],
      orderBy: [OrderingTerm(.qualifiedRowid(source: "k")), OrderingTerm(.qualifiedRowid(source: "k2"))])
    #expect(try db.execute(.select(select)).rows == Array(repeating: [.integer(1000)], count: 4))
    // Relational fuzzer, seed 0xC0FFEE6D, case 11,201: the subquery under COLLATE has its
    // affinity too, and an ORDER BY led by a column, not the rowids alone, is sorted by SQLite.
    var collated = select
    collated.columns = [.collate(.subquery(scalar), .rtrim)]
    collated.orderBy.insert(OrderingTerm(.qualifiedColumn(source: "k", name: "it"), nulls: .last), at: 0)
    #expect(try db.execute(.select(collated)).rows == Array(repeating: [.integer(1000)], count: 4))
  }

  /// 0xC0FFEE57 cases 28194 and 529908: an aggregate without GROUP BY over a common table (or a
  /// subquery in FROM) with no rows reads its bare columns as NULL where SQLite materializes the
  /// table, and as the column's expression where it flattens the table into the query (a
  /// constant then has its value). The memory engine gave NULL; it now refuses such a bare column
  /// over no rows, and answers it over rows.
  @Test(arguments: BackendKind.allCases)
  func aBareColumnOverNoRowsOfACommonTableIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (5)")
    func counted(where filter: SQLExpression?) -> Statement {
      let body = SelectStatement(table: "t", columns: [.literal(1), .column("a")], filter: filter)
      var select = SelectStatement(
        table: "c", columns: [.aggregate(.count, nil, distinct: false), .qualifiedColumn(source: "c", name: "y")])
      select.with = WithClause(tables: [CommonTableExpression(name: "c", columns: ["y", "x"], select: body)])
      return .select(select)
    }
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(counted(where: .literal(0))).rows }) {
      #expect(rows == [[0, 1]])
    }
    #expect(try db.execute(counted(where: nil)).rows == [[1, 1]])
  }

  /// 0xC0FFEE59 case 524492: the rows of a common table made of a join come in the order of
  /// SQLite's plan (which may flatten the table into the query reading it), so a column an
  /// aggregate reads outside its aggregates — the last row's — is the plan's. The memory engine
  /// answered with the last row of its own order; it now refuses.
  @Test(arguments: BackendKind.allCases)
  func aBareColumnOverACommonTableOfAJoinIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE p (id INTEGER PRIMARY KEY, n TEXT); INSERT INTO p VALUES (1, 'a'), (2, 'b')")
    let body = SelectStatement(
      table: "p", joins: [JoinClause(.inner, table: "p", alias: "q")], columns: [.qualifiedColumn(source: "q", name: "n")])
    func counted(_ columns: [SQLExpression]) -> Statement {
      var select = SelectStatement(table: "c", columns: [.aggregate(.count, nil, distinct: false)] + columns)
      select.with = WithClause(tables: [CommonTableExpression(name: "c", columns: ["n"], select: body)])
      return .select(select)
    }
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(counted([.qualifiedColumn(source: "c", name: "n")])).rows }) {
      #expect(rows == [[4, "a"]] || rows == [[4, "b"]])
    }
    #expect(try db.execute(counted([])).rows == [[4]])
  }

  /// 0xC0FFEE5A case 508727: an aggregate's argument is a subquery whose inner join has an ON
  /// clause SQLite's parser folds to false; that drops the subquery's WHERE unresolved, with the
  /// only reference to the query the aggregate sits in, so the aggregate belongs to the query
  /// around — here a WHERE, where it is misused. The memory engine counted the dropped WHERE.
  @Test(arguments: BackendKind.allCases)
  func anAggregateWhoseArgumentsWhereIsFoldedAwayBelongsAround(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (a INTEGER); CREATE TABLE u (y INTEGER); CREATE TABLE v (x INTEGER); CREATE TABLE w (c INTEGER)")
    func argument(foldedOn: Bool) -> SelectStatement {
      var on = SQLExpression.binary(.equal, .qualifiedColumn(source: "v", name: "x"), .qualifiedColumn(source: "u", name: "y"))
      if foldedOn { on = .binary(.and, on, .inList(.qualifiedColumn(source: "v", name: "x"), [], negated: false)) }
      return SelectStatement(
        table: "u", joins: [JoinClause(.inner, table: "v", on: on)], columns: [.qualifiedColumn(source: "t", name: "a")],
        filter: .binary(.equal, .qualifiedColumn(source: "w", name: "c"), .literal(1)))
    }
    func outer(foldedOn: Bool) -> Statement {
      let minimum = SelectStatement(table: "w", columns: [.aggregate(.min, .subquery(argument(foldedOn: foldedOn)), distinct: false)])
      return .select(SelectStatement(table: "t", columns: [.column("a")], filter: .inSubquery(.column("a"), minimum, negated: false)))
    }
    // The memory engine, which cannot compute the aggregate in the query around, may refuse.
    let misuse = TandemError.Signature.sqlite(code: 1, message: "misuse of aggregate: min()")
    let error = try #require(throws: TandemError.self) { try db.execute(outer(foldedOn: true)) }
    switch kind {
    case .sqliteFile, .sqliteInMemory: #expect(error.signature == misuse)
    case .memory: #expect(error.signature == misuse || error.kind == .unsupported)
    case .tandem: #expect(error.signature == misuse || error.kind == .divergence)
    }
    #expect(try db.execute(outer(foldedOn: false)).rows.isEmpty)
  }

  /// 0xC0FFEE63 case 51228: a HAVING term SQLite moves into the WHERE clause (it reads only
  /// GROUP BY terms, or nothing) moves after SQLite resolved the names, so it cannot change which
  /// error comes first. Here a function call absorbs its subquery's failure and the walk goes on
  /// into the ON clause, whose bad name is SQLite's last word; the memory engine resolved the
  /// WHERE with the moved term in it, which stopped the walk before the ON clause.
  @Test(arguments: BackendKind.allCases)
  func aHavingTermMovedToWhereDoesNotChangeWhichNameErrorComes(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE c (id REAL NOT NULL, n TEXT); CREATE TABLE s (ref REAL, k INTEGER NOT NULL)")
    let query = """
      SELECT 1 FROM c JOIN c AS o ON %@ WHERE min('a', ('é' IN (SELECT 1 FROM s WHERE w.k)))%@ GROUP BY c.n HAVING %@
      """
    for (on, also, having, missing) in [
      ("nope", "", "1", "nope"), ("nope", "", "c.n = 'x'", "nope"), ("o.n = c.n", " AND nope", "c.n = 'x'", "nope"),
      ("o.n = c.n", "", "c.n = 'x'", "w.k"), ("o.n = c.n", "", "1", "w.k"),
    ] {
      let sql = String(format: query, on, also, having)
      let error = try #require(throws: TandemError.self) { try db.values(sql: sql) }
      #expect(error.signature == .sqlite(code: 1, message: "no such column: \(missing)"), "\(sql)")
    }
  }

  /// 0xC0FFEE64 case 570792: SQLite's parser does not pass a BETWEEN's bounds' function calls up
  /// to the BETWEEN, so its code generator takes `NOT (x BETWEEN abs(…) AND y)` for a constant
  /// without a call and evaluates it once, at the statement's start: the overflow comes before
  /// the first row's NOT NULL constraint fails, and over an empty table too. The memory engine
  /// evaluated it where it is used; it now evaluates such a BETWEEN first and refuses when it
  /// fails. One that does not fail is answered, and so is a call not hidden by a BETWEEN.
  @Test(arguments: BackendKind.allCases)
  func aConstantBetweenWhoseBoundsFailIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE kids (c REAL NOT NULL); CREATE TABLE t (c INTEGER)")
    let overflowing = SQLExpression.function(.abs, [.literal(.integer(.min))])
    let between = SQLExpression.between(.parameter("p0"), overflowing, .literal(.null), negated: true)
    let insert = InsertStatement(table: "kids", columns: ["c"], rows: [[.literal(.null)], [between]])
    try Self.expectOverflowUnlessRefused(kind) { try db.execute(.insert(insert), parameters: ["p0": .real(0.3)]) }
    #expect(try db.values(sql: "SELECT count(*) FROM kids") == [[.integer(0)]])
    let negated = SQLExpression.unary(.not, .between(.literal(1), overflowing, .literal(2), negated: false))
    try Self.expectOverflowUnlessRefused(kind) {
      try db.execute(.select(SelectStatement(table: "t", columns: [negated])))
    }
    try Self.expectOverflowUnlessRefused(kind) {
      try db.execute(.update(UpdateStatement(table: "t", assignments: [Assignment(column: "c", value: negated)])))
    }
    let plus = SQLExpression.binary(.add, .literal(1), overflowing)
    #expect(try db.execute(.select(SelectStatement(table: "t", columns: [plus]))).rows.isEmpty)
    _ = try db.insertRaw(into: "t", columns: ["c"], values: [5])
    let fitting = SQLExpression.unary(
      .not, .between(.literal(1), .literal(2), .function(.abs, [.literal(.integer(.min + 1))]), negated: false))
    #expect(try db.execute(.select(SelectStatement(table: "t", columns: [fitting]))).rows == [[1]])
  }

  /// 0xC0FFEE64 case 640935, a silent wrong answer: a lone max() of a column that a WHERE term
  /// holds to one value (`= x.rowid`, read before the loop) is served by SQLite's min/max
  /// optimization, which counts the column's order as given and leaves the loop after the first
  /// row. Of `3.0` and `'3'`, both equal to the rowid 3 under the BLOB column's comparison,
  /// SQLite keeps the first row's `3.0`; the memory engine, in a correlated subquery, compared
  /// them all and answered `'3'` (text sorts after numbers). `max(+c)` is no column: every row
  /// counts there, and `'3'` is right.
  @Test(arguments: BackendKind.allCases)
  func aMaxOfAColumnHeldToOneValueKeepsTheFirstRow(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE child (n REAL, c BLOB); INSERT INTO child VALUES (1, 3.0), (2, '3'), (3, NULL)")
    func maxima(of argument: SQLExpression) throws -> [[SqliteValue]] {
      let held = SQLExpression.binary(.equal, .qualifiedRowid(source: "x"), .qualifiedColumn(source: "o", name: "c"))
      let maximum = SelectStatement(
        table: "child", alias: "o", columns: [.aggregate(.max, argument, distinct: false)], filter: held)
      var select = SelectStatement(table: "child", alias: "x", columns: [.subquery(maximum)])
      select.orderBy = [OrderingTerm(.qualifiedRowid(source: "x"))]
      return try db.execute(.select(select)).rows
    }
    #expect(try maxima(of: .qualifiedColumn(source: "o", name: "c")) == [[.null], [.null], [.real(3)]])
    #expect(try maxima(of: .unary(.plus, .qualifiedColumn(source: "o", name: "c"))) == [[.null], [.null], [.text("3")]])
  }

  /// Found probing 0xC0FFEE64 case 640935: in a join, SQLite's min/max optimization also stops
  /// at the first row when the loops before the argument's are one row each (`t.rowid = o.k`):
  /// of `3.0` and `'3'`, max() keeps `3.0`, though `'3'` sorts after it. Which loops come first is
  /// SQLite's plan, so the memory engine refuses when the rows it steps hold the held column in
  /// several forms, and answers when they hold one; a range is no equality, and every row counts.
  @Test(arguments: BackendKind.allCases)
  func aMaxInAJoinOfAColumnHeldToOneValueIsRefusedWhenItsFormsDiffer(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: "CREATE TABLE o (k INTEGER); CREATE TABLE t (x INTEGER); CREATE TABLE u (c BLOB); "
        + "INSERT INTO o VALUES (1); INSERT INTO t VALUES (3)")
    func maximum(_ on: SQLExpression) -> Statement {
      let inner = SelectStatement(
        table: "t", joins: [JoinClause(.inner, table: "u", on: on)],
        columns: [.aggregate(.max, .qualifiedColumn(source: "u", name: "c"), distinct: false)],
        filter: .binary(.equal, .qualifiedRowid(source: "t"), .qualifiedColumn(source: "o", name: "k")))
      return .select(SelectStatement(table: "o", columns: [.subquery(inner)]))
    }
    let held = maximum(.binary(.equal, .qualifiedColumn(source: "u", name: "c"), .qualifiedColumn(source: "t", name: "x")))
    try db.execute(sql: "INSERT INTO u VALUES (3.0), (3.0)")
    #expect(try db.execute(held).rows == [[.real(3)]])
    try db.execute(sql: "INSERT INTO u VALUES ('3')")
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(held).rows }) {
      #expect(rows == [[.real(3)]])
    }
    let above = SQLExpression.binary(.subtract, .qualifiedColumn(source: "t", name: "x"), .literal(1))
    #expect(try db.execute(maximum(.binary(.greater, .qualifiedColumn(source: "u", name: "c"), above))).rows == [["3"]])
  }

  /// 0xC0FFEE66 case 91243: past the rowid 9223372036854775807 SQLite picks a random new rowid,
  /// which the memory engine refuses. Here the row's REPLACE first deleted the row holding the
  /// largest rowid, and with foreign keys SQLite checks uniqueness once more: the engine's
  /// stand-in for the random rowid (the smallest one, which a row held) failed that check as a
  /// primary key conflict instead of being refused.
  @Test(arguments: BackendKind.allCases)
  func aRandomRowidAfterAReplaceIsRefusedNotAConflict(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(
      sql: """
        CREATE TABLE p (y INTEGER PRIMARY KEY);
        CREATE TABLE t (ref INTEGER REFERENCES p (y) ON UPDATE CASCADE, d REAL UNIQUE, k INTEGER PRIMARY KEY);
        INSERT INTO t (k) VALUES (-9223372036854775808)
        """)
    let insert = InsertStatement(
      table: "t", columns: ["d", "k"],
      rows: [[.literal(.real(-1)), .literal(.integer(.max))], [.literal(.real(-1)), .literal(.null)]], conflict: .replace)
    if let changes = try kind.answerUnlessMemoryRefuses({ try db.execute(.insert(insert)).changes }) {
      #expect(changes == 2)
      #expect(try db.values(sql: "SELECT count(*) FROM t") == [[.integer(2)]])
    } else if kind == .memory {
      #expect(try db.values(sql: "SELECT k FROM t") == [[.integer(.min)]])
    }
  }

  /// A join ordered by its rowids alone inside a DELETE's scalar subquery keeps its one column:
  /// the SQLite backend leaves the sort to itself (with the rowids as extra columns) only for the
  /// statement's own select, and SQLite reported "sub-select returns 3 columns" for this one.
  @Test(arguments: BackendKind.allCases)
  func aRowidOrderedJoinInADeletesSubqueryKeepsOneColumn(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("d", columns: [.column("n", .integer)]))
    try db.create(TableSchema("kids", columns: [.column("id", .integer)]))
    _ = try db.insertRaw(into: "d", columns: ["n"], values: [7])
    _ = try db.insertRaw(into: "kids", columns: ["id"], values: [7])
    _ = try db.insertRaw(into: "kids", columns: ["id"], values: [8])
    let n = SQLExpression.qualifiedColumn(source: "a", name: "n")
    let joined = SelectStatement(
      table: "d", alias: "a", joins: [JoinClause(.inner, table: "d")], columns: [n],
      filter: .binary(.equal, n, .column("id")),
      orderBy: [OrderingTerm(.qualifiedRowid(source: "a")), OrderingTerm(.unary(.plus, .qualifiedRowid(source: "d")))])
    let result = try db.execute(.delete(DeleteStatement(table: "kids", filter: .subquery(joined))))
    #expect(result.changes == 1)
    #expect(try db.execute(.select(SelectStatement(table: "kids", columns: [.column("id")]))).rows == [[8]])
  }

  /// `x IN (SELECT column FROM table ORDER BY …)`: SQLite answers it from an index of the column
  /// when there is one (`sqlite3FindInIndex`) and never computes the ORDER BY; without one it runs
  /// the subquery, ORDER BY included. The memory engine ran it always, and failed where SQLite
  /// answered (the relational fuzzer's seed 0xC0FFEE69, case 710,561); it now refuses where that
  /// ORDER BY fails, and answers where it does not.
  @Test(arguments: BackendKind.allCases)
  func anOrderByInAnInSubquerySQLiteMaySkipIsRefusedWhereItFails(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("d", columns: [.column("a", .integer, primaryKey: true)]))
    try db.create(TableSchema("t", columns: [.column("ref", .integer)], indexes: [.index(on: ["ref"])]))
    try db.create(TableSchema("u", columns: [.column("ref", .integer)]))
    _ = try db.insertRaw(into: "d", columns: ["a"], values: [.integer(.max - 1)])
    _ = try db.insertRaw(into: "d", columns: ["a"], values: [.integer(.max)])
    _ = try db.insertRaw(into: "t", columns: ["ref"], values: [0])
    _ = try db.insertRaw(into: "u", columns: ["ref"], values: [0])
    let overflowingSum = SQLExpression.subquery(
      SelectStatement(table: "d", columns: [.aggregate(.sum, .column("a"), distinct: false)]))
    func membership(of table: String, orderedBy term: SQLExpression, limit: SQLExpression? = nil) -> Statement {
      let members = SelectStatement(table: table, columns: [.column("ref")], orderBy: [OrderingTerm(term)], limit: limit)
      return .select(
        SelectStatement(
          table: table, columns: [.inSubquery(.literal(1), members, negated: false)], orderBy: [OrderingTerm(.rowid)]))
    }
    // Indexed: SQLite searches t's index and never computes the sum.
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(membership(of: "t", orderedBy: overflowingSum)).rows }) {
      #expect(rows == [[0]])
    }
    // Not indexed: SQLite runs the subquery and the sum fails; the memory engine refuses.
    if kind == .memory || kind == .tandem {
      _ = try kind.answerUnlessMemoryRefuses { try db.execute(membership(of: "u", orderedBy: overflowingSum)) }
    } else {
      #expect(throws: TandemError.self) { try db.execute(membership(of: "u", orderedBy: overflowingSum)) }
    }
    // An ORDER BY that does not fail gives the same answer either way; with a LIMIT the rows are
    // sorted on every engine, and the sum fails on every engine.
    #expect(try db.execute(membership(of: "t", orderedBy: .column("ref"))).rows == [[0]])
    #expect(throws: TandemError.self) { try db.execute(membership(of: "t", orderedBy: overflowingSum, limit: .literal(5))) }
  }

  /// An OR over a subquery's or compound member's table that SQLite answers branch by branch
  /// (`MULTI-INDEX OR`: `rowid IS ?` cannot join `rowid = ?` in one IN), seeking each rowid: the
  /// REAL -2⁶³ finds no row that way, though it equals the smallest rowid. The engine tested the
  /// whole OR on every row and found it (relational fuzzer, seed 0xC0FFEE69, case 956,294).
  @Test(arguments: BackendKind.allCases)
  func anOrBranchSeekingTheRealSmallestRowidIsRefusedWhereItWouldMatch(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("child", columns: [.column("x", .integer, primaryKey: true), .column("d", .real)]))
    _ = try db.insertRaw(into: "child", columns: ["x", "d"], values: [.integer(.min), .real(-194.625)])
    func grouped(_ probe: SqliteValue) -> Statement {
      var member = SelectStatement(
        table: "child", columns: [.column("d")],
        filter: .binary(
          .or, .binary(.is, .rowid, .literal(.null)), .binary(.equal, .qualifiedRowid(source: "child"), .literal(probe))),
        groupBy: [.column("d")])
      member.compound = [CompoundTerm(.unionAll, SelectStatement(table: "child", columns: [.literal("end")]))]
      return .select(member)
    }
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(grouped(.real(-0x1p63))).rows }) {
      #expect(rows == [["end"]])
    }
    // The INTEGER -2⁶³ is found by either plan.
    #expect(try db.execute(grouped(.integer(.min))).rows == [[-194.625], ["end"]])
  }

  /// A pinned aggregate (its table read `NOT INDEXED`, in rowid order) whose OR SQLite answers
  /// branch by branch through rowid lookups visits the rows in the branches' order:
  /// `group_concat` over it is refused; an OR of equalities SQLite turns into an IN, or one with
  /// a branch no lookup can answer, keeps rowid order and is answered.
  @Test(arguments: BackendKind.allCases)
  func anAggregateOverAnOrAnsweredBranchByBranchIsRefusedWhereOrderMatters(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("x", .integer, primaryKey: true), .column("y", .text)]))
    for (x, y) in [(1, "a"), (2, "b"), (3, "c")] {
      _ = try db.insertRaw(into: "t", columns: ["x", "y"], values: [.integer(Int64(x)), .text(y)])
    }
    func concatenated(_ filter: SQLExpression) -> Statement {
      var member = SelectStatement(
        table: "t", columns: [.aggregate(.groupConcat, .column("y"), distinct: false)], filter: filter)
      member.compound = [CompoundTerm(.unionAll, SelectStatement(table: "t", columns: [.literal("end")], limit: nil))]
      member.compound[0].select.filter = .binary(.equal, .rowid, .literal(2))
      return .select(member)
    }
    let branchByBranch = SQLExpression.binary(.or, .binary(.equal, .rowid, .literal(3)), .binary(.is, .rowid, .literal(1)))
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(concatenated(branchByBranch)).rows }) {
      #expect(rows == [["c,a"], ["end"]])
    }
    // A branch comparing the rowid with a subquery that reads no row of the query is sought too.
    var selectThree = SelectStatement(table: "", columns: [.literal(3)])
    selectThree.hasFromClause = false
    let three = SQLExpression.subquery(selectThree)
    let subqueryBranch = SQLExpression.binary(.or, .binary(.equal, .rowid, three), .binary(.is, .rowid, .literal(1)))
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(concatenated(subqueryBranch)).rows }) {
      #expect(rows == [["c,a"], ["end"]])
    }
    let inList = SQLExpression.binary(.or, .binary(.equal, .rowid, .literal(3)), .binary(.equal, .rowid, .literal(1)))
    #expect(try db.execute(concatenated(inList)).rows == [["a,c"], ["end"]])
    let scanned = SQLExpression.binary(.or, .binary(.equal, .rowid, .literal(3)), .binary(.equal, .column("y"), .literal("a")))
    #expect(try db.execute(concatenated(scanned)).rows == [["a,c"], ["end"]])
    // count() does not depend on the order.
    var counted = SelectStatement(table: "t", columns: [.aggregate(.count, nil, distinct: false)], filter: branchByBranch)
    counted.compound = [CompoundTerm(.unionAll, SelectStatement(table: "t", columns: [.literal(0)], filter: .literal(0)))]
    #expect(try db.execute(.select(counted)).rows == [[2]])
  }

  /// A join whose loops deliver its whole ORDER BY: `b.a` is b's rowid, so b's loop is ordered
  /// and each of its rows distinct, the subquery reads only b, and t's loop runs in rowid order.
  /// SQLite uses no sorter and never computes the subquery, whose `sum()` overflows; the engine
  /// sorted, computed it and failed (relational fuzzer, seed 0xC0FFEE69, case 952,473). With the
  /// subquery first, SQLite sorts, and every engine fails.
  @Test(arguments: BackendKind.allCases)
  func aFailingOrderTermAJoinsLoopsDeliverIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("t", columns: [.column("a", .integer, primaryKey: true)]))
    _ = try db.insertRaw(into: "t", columns: ["a"], values: [.integer(.min)])
    _ = try db.insertRaw(into: "t", columns: ["a"], values: [-1])
    let overflowingSum = OrderingTerm(
      .subquery(
        SelectStatement(
          table: "t", alias: "u", columns: [.aggregate(.sum, .column("a"), distinct: false)],
          filter: .binary(.greaterOrEqual, .qualifiedColumn(source: "b", name: "a"), .qualifiedColumn(source: "u", name: "a")))),
      nulls: .last)
    func joined(orderedBy order: [OrderingTerm]) -> Statement {
      .select(
        SelectStatement(
          table: "t", joins: [JoinClause(.inner, table: "t", alias: "b")],
          columns: [.qualifiedColumn(source: "t", name: "a"), .qualifiedColumn(source: "b", name: "a")],
          orderBy: order + [OrderingTerm(.qualifiedRowid(source: "t")), OrderingTerm(.qualifiedRowid(source: "b"))]))
    }
    let delivered = joined(orderedBy: [OrderingTerm(.qualifiedColumn(source: "b", name: "a"), nulls: .first), overflowingSum])
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(delivered).rows }) {
      #expect(rows == [[.integer(.min), .integer(.min)], [-1, .integer(.min)], [.integer(.min), -1], [-1, -1]])
    }
    let error = try #require(throws: TandemError.self) { try db.execute(joined(orderedBy: [overflowingSum])) }
    #expect(error.signature == .sqlite(code: 1, message: "integer overflow"))
  }

  /// A common table with LIMIT over a table an index covers: SQLite scans the index (c, id), in
  /// its order, when the table's own columns it reads are `id` alone. The subquery's `s.c` and
  /// `s.up` are its own table's (the same name), but the engine counted them as read by the outer
  /// table, found no covering index and kept the first rowid (relational fuzzer, seed 0xC0FFEE6B,
  /// case 43,452, a recursive common table). With the subquery's table aliased it refused already.
  @Test(arguments: BackendKind.allCases)
  func aSubquerysOwnColumnsDoNotHideACoveringIndexOfTheTableItShares(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema(
        "s", columns: [.column("c", .text), .column("id", .integer), .column("up", .null(.text))],
        indexes: [.index(on: ["c", "id"])]))
    _ = try db.insertRaw(into: "s", columns: ["c", "id", "up"], values: ["b", 1, "b"])
    _ = try db.insertRaw(into: "s", columns: ["c", "id", "up"], values: ["a", 2, .null])
    func largest(innerAlias: String?) -> Statement {
      let inner = SelectStatement(
        table: "s", alias: innerAlias, columns: [.literal(1)],
        filter: .binary(
          .equal, .qualifiedColumn(source: innerAlias ?? "s", name: "c"), .qualifiedColumn(source: innerAlias ?? "s", name: "up")))
      let first = SelectStatement(table: "s", columns: [.column("id")], filter: .exists(inner, negated: false), limit: .literal(1))
      var outer = SelectStatement(table: "w", columns: [.aggregate(.max, .column("n"), distinct: false)])
      outer.with = WithClause(tables: [CommonTableExpression(name: "w", columns: ["n"], select: first)])
      return .select(outer)
    }
    for alias in [nil, "o"] {
      if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(largest(innerAlias: alias)).rows }) {
        #expect(rows == [[2]])
      }
    }
  }

  /// A common table whose select reads a column its index does not hold (`up`), but the query
  /// reading it does not read that column: SQLite flattens the table into the query, drops the
  /// column, and scans the index on (s, a), in its order; which row the column read outside the
  /// aggregate comes from depends on that order (3 there, 5 in rowid order). The engine saw no
  /// covering index and answered from rowid order (relational fuzzer, seed 0xC0FFEE6B, cases
  /// 21,584 and 21,587). Reading `up` too, no index covers the table, and every engine answers.
  @Test(arguments: BackendKind.allCases)
  func aCommonTableFlattenedIntoAQueryReadingFewerColumnsMayBeReadThroughAnIndex(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema(
        "t", columns: [.column("a", .integer), .column("s", .null(.real)), .column("up", .null(.integer))],
        indexes: [.index(on: ["s", "a"])]))
    try db.create(TableSchema("d", columns: [.column("e", .null(.text))]))
    _ = try db.insertRaw(into: "t", columns: ["a"], values: [5])
    _ = try db.insertRaw(into: "t", columns: ["a"], values: [3])
    _ = try db.insertRaw(into: "d", columns: ["e"], values: [.null])
    func overW(_ columns: [SQLExpression]) -> Statement {
      var select = SelectStatement(
        table: "w", alias: "q", joins: [JoinClause(.inner, table: "d")],
        columns: columns + [.aggregate(.sum, .qualifiedColumn(source: "d", name: "e"), distinct: false)])
      select.with = WithClause(tables: [
        CommonTableExpression(
          name: "w", columns: ["n", "v"],
          select: SelectStatement(
            table: "t", columns: [.qualifiedColumn(source: "t", name: "a"), .qualifiedColumn(source: "t", name: "up")]))
      ])
      return .select(select)
    }
    let n = SQLExpression.qualifiedColumn(source: "q", name: "n")
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(overW([n])).rows }) {
      #expect(rows == [[3, .null]])
    }
    #expect(try db.execute(overW([n, .qualifiedColumn(source: "q", name: "v")])).rows == [[5, .null, .null]])
  }

  /// Relational fuzzer, seed 0xC0FFEE6D, case 542,054: a join ordered by its rowids under LIMIT 1.
  /// SQLite's loops deliver that order and stop after the first row, so the EXISTS of the other
  /// rows, whose `sum()` overflows, is never computed. The SQLite backend wrote the join as a
  /// subquery computing every row's columns, sorted outside, and failed.
  @Test(arguments: BackendKind.allCases)
  func aJoinUnderLimitComputesNoColumnOfTheRowsPastIt(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE o (x INTEGER)")
    try db.execute(sql: "CREATE TABLE k (ref REAL)")
    try db.execute(sql: "INSERT INTO o VALUES (-328), (-9223372036854775807)")
    try db.execute(sql: "INSERT INTO k VALUES (-328), (-176.25)")
    let sum = SelectStatement(
      table: "o", columns: [.aggregate(.sum, .column("x"), distinct: false)],
      filter: .binary(.less, .qualifiedColumn(source: "o", name: "x"), .qualifiedColumn(source: "k", name: "ref")))
    var select = SelectStatement(
      table: "o", joins: [JoinClause(.inner, table: "k")], columns: [.exists(sum, negated: false)],
      orderBy: [OrderingTerm(.qualifiedRowid(source: "o")), OrderingTerm(.qualifiedRowid(source: "k"))],
      limit: .literal(1))
    #expect(try db.execute(.select(select)).rows == [[1]])
    // Without the LIMIT every row's EXISTS is computed, and the second row's sum overflows.
    select.limit = nil
    let failure = try #require(throws: TandemError.self) { try db.execute(.select(select)) }
    #expect(failure.signature == .sqlite(code: 1, message: "integer overflow"))
  }

  /// 0xC0FFEE75 case 1,996: the rowid — and an INTEGER PRIMARY KEY, which SQLite resolves to the
  /// rowid — has no collation, so a compound's column it leads compares with a later member's
  /// COLLATE NOCASE ('a%' before 'NULL'). The memory engine gave it BINARY. A column of a
  /// subquery in FROM has BINARY where SQLite keeps the subquery and none where it flattens it:
  /// beside a later member's collation, SQLite's plan decides, and the memory engine refuses.
  @Test(arguments: BackendKind.allCases)
  func aRowidHasNoCollationForACompoundToTake(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE kids (x TEXT NOT NULL, e INTEGER PRIMARY KEY); CREATE TABLE o (y REAL);
      INSERT INTO o VALUES ('NULL'), ('a%')
      """)
    let rowidLed = [
      "SELECT e, x FROM kids UNION SELECT y COLLATE NOCASE, y FROM o",
      "SELECT o.rowid, y FROM o WHERE 0 UNION SELECT y COLLATE NOCASE, y FROM o",
      "SELECT +e, x FROM kids UNION SELECT y COLLATE NOCASE, y FROM o ORDER BY 1",
    ]
    for sql in rowidLed {
      #expect(try db.values(sql: sql) == [["a%", "a%"], ["NULL", "NULL"]], "\(sql)")
    }
    // A declared column compares as BINARY.
    #expect(try db.values(sql: "SELECT x FROM kids UNION SELECT y COLLATE NOCASE FROM o") == [["NULL"], ["a%"]])
    let flattened = "SELECT e FROM (SELECT e FROM kids) UNION SELECT y COLLATE NOCASE FROM o"
    let kept = "SELECT e FROM (SELECT e FROM kids LIMIT 5) UNION SELECT y COLLATE NOCASE FROM o"
    let sqliteAnswers: [[[SqliteValue]]] = [[["a%"], ["NULL"]], [["NULL"], ["a%"]]]
    for (sql, expected) in zip([flattened, kept], sqliteAnswers) {
      if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: sql) }) {
        #expect(rows == expected, "\(sql)")
      }
    }
    // Without a later collation the subquery's column is answered.
    #expect(try db.values(sql: "SELECT e FROM (SELECT e FROM kids) UNION SELECT y FROM o") == [["NULL"], ["a%"]])
  }

  /// 0xC0FFEE75 case 146,668: a join ordered by its sources' rowids is delivered in order by
  /// SQLite's loops, which skip the OFFSET's rows before computing their result columns: the
  /// overflowing sum below never runs, and SQLite returns no row. The memory engine sorts, and
  /// computed it. Whether SQLite's loops deliver the order is its plan's choice: with LIMIT or
  /// OFFSET, an error on a join's row is refused; without them every row is computed and the
  /// error is reported on every engine.
  @Test(arguments: BackendKind.allCases)
  func aJoinsOffsetRowsAreSkippedBeforeTheirColumnsAreComputed(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE m (e INTEGER NOT NULL); CREATE TABLE g (id INTEGER PRIMARY KEY);
      INSERT INTO m VALUES (354); INSERT INTO g VALUES (9223372036853775807), (9223372036853775808)
      """)
    let overflowing = "SELECT (SELECT sum(id) FROM g) FROM m JOIN g ORDER BY m.rowid, g.rowid"
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.values(sql: overflowing + " LIMIT -1 OFFSET 2") }) {
      #expect(rows.isEmpty)
    }
    let error = try #require(throws: TandemError.self) { try db.values(sql: overflowing) }
    #expect(error.signature == .sqlite(code: 1, message: "integer overflow"))
  }

  /// 0xC0FFEE75 case 748,125: SQLite plans a LEFT JOIN as an inner join when a later inner join's
  /// ON clause rejects its row of NULLs, also from inside an AND (`m.a AND g.y = g2.y`), and may
  /// then reorder it. The SQLite backend, which pins the visiting order of a join whose answer
  /// depends on it (here a bare column beside an aggregate), wrote that LEFT JOIN as written:
  /// SQLite scanned `m` first and showed another row than the memory engine's FROM order.
  @Test(arguments: BackendKind.allCases)
  func aLeftJoinAnInnerJoinsAndRejectsIsPinnedAsTheInnerJoinSQLitePlans(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE g (y INTEGER PRIMARY KEY, a REAL); CREATE TABLE m (ref INTEGER, a BLOB);
      INSERT INTO g (y) VALUES (489), (-1); INSERT INTO m VALUES (489, 1e308), (-1, 9007199254740992)
      """)
    let (g, g2) = (SQLExpression.qualifiedColumn(source: "g", name: "y"), SQLExpression.qualifiedColumn(source: "g2", name: "y"))
    let select = SelectStatement(
      table: "g",
      joins: [
        JoinClause(.left, table: "m", on: .binary(.greaterOrEqual, g, .qualifiedColumn(source: "m", name: "ref"))),
        JoinClause(.inner, table: "g", alias: "g2", on: .binary(.and, .qualifiedColumn(source: "m", name: "a"), .binary(.equal, g, g2))),
      ],
      columns: [
        .exists(
          SelectStatement(
            table: "g", alias: "x", columns: [.literal(1)],
            filter: .binary(.less, .qualifiedColumn(source: "x", name: "y"), .qualifiedRowid(source: "g2"))),
          negated: false),
        .qualifiedRowid(source: "m"), .aggregate(.total, .qualifiedColumn(source: "g", name: "a"), distinct: false),
      ])
    // In FROM order, each source in rowid order, the first row is (g -1, m 2, g2 -1), which
    // the bare columns show: no g below -1.
    #expect(try db.execute(.select(select)).rows == [[0, 2, 0.0]])
  }
}
