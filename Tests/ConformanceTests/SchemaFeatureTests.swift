import Foundation
import Tandem
import Testing

/// Schemas built at run time: AUTOINCREMENT keys, composite unique indexes, defaults, and the
/// rowid alias's conversions.
@Suite struct SchemaFeatureTests {
  @Test(arguments: BackendKind.allCases)
  func autoincrementNeverReusesKeys(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("counters", columns: [.column("id", .integer, primaryKey: .autoincrement), .column("v", .text)]))
    func insert(_ v: String, id: Int64? = nil) throws -> Int64 {
      if let id {
        return try db.insertRaw(into: "counters", columns: ["id", "v"], values: [.integer(id), .text(v)]).lastInsertRowid
      }
      return try db.insertRaw(into: "counters", columns: ["v"], values: [.text(v)]).lastInsertRowid
    }
    #expect(try insert("a") == 1)
    #expect(try insert("b") == 2)
    try db.execute(.delete(DeleteStatement(table: "counters", filter: .binary(.equal, .column("id"), .literal(2)))))
    #expect(try insert("c") == 3)
    #expect(try insert("d", id: 10) == 10)
    try db.execute(.delete(DeleteStatement(table: "counters", filter: .binary(.equal, .column("id"), .literal(10)))))
    #expect(try insert("e") == 11)
    try db.execute(.delete(DeleteStatement(table: "counters")))
    #expect(try insert("f") == 12)
  }

  @Test(arguments: BackendKind.allCases)
  func plainIntegerKeysRestartWhenTheTableIsEmptied(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert([Reminder(id: 7, title: "a"), Reminder(id: 8, title: "b")])
    try db.delete(Reminder.all)
    #expect(try db.insert(Reminder.Draft(title: "c")).id == 1)
  }

  @Test(arguments: BackendKind.allCases)
  func compositeUniqueIndex(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema(
        "pairs", columns: [.column("a", .null(.integer)), .column("b", .null(.text))],
        indexes: [.index(on: ["a", "b"], unique: true)]))
    // NULLs never conflict in a unique index.
    for values: [SqliteValue] in [[1, nil], [1, nil], [1, "x"], [2, "x"]] {
      try db.insertRaw(into: "pairs", columns: ["a", "b"], values: values)
    }
    let error = try #require(throws: TandemError.self) {
      try db.insertRaw(into: "pairs", columns: ["a", "b"], values: [1, "x"])
    }
    #expect(
      error.signature == .constraint(.unique, table: "pairs", columns: ["a", "b"], message: "UNIQUE constraint failed: pairs.a, pairs.b"))
    // The unique index compares after affinity: '2' in the INTEGER column is 2.
    #expect(throws: TandemError.self) { try db.insertRaw(into: "pairs", columns: ["a", "b"], values: ["2", "x"]) }
    #expect(try db.storedRows(of: "pairs", columns: ["a", "b"]) == [[1, nil], [1, nil], [1, "x"], [2, "x"]])
  }

  @Test(arguments: BackendKind.allCases)
  func firstFailingConstraintIsReported(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Account.self)
    try db.insert(Account(id: 1, email: "a@example.com"))
    // Key and email both conflict: the INTEGER PRIMARY KEY is checked first.
    let both = try #require(throws: TandemError.self) { try db.insert(Account(id: 1, email: "a@example.com")) }
    #expect(both.constraint == .primaryKey)
    // NOT NULL is checked before uniqueness.
    let notNull = try #require(throws: TandemError.self) {
      try db.insertRaw(into: "accounts", columns: ["id", "email", "name"], values: [1, "a@example.com", nil])
    }
    #expect(notNull.signature == .constraint(.notNull, table: "accounts", columns: ["name"], message: "NOT NULL constraint failed: accounts.name"))
  }

  @Test(arguments: BackendKind.allCases)
  func replaceFillsNotNullColumnsFromTheirDefaults(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    // With OR REPLACE, a NULL for a NOT NULL column that has a default takes the default.
    try db.execute(
      .insert(
        InsertStatement(
          table: "items", columns: ["id", "name", "stock", "price"], rows: [[.literal(1), .literal(nil), .literal(nil), .literal(1.5)]],
          conflict: .replace)))
    #expect(try db.fetchAll(Item.all) == [Item(id: 1, name: "", stock: 0, price: 1.5)])
    // With OR IGNORE the row is skipped.
    try db.execute(
      .insert(InsertStatement(table: "items", columns: ["id", "name"], rows: [[.literal(2), .literal(nil)]], conflict: .ignore)))
    #expect(try db.fetchCount(Item.all) == 1)
  }

  @Test(arguments: BackendKind.allCases)
  func integerPrimaryKeyConvertsOrRejects(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insertRaw(into: "reminders", columns: ["id", "title"], values: ["5", "text key"])
    try db.insertRaw(into: "reminders", columns: ["id", "title"], values: [2.0, "real key"])
    try db.insertRaw(into: "reminders", columns: ["id", "title"], values: [" 7 ", "spaced key"])
    #expect(try db.fetchAll(Reminder.all.select { $0.id }) == [2, 5, 7])
    for key: SqliteValue in ["abc", 2.5, .blob(Data([1]))] {
      let error = try #require(throws: TandemError.self) {
        try db.insertRaw(into: "reminders", columns: ["id", "title"], values: [key, "bad key"])
      }
      // SQLite's "datatype mismatch" (code 20), as the docs class it: the rowid alias's datatype.
      #expect(error.signature == .constraint(.datatype, table: "reminders", columns: ["id"], message: "datatype mismatch"))
    }
    #expect(try db.fetchCount(Reminder.all) == 3)
  }

  @Test(arguments: BackendKind.allCases)
  func dropAndRecreate(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert(Reminder(id: 1, title: "old"))
    try db.drop(Reminder.self)
    try db.create(Reminder.self)
    #expect(try db.fetchCount(Reminder.all) == 0)
    try db.insert(Reminder(id: 1, title: "new"))
    #expect(try db.fetchAll(Reminder.all.select { $0.title }) == ["new"])
  }
}
