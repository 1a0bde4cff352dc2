import Tandem
import Testing

/// Table and column names that are SQL keywords, contain quotes, or shadow `rowid`.
@Suite struct IdentifierTests {
  @Test(arguments: BackendKind.allCases)
  func keywordsAndQuotesInNames(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Order.self)
    let orders = [Order(id: 2, group: "b", quoted: 20), Order(id: 1, group: "a", quoted: 30), Order(id: 3, group: "a", quoted: 10)]
    try db.insert(orders)

    #expect(try db.fetchAll(Order.all) == [orders[1], orders[0], orders[2]])
    #expect(try db.fetchAll(Order.where { $0.group == "a" }).map(\.id) == [1, 3])
    #expect(try db.fetchAll(Order.order { $0.quoted }).map(\.id) == [3, 2, 1])
    #expect(try db.fetchAll(Order.group { $0.group }.select { ($0.group, $0.quoted.sum()) }).map(\.1) == [40, 20] as [Int?])
    #expect(
      try db.storedRows(of: "order", columns: ["id", "group", #"a "quoted" name"#]) == [[1, "a", 30], [2, "b", 20], [3, "a", 10]])

    try db.update(Order.where { $0.group == "b" }) { $0.set(\.quoted, to: $0.quoted + 1) }
    try db.upsert(Order(id: 3, group: "c", quoted: 0))
    #expect(try db.fetchAll(Order.all.select { $0.quoted }) == [30, 21, 0])
    #expect(try db.delete(Order.where { $0.group == "c" }) == 1)

    let duplicate = try #require(throws: TandemError.self) { try db.insert(Order(id: 1, group: "x", quoted: 0)) }
    #expect(
      duplicate.signature == .constraint(.primaryKey, table: "order", columns: ["id"], message: "UNIQUE constraint failed: order.id"))
    let missing = try #require(throws: TandemError.self) {
      try db.insertRaw(into: "order", columns: ["id", "group", #"a "quoted" name"#], values: [9, "x", nil])
    }
    #expect(
      missing.signature
        == .constraint(.notNull, table: "order", columns: [#"a "quoted" name"#], message: #"NOT NULL constraint failed: order.a "quoted" name"#))
  }

  @Test(arguments: BackendKind.allCases)
  func asciiIdentifiersAreCaseInsensitive(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("Notes", columns: [.column("id", .integer, primaryKey: true), .column("Title", .text)]))
    let duplicate = try #require(throws: TandemError.self) {
      try db.create(TableSchema("NOTES", columns: [.column("id", .integer, primaryKey: true)]))
    }
    #expect(duplicate.signature == .sqlite(code: 1, message: #"table "NOTES" already exists"#))

    try db.insertRaw(into: "notes", columns: ["TITLE"], values: ["x"])
    let rows = try db.execute(.select(SelectStatement(table: "nOtEs", columns: [.column("title"), .column("ID")]))).rows
    #expect(rows == [["x", 1]])
    // Messages name the table and column as declared.
    let missing = try #require(throws: TandemError.self) {
      try db.insertRaw(into: "notes", columns: ["title"], values: [nil])
    }
    #expect(missing.signature == .constraint(.notNull, table: "Notes", columns: ["Title"], message: "NOT NULL constraint failed: Notes.Title"))

    // Only ASCII letters fold: these are two tables.
    try db.create(TableSchema("Émile", columns: [.column("x", .null(.integer))]))
    try db.create(TableSchema("émile", columns: [.column("x", .null(.integer))]))
    let columns = try #require(throws: TandemError.self) {
      try db.create(TableSchema("t", columns: [.column("a", .null(.integer)), .column("A", .null(.text))]))
    }
    #expect(columns.signature == .sqlite(code: 1, message: "duplicate column name: A"))
  }

  @Test(arguments: BackendKind.allCases)
  func aColumnNamedRowidDoesNotChangeTheRowOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Keyword.self)
    try db.insert([Keyword(key: "b", rowNumber: 30), Keyword(key: "a", rowNumber: 10), Keyword(key: "c", rowNumber: 20)])
    // Without ORDER BY the order is the table's real rowid (insertion order), not the column.
    #expect(try db.fetchAll(Keyword.all.select { $0.key }) == ["b", "a", "c"])
    #expect(try db.fetchAll(Keyword.order { $0.rowNumber }.select { $0.key }) == ["a", "c", "b"])
    #expect(try db.fetchAll(Keyword.where { $0.rowNumber > 15 }.select { $0.key }) == ["b", "c"])
    #expect(try db.find(Keyword.self, key: "c") == Keyword(key: "c", rowNumber: 20))
    try db.update(Keyword(key: "a", rowNumber: 99))
    #expect(try db.fetchAll(Keyword.order { $0.rowNumber.desc() }.select { $0.key }) == ["a", "b", "c"])
  }
}
