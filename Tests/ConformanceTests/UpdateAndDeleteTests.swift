import Foundation
import Tandem
import Testing

@Suite struct UpdateAndDeleteTests {
  @Test(arguments: BackendKind.allCases)
  func updateRecord(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    var milk = Reminder(id: 1, title: "Milk")
    try db.insert(milk)
    milk.title = "Oat milk"
    milk.priority = .medium
    #expect(try db.update(milk))
    #expect(try db.update(Reminder(id: 2, title: "Nobody")) == false)
    #expect(try db.fetchAll(Reminder.all) == [milk])
  }

  @Test(arguments: BackendKind.allCases)
  func updateByQueryWithAssignments(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)

    let restocked = try db.update(Item.where { $0.stock < $0.reorderLevel }) {
      $0.set(\.stock, to: $0.stock + 100)
      $0.set(\.name, to: "restocked")
    }
    #expect(restocked == 2)
    #expect(try db.fetchAll(Item.all.select { $0.stock }) == [105, 20, 10, 100])
    #expect(try db.fetchAll(Item.all.select { $0.name }) == ["restocked", "banana", "cherry", "restocked"])

    // Assignments read the row's values before any assignment of the same statement.
    try db.update(Item.where { $0.id == 2 }) {
      $0.set(\.stock, to: $0.reorderLevel)
      $0.set(\.reorderLevel, to: $0.stock)
    }
    #expect(try db.fetchOne(Item.where { $0.id == 2 }.select { ($0.stock, $0.reorderLevel) }).map { [$0.0, $0.1] } == [10, 20])

    // An optional column takes a non-optional expression.
    #expect(try db.update(Item.where { $0.id >= 3 }) { $0.set(\.discount, to: $0.stock - 1) } == 2)
    #expect(try db.fetchAll(Item.all.select { $0.discount }) == [nil, 10, 9, 99])
    #expect(try db.update(Item.where { $0.id == 1 }) { $0.set(\.discount, to: $0.reorderLevel) } == 1)
    #expect(try db.fetchOne(Item.where { $0.id == 1 }.select { $0.discount }) == Optional(Optional(10)))

    #expect(try db.update(Item.all) { $0.set(\.discount, to: nil) } == 4)
    #expect(try db.fetchCount(Item.where { $0.discount == nil }) == 4)
    #expect(try db.update(Item.where { $0.id > 100 }) { $0.set(\.stock, to: 0) } == 0)
    // Setting a column twice keeps the last assignment.
    try db.update(Item.where { $0.id == 1 }) {
      $0.set(\.price, to: 1)
      $0.set(\.price, to: $0.price * 3)
    }
    #expect(try db.fetchOne(Item.where { $0.id == 1 }.select { $0.price }) == Optional(4.5))
  }

  @Test(arguments: BackendKind.allCases)
  func updateChecksUniquenessRowByRow(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert([Reminder(id: 1, title: "a"), Reminder(id: 2, title: "b"), Reminder(id: 3, title: "c")])
    // The final keys 2, 3, 4 would be unique, but row 1 becomes 2 while row 2 still exists.
    let error = try #require(throws: TandemError.self) {
      try db.update(Reminder.all) { $0.set(\.id, to: $0.id + 1) }
    }
    #expect(
      error.signature
        == .constraint(.primaryKey, table: "reminders", columns: ["id"], message: "UNIQUE constraint failed: reminders.id"))
    #expect(try db.fetchAll(Reminder.all.select { $0.id }) == [1, 2, 3])
    // Downwards, every step is free.
    #expect(try db.update(Reminder.all) { $0.set(\.id, to: $0.id - 1) } == 3)
    #expect(try db.fetchAll(Reminder.all.select { $0.title }) == ["a", "b", "c"])
    #expect(try db.fetchAll(Reminder.all.select { $0.id }) == [0, 1, 2])
  }

  @Test(arguments: BackendKind.allCases)
  func deleteRecordAndByQuery(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)

    #expect(try db.delete(Item.samples[0]))
    #expect(try db.delete(Item.samples[0]) == false)
    #expect(try db.delete(Item.where { $0.discount == nil }) == 1)
    #expect(try db.fetchAll(Item.all) == [Item.samples[1], Item.samples[2]])
    #expect(try db.delete(Item.where { $0.price > 100 }) == 0)
    #expect(try db.delete(Item.all) == 2)
    #expect(try db.fetchAll(Item.all) == [])
  }
}
