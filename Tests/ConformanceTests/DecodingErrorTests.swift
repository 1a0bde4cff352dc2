import Foundation
import Tandem
import Testing

/// A stored value the Swift type cannot represent is a typed error naming the table, column,
/// value and type — on every backend — and values that column affinity converts decode fine.
@Suite struct DecodingErrorTests {
  static let itemColumns = ["id", "name", "stock", "reorderLevel", "price", "discount"]

  @Test(arguments: BackendKind.allCases)
  func textInAnIntegerColumn(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insertRaw(into: "items", columns: Self.itemColumns, values: [1, "apple", "many", 10, 1.5, nil])

    let error = try #require(throws: TandemError.self) { try db.fetchAll(Item.all) }
    #expect(error.kind == .decodingFailure)
    #expect(error.table == "items")
    #expect(error.columns == ["stock"])
    #expect(error.value == .text("many"))
    #expect(error.swiftType == "Int")
    // The value stays out of the message; the row is named by position and rowid.
    #expect(error.message == "cannot decode Int from a text value in column items.stock (result row 0, rowid 1)")
    #expect(error.rowIndex == 0)
    #expect(error.primaryKey == [1])

    let columnError = try #require(throws: TandemError.self) { try db.fetchAll(Item.all.select { $0.stock }) }
    #expect(columnError.kind == .decodingFailure)
    #expect(columnError.columns == ["stock"])
    #expect(columnError.value == .text("many"))

    // The other columns still read, and the row can be repaired.
    #expect(try db.fetchAll(Item.all.select { $0.name }) == ["apple"])
    try db.update(Item.all) { $0.set(\.stock, to: 3) }
    #expect(try db.fetchAll(Item.all) == [Item(id: 1, name: "apple", stock: 3, reorderLevel: 10, price: 1.5)])
  }

  @Test(arguments: BackendKind.allCases)
  func valuesOutsideTheSwiftType(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insertRaw(into: "reminders", columns: ["id", "title", "is_completed"], values: [1, "Milk", 2])
    let bool = try #require(throws: TandemError.self) { try db.fetchAll(Reminder.all) }
    #expect(bool.kind == .decodingFailure)
    #expect(bool.table == "reminders")
    #expect(bool.columns == ["is_completed"])
    #expect(bool.value == .integer(2))
    #expect(bool.swiftType == "Bool")

    try db.execute(.delete(DeleteStatement(table: "reminders")))
    try db.insertRaw(into: "reminders", columns: ["id", "title", "priority"], values: [1, "Milk", 9])
    let priority = try #require(throws: TandemError.self) { try db.fetchAll(Reminder.all) }
    #expect(priority.kind == .decodingFailure)
    #expect(priority.columns == ["priority"])
    #expect(priority.value == .integer(9))
    #expect(priority.swiftType?.contains("Priority") == true)

    try db.execute(.delete(DeleteStatement(table: "reminders")))
    try db.insertRaw(into: "reminders", columns: ["id", "title", "dueDate"], values: [1, "Milk", "tomorrow"])
    let date = try #require(throws: TandemError.self) { try db.fetchAll(Reminder.all) }
    #expect(date.columns == ["dueDate"])
    #expect(date.value == .text("tomorrow"))
  }

  @Test(arguments: BackendKind.allCases)
  func columnAffinityConvertsOnStore(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    // Well-formed numeric text becomes a number in INTEGER and REAL columns; numbers become text
    // in TEXT columns; an integral REAL becomes an INTEGER in an INTEGER column.
    try db.insertRaw(into: "items", columns: Self.itemColumns, values: [1, 42, " 12 ", 3.0, "1.5", "7"])
    try db.insertRaw(into: "items", columns: Self.itemColumns, values: [2, 1e20, "1e3", "10", 3, nil])
    #expect(
      try db.storedRows(of: "items", columns: Self.itemColumns)
        == [[1, "42", 12, 3, 1.5, 7], [2, "1.0e+20", 1000, 10, 3.0, nil]])
    #expect(
      try db.fetchAll(Item.all)
        == [
          Item(id: 1, name: "42", stock: 12, reorderLevel: 3, price: 1.5, discount: 7),
          Item(id: 2, name: "1.0e+20", stock: 1000, reorderLevel: 10, price: 3, discount: nil),
        ])

    // Text that is not entirely a number stays text, and then fails to decode.
    try db.insertRaw(into: "items", columns: Self.itemColumns, values: [3, "x", "12abc", 0, "0x10", nil])
    #expect(try db.storedRows(of: "items", columns: ["stock", "price"]).last == ["12abc", "0x10"])
    #expect(throws: TandemError.self) { try db.fetchAll(Item.all) }
  }

  @Test(arguments: BackendKind.allCases)
  func malformedJSON(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Event.self)
    try db.insertRaw(
      into: "events", columns: ["id", "startsAt", "endsAt", "tags", "venue"],
      values: [1, 0, nil, "not json", #"{"name":"Hall","seats":10}"#])
    let error = try #require(throws: TandemError.self) { try db.fetchAll(Event.all) }
    #expect(error.kind == .decodingFailure)
    #expect(error.table == "events")
    #expect(error.columns == ["tags"])
    #expect(error.value == .text("not json"))
  }
}
