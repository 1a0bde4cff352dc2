import Foundation
import Tandem
import Testing

@Suite struct InsertAndFetchTests {
  static let milk = Reminder(
    id: 1, title: "Milk", dueDate: Date(timeIntervalSince1970: 1_700_000_000.25), priority: .high)
  static let eggs = Reminder(id: 2, title: "Eggs", isCompleted: true)

  @Test(arguments: BackendKind.allCases)
  func insertAndFetch(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    #expect(try db.insert(Self.milk) == 1)
    #expect(try db.insert(Self.eggs) == 2)

    #expect(try db.fetchAll(Reminder.all) == [Self.milk, Self.eggs])
    #expect(try db.fetchOne(Reminder.where { $0.title == "Eggs" }) == Self.eggs)
    #expect(try db.fetchOne(Reminder.where { $0.title == "Bread" }) == nil)
    #expect(try db.fetchOne(Reminder.all) == Self.milk)
    #expect(try db.fetchCount(Reminder.all) == 2)
    #expect(try db.fetchCount(Reminder.where { $0.isCompleted }) == 1)
    #expect(try db.find(Reminder.self, key: 2) == Self.eggs)
    #expect(try db.find(Reminder.self, key: 3) == nil)
  }

  @Test(arguments: BackendKind.allCases)
  func storedValuesUseTheDeclaredRepresentation(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert([Self.milk, Self.eggs])
    let stored = try db.storedRows(
      of: "reminders", columns: ["id", "title", "is_completed", "dueDate", "priority"])
    #expect(stored == [[1, "Milk", 0, "2023-11-14T22:13:20.250Z", 3], [2, "Eggs", 1, nil, nil]])
  }

  @Test(arguments: BackendKind.allCases)
  func selectOneColumnAndTuples(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert([Self.milk, Self.eggs])

    #expect(try db.fetchAll(Reminder.all.select { $0.title }) == ["Milk", "Eggs"])
    #expect(try db.fetchAll(Reminder.all.select { $0.priority }) == [.high, nil] as [Priority?])
    let pairs = try db.fetchAll(Reminder.all.select { ($0.id, $0.title, $0.isCompleted) })
    #expect(pairs.map(\.0) == [1, 2])
    #expect(pairs.map(\.1) == ["Milk", "Eggs"])
    #expect(pairs.map(\.2) == [false, true])
    #expect(try db.fetchOne(Reminder.where { $0.id == 2 }.select { $0.title }) == Optional("Eggs"))
  }

  @Test(arguments: BackendKind.allCases)
  func insertDraftReturnsTheAssignedKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    let milk = try db.insert(Reminder.Draft(title: "Milk"))
    #expect(milk == Reminder(id: 1, title: "Milk"))
    let eggs = try db.insert(Reminder.Draft(title: "Eggs", isCompleted: true))
    #expect(eggs == Reminder(id: 2, title: "Eggs", isCompleted: true))

    // Without AUTOINCREMENT the next key is one more than the largest in use, so a deleted
    // largest key is handed out again.
    #expect(try db.delete(eggs))
    #expect(try db.insert(Reminder.Draft(title: "Bread")).id == 2)
    // A draft may carry its key; later drafts continue after it.
    #expect(try db.insert(Reminder.Draft(id: 10, title: "Tea")).id == 10)
    #expect(try db.insert(Reminder.Draft(title: "Jam")).id == 11)
    #expect(try db.fetchAll(Reminder.all.select { $0.id }) == [1, 2, 10, 11])
  }

  @Test(arguments: BackendKind.allCases)
  func insertManyIsAllOrNone(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert([Self.milk, Self.eggs])
    let error = try #require(throws: TandemError.self) {
      try db.insert([
        Reminder(id: 3, title: "Bread"), Reminder(id: 4, title: "Tea"), Reminder(id: 1, title: "Again"),
      ])
    }
    #expect(
      error.signature
        == .constraint(.primaryKey, table: "reminders", columns: ["id"], message: "UNIQUE constraint failed: reminders.id"))
    #expect(try db.fetchAll(Reminder.all) == [Self.milk, Self.eggs])

    try db.insert([Reminder]())
    #expect(try db.fetchCount(Reminder.all) == 2)
  }

  @Test(arguments: BackendKind.allCases)
  func insertManyRows(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    // More rows than one statement may bind.
    let items = (1...3_000).map { Item(id: $0, name: "item \($0)", stock: $0 % 7, price: Double($0) / 4) }
    try db.insert(items)
    #expect(try db.fetchCount(Item.all) == 3_000)
    #expect(try db.fetchAll(Item.all) == items)
    let sum: Int? = try db.fetchSingle(Item.all.select { $0.stock.sum() })
    #expect(sum == items.map(\.stock).reduce(0, +))
  }

  @Test(arguments: BackendKind.allCases)
  func insertOrReplaceAndIgnore(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert([Self.milk, Self.eggs])

    let oatMilk = Reminder(id: 1, title: "Oat milk")
    #expect(try db.insert(oatMilk, onConflict: .replace) == 1)
    #expect(try db.fetchAll(Reminder.all) == [oatMilk, Self.eggs])

    // An ignored row inserts nothing, so no rowid is reported.
    #expect(try db.insert(Reminder(id: 2, title: "Duck eggs"), onConflict: .ignore) == 0)
    #expect(try db.insert(Reminder(id: 3, title: "Bread"), onConflict: .ignore) == 3)
    #expect(try db.fetchAll(Reminder.all.select { $0.title }) == ["Oat milk", "Eggs", "Bread"])

    try db.insert([Reminder(id: 2, title: "A"), Reminder(id: 4, title: "B")], onConflict: .ignore)
    #expect(try db.fetchAll(Reminder.all.select { $0.title }) == ["Oat milk", "Eggs", "Bread", "B"])
  }

  @Test(arguments: BackendKind.allCases)
  func replaceDeletesEveryConflictingRow(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Account.self)
    try db.insert([Account(id: 1, email: "a@example.com"), Account(id: 2, email: "b@example.com")])

    // Conflicts with row 1 on the unique email: row 1 goes, row 3 comes.
    try db.insert(Account(id: 3, email: "a@example.com", name: "new"), onConflict: .replace)
    #expect(
      try db.fetchAll(Account.all)
        == [Account(id: 2, email: "b@example.com"), Account(id: 3, email: "a@example.com", name: "new")])

    // Conflicts with row 2 on the key and with row 3 on the email: both go.
    try db.insert(Account(id: 2, email: "a@example.com", name: "both"), onConflict: .replace)
    #expect(try db.fetchAll(Account.all) == [Account(id: 2, email: "a@example.com", name: "both")])

    try db.insert(Account(id: 9, email: "a@example.com"), onConflict: .ignore)
    #expect(try db.fetchCount(Account.all) == 1)
  }

  @Test(arguments: BackendKind.allCases)
  func upsertInsertsOrUpdates(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert(Self.milk)
    try db.upsert(Reminder(id: 1, title: "Oat milk", isCompleted: true))
    try db.upsert(Reminder(id: 2, title: "Eggs", priority: .low))
    #expect(
      try db.fetchAll(Reminder.all)
        == [Reminder(id: 1, title: "Oat milk", isCompleted: true), Reminder(id: 2, title: "Eggs", priority: .low)])
  }

  @Test(arguments: BackendKind.allCases)
  func upsertOfAKeyOnlyTableDoesNothingOnConflict(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Tag.self)
    try db.upsert(Tag(name: "swift"))
    try db.upsert(Tag(name: "sql"))
    try db.upsert(Tag(name: "swift"))
    #expect(try db.fetchAll(Tag.all) == [Tag(name: "swift"), Tag(name: "sql")])
  }

  @Test(arguments: BackendKind.allCases)
  func upsertFailsOnAnotherUniqueColumn(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Account.self)
    try db.insert([Account(id: 1, email: "a@example.com"), Account(id: 2, email: "b@example.com")])
    let error = try #require(throws: TandemError.self) {
      try db.upsert(Account(id: 2, email: "a@example.com"))
    }
    #expect(
      error.signature
        == .constraint(.unique, table: "accounts", columns: ["email"], message: "UNIQUE constraint failed: accounts.email"))
    #expect(try db.fetchAll(Account.all.select { $0.email }) == ["a@example.com", "b@example.com"])
  }

  @Test(arguments: BackendKind.allCases)
  func textPrimaryKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Country.self)
    #expect(try db.insert(Country(code: "se", name: "Sweden")) == 1)
    #expect(try db.insert(Country(code: "de", name: "Germany")) == 2)
    #expect(try db.insert(Country(code: "fr", name: "France")) == 3)
    #expect(try db.find(Country.self, key: "de") == Country(code: "de", name: "Germany"))
    #expect(try db.find(Country.self, key: "DE") == nil)

    // Rows come in rowid (insertion) order, not key order.
    #expect(try db.fetchAll(Country.all.select { $0.code }) == ["se", "de", "fr"])
    // An upsert updates in place; a replace deletes and inserts, so the row gets a new rowid.
    try db.upsert(Country(code: "se", name: "Sverige"))
    #expect(try db.fetchAll(Country.all.select { $0.code }) == ["se", "de", "fr"])
    try db.insert(Country(code: "de", name: "Deutschland"), onConflict: .replace)
    #expect(try db.fetchAll(Country.all.select { $0.code }) == ["se", "fr", "de"])
    #expect(try db.fetchAll(Country.all.select { $0.name }) == ["Sverige", "France", "Deutschland"])

    var france = Country(code: "fr", name: "France")
    france.name = "République française"
    #expect(try db.update(france))
    #expect(try db.delete(Country(code: "se")))
    #expect(try db.delete(Country(code: "se")) == false)
    #expect(try db.fetchAll(Country.all) == [france, Country(code: "de", name: "Deutschland")])
  }

  /// `find` runs `WHERE key = ?` without `LIMIT 1` (a key matches at most one row), so over a
  /// table whose stored form does not enforce the key — one created by other code, without the
  /// `PRIMARY KEY` the Swift type declares — it returns the first match, in rowid order, and
  /// reads no further record: the second one would not decode.
  @Test(arguments: BackendKind.allCases)
  func findOverATableThatDoesNotEnforceTheKeyReturnsTheFirstMatch(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: #"CREATE TABLE "\#(Word.tableName)" ("id" INTEGER, "text" TEXT, "note" TEXT)"#)
    try db.execute(sql: #"INSERT INTO "\#(Word.tableName)" VALUES (7, 'first', NULL), (7, NULL, NULL), (8, 'other', NULL)"#)
    #expect(try db.find(Word.self, key: 7) == Word(id: 7, text: "first"))
    #expect(try db.find(Word.self, key: 8)?.text == "other")
    #expect(try db.find(Word.self, key: 9) == nil)
  }
}
