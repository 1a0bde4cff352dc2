import Foundation
import Tandem
import Testing

// The code samples of Docs/Queries.md, run on every backend. The guide's tables are the suite's
// `Reminder` and `Item` (Tables/Reminder.swift, Tables/Item.swift).

@Suite struct QueriesGuideTests {
  /// The guide's setup sample, on `kind`.
  static func guideDatabase(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert([
      Reminder(id: 1, title: "Milk", priority: .high),
      Reminder(id: 2, title: "Eggs", isCompleted: true),
      Reminder(id: 3, title: "Bread", dueDate: Date(timeIntervalSince1970: 1_700_000_000), priority: .low),
    ])
    try db.create(Item.self)
    try db.insert([
      Item(id: 1, name: "apple", stock: 5, reorderLevel: 10, price: 1.5),
      Item(id: 2, name: "banana", stock: 20, reorderLevel: 10, price: 0.25, discount: 10),
    ])
    return db
  }

  @Test(arguments: BackendKind.allCases)
  func fetching(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    let all = try db.fetchAll(Reminder.all)
    let milk = try db.fetchOne(Reminder.where { $0.title == "Milk" })
    let open = try db.fetchCount(Reminder.where { !$0.isCompleted })
    let bread = try db.find(Reminder.self, key: 3)
    #expect(all.map(\.id) == [1, 2, 3])
    #expect(milk?.id == 1)
    #expect(open == 2)
    #expect(bread?.title == "Bread")
  }

  @Test(arguments: BackendKind.allCases)
  func filtering(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    #expect(try db.fetchAll(Item.where { $0.stock < 10 }).map(\.id) == [1])
    #expect(try db.fetchAll(Item.where { $0.stock < $0.reorderLevel }).map(\.id) == [1])
    #expect(try db.fetchAll(Item.where { $0.reorderLevel == $0.discount }).map(\.name) == ["banana"])
    #expect(try db.fetchAll(Item.where { $0.price >= 1.5 && $0.name != "date" }).map(\.id) == [1])
    #expect(try db.fetchAll(Reminder.where { !$0.isCompleted || $0.priority == .high }).map(\.id) == [1, 3])
    #expect(try db.fetchAll(Reminder.where { $0.title == "Milk" }.where { $0.id > 0 }).map(\.id) == [1])
  }

  @Test(arguments: BackendKind.allCases)
  func nilAndNullLogic(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    func titles(_ query: Select<Reminder, Reminder>) throws -> [String] { try db.fetchAll(query).map(\.title) }
    #expect(try titles(Reminder.where { $0.dueDate == nil }) == ["Milk", "Eggs"])
    #expect(try titles(Reminder.where { $0.priority != nil }) == ["Milk", "Bread"])
    #expect(try titles(Reminder.where { $0.priority.isNull() }) == ["Eggs"])
    #expect(try titles(Reminder.where { $0.priority != .high }) == ["Bread"])
    #expect(try titles(Reminder.where { $0.priority.isNot(.high) }) == ["Eggs", "Bread"])
    #expect(try db.fetchAll(Reminder.all.select { TypedExpression<Bool?>($0.priority == .high) }) == [true, nil, false])
  }

  @Test(arguments: BackendKind.allCases)
  func setsRangesAndText(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    func titles(_ query: Select<Reminder, Reminder>) throws -> [String] { try db.fetchAll(query).map(\.title) }
    #expect(try titles(Reminder.where { $0.id.in([1, 3]) }) == ["Milk", "Bread"])
    #expect(try titles(Reminder.where { $0.priority.notIn([.high]) }) == ["Bread"])
    #expect(try titles(Reminder.where { $0.id.notIn([]) }) == ["Milk", "Eggs", "Bread"])
    #expect(try db.fetchAll(Item.where { $0.stock.between(5, and: 10) }).map(\.id) == [1])
    #expect(try db.fetchAll(Item.where { $0.stock.in([$0.reorderLevel, $0.reorderLevel * 2]) }).map(\.name) == ["banana"])
    #expect(try db.fetchAll(Item.where { $0.stock.between($0.reorderLevel - 5, and: $0.reorderLevel) }).map(\.name) == ["apple"])
    #expect(try db.fetchAll(Item.where { $0.discount.is($0.reorderLevel) }).map(\.name) == ["banana"])

    #expect(try titles(Reminder.where { $0.title.like("%MILK%") }) == ["Milk"])
    #expect(try titles(Reminder.where { $0.title.like("100!%", escape: "!") }) == [])
    #expect(try titles(Reminder.where { $0.title.glob("B*") }) == ["Bread"])
    #expect(try titles(Reminder.where { $0.title.collate(.nocase) == "milk" }) == ["Milk"])
  }

  @Test(arguments: BackendKind.allCases)
  func expressionsAndFunctions(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    #expect(try db.fetchAll(Reminder.all.select { $0.title.upper() }) == ["MILK", "EGGS", "BREAD"])
    #expect(try db.fetchAll(Reminder.all.select { $0.priority ?? .medium }) == [.high, .medium, .low] as [Priority])
    #expect(
      try db.fetchAll(Reminder.all.select { Case<String>(else: "later").when($0.priority == .high, then: "now") })
        == ["now", "later", "later"])
    #expect(try db.fetchAll(Reminder.all.select { $0.title + "!" }) == ["Milk!", "Eggs!", "Bread!"])
    #expect(try db.fetchAll(Item.all.select { ($0.price * 2).round(1) }) == [3.0, 0.5])
    #expect(try db.fetchAll(Item.all.select { $0.stock / 0 }) == [nil, nil] as [Int?])
    #expect(try db.fetchAll(Item.all.select { 100 - $0.stock }) == [95, 80])
    #expect(try db.fetchAll(Item.all.select { TypedExpression<Int?>($0.stock) + $0.discount }) == [nil, 30])
    let halfDiscounts: [Int?] = try db.fetchAll(Item.all.select { $0.discount / 2 })
    #expect(halfDiscounts == [nil, 5])
    #expect(try db.fetchAll(Item.all.select { least($0.stock, $0.reorderLevel + 1) }) == [5, 11])
    #expect(try db.fetchAll(Item.all.select { greatest($0.stock, 8) }) == [8, 20])
    #expect(try db.fetchAll(Item.all.select { Case(else: $0.stock).when($0.discount != nil, then: 0) }) == [5, 0])
    let constants = try db.fetchAll(Item.all.select { ($0.name, TypedExpression.constant(1)) })
    #expect(constants.map(\.0) == ["apple", "banana"])
    #expect(constants.map(\.1) == [1, 1])

    // Integer overflow becomes REAL.
    try db.update(Item.where { $0.id == 1 }) { $0.set(\.stock, to: .max) }
    #expect(try db.fetchAll(Item.where { $0.id == 1 }.select { ($0.stock + 1).cast(as: .real, to: Double.self) }) == [9.223372036854776e18])
    let error = try #require(throws: TandemError.self) { try db.fetchAll(Item.where { $0.id == 1 }.select { $0.stock + 1 }) }
    #expect(error.kind == .decodingFailure)
  }

  @Test(arguments: BackendKind.allCases)
  func ordering(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    func titles(_ query: Select<Reminder, Reminder>) throws -> [String] { try db.fetchAll(query).map(\.title) }
    #expect(try titles(Reminder.order { $0.title }) == ["Bread", "Eggs", "Milk"])
    #expect(try titles(Reminder.order { ($0.isCompleted, $0.dueDate.desc(nulls: .last)) }) == ["Bread", "Milk", "Eggs"])
    #expect(try titles(Reminder.order { $0.priority.desc() }) == ["Milk", "Bread", "Eggs"])
    #expect(try titles(Reminder.order { $0.title.collate(.nocase) }) == ["Bread", "Eggs", "Milk"])

    #expect(try titles(Reminder.order { $0.title }.limit(2)) == ["Bread", "Eggs"])
    #expect(try titles(Reminder.order { $0.title }.limit(2, offset: 1)) == ["Eggs", "Milk"])
    #expect(try db.fetchAll(Reminder.all.select { $0.isCompleted }.distinct()) == [false, true])

    let page = Reminder.order { $0.title }.limit(2, offset: Parameter("start"))
    #expect(try db.fetchAll(page, parameters: ["start": 2]).map(\.title) == ["Milk"])
    let sized = Reminder.order { $0.title }.limit(Parameter("size"), offset: Parameter("start"))
    #expect(try db.fetchAll(sized, parameters: ["size": 1, "start": 1]).map(\.title) == ["Eggs"])
    let fraction = try #require(throws: TandemError.self) { try db.fetchAll(sized, parameters: ["size": 2.5, "start": 0]) }
    #expect(fraction.signature == .sqlite(code: 20, message: "datatype mismatch"))
  }

  @Test(arguments: BackendKind.allCases)
  func deterministicOrder(_ kind: BackendKind) throws {
    let fresh = try makeDatabase(kind)
    try fresh.create(Reminder.self)
    for id in [5, 1, 3] { try fresh.insert(Reminder(id: id)) }
    #expect(try fresh.fetchAll(Reminder.all.select { $0.id }) == [1, 3, 5])
    #expect(Reminder.order { $0.isCompleted }.statement.orderBy == [OrderingTerm(.column("is_completed")), OrderingTerm(.rowid)])
  }

  @Test(arguments: BackendKind.allCases)
  func projections(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    let titles: [String] = try db.fetchAll(Reminder.all.select { $0.title })
    let pairs: [(Int, String)] = try db.fetchAll(Reminder.all.select { ($0.id, $0.title) })
    let due: [Date?] = try db.fetchAll(Reminder.where { $0.id == 3 }.select { $0.dueDate })
    #expect(titles == ["Milk", "Eggs", "Bread"])
    #expect(pairs.map(\.0) == [1, 2, 3])
    #expect(pairs.map(\.1) == titles)
    #expect(due == [Date(timeIntervalSince1970: 1_700_000_000)])
    let nothing = try #require(throws: TandemError.self) { try db.fetchAll(Reminder.all.select { _ in }) }
    #expect(nothing.kind == .misuse)
  }

  @Test(arguments: BackendKind.allCases)
  func aggregatesAndGrouping(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    let stock = try db.fetchAll(Item.all.select { $0.stock.sum() })
    let none = try db.fetchAll(Item.where { $0.id < 0 }.select { ($0.stock.sum(), $0.stock.total()) })
    #expect(stock == [25])
    #expect(none.count == 1)
    #expect(none.first?.0 == nil)
    #expect(none.first?.1 == 0.0)

    let perPriority = Reminder.group { $0.priority }
      .select { ($0.priority, .count()) }
    let busy = Reminder.group { $0.priority }
      .having { _ in .count() > 1 }
      .select { $0.priority }
    let groups = try db.fetchAll(perPriority)
    #expect(groups.map(\.0) == [nil, .low, .high])
    #expect(groups.map(\.1) == [1, 1, 1])
    #expect(try db.fetchAll(busy) == [] as [Priority?])
    try db.insert(Reminder(id: 4, title: "Tea", priority: .low))
    #expect(try db.fetchAll(busy) == [.low] as [Priority?])
  }

  @Test(arguments: BackendKind.allCases)
  func insertingAndUpserting(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    #expect(try db.insert(Reminder(id: 4, title: "Tea")) == 4)
    let jam = try db.insert(Reminder.Draft(title: "Jam"))
    #expect(jam.id == 5)
    try db.insert([Reminder(id: 6, title: "Rice"), Reminder(id: 7, title: "Salt")])
    try db.insert(Reminder(id: 1, title: "Oat milk"), onConflict: .replace)
    try db.insert(Reminder(id: 2, title: "Ignored"), onConflict: .ignore)
    #expect(
      try db.fetchAll(Reminder.all.select { $0.title }) == ["Oat milk", "Eggs", "Bread", "Tea", "Jam", "Rice", "Salt"])

    try db.upsert(Reminder(id: 1, title: "Oat milk", priority: .high))
    try db.upsert(Reminder(id: 8, title: "Flour"))
    #expect(try db.find(Reminder.self, key: 1) == Reminder(id: 1, title: "Oat milk", priority: .high))
    #expect(try db.find(Reminder.self, key: 8) == Reminder(id: 8, title: "Flour"))

    #expect(throws: TandemError.self) {
      try db.insert([Reminder(id: 9, title: "New"), Reminder(id: 1, title: "Duplicate")])
    }
    #expect(try db.find(Reminder.self, key: 9) == nil)
  }

  @Test(arguments: BackendKind.allCases)
  func updatingAndDeleting(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    if var eggs = try db.find(Reminder.self, key: 2) {
      eggs.title = "Duck eggs"
      #expect(try db.update(eggs))
    }
    #expect(try db.update(Reminder.where { $0.priority == nil }) { $0.set(\.priority, to: .low) } == 1)
    #expect(try db.update(Item.all) { $0.set(\.stock, to: $0.stock + 1) } == 2)
    #expect(try db.fetchAll(Reminder.all.select { $0.title }) == ["Milk", "Duck eggs", "Bread"])
    #expect(try db.fetchAll(Reminder.all.select { $0.priority }) == [.high, .low, .low] as [Priority?])
    #expect(try db.fetchAll(Item.all.select { $0.stock }) == [6, 21])
    #expect(try db.update(Item.all) { $0.set(\.discount, to: $0.reorderLevel) } == 2)
    #expect(try db.fetchAll(Item.all.select { $0.discount }) == [10, 10])

    // Assignments read the row as it was before the statement.
    try db.update(Item.all) {
      $0.set(\.stock, to: $0.reorderLevel)
      $0.set(\.reorderLevel, to: $0.stock)
    }
    #expect(try db.fetchAll(Item.all.select { ($0.stock, $0.reorderLevel) }).map { [$0.0, $0.1] } == [[10, 6], [10, 21]])

    if let milk = try db.find(Reminder.self, key: 1) {
      #expect(try db.delete(milk))
      #expect(try db.delete(milk) == false)
    }
    #expect(try db.delete(Reminder.where { $0.isCompleted }) == 1)
    #expect(try db.delete(Reminder.all) == 1)
    #expect(try db.fetchCount(Reminder.all) == 0)

    // An update that sets nothing, or sets a value with no stored form, is refused.
    let nothing = try #require(throws: TandemError.self) { try db.update(Item.all) { _ in } }
    #expect(nothing.signature == .misuse("update of items sets no column"))
    let nan = try #require(throws: TandemError.self) { try db.update(Item.all) { $0.set(\.price, to: .nan) } }
    #expect(nan.kind == .encodingFailure)
    #expect(try db.fetchAll(Item.all.select { $0.price }) == [1.5, 0.25])
  }

  @Test(arguments: BackendKind.allCases)
  func namedParameters(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    let byTitle = Reminder.where { $0.title == Parameter<String>("title") }
    #expect(try db.fetchAll(byTitle, parameters: ["title": "Milk"]).map(\.id) == [1])
    #expect(try db.fetchAll(byTitle, parameters: ["title": "Eggs"]).map(\.id) == [2])
    let error = try #require(throws: TandemError.self) { try db.fetchAll(byTitle) }
    #expect(error.kind == .misuse)
  }

  @Test(arguments: BackendKind.allCases)
  func transactions(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    try db.transaction { db in
      try db.insert(Reminder(id: 10, title: "Coffee"))
      try db.update(Reminder.where { $0.id == 1 }) { $0.set(\.isCompleted, to: true) }
    }
    #expect(try db.find(Reminder.self, key: 10)?.title == "Coffee")
    #expect(try db.find(Reminder.self, key: 1)?.isCompleted == true)

    try db.transaction { db in
      try db.insert(Reminder(id: 11, title: "Kept"))
      try? db.transaction { db in
        try db.insert(Reminder(id: 12, title: "Undone"))
        throw CancellationError()
      }
    }
    #expect(try db.find(Reminder.self, key: 11)?.title == "Kept")
    #expect(try db.find(Reminder.self, key: 12) == nil)

    #expect(throws: CancellationError.self) {
      try db.transaction { db in
        try db.insert(Reminder(id: 13, title: "Rolled back"))
        throw CancellationError()
      }
    }
    #expect(try db.find(Reminder.self, key: 13) == nil)
  }

  /// "Opening a file": the three openings, and the errors the list names.
  @Test func openingAFile() throws {
    let path = TemporaryDatabaseFiles.newPath()
    let db = try Database(.sqlite(path: path))
    let patient = try Database(.sqlite(path: path), configuration: .init(busyTimeout: .seconds(30)))
    try db.create(Reminder.self)
    try patient.insert(Reminder(id: 1, title: "Milk"))
    let reader = try Database(.sqlite(path: path), configuration: .init(readOnly: true))
    #expect(try reader.fetchAll(Reminder.all.select { $0.title }) == ["Milk"])
    let write = try #require(throws: TandemError.self) { try reader.insert(Reminder(id: 2, title: "Eggs")) }
    #expect(write.kind == .sqlite && write.sqliteCode == 8 && write.message == "attempt to write a readonly database")
    for refused in ["", ":memory:", "file::memory:"] {
      #expect(throws: TandemError.self) { try Database(.sqlite(path: refused)) }
    }
    let missing = TemporaryDatabaseFiles.newPath() + "/app.sqlite"
    let open = try #require(throws: TandemError.self) { try Database(.sqlite(path: missing)) }
    #expect(open.message == "unable to open database file: \(missing)")
  }

  @Test(arguments: BackendKind.allCases)
  func errors(_ kind: BackendKind) throws {
    let db = try Self.guideDatabase(kind)
    var caught = false
    do {
      try db.insert(Reminder(id: 1, title: "Duplicate"))
    } catch let error as TandemError where error.kind == .constraintViolation {
      caught = true
      #expect(error.constraint == .primaryKey)
      #expect(error.table == "reminders")
      #expect(error.columns == ["id"])
      #expect(error.message == "UNIQUE constraint failed: reminders.id")
    }
    #expect(caught)

    try db.insertRaw(
      into: "items", columns: ["id", "name", "stock", "reorderLevel", "price"], values: [3, "cherry", "many", 0, 0.0])
    let decoding = try #require(throws: TandemError.self) { try db.fetchAll(Item.all) }
    #expect(decoding.kind == .decodingFailure)
    #expect("\(decoding)" == "decoding failure: cannot decode Int from a text value in column items.stock (result row 2, rowid 3)")
    #expect(decoding.value == .text("many") && decoding.rowIndex == 2 && decoding.primaryKey == [3])

    try db.create(TodoList.self)
    try db.create(TodoItem.self)
    let orphan = try #require(throws: TandemError.self) { try db.insert(TodoItem(id: 4, listID: 99, title: "Lost")) }
    #expect(
      orphan.signature
        == .constraint(.foreignKey, table: "todos", columns: ["listID"], message: "FOREIGN KEY constraint failed"))
  }

  @Test(arguments: BackendKind.allCases)
  func joinsAndSubqueries(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let open = try db.fetchAll(
      WorkTask.join(WorkList.self) { $0.listID == $1.id }
        .where { task, list in !task.isDone && list.name != "Old" }
        .order { task, list in (list.name, task.title) }
        .select { task, list in (task.title, list.name) })
    #expect(open.map(\.0) == ["Bread", "Call", "Report"])

    let pairs = try db.fetchAll(WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID }.select { ($0, $1) })
    #expect(pairs.last?.1 == nil)
    let sameRows = try db.fetchAll(WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID })
    #expect(sameRows.map { "\($0.0.id):\($0.1?.id ?? 0)" } == pairs.map { "\($0.0.id):\($0.1?.id ?? 0)" })
    let homeTasks = try db.fetchCount(WorkTask.join(WorkList.self) { $0.listID == $1.id }.where { _, l in l.name == "Home" })
    #expect(homeTasks == 2)

    let counts = try db.fetchAll(
      WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID }
        .group { list, _ in list.id }
        .select { list, task in (list.name, task.id.count()) })
    #expect(counts.map(\.1) == [2, 2, 1, 0])

    let busy = try db.fetchAll(
      WorkList.where { list in WorkTask.where { $0.listID == list.id && $0.estimate > 1.0 }.exists() })
    #expect(busy.map(\.name) == ["Work"])
    let firstTitles = try db.fetchAll(
      WorkList.all.select { list in
        (list.name, WorkTask.where { $0.listID == list.id }.order { $0.title }.select { $0.title }.value())
      })
    #expect(firstTitles.map(\.1) == ["Bread", "Call", "Archive", nil])
    let archived = WorkList.where { $0.isArchived }.select { $0.id }
    try db.delete(WorkTask.where { $0.listID.in(archived) })
    #expect(try db.fetchCount(WorkTask.all) == 4)

    let names = try db.fetchAll(WorkList.all.select { $0.name }.union(WorkTask.all.select { $0.title }))
    #expect(names.first == "Bread")
    let unused = try db.fetchAll(WorkList.all.select { $0.id }.except(WorkTask.all.select { $0.listID }))
    #expect(unused == [3, 4])

    let upToFive = try db.fetchAll(
      ListNumber.all.select { $0.n }.withRecursive(
        ListNumber.self, start: WorkList.where { $0.id == 1 }.select { $0.id },
        step: ListNumber.where { $0.n < 5 }.select { $0.n + 1 }))
    #expect(upToFive == [1, 2, 3, 4, 5])
  }
}
