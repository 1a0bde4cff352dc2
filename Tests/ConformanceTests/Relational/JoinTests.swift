import Tandem
import Testing

/// Joins, subqueries and their typed API, on every engine: the rows SQLite returns, in the
/// deterministic order Tandem gives them.
@Suite struct JoinTests {
  /// Lists Home (1), Work (2), Old (3, archived), Empty (4); tasks in lists 1, 2 and 3.
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(WorkList.self)
    try db.create(WorkTask.self)
    try db.insert([
      WorkList(id: 1, name: "Home"), WorkList(id: 2, name: "Work"), WorkList(id: 3, name: "Old", isArchived: true),
      WorkList(id: 4, name: "Empty"),
    ])
    try db.insert([
      WorkTask(id: 1, listID: 2, title: "Report", estimate: 2.5),
      WorkTask(id: 2, listID: 1, title: "Milk", isDone: true),
      WorkTask(id: 3, listID: 2, title: "Call", estimate: 0.5),
      WorkTask(id: 4, listID: 3, title: "Archive", estimate: 1),
      WorkTask(id: 5, listID: 1, title: "Bread"),
    ])
    return db
  }

  @Test(arguments: BackendKind.allCases)
  func innerJoinWithFilterAndOrder(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let query = WorkTask.join(WorkList.self) { $0.listID == $1.id }
      .where { task, list in !task.isDone && list.name != "Old" }
      .order { task, list in (list.name, task.title) }
      .select { task, list in (task.title, list.name) }
    let rows = try db.fetchAll(query)
    #expect(rows.map { "\($0.0)@\($0.1)" } == ["Bread@Home", "Call@Work", "Report@Work"])
  }

  @Test(arguments: BackendKind.allCases)
  func joinSelectsWholeRecordsInRowidOrder(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let pairs = try db.fetchAll(WorkTask.join(WorkList.self) { $0.listID == $1.id }.select { ($0, $1) })
    // Without ORDER BY: the tasks' rowids, then the lists'.
    #expect(pairs.map(\.0.id) == [1, 2, 3, 4, 5])
    #expect(pairs.map(\.1.name) == ["Work", "Home", "Work", "Old", "Home"])
  }

  /// A join fetched without `select` gives its sources whole, as `select { ($0, $1) }` does;
  /// `fetchOne` and `fetchCount` take it too.
  @Test(arguments: BackendKind.allCases)
  func joinFetchedWithoutSelectGivesItsSourcesWhole(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let join = WorkTask.join(WorkList.self) { $0.listID == $1.id }.where { _, list in list.name != "Old" }
    let pairs = try db.fetchAll(join)
    #expect(pairs.map { "\($0.0.title)@\($0.1.name)" } == ["Report@Work", "Milk@Home", "Call@Work", "Bread@Home"])
    #expect(try db.fetchCount(join) == 4)
    #expect(try db.fetchOne(join.order { task, _ in task.title }).map { "\($0.0.title)@\($0.1.name)" } == "Bread@Home")
    let lists = try db.fetchAll(WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID }.where { list, _ in list.id >= 3 })
    #expect(lists.map { "\($0.0.name):\($0.1?.title ?? "-")" } == ["Old:Archive", "Empty:-"])
    let three = WorkTask.join(WorkList.self) { $0.listID == $1.id }
      .join(WorkTask.self) { _, list, other in other.listID == list.id }
      .where { task, _, other in task.id < other.id }
    let triples = try db.fetchAll(three)
    #expect(triples.map { "\($0.0.id)<\($0.2.id)@\($0.1.name)" } == ["1<3@Work", "2<5@Home"])
    #expect(try db.fetchCount(three) == 2)
    #expect(try db.fetchOne(three.where { _, list, _ in list.id == 4 }) == nil)
  }

  /// SQLite looks the projects up by key and finds each one's tasks through the index on
  /// (projectID, title): project by project, then by title. Without ORDER BY the rows still come in the tasks' rowid order.
  @Test(arguments: BackendKind.allCases)
  func joinPlannedThroughAnIndexComesInRowidOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Project.self)
    try db.create(ProjectTask.self)
    try db.insert([
      Project(id: 1, code: "H", name: "Home"), Project(id: 2, code: "W", name: "Work"), Project(id: 3, code: "O", name: "Old"),
    ])
    try db.insert([
      ProjectTask(id: 1, projectID: 2, title: "Report"), ProjectTask(id: 2, projectID: 1, title: "Milk"),
      ProjectTask(id: 3, projectID: 2, title: "Call"), ProjectTask(id: 4, projectID: 3, title: "Archive"),
      ProjectTask(id: 5, projectID: 1, title: "Bread"),
    ])
    let rows = try db.fetchAll(
      ProjectTask.join(Project.self) { $0.projectID == $1.id }
        .where { _, project in project.id.in([1, 2]) }
        .select { task, project in (task.title, project.name) })
    #expect(rows.map { "\($0.0)@\($0.1)" } == ["Report@Work", "Milk@Home", "Call@Work", "Bread@Home"])
  }

  @Test(arguments: BackendKind.allCases)
  func leftJoinKeepsListsWithoutTasks(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let pairs = try db.fetchAll(WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID }.select { ($0, $1) })
    #expect(pairs.map { "\($0.0.id):\($0.1?.id ?? 0)" } == ["1:2", "1:5", "2:1", "2:3", "3:4", "4:0"])
    let titles = try db.fetchAll(
      WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID }.where { list, _ in list.id == 4 }.select { _, task in task.title })
    #expect(titles == [nil])
  }

  @Test(arguments: BackendKind.allCases)
  func leftJoinConditionInOnVersusWhere(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // In ON, a failed condition keeps the list with NULLs; in WHERE, it drops the row.
    let inOn = try db.fetchAll(
      WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID && $1.isDone == false }
        .select { list, task in (list.id, task.id) })
    #expect(inOn.map { "\($0.0):\($0.1.map(String.init) ?? "-")" } == ["1:5", "2:1", "2:3", "3:4", "4:-"])
    let inWhere = try db.fetchAll(
      WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID }.where { _, task in task.isDone == false }
        .select { list, task in (list.id, task.id) })
    #expect(inWhere.map(\.0) == [1, 2, 2, 3])
  }

  @Test(arguments: BackendKind.allCases)
  func countsPerListWithLeftJoin(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let counts = try db.fetchAll(
      WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID }
        .group { list, _ in list.id }
        .select { list, task in (list.name, task.id.count()) })
    #expect(counts.map { "\($0.0)=\($0.1)" } == ["Home=2", "Work=2", "Old=1", "Empty=0"])
  }

  @Test(arguments: BackendKind.allCases)
  func aggregateOverJoinedColumnsWithHaving(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let totals = try db.fetchAll(
      WorkTask.join(WorkList.self) { $0.listID == $1.id }
        .group { _, list in list.name }
        .having { task, _ in task.id.count() > 1 }
        .select { task, list in (list.name, task.estimate.total()) })
    #expect(totals.map(\.0) == ["Home", "Work"])
    #expect(totals.map(\.1) == [0.0, 3.0])
  }

  @Test(arguments: BackendKind.allCases)
  func selfJoinThroughAliases(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // Pairs of distinct tasks in the same list.
    let pairs = try db.fetchAll(
      WorkTask.join(WorkTask.self) { $0.listID == $1.listID && $0.id < $1.id }
        .select { a, b in (a.title, b.title) })
    #expect(pairs.map { "\($0.0)+\($0.1)" } == ["Report+Call", "Milk+Bread"])
  }

  @Test(arguments: BackendKind.allCases)
  func threeTablesJoined(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let rows = try db.fetchAll(
      WorkTask.join(WorkList.self) { $0.listID == $1.id }
        .join(WorkTask.self) { task, _, other in other.listID == task.listID && other.id != task.id }
        .where { task, list, _ in list.name == "Home" }
        .select { task, _, other in (task.id, other.id) })
    #expect(rows.map { [$0.0, $0.1] } == [[2, 5], [5, 2]])
  }

  @Test(arguments: BackendKind.allCases)
  func existsCorrelatedSubquery(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let lists = try db.fetchAll(
      WorkList.where { list in WorkTask.where { $0.listID == list.id && $0.estimate > 1.0 }.exists() })
    #expect(lists.map(\.name) == ["Work"])
    let without = try db.fetchAll(WorkList.where { list in !WorkTask.where { $0.listID == list.id }.exists() })
    #expect(without.map(\.name) == ["Empty"])
  }

  @Test(arguments: BackendKind.allCases)
  func selfCorrelatedSubqueryTakesAnotherAlias(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // Tasks whose list holds another task: the inner reminders are "workTasks_2".
    let tasks = try db.fetchAll(
      WorkTask.where { task in WorkTask.where { $0.listID == task.listID && $0.id != task.id }.exists() })
    #expect(tasks.map(\.id) == [1, 2, 3, 5])
  }

  @Test(arguments: BackendKind.allCases)
  func inSubqueryAndDeleteWithSubquery(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let archived = WorkList.where { $0.isArchived }.select { $0.id }
    #expect(try db.fetchAll(WorkTask.where { $0.listID.in(archived) }).map(\.id) == [4])
    #expect(try db.fetchAll(WorkTask.where { $0.listID.notIn(archived) }).map(\.id) == [1, 2, 3, 5])
    #expect(try db.delete(WorkTask.where { $0.listID.in(archived) }) == 1)
    #expect(try db.fetchAll(WorkTask.all).map(\.id) == [1, 2, 3, 5])
  }

  @Test(arguments: BackendKind.allCases)
  func notInSubqueryWithNullIsNull(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // estimate holds NULLs: `x NOT IN (…, NULL)` is never true.
    let query = WorkTask.where { $0.estimate.notIn(WorkTask.all.select { $0.estimate }) == false }
    #expect(try db.fetchAll(query).map(\.id) == [1, 3, 4])
  }

  @Test(arguments: BackendKind.allCases)
  func orderFreeAggregatesOverAJoin(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // Grouped by the list's rowid, with its name beside: SQLite may plan the join as it likes.
    let rows = try db.fetchAll(
      WorkList.join(WorkTask.self) { $0.id == $1.listID }
        .group { list, _ in list.id }
        .select { list, task in (list.name, task.id.sum(), task.id.count(), task.title.max()) })
    #expect(rows.map(\.0) == ["Home", "Work", "Old"])
    #expect(rows.map(\.1) == [7, 4, 4])
    #expect(rows.map(\.2) == [2, 2, 1])
    #expect(rows.map(\.3) == ["Milk", "Report", "Archive"])
  }

  @Test(arguments: BackendKind.allCases)
  func integerSumThatOverflowsInSomeOrdersOnlyIsRefusedByTheMemoryEngine(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.create(LedgerEntry.self)
    try db.insert([
      LedgerEntry(id: 1, listID: 1, amount: Int.max), LedgerEntry(id: 2, listID: 1, amount: -1),
      LedgerEntry(id: 3, listID: 1, amount: 1),
    ])
    let query = WorkList.join(LedgerEntry.self) { $0.id == $1.listID }
      .group { list, _ in list.id }
      .select { list, entry in (list.id, entry.amount.sum()) }
    switch kind {
    case .memory, .tandem:
      // SQLite's answer (a sum, or `integer overflow`) depends on the order its plan visits
      // the entries in; the memory engine cannot know that order, so it refuses.
      let error = try #require(throws: TandemError.self) { try db.fetchAll(query) }
      #expect(error.kind == (kind == .memory ? .unsupported : .divergence))
    case .sqliteFile, .sqliteInMemory:
      do {
        #expect(try db.fetchAll(query).map(\.1) == [Int.max])
      } catch let error as TandemError {
        #expect(error.kind == .sqlite)
      }
    }
  }

  /// A join's `column = 'text'` matches exactly the stored TEXT of the same bytes: not a BLOB of
  /// those bytes, not NULL, not text that differs by a space, a case or a normalization, and a
  /// number only where SQLite's comparison converts it. (The memory engine tests such a first
  /// condition on the stored record before decoding it.)
  @Test(arguments: BackendKind.allCases)
  func aTextEqualityInAJoinMatchesExactlyTheSameText(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE owner (id INTEGER PRIMARY KEY); CREATE TABLE named (n TEXT, b BLOB, k INTEGER)")
    try db.execute(sql: "INSERT INTO owner VALUES (1), (2)")
    try db.execute(
      sql: """
        INSERT INTO named VALUES ('x', 'x', 1), (X'78', X'78', 2), (NULL, NULL, 3), ('x ', 'x ', 4), ('X', 'X', 5),
          ('', '', 6), ('é', 'é', 7), ('e\u{301}', 'e\u{301}', 8), (12, 12, 9), ('12', '12', 10)
        """)
    func keys(_ condition: String) throws -> [[SqliteValue]] {
      try db.fetchAll(sql: "SELECT o.id, k FROM owner AS o JOIN named ON \(condition) ORDER BY o.id, named.rowid")
        .map(\.values)
    }
    #expect(try keys("n = 'x'") == [[1, 1], [2, 1]])
    #expect(try keys("b = 'x'") == [[1, 1], [2, 1]])
    #expect(try keys("'' = n") == [[1, 6], [2, 6]])
    #expect(try keys("n = 'é'") == [[1, 7], [2, 7]])
    #expect(try keys("n = '12'") == [[1, 9], [1, 10], [2, 9], [2, 10]])
    #expect(try keys("b = '12'") == [[1, 10], [2, 10]])
    #expect(try keys("n = 'x' AND o.id = 2") == [[2, 1]])
    let left = try db.fetchAll(
      sql: "SELECT o.id, k FROM owner AS o LEFT JOIN named ON n = 'x ' AND o.id = 1 ORDER BY o.id, named.rowid")
    #expect(left.map(\.values) == [[1, 4], [2, nil]])
  }
}
