import Tandem
import Testing

/// group_concat(x [, separator]) and `NOT INDEXED`, typed and as SQL text, on every engine.
@Suite struct GroupConcatTests {
  /// The `Item` samples, as the aggregate tests use them.
  static func database(_ kind: BackendKind) throws -> Database { try AggregateTests.database(kind) }

  @Test(arguments: BackendKind.allCases)
  func concatenatesInRowidOrder(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.fetchSingle(Item.all.select { $0.name.groupConcat() }) == "apple,banana,cherry,date")
    #expect(try db.fetchSingle(Item.all.select { $0.name.groupConcat(separator: ", ") }) == "apple, banana, cherry, date")
    // NULLs are skipped (no separator for them either); numbers are written as SQLite writes them.
    #expect(try db.fetchSingle(Item.all.select { $0.discount.groupConcat() }) == "10,0")
    #expect(try db.fetchSingle(Item.all.select { $0.price.groupConcat(separator: "|") }) == "1.5|0.25|3.0|12.0")
    #expect(try db.fetchSingle(Item.all.select { $0.reorderLevel.groupConcat(distinct: true) }) == "10,5")
    // No non-NULL value: NULL, an empty string is a value.
    #expect(try db.rows(Item.where { $0.discount == nil }.select { $0.discount.groupConcat() }) == [[nil]])
    #expect(try db.rows(Item.where { $0.id > 100 }.select { $0.name.groupConcat() }) == [[nil]])
    #expect(try db.rows(Item.all.select { $0.name.groupConcat(separator: "") }) == [["applebananacherrydate"]])
  }

  @Test(arguments: BackendKind.allCases)
  func grouped(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let groups = try db.fetchAll(
      Item.group { $0.reorderLevel }.select { ($0.reorderLevel, $0.name.groupConcat(separator: "+")) })
    #expect(groups.map(\.0) == [5, 10])
    #expect(groups.map(\.1) == ["date", "apple+banana+cherry"])
  }

  @Test(arguments: BackendKind.allCases)
  func separatorOfEachRow(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // Each value after the first is preceded by its own row's separator; a NULL one adds nothing.
    let rows = try db.fetchAll(
      sql: "SELECT group_concat(name, CASE id WHEN 2 THEN NULL ELSE id END), group_concat(stock, 0.5) FROM items")
    #expect(rows.map(\.values) == [[.text("applebanana3cherry4date"), .text("50.5200.5100.50")]])
    #expect(try db.values(sql: "SELECT group_concat(DISTINCT reorderLevel) FROM items") == [[.text("10,5")]])
    // Without a FROM, over no row at all, and the separator's collation.
    #expect(try db.fetchAll(sql: "SELECT group_concat(1), group_concat(NULL), group_concat('') ").map(\.values)
      == [[.text("1"), .null, .text("")]])
    #expect(try db.fetchAll(sql: "SELECT group_concat(name, ',' COLLATE NOCASE) = 'APPLE' FROM items WHERE id = 1")
      .map(\.values) == [[.integer(1)]])
  }

  @Test(arguments: BackendKind.allCases)
  func refusedSpellings(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let cases = [
      ("SELECT group_concat(DISTINCT name, ',') FROM items", "DISTINCT aggregates must have exactly one argument"),
      ("SELECT group_concat() FROM items", "wrong number of arguments to function group_concat()"),
      ("SELECT group_concat(name, ',', ';') FROM items", "wrong number of arguments to function group_concat()"),
      ("SELECT group_concat(*) FROM items", "wrong number of arguments to function group_concat()"),
      ("SELECT id FROM items WHERE group_concat(name) = ''", "misuse of aggregate function group_concat()"),
    ]
    for (sql, message) in cases {
      let error = try #require(throws: TandemError.self) { _ = try db.fetchAll(sql: sql) }
      #expect(error.signature == .sqlite(code: 1, message: message), "\(sql)")
    }
  }

  @Test(arguments: BackendKind.allCases)
  func overAJoinInFromOrder(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    // The order values are visited in is the answer: both engines visit the sources in FROM
    // order, each in rowid order.
    let perList = try db.fetchAll(
      WorkList.join(WorkTask.self) { $0.id == $1.listID }
        .group { list, _ in list.id }
        .select { list, task in (list.name, task.title.groupConcat(separator: "/")) })
    #expect(perList.map { "\($0.0)=\($0.1 ?? "-")" } == ["Home=Milk/Bread", "Work=Report/Call", "Old=Archive"])
    let all = try db.fetchSingle(
      WorkTask.join(WorkList.self) { $0.listID == $1.id }.select { _, list in list.name.groupConcat() })
    #expect(all == "Work,Home,Work,Old,Home")
    let withSeparators = try db.fetchSingle(
      WorkTask.join(WorkList.self) { $0.listID == $1.id }.where { task, _ in task.estimate != nil }
        .select { task, list in (list.name + ":" + task.title).groupConcat(separator: "; ") })
    #expect(withSeparators == "Work:Report; Work:Call; Old:Archive")
  }

  @Test(arguments: BackendKind.allCases)
  func notIndexedSources(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    try db.execute(sql: "CREATE INDEX task_by_list ON workTasks(listID)")
    let single = try db.fetchAll(sql: "SELECT title FROM workTasks NOT INDEXED WHERE listID = 2 ORDER BY id")
    #expect(single.map(\.values) == [[.text("Report")], [.text("Call")]])
    // The planner may not use the index: the table is scanned.
    var statement = SelectStatement(
      table: "workTasks", columns: [.column("title")], filter: .binary(.equal, .column("listID"), .literal(.integer(2))))
    #expect(try db.queryPlan(for: .select(statement)) == ["SEARCH workTasks USING INDEX task_by_list (listID=?)"])
    statement.notIndexed = true
    #expect(try db.queryPlan(for: .select(statement)) == ["SCAN workTasks"])
    let joined = try db.fetchAll(
      sql: """
        SELECT l.name, t.title FROM workLists AS l NOT INDEXED JOIN workTasks AS t NOT INDEXED ON t.listID = l.id
        WHERE l.id < 3 ORDER BY t.id
        """)
    #expect(joined.map { $0.values.map { $0.description } }.count == 4)
    #expect(joined.map(\.values).first == [.text("Work"), .text("Report")])
  }
}
