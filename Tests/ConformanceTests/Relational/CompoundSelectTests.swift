import Tandem
import Testing

/// UNION, UNION ALL, INTERSECT and EXCEPT on every engine, ordered by their result columns.
@Suite struct CompoundSelectTests {
  @Test(arguments: BackendKind.allCases)
  func unionKeepsDistinctRowsInOrder(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let names = WorkList.all.select { $0.name }.union(WorkTask.where { $0.listID == 2 }.select { $0.title })
    #expect(try db.fetchAll(names) == ["Call", "Empty", "Home", "Old", "Report", "Work"])
    let lists = WorkList.all.select { $0.id }.union(WorkTask.all.select { $0.listID })
    #expect(try db.fetchAll(lists) == [1, 2, 3, 4])
  }

  @Test(arguments: BackendKind.allCases)
  func unionAllKeepsEveryRow(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let ids = WorkList.where { $0.id < 3 }.select { $0.id }.unionAll(WorkTask.all.select { $0.listID })
    #expect(try db.fetchAll(ids) == [1, 1, 1, 2, 2, 2, 3])
    #expect(try db.fetchAll(ids.limit(3, offset: 2)) == [1, 2, 2])
  }

  @Test(arguments: BackendKind.allCases)
  func intersectAndExcept(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let lists = WorkList.all.select { $0.id }
    let used = WorkTask.all.select { $0.listID }
    #expect(try db.fetchAll(lists.intersect(used)) == [1, 2, 3])
    #expect(try db.fetchAll(lists.except(used)) == [4])
  }

  @Test(arguments: BackendKind.allCases)
  func compoundOfSeveralColumnsAndNulls(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let query = WorkTask.where { $0.listID == 2 }.select { ($0.title, $0.estimate) }
      .unionAll(WorkTask.where { $0.listID == 1 }.select { ($0.title, $0.estimate) })
    let rows = try db.fetchAll(query)
    #expect(rows.map(\.0) == ["Bread", "Call", "Milk", "Report"])
    #expect(rows.map(\.1) == [nil, 0.5, nil, 2.5])
  }

  @Test(arguments: BackendKind.allCases)
  func compoundAsSubquery(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let chosen = WorkList.where { $0.isArchived }.select { $0.id }.union(WorkList.where { $0.name == "Home" }.select { $0.id })
    #expect(try db.fetchAll(WorkTask.where { $0.listID.in(chosen) }).map(\.id) == [2, 4, 5])
  }

  @Test(arguments: BackendKind.allCases)
  func memberWithItsOwnOrderIsMisuse(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let ordered = WorkList.order { $0.name }.select { $0.id }.union(WorkTask.all.select { $0.listID })
    let error = try #require(throws: TandemError.self) { try db.fetchAll(ordered) }
    #expect(error.kind == .misuse)
  }

  @Test(arguments: BackendKind.allCases)
  func rowsEqualButStoredDifferentlyAreRefusedByTheMemoryEngine(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    // Task 4's estimate is the REAL 1.0 and task 2's listID the INTEGER 1: they compare equal,
    // and SQLite keeps one of them by how it codes the UNION.
    let query = WorkTask.where { $0.id == 4 }.select { $0.estimate }
      .union(WorkTask.where { $0.id == 2 }.select { TypedExpression<Double?>($0.listID.expression) })
    switch kind {
    case .memory, .tandem:
      let error = try #require(throws: TandemError.self) { try db.execute(.select(query.statement), parameters: [:]) }
      // Tandem mode reports the memory engine's refusal as a divergence from SQLite's answer.
      #expect(error.kind == (kind == .memory ? .unsupported : .divergence))
    case .sqliteFile, .sqliteInMemory:
      #expect(try db.rows(query).count == 1)
    }
  }

  /// 0xC0FFEE55 (the first campaign generating compounds), cases 41, 82, 266, 374 and 541:
  /// SQLite walks a compound from its last member to its first, expanding every FROM clause
  /// before it resolves any name, so the error it reports is the rightmost member's missing
  /// table, else the rightmost member's bad name. The memory engine compiled the members left
  /// to right and reported the first member's.
  @Test(arguments: BackendKind.allCases)
  func aCompoundReportsTheErrorOfItsRightmostMember(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    func failure(_ sql: String) throws -> TandemError.Signature {
      try #require(throws: TandemError.self, "\(sql)") { try db.values(sql: sql) }.signature
    }
    #expect(try failure("SELECT x1 FROM workLists UNION SELECT x2 FROM workTasks") == .sqlite(code: 1, message: "no such column: x2"))
    #expect(
      try failure("SELECT x1 FROM workLists UNION SELECT id FROM workLists UNION ALL SELECT x3 FROM workTasks")
        == .sqlite(code: 1, message: "no such column: x3"))
    #expect(try failure("SELECT id FROM nowhere1 UNION SELECT x2 FROM workTasks") == .sqlite(code: 1, message: "no such table: nowhere1"))
    #expect(try failure("SELECT x1 FROM workLists EXCEPT SELECT id FROM nowhere2") == .sqlite(code: 1, message: "no such table: nowhere2"))
    #expect(
      try failure("SELECT id FROM workLists WHERE id IN (SELECT x1 FROM workTasks INTERSECT SELECT x2 FROM workTasks)")
        == .sqlite(code: 1, message: "no such column: x2"))
    // The query model, as the typed API and the fuzzer hand it over.
    var first = SelectStatement(table: "workLists", columns: [.column("x1")])
    first.compound = [CompoundTerm(.union, SelectStatement(table: "workTasks", columns: [.column("x2")]))]
    let error = try #require(throws: TandemError.self) { try db.execute(.select(first)) }
    #expect(error.signature == .sqlite(code: 1, message: "no such column: x2"))
  }

  /// 0xC0FFEE57 cases 54277, 515312 and 540797: with an ORDER BY, SQLite merges a compound's
  /// members as co-routines and stops one the merge no longer needs — an INTERSECT whose left
  /// member is empty never runs its right one, whose `sum()` would overflow. The memory engine
  /// computed every member and reported the overflow; a member failing under an ORDER BY or a
  /// LIMIT is now refused. Without them SQLite computes every member, and both engines fail.
  @Test(arguments: BackendKind.allCases)
  func aMemberFailingUnderTheCompoundsOrderIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (a INTEGER); CREATE TABLE u (b INTEGER); INSERT INTO u VALUES (9223372036854775807), (1)")
    var intersect = SelectStatement(table: "t", columns: [.column("a")])
    intersect.compound = [CompoundTerm(.intersect, SelectStatement(table: "u", columns: [.aggregate(.sum, .column("b"), distinct: false)]))]
    let error = try #require(throws: TandemError.self) { try db.execute(.select(intersect)) }
    #expect(error.signature == .sqlite(code: 1, message: "integer overflow"))
    intersect.orderBy = [OrderingTerm(.resultColumn(1))]
    if let rows = try kind.answerUnlessMemoryRefuses({ try db.execute(.select(intersect)).rows }) {
      #expect(rows.isEmpty)
    }
  }

  /// 0xC0FFEE57 and 0xC0FFEE58, 19 cases: a member the memory engine refuses (here an aggregate
  /// reading only the query around it) resolves in SQLite, which goes on to the members on its
  /// left and reports their bad name. The engine stopped at the refusal, and the statement went
  /// on to report a later error; the refusal now waits until every member is compiled.
  @Test(arguments: BackendKind.allCases)
  func aRefusedMemberLetsTheErrorOfAMemberOnItsLeftThrough(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE t (a INTEGER); CREATE TABLE u (b INTEGER)")
    var inner = SelectStatement(table: "t", columns: [.qualifiedColumn(source: "v", name: "id")])
    let outerAverage = SQLExpression.aggregate(.avg, .qualifiedColumn(source: "t", name: "a"), distinct: true)
    inner.compound = [CompoundTerm(.intersect, SelectStatement(table: "u", columns: [outerAverage]))]
    let outer = SelectStatement(table: "t", columns: [.exists(inner, negated: false)], filter: .column("nowhere"))
    let error = try #require(throws: TandemError.self) { try db.execute(.select(outer)) }
    #expect(error.signature == .sqlite(code: 1, message: "no such column: v.id"))
  }

  /// 0xC0FFEE64 case 82992: EXISTS and a scalar subquery put LIMIT 1 on a compound, and SQLite
  /// codes a UNION ALL's right member after its left one, skipping it once the limit is reached:
  /// a member whose `sum()` overflows is never run when a member before it has a row. The memory
  /// engine computed every member first and reported the overflow. A UNION computes both sides,
  /// and `IN` reads every row: both engines fail there.
  @Test(arguments: BackendKind.allCases)
  func aUnionAllMemberAfterTheFirstRowIsNotRun(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE u (r INTEGER); INSERT INTO u VALUES (1), (2)")
    let overflowing = "SELECT sum(9223372036854775806) FROM u"
    for (sql, answer) in [
      ("SELECT EXISTS (SELECT 1 FROM u UNION ALL \(overflowing))", 1),
      ("SELECT (SELECT 7 FROM u UNION ALL \(overflowing))", 7),
      ("SELECT EXISTS (SELECT 1 FROM u WHERE 0 UNION ALL SELECT 1 FROM u UNION ALL \(overflowing))", 1),
      ("SELECT count(*) FROM u WHERE EXISTS (SELECT 1 FROM u WHERE r = 2 UNION SELECT 3 UNION ALL \(overflowing))", 2),
    ] {
      #expect(try db.values(sql: sql) == [[.integer(Int64(answer))]], "\(sql)")
    }
    for sql in [
      "SELECT EXISTS (SELECT 1 FROM u UNION \(overflowing))", "SELECT 1 IN (SELECT 1 FROM u UNION ALL \(overflowing))",
      "SELECT EXISTS (SELECT 1 FROM u WHERE 0 UNION ALL \(overflowing))",
    ] {
      let error = try #require(throws: TandemError.self, "\(sql)") { try db.values(sql: sql) }
      #expect(error.signature == .sqlite(code: 1, message: "integer overflow"), "\(sql)")
    }
  }
}
