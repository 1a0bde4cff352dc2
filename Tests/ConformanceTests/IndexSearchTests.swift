import Foundation
import Tandem
import Testing

/// Queries SQLite answers by searching an index give the same rows on every engine, and search
/// the same way (`queryPlan`), bounds on the rowid after the index's columns included.
@Suite struct IndexSearchTests {
  /// Items with an index on `stock`, ids 1…12, stock cycling 1, 2, 0.
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    var schema = Item.schema
    schema.indexes = [.index(on: ["stock"])]
    try db.create(schema)
    try db.insert((1...12).map { Item(id: $0, name: "item \($0)", stock: $0 % 3) })
    return db
  }

  /// Paging through one value of an indexed column by id: SQLite walks the index entries of
  /// that value from the rowid bound on, since every index entry ends with its rowid.
  @Test(arguments: BackendKind.allCases)
  func pagingByIDWithinAnIndexedValue(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let page = Item.where { $0.stock == 1 && $0.id > 4 }.select { $0.id }
    #expect(try db.fetchAll(page) == [7, 10])
    #expect(try db.queryPlan(for: page) == ["SEARCH items USING COVERING INDEX items_on_stock (stock=? AND rowid>?)"])
    #expect(try db.fetchAll(Item.where { $0.stock == 2 && $0.id < 9 }.select { $0.id }) == [2, 5, 8])
    #expect(try db.fetchAll(Item.where { $0.stock == 0 && $0.id.between(4, and: 9) }.select { $0.id }) == [6, 9])
  }

  /// An UPDATE bounded the same way changes exactly the rows in the bound.
  @Test(arguments: BackendKind.allCases)
  func updateBoundedByIDWithinAnIndexedValue(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.update(Item.where { $0.stock == 1 && $0.id <= 7 }) { $0.set(\.name, to: "restocked") }
    #expect(try db.fetchAll(Item.where { $0.name == "restocked" }.select { $0.id }) == [1, 4, 7])
  }

  /// A grouped query's plan: every engine describes how it reads the table the same way (SQLite
  /// adds the line of its GROUP BY sorter), so tandem mode has nothing to report.
  @Test(arguments: BackendKind.allCases)
  func groupedQueryPlanReadsTheTableAlike(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let grouped = Statement.select(
      SelectStatement(table: "items", columns: [.aggregate(.count, nil, distinct: false)], groupBy: [.column("name")]))
    #expect(try db.queryPlan(for: grouped).first == "SCAN items")
  }

  /// Fuzzer seed 0xC0FFEE34 case 49041: a GLOB whose subject is under COLLATE is no bare column
  /// to SQLite's LIKE optimization, so a prefix that reads as a number ('1…') gets no index
  /// range; a bare TEXT column's does.
  @Test(arguments: BackendKind.allCases)
  func globUnderCollateWithANumericPrefixScans(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("o", columns: [.column("v", .text, primaryKey: true)]))
    func update(_ subject: SQLExpression) -> Statement {
      .update(
        UpdateStatement(
          table: "o", assignments: [Assignment(column: "v", value: .literal("x"))],
          filter: .glob(subject, pattern: .literal("1[0-9]11"), negated: false)))
    }
    #expect(try db.queryPlan(for: update(.collate(.column("v"), .nocase))) == ["SCAN o"])
    #expect(try db.queryPlan(for: update(.column("v"))) == ["SEARCH o USING INDEX sqlite_autoindex_o_1 (v>? AND v<?)"])
  }

  /// Fuzzer seed 0xC0FFEE33 case 54762 (and 0xC0FFEE3A case 894): SQLite first lists a loop by
  /// an automatic index for `e IS -2.5`, never chosen for one table, which the first loop by an
  /// index with an equality replaces in place. With the non-unique `i2` listed before the unique
  /// `u`, that keeps `i2`'s (e=? AND rowid=?) loop, which raises the cost of `u`'s cheaper
  /// (e=?) loop above the rowid lookup's; with `u` listed first, `u` wins.
  @Test(arguments: BackendKind.allCases)
  func anAutomaticIndexLoopDecidesWhichIndexLoopsSurvive(_ kind: BackendKind) throws {
    let select = Statement.select(
      SelectStatement(
        table: "t", columns: [.column("e")],
        filter: .binary(
          .and, .binary(.is, .column("e"), .literal(-2.5)), .inList(.rowid, [.literal(1), .literal(5)], negated: false))))
    for (indexes, plan) in [
      ("CREATE UNIQUE INDEX u ON t (e); CREATE INDEX i2 ON t (e);", "SEARCH t USING INTEGER PRIMARY KEY (rowid=?)"),
      ("CREATE INDEX i2 ON t (e); CREATE UNIQUE INDEX u ON t (e);", "SEARCH t USING COVERING INDEX u (e=? AND rowid=?)"),
    ] {
      let db = try makeDatabase(kind)
      try db.execute(sql: "CREATE TABLE t (e REAL); " + indexes + " INSERT INTO t VALUES (-2.5), (3)")
      #expect(try db.queryPlan(for: select) == [plan], "\(indexes)")
      #expect(try db.values(sql: "SELECT e FROM t WHERE e IS -2.5 AND rowid IN (1, 5)") == [[-2.5]])
    }
  }

  /// Fuzzer seed 0xC0FFEE40 case 963773: an index holding the rowid alias column counts it as
  /// NULL-able, as declared (SQLite's `indexColumnNotNull` reads the column's NOT NULL, not
  /// whether it is the rowid), so `x IS y AND x IS NULL` seeks `y` too, by the equivalence.
  /// The memory engine took the alias for NOT NULL and skipped the key.
  @Test(arguments: BackendKind.allCases)
  func anIsNullReachesTheRowidAliasInAnIndexThroughAnEquivalence(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE d (y INTEGER PRIMARY KEY, ref2 INTEGER)")
    try db.execute(sql: "CREATE INDEX d_i ON d (ref2, y)")
    try db.execute(sql: "INSERT INTO d VALUES (1, NULL), (2, 2), (3, 3)")
    let isNull = SQLExpression.isNull(.column("ref2"), negated: false)
    func select(_ filter: SQLExpression) -> Statement {
      .select(SelectStatement(table: "d", columns: [.column("y")], filter: filter))
    }
    let equivalent = select(.binary(.and, .binary(.is, .column("ref2"), .column("y")), isNull))
    #expect(try db.queryPlan(for: equivalent) == ["SEARCH d USING COVERING INDEX d_i (ref2=? AND y=?)"])
    #expect(try db.values(sql: "SELECT y FROM d WHERE ref2 IS y AND ref2 IS NULL").isEmpty)
    let alone = select(.binary(.and, .binary(.equal, .column("ref2"), .literal(.integer(2))), .isNull(.column("y"), negated: false)))
    #expect(try db.queryPlan(for: alone) == ["SEARCH d USING COVERING INDEX d_i (ref2=?)"])
  }

  /// Fuzzer seed 0xC0FFEE44 case 136570: SQLite seeks `rowid IN (list)` from an ephemeral index
  /// of the list, where a value equal to an earlier one replaces it. The INTEGER -2⁶³ and the
  /// REAL -2⁶³ are equal; when the REAL comes later it is the one sought, and it finds nothing.
  /// The memory engine sought the INTEGER and updated the row.
  @Test(arguments: BackendKind.allCases)
  func aRowidListSeeksTheLaterOfTwoEqualValues(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (x INTEGER PRIMARY KEY, n INTEGER)")
    try db.execute(sql: "INSERT INTO t VALUES (-9223372036854775808, 1), (5, 2)")
    #expect(try db.values(sql: "SELECT n FROM t WHERE x IN (-9223372036854775808, -9.223372036854776e+18)").isEmpty)
    #expect(try db.values(sql: "SELECT n FROM t WHERE x IN (-9.223372036854776e+18, -9223372036854775808)") == [[1]])
    #expect(try db.values(sql: "SELECT n FROM t WHERE x IN ('-9223372036854775808', -9.223372036854776e+18, 5)") == [[2]])
    try db.execute(sql: "UPDATE t SET n = 0 WHERE x IN (-9223372036854775808, -9.223372036854776e+18)")
    #expect(try db.values(sql: "SELECT n FROM t ORDER BY x") == [[1], [2]])
  }

  /// Statement fuzzer seed 0xD1FF004E case 98018: in `b = 792 AND b = X'FF00'` constant
  /// propagation fixes `b` in the first term (SQLite reads the later term first), which becomes
  /// a constant; SQLite still finds the fixed column when it asks whether the term can be tested
  /// on an index alone (`sqlite3ExprCoveredByIndex`), so it counts no saved lookup for a scan of
  /// the primary key's index and scans the table. The memory engine counted the term covered and
  /// scanned the index.
  @Test(arguments: BackendKind.allCases)
  func aTermMadeConstantByPropagationStillNamesItsColumnForAnIndexScan(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (b INTEGER, v TEXT, y REAL PRIMARY KEY)")
    let b = SQLExpression.column("b")
    var select = SelectStatement(
      table: "t", columns: [.literal("%a")],
      filter: .binary(
        .and, .binary(.equal, b, .literal(.integer(792))), .binary(.equal, b, .literal(.blob(Data([0xFF, 0x00]))))))
    select.orderBy = [OrderingTerm(.column("v")), OrderingTerm(.rowid)]
    #expect(try db.queryPlan(for: .select(select)) == ["SCAN t", "USE TEMP B-TREE FOR ORDER BY"])
  }

  /// Statement fuzzer seed 0xD1FF004F case 40731: for one aggregate over DISTINCT values and no
  /// column read outside it, SQLite asks its planner for rows in the order of the aggregate's
  /// argument (`WHERE_DISTINCTBY`). With `b = 'x'` a table scan delivers that order (b is fixed)
  /// and wins over the MULTI-INDEX OR the same WHERE clause gets otherwise; an argument the rows
  /// cannot repeat (the rowid, a NOT NULL column of a UNIQUE index, any column where a UNIQUE
  /// index is fixed by `=`) asks no order. The memory engine planned every such aggregate as if
  /// it asked none.
  @Test(arguments: BackendKind.allCases)
  func oneDistinctAggregateAsksTheLoopForItsArgumentsOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (b TEXT NOT NULL, c INTEGER, u INTEGER UNIQUE, v INTEGER NOT NULL UNIQUE)")
    let multiIndexOr = Self.multiIndexOr("rowid<?", "rowid>?")
    let eitherRowid = SQLExpression.binary(
      .or, .binary(.less, .rowid, .literal(.integer(6))), .binary(.greaterOrEqual, .rowid, .literal(.integer(6))))
    func plan(_ columns: [SQLExpression], fixing fixed: String = "b", having: SQLExpression? = nil) throws -> [String] {
      let value: SqliteValue = fixed == "b" ? .text("x") : .integer(3)
      var select = SelectStatement(
        table: "t", columns: columns,
        filter: .binary(.and, .binary(.equal, .column(fixed), .literal(value)), eitherRowid))
      select.having = having
      return try db.queryPlan(for: .select(select)).filter { !$0.hasPrefix("USE TEMP B-TREE") }
    }
    func distinct(_ column: SQLExpression) -> SQLExpression { .aggregate(.count, column, distinct: true) }
    let b = SQLExpression.column("b")
    #expect(try plan([distinct(b)]) == ["SCAN t"])
    #expect(try plan([distinct(b)], having: .binary(.greater, distinct(b), .literal(.integer(0)))) == ["SCAN t"])
    #expect(try plan([distinct(.column("c"))]) == ["SCAN t"])
    #expect(try plan([distinct(.column("u"))]) == ["SCAN t"])
    // No order asked: the argument cannot repeat, or the aggregate is not alone.
    #expect(try plan([distinct(.column("v"))]) == multiIndexOr)
    #expect(try plan([distinct(.rowid)]) == multiIndexOr)
    #expect(try plan([distinct(b)], fixing: "v") == multiIndexOr)
    #expect(try plan([distinct(b), .column("c")]) == multiIndexOr)
    #expect(try plan([distinct(b), .aggregate(.count, b, distinct: false)]) == multiIndexOr)
  }

  /// Statement fuzzer seed 0xD1FF0050 case 94468: SQLite plans `SELECT DISTINCT cols … ORDER BY
  /// cols` as a GROUP BY of the columns, but an ORDER BY term written with COLLATE gets its
  /// COLLATE put back around the result column it names (`resolveAlias`) and no longer equals
  /// it: the DISTINCT stays, and the rowid makes it redundant, so SQLite takes the MULTI-INDEX OR
  /// where the GROUP BY would scan the table. The memory engine compared the terms without that
  /// second COLLATE and scanned the table.
  @Test(arguments: BackendKind.allCases)
  func anOrderByTermWithCollateKeepsADistinctFromBecomingAGroupBy(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (y INTEGER)")
    let multiIndexOr = Self.multiIndexOr("rowid=?", "rowid<?")
    func plan(_ columns: [SQLExpression], orderBy: [SQLExpression]) throws -> [String] {
      var select = SelectStatement(
        table: "t", columns: columns,
        filter: .binary(
          .or, .binary(.equal, .rowid, .literal(.integer(6))), .binary(.lessOrEqual, .rowid, .literal(.integer(5)))))
      select.distinct = true
      select.orderBy = orderBy.map { OrderingTerm($0) }
      return try db.queryPlan(for: .select(select)).filter { !$0.hasPrefix("USE TEMP B-TREE") }
    }
    let y = SQLExpression.column("y")
    let binaryY = SQLExpression.collate(y, .binary)
    #expect(try plan([binaryY, .rowid], orderBy: [binaryY, .rowid]) == multiIndexOr)
    #expect(try plan([y, .rowid], orderBy: [y, .collate(.rowid, .binary)]) == multiIndexOr)
    // Without COLLATE on a term (or with one inside it), the DISTINCT is a GROUP BY.
    #expect(try plan([y, .rowid], orderBy: [y, .rowid]) == ["SCAN t"])
    let nested = SQLExpression.unary(.plus, binaryY)
    #expect(try plan([nested, .rowid], orderBy: [nested, .rowid]) == ["SCAN t"])
  }

  /// SQLite's plan for a rowid OR of two terms on table `t`, each searched on its own.
  static func multiIndexOr(_ first: String, _ second: String) -> [String] {
    [
      "MULTI-INDEX OR", "  INDEX 1", "    SEARCH t USING INTEGER PRIMARY KEY (\(first))", "  INDEX 2",
      "    SEARCH t USING INTEGER PRIMARY KEY (\(second))",
    ]
  }
}
