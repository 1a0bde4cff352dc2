import Tandem
import Testing

/// Constraint violations are reported identically by every backend, and a
/// failed statement leaves the database exactly as it was.
@Suite struct ConstraintErrorTests {
  @Test(arguments: BackendKind.allCases)
  func uniqueColumn(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Account.self)
    try db.insert(Account(id: 1, email: "a@example.com"))
    let error = try #require(throws: TandemError.self) {
      try db.insert(Account(id: 2, email: "a@example.com"))
    }
    #expect(
      error.signature
        == .constraint(.unique, table: "accounts", columns: ["email"], message: "UNIQUE constraint failed: accounts.email"))

    try db.insert(Account(id: 2, email: "b@example.com"))
    let updateError = try #require(throws: TandemError.self) {
      try db.update(Account.where { $0.id == 2 }) { $0.set(\.email, to: "a@example.com") }
    }
    #expect(updateError.signature == error.signature)
    #expect(try db.fetchAll(Account.all) == [Account(id: 1, email: "a@example.com"), Account(id: 2, email: "b@example.com")])
  }

  @Test(arguments: BackendKind.allCases)
  func integerPrimaryKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert(Reminder(id: 1, title: "Milk"))
    let error = try #require(throws: TandemError.self) { try db.insert(Reminder(id: 1, title: "Eggs")) }
    #expect(
      error.signature
        == .constraint(.primaryKey, table: "reminders", columns: ["id"], message: "UNIQUE constraint failed: reminders.id"))
    #expect(try db.fetchAll(Reminder.all) == [Reminder(id: 1, title: "Milk")])
  }

  @Test(arguments: BackendKind.allCases)
  func textPrimaryKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Country.self)
    try db.insert(Country(code: "se", name: "Sweden"))
    let error = try #require(throws: TandemError.self) { try db.insert(Country(code: "se", name: "Sverige")) }
    #expect(
      error.signature
        == .constraint(.primaryKey, table: "countries", columns: ["code"], message: "UNIQUE constraint failed: countries.code"))
    // Keys compare by bytes: "SE" is another key.
    try db.insert(Country(code: "SE", name: "Upper"))
    #expect(try db.fetchAll(Country.all.select { $0.name }) == ["Sweden", "Upper"])
  }

  @Test(arguments: BackendKind.allCases)
  func notNull(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert(Reminder(id: 1, title: "Milk"))
    let error = try #require(throws: TandemError.self) {
      try db.insertRaw(into: "reminders", columns: ["id", "title"], values: [2, nil])
    }
    #expect(
      error.signature
        == .constraint(.notNull, table: "reminders", columns: ["title"], message: "NOT NULL constraint failed: reminders.title"))

    // Columns left out take their defaults; the key is assigned.
    try db.insertRaw(into: "reminders", columns: ["title"], values: ["Eggs"])
    #expect(try db.fetchAll(Reminder.all) == [Reminder(id: 1, title: "Milk"), Reminder(id: 2, title: "Eggs")])

    let updateError = try #require(throws: TandemError.self) {
      try db.execute(.update(UpdateStatement(table: "reminders", assignments: [Assignment(column: "is_completed", value: .literal(.null))])))
    }
    #expect(
      updateError.signature
        == .constraint(.notNull, table: "reminders", columns: ["is_completed"], message: "NOT NULL constraint failed: reminders.is_completed"))
    #expect(try db.fetchAll(Reminder.all.select { $0.isCompleted }) == [false, false])
  }

  @Test(arguments: BackendKind.allCases)
  func notNullWithDefaultStillRejectsAnExplicitNull(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    let error = try #require(throws: TandemError.self) {
      try db.insertRaw(into: "items", columns: ["id", "stock"], values: [1, nil])
    }
    #expect(
      error.signature == .constraint(.notNull, table: "items", columns: ["stock"], message: "NOT NULL constraint failed: items.stock"))
    // INSERT OR IGNORE skips such a row silently.
    try db.execute(.insert(InsertStatement(table: "items", columns: ["id", "stock"], rows: [[.literal(1), .literal(.null)]], conflict: .ignore)))
    #expect(try db.fetchCount(Item.all) == 0)
  }

  @Test(arguments: BackendKind.allCases)
  func foreignKeys(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TodoList.self)
    try db.create(TodoItem.self)
    try db.insert([TodoList(id: 1, title: "Groceries"), TodoList(id: 2, title: "Chores")])
    try db.insert([
      TodoItem(id: 1, listID: 1, title: "Milk"), TodoItem(id: 2, listID: 2, title: "Dishes"),
      TodoItem(id: 3, listID: 1, title: "Eggs"),
    ])

    // The written table, and its column in the one foreign key the statement could break.
    let foreignKey = TandemError.Signature.constraint(
      .foreignKey, table: "todos", columns: ["listID"], message: "FOREIGN KEY constraint failed")
    let insertError = try #require(throws: TandemError.self) { try db.insert(TodoItem(id: 4, listID: 99, title: "Lost")) }
    #expect(insertError.signature == foreignKey)
    let updateError = try #require(throws: TandemError.self) {
      try db.update(TodoItem.where { $0.id == 1 }) { $0.set(\.listID, to: 99) }
    }
    #expect(updateError.signature == foreignKey)
    let manyError = try #require(throws: TandemError.self) {
      try db.insert([TodoItem(id: 5, listID: 2, title: "Floor"), TodoItem(id: 6, listID: 3, title: "Nowhere")])
    }
    #expect(manyError.signature == foreignKey)
    #expect(try db.fetchAll(TodoItem.all.select { $0.id }) == [1, 2, 3])

    // ON DELETE CASCADE removes the children with their list.
    #expect(try db.delete(TodoList(id: 1, title: "Groceries")))
    #expect(try db.fetchAll(TodoItem.all) == [TodoItem(id: 2, listID: 2, title: "Dishes")])
    #expect(try db.delete(TodoList.all) == 1)
    #expect(try db.fetchCount(TodoItem.all) == 0)
  }

  @Test(arguments: BackendKind.allCases)
  func failedStatementsInsideATransactionLeaveNoTrace(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Account.self)
    try db.transaction { db in
      try db.insert(Account(id: 1, email: "a@example.com"))
      // The multi-row statement fails on its third row; its first two rows are undone, the
      // transaction goes on.
      let rows: [[SQLExpression]] = [
        [.literal(2), .literal("b@example.com"), .literal("")],
        [.literal(3), .literal("c@example.com"), .literal("")],
        [.literal(4), .literal("a@example.com"), .literal("")],
      ]
      #expect(throws: TandemError.self) {
        try db.execute(.insert(InsertStatement(table: "accounts", columns: ["id", "email", "name"], rows: rows)))
      }
      try db.insert(Account(id: 5, email: "e@example.com"))
    }
    #expect(try db.fetchAll(Account.all.select { $0.id }) == [1, 5])
  }

  @Test(arguments: BackendKind.allCases)
  func sqliteErrors(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    let missing = try #require(throws: TandemError.self) { try db.fetchAll(Reminder.all) }
    #expect(missing.signature == .sqlite(code: 1, message: "no such table: reminders"))
    try db.create(Reminder.self)
    let duplicate = try #require(throws: TandemError.self) { try db.create(Reminder.self) }
    #expect(duplicate.signature == .sqlite(code: 1, message: #"table "reminders" already exists"#))
    try db.create(Reminder.self, ifNotExists: true)
    try db.drop(Reminder.self)
    #expect(throws: TandemError.self) { try db.fetchCount(Reminder.all) }
    try db.drop(Reminder.self, ifExists: true)
  }
}
