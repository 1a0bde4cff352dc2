import Foundation
import Tandem
import Testing

/// Answers that depend on SQLite's query plan, not only on the data: which rows an expression
/// that can fail is ever evaluated on (a rowid or index seek never visits the others), the order
/// an UPDATE visits rows in (and so which error it meets first), and whether a fetch decodes a
/// row before a later row fails. Every engine must give SQLite 3.40's answer, so the memory
/// engine follows SQLite's plan.
///
/// Row 1 of ``PlannedItem/samples`` holds `Int.min`, whose `abs()` is an integer overflow: a
/// statement that evaluates `abs(n)` on that row fails, one whose plan never reaches it does not.
@Suite struct PlanDependentAnswerTests {
  static let overflow = TandemError.Signature.sqlite(code: 1, message: "integer overflow")

  /// The two sample items.
  static func database(_ kind: BackendKind, _ items: [PlannedItem] = PlannedItem.samples) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(PlannedItem.self)
    try db.insert(items)
    return db
  }

  /// The summary of the error `body` throws (`nil`, failing the test, when it throws none).
  static func failure(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> TandemError.Signature? {
    do {
      try body()
      Issue.record("expected an error", sourceLocation: sourceLocation)
      return nil
    } catch let error as TandemError {
      return error.signature
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
      return nil
    }
  }

  // MARK: - Rows SQLite never visits

  @Test(arguments: BackendKind.allCases)
  func rowidRangeSkipsRowsThatWouldOverflow(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // SEARCH items USING INTEGER PRIMARY KEY (rowid>?): row 1 is never read.
    let beyondFirst = PlannedItem.where { $0.n.abs() > 0 && $0.id > 1 }
    #expect(try db.fetchAll(beyondFirst.select { $0.id }) == [2])
    #expect(try db.fetchAll(beyondFirst) == [PlannedItem.samples[1]])
    #expect(try db.fetchCount(beyondFirst) == 1)
    // A range that starts at row 1 evaluates abs() there.
    #expect(Self.failure { _ = try db.fetchAll(PlannedItem.where { $0.n.abs() > 0 && $0.id >= 1 }.select { $0.id }) } == Self.overflow)
    #expect(Self.failure { _ = try db.fetchCount(PlannedItem.where { $0.n.abs() > 0 }) } == Self.overflow)
  }

  @Test(arguments: BackendKind.allCases)
  func rowidRangeWritesSkipRowsThatWouldOverflow(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.update(PlannedItem.where { $0.n.abs() > 0 && $0.id > 1 }) { $0.set(\.s, to: "seen") } == 1)
    #expect(Self.failure { try db.update(PlannedItem.where { $0.n.abs() > 0 && $0.id < 2 }) { $0.set(\.s, to: "seen") } } == Self.overflow)
    #expect(try db.delete(PlannedItem.where { $0.n.abs() > 0 && $0.id > 1 }) == 1)
    #expect(Self.failure { try db.delete(PlannedItem.where { $0.n.abs() > 0 && $0.id <= 1 }) } == Self.overflow)
    #expect(try db.fetchAll(PlannedItem.all) == [PlannedItem.samples[0]])
  }

  @Test(arguments: BackendKind.allCases)
  func maxOfTheRowidReadsOnlyTheLastRow(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // SQLite reads max(rowid) from the end of the table b-tree and stops at the first row the
    // WHERE accepts (plan: SEARCH items), so row 1 is never evaluated; min() starts at row 1.
    #expect(try db.fetchSingle(PlannedItem.where { $0.n.abs() > 0 }.select { $0.id.max() }) == 2)
    #expect(Self.failure { _ = try db.fetchAll(PlannedItem.where { $0.n.abs() > 0 }.select { $0.id.min() }) } == Self.overflow)
    // Another aggregate beside it needs every row.
    #expect(
      Self.failure { _ = try db.fetchAll(PlannedItem.where { $0.n.abs() > 0 }.select { ($0.id.max(), $0.id.count()) }) }
        == Self.overflow)
  }

  @Test(arguments: BackendKind.allCases)
  func notIndexedStillSeeksTheRowid(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // Aggregates and DISTINCT run NOT INDEXED, which forbids indexes but not the rowid seek.
    #expect(try db.fetchSingle(PlannedItem.where { $0.n.abs() > 0 && $0.id > 1 }.select { $0.id.count() }) == 1)
    #expect(try db.fetchAll(PlannedItem.where { $0.n.abs() > 0 && $0.id > 1 }.select { $0.s }.distinct()) == ["y"])
    // The same filter on the UNIQUE column scans every row, row 1 included.
    #expect(
      Self.failure { _ = try db.fetchAll(PlannedItem.where { $0.n.abs() > 0 && $0.code == "z" }.select { $0.id.count() }) }
        == Self.overflow)
    #expect(Self.failure { _ = try db.fetchAll(PlannedItem.where { $0.n.abs() > 0 && $0.code == "z" }.select { $0.s }.distinct()) } == Self.overflow)
  }

  @Test(arguments: BackendKind.allCases)
  func distinctWithTheRowidScansWhereAnOrWouldSeek(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let filtered = PlannedItem.where { $0.n.abs() > 0 && ($0.id > 1 || $0.id == 5) }
    // Run as two rowid searches (MULTI-INDEX OR), the filter never reads row 1.
    #expect(try db.fetchAll(filtered.select { $0.s }.distinct()) == ["y"])
    // SQLite rewrites a DISTINCT ordered by its own columns as a GROUP BY of them; with the rowid
    // among them, a scan of the table already delivers the groups, which SQLite prefers to the
    // OR and a sort: the scan evaluates abs() on row 1.
    #expect(Self.failure { _ = try db.fetchAll(filtered.select { ($0.s, $0.id) }.distinct()) } == Self.overflow)
    #expect(try db.delete(filtered) == 1)
  }

  /// Filters SQLite answers through the automatic index of `code`, never reaching row 1 ('a').
  static let uniqueIndexSeeks: [(name: String, filter: Select<PlannedItem, PlannedItem>, ids: [Int])] = [
    ("code IN ('z', 'q')", PlannedItem.where { $0.n.abs() > 0 && $0.code.in(["z", "q"]) }, [2]),
    ("code = 'z' OR code = 'q'", PlannedItem.where { $0.n.abs() > 0 && ($0.code == "z" || $0.code == "q") }, [2]),
    ("code GLOB 'z*'", PlannedItem.where { $0.n.abs() > 0 && $0.code.glob("z*") }, [2]),
    ("code IS NULL", PlannedItem.where { $0.n.abs() > 0 && $0.code == nil }, []),
  ]

  @Test(arguments: BackendKind.allCases)
  func uniqueIndexSeeksSkipRowsThatWouldOverflow(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    for seek in Self.uniqueIndexSeeks {
      #expect(try db.fetchAll(seek.filter.select { $0.id }) == seek.ids, "\(seek.name)")
      #expect(try db.fetchCount(seek.filter) == seek.ids.count, "\(seek.name)")
    }
    // `code > 'b'` could seek the index too, but the fetch's ORDER BY rowid makes a scan of
    // the table (already in that order) cheaper: SQLite scans, and meets row 1.
    #expect(Self.failure { _ = try db.fetchAll(PlannedItem.where { $0.n.abs() > 0 && $0.code > "b" }.select { $0.id }) } == Self.overflow)
    // Without that ORDER BY (an UPDATE, a DELETE) it seeks.
    #expect(try db.update(PlannedItem.where { $0.n.abs() > 0 && $0.code > "b" }) { $0.set(\.s, to: "seen") } == 1)
  }

  @Test(arguments: BackendKind.allCases)
  func uniqueIndexSeeksInWritesSkipRowsThatWouldOverflow(_ kind: BackendKind) throws {
    for seek in Self.uniqueIndexSeeks + [("code > 'b'", PlannedItem.where { $0.n.abs() > 0 && $0.code > "b" }, [2])] {
      let db = try Self.database(kind)
      #expect(try db.update(seek.filter) { $0.set(\.s, to: "seen") } == seek.ids.count, "\(seek.name)")
      #expect(try db.delete(seek.filter) == seek.ids.count, "\(seek.name)")
      #expect(try db.fetchAll(PlannedItem.all.select { $0.id }) == [1, 2].filter { !seek.ids.contains($0) }, "\(seek.name)")
    }
  }

  // MARK: - The order an UPDATE visits rows in

  @Test(arguments: BackendKind.allCases)
  func updateShiftingUniqueValuesVisitsRowsInKeyIndexOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(RankedTag.self)
    try db.insert([RankedTag(name: "b", rank: 1), RankedTag(name: "a", rank: 2)])
    // `name > ''` walks the primary key's index: 'a' moves from 2 to 3 before 'b' takes 2.
    #expect(try db.update(RankedTag.where { $0.name > "" }) { $0.set(\.rank, to: $0.rank + 1) } == 2)
    #expect(try db.fetchAll(RankedTag.all) == [RankedTag(name: "b", rank: 2), RankedTag(name: "a", rank: 3)])
    // Without a WHERE, SQLite walks the table in rowid order: 'b' meets 'a''s rank first.
    let error = try #require(throws: TandemError.self) {
      try db.update(RankedTag.all) { $0.set(\.rank, to: $0.rank + 1) }
    }
    #expect(error.signature == .constraint(.unique, table: "tags", columns: ["rank"], message: "UNIQUE constraint failed: tags.rank"))
    #expect(try db.fetchAll(RankedTag.all) == [RankedTag(name: "b", rank: 2), RankedTag(name: "a", rank: 3)])
  }

  @Test(arguments: BackendKind.allCases)
  func updateMeetsTheErrorOfTheFirstRowInIndexOrder(_ kind: BackendKind) throws {
    // Codes in the other order than the rowids: the index of `code` reaches row 2 (no `t`) first.
    let items = [
      PlannedItem(id: 1, n: .min, s: "x", t: "ok", code: "z"),
      PlannedItem(id: 2, n: 1, s: "y", t: nil, code: "a"),
    ]
    let db = try Self.database(kind, items)
    func breakBoth(_ query: Select<PlannedItem, PlannedItem>) throws {
      try db.update(query) {
        $0.set(\.n, to: $0.n.abs())
        $0.set(\.s, to: TypedExpression<String>($0.t))
      }
    }
    #expect(
      Self.failure { try breakBoth(PlannedItem.where { $0.code > "A" }) }
        == .constraint(.notNull, table: "items", columns: ["s"], message: "NOT NULL constraint failed: items.s"))
    // In rowid order row 1 comes first, and its abs() overflows.
    #expect(Self.failure { try breakBoth(PlannedItem.all) } == Self.overflow)
    // A MULTI-INDEX OR collects the rowids first and then visits them in rowid order, although
    // its first branch (code = 'a') finds row 2.
    #expect(Self.failure { try breakBoth(PlannedItem.where { $0.code == "a" || $0.id == 1 }) } == Self.overflow)
    #expect(try db.fetchAll(PlannedItem.all) == items)
  }

  /// Tandem mode, seed 0xD1FF004B, case 29,824: a GROUP BY the rowid scan delivers is grouped as
  /// the rows come, a group handed out once the next group's first row passes WHERE, so a LIMIT
  /// stops the scan before a later failing row (and the rows handed out before a failure are the
  /// same on every engine).
  @Test(arguments: BackendKind.allCases)
  func groupsTheScanDeliversStopAtTheLimitBeforeAFailingRow(_ kind: BackendKind) throws {
    func item(_ id: Int, _ n: Int, _ s: String) -> PlannedItem { PlannedItem(id: id, n: n, s: s, t: nil, code: nil) }
    let lastFails = try Self.database(kind, [item(1, 2, "c"), item(2, 3, "b"), item(3, .min, "a")])
    let grouped = PlannedItem.where { $0.n.abs() > 0 }.group { $0.id }
    #expect(try lastFails.fetchAll(grouped.select { $0.id.count() }.limit(1)) == [1])
    // The second group is handed out when the third row comes, whose WHERE fails first.
    #expect(Self.failure { _ = try lastFails.fetchAll(grouped.select { $0.n.max() }.limit(2)) } == Self.overflow)
    // An ORDER BY that does not repeat GROUP BY (here the group's own tie-breaker follows the
    // term) sorts every group: the failing row is met first.
    #expect(Self.failure { _ = try lastFails.fetchAll(grouped.order { $0.id }.select { $0.n.max() }.limit(1)) } == Self.overflow)
    // A descending ORDER BY repeating GROUP BY runs the scan backwards.
    let firstFails = try Self.database(kind, [item(1, .min, "c"), item(2, 2, "b"), item(3, 3, "a")])
    let descending = "SELECT max(n) FROM items WHERE abs(n) > 0 GROUP BY id ORDER BY id DESC LIMIT 1"
    #expect(try firstFails.values(sql: descending) == [[.integer(3)]])
    #expect(Self.failure { _ = try firstFails.fetchAll(grouped.select { $0.n.max() }.limit(1)) } == Self.overflow)
  }

  // MARK: - Which error a fetch reports

  @Test(arguments: BackendKind.allCases)
  func fetchDecodesEachRowBeforeALaterRowFails(_ kind: BackendKind) throws {
    let db = try Self.database(
      kind, [PlannedItem(id: 1, n: 2, s: "b", t: nil, code: "a"), PlannedItem(id: 2, n: .min, s: "a", t: nil, code: "z")])
    // Row 1's n = 2 is no Bool: the fetch fails decoding it before SQLite reaches row 2.
    let decoding = try #require(throws: TandemError.self) {
      try db.fetchAll(PlannedItem.all.select { (TypedExpression<Bool>($0.n), $0.n.abs()) })
    }
    #expect(decoding.kind == .decodingFailure)
    #expect(decoding.value == .integer(2))
    #expect(decoding.swiftType == "Bool")
    #expect(decoding.rowIndex == 0)
    // Read in the order of the index of `code`: the same.
    let indexOrdered = try #require(throws: TandemError.self) {
      try db.fetchAll(PlannedItem.all.select { (TypedExpression<Bool>($0.n), $0.n.abs()) }.order { $0.code })
    }
    #expect(indexOrdered.kind == .decodingFailure)
    // Sorted by `s`, every row's result columns are computed before the first is returned.
    #expect(
      Self.failure { _ = try db.fetchAll(PlannedItem.all.select { (TypedExpression<Bool>($0.n), $0.n.abs()) }.order { $0.s }) }
        == Self.overflow)
  }

  /// Tandem-mode fuzzer 0xD1FF0051 cases 20,791, 21,424, 21,607 and 21,907: SQLite runs
  /// `SELECT DISTINCT cols … ORDER BY cols` as a GROUP BY of the columns, which outputs a group
  /// once the first row of the next has passed WHERE. Item 2's `abs()` overflows before item 1
  /// goes out, so no row is handed over before the error, and a LIMIT 1 does not keep SQLite from
  /// meeting it. The memory engine handed item 1 out at once, and answered the LIMIT 1.
  @Test(arguments: BackendKind.allCases)
  func aDistinctRunAsAGroupByHandsEachRowOutOneLate(_ kind: BackendKind) throws {
    let db = try Self.database(
      kind, [PlannedItem(id: 1, n: 1, s: "a"), PlannedItem(id: 2, n: .min, s: "b"), PlannedItem(id: 3, n: 3, s: "c")])
    let distinct = "SELECT DISTINCT id FROM items WHERE abs(n) > 0 ORDER BY id"
    var handedOver: [Row] = []
    #expect(Self.failure { try db.forEachRow(sql: distinct) { handedOver.append($0) } } == Self.overflow)
    #expect(handedOver.isEmpty)
    #expect(Self.failure { _ = try db.fetchAll(sql: distinct + " LIMIT 1") } == Self.overflow)
    // Without DISTINCT, item 1 goes out before item 2 fails, and LIMIT 1 stops before item 2.
    let plain = "SELECT id FROM items WHERE abs(n) > 0 ORDER BY id"
    #expect(Self.failure { try db.forEachRow(sql: plain) { handedOver.append($0) } } == Self.overflow)
    #expect(handedOver.count == 1)
    #expect(try db.fetchAll(sql: plain + " LIMIT 1").count == 1)
    // Where no row fails, every row goes out, the last at the end.
    #expect(try db.fetchAll(sql: "SELECT DISTINCT id FROM items WHERE n > 0 ORDER BY id").count == 2)
    #expect(try db.fetchAll(sql: "SELECT DISTINCT id FROM items WHERE n > 0 ORDER BY id LIMIT 1 OFFSET 1").count == 1)
  }

  // MARK: - The plans themselves

  /// Statement fuzzer, seed 0xD1FF004A, case 6,468: `X'5876' = d` fixes `d` in `d IS x`, whose
  /// copy commuted to `x IS d` then serves `x`. Looking for a term on `d`, SQLite skips that copy
  /// (its right side is `d` itself) and uses `d = ?`: the search is estimated at one row, and
  /// delivers ORDER BY rowid. The engine used the copy for `d` too, estimated fewer rows, and
  /// planned a sort.
  @Test(arguments: BackendKind.allCases)
  func aTermWhoseRightSideIsTheFixedColumnSoughtDoesNotServeIt(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: #"CREATE TABLE "pairs" ("x" BLOB, "d" BLOB NOT NULL, PRIMARY KEY ("x", "d"))"#)
    let key = SQLExpression.literal(.blob(Data([0x58, 0x76])))
    var statement = SelectStatement(
      table: "pairs", columns: [.rowid],
      filter: .binary(.and, .binary(.is, .column("d"), .column("x")), .binary(.equal, key, .column("d"))))
    statement.orderBy = [OrderingTerm(.rowid)]
    #expect(try db.queryPlan(for: .select(statement)) == ["SEARCH pairs USING COVERING INDEX sqlite_autoindex_pairs_1 (x=? AND d=?)"])
  }

  @Test(arguments: BackendKind.allCases)
  func everyEngineDescribesSQLitesPlan(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(
      try db.queryPlan(for: PlannedItem.where { $0.n.abs() > 0 && $0.id > 1 }.select { $0.id })
        == ["SEARCH items USING INTEGER PRIMARY KEY (rowid>?)"])
    #expect(
      try db.queryPlan(for: PlannedItem.where { $0.n.abs() > 0 && $0.code == nil })
        == ["SEARCH items USING INDEX sqlite_autoindex_items_1 (code=?)"])
    #expect(
      try db.queryPlan(for: PlannedItem.where { $0.n.abs() > 0 && $0.code.in(["z", "q"]) })
        == ["SEARCH items USING INDEX sqlite_autoindex_items_1 (code=?)", "USE TEMP B-TREE FOR ORDER BY"])
    #expect(
      try db.queryPlan(for: PlannedItem.where { $0.n.abs() > 0 && $0.code.glob("z*") })
        == ["SEARCH items USING INDEX sqlite_autoindex_items_1 (code>? AND code<?)", "USE TEMP B-TREE FOR ORDER BY"])
    #expect(try db.queryPlan(for: PlannedItem.where { $0.n.abs() > 0 && $0.code > "b" }) == ["SCAN items"])
    #expect(try db.queryPlan(for: PlannedItem.where { $0.n.abs() > 0 }.select { $0.id.max() }) == ["SEARCH items"])
    let update = try PlannedItem.where { $0.code == "a" || $0.id == 1 }.validatedUpdate { $0.set(\.s, to: "seen") }
    #expect(
      try db.queryPlan(for: .update(update))
        == [
          "MULTI-INDEX OR", "  INDEX 1", "    SEARCH items USING COVERING INDEX sqlite_autoindex_items_1 (code=?)",
          "  INDEX 2", "    SEARCH items USING INTEGER PRIMARY KEY (rowid=?)",
        ])
  }
}
