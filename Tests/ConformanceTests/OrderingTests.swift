import Tandem
import Testing

/// ORDER BY, the deterministic order Tandem adds, LIMIT/OFFSET and DISTINCT.
@Suite struct OrderingTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)
    return db
  }

  @Test(arguments: BackendKind.allCases)
  func orderAscendingAndDescending(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    #expect(try ids(Item.order { $0.price }) == [2, 1, 3, 4])
    #expect(try ids(Item.order { $0.price.asc() }) == [2, 1, 3, 4])
    #expect(try ids(Item.order { $0.price.desc() }) == [4, 3, 1, 2])
    #expect(try ids(Item.order { $0.name.desc() }) == [4, 3, 2, 1])
    #expect(try ids(Item.order { ($0.reorderLevel, $0.name.desc()) }) == [4, 3, 2, 1])
    #expect(try ids(Item.order { $0.stock - $0.reorderLevel }) == [1, 4, 3, 2])
    #expect(try ids(Item.all.order { $0.reorderLevel.desc() }.order { $0.price }) == [2, 1, 3, 4])
  }

  @Test(arguments: BackendKind.allCases)
  func nullsFirstAndLast(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    // discount: 1 → NULL, 2 → 10, 3 → 0, 4 → NULL.
    #expect(try ids(Item.order { $0.discount }) == [1, 4, 3, 2])
    #expect(try ids(Item.order { $0.discount.desc() }) == [2, 3, 1, 4])
    #expect(try ids(Item.order { $0.discount.asc(nulls: .last) }) == [3, 2, 1, 4])
    #expect(try ids(Item.order { $0.discount.desc(nulls: .first) }) == [1, 4, 2, 3])
    #expect(try ids(Item.order { $0.discount.asc(nulls: .first) }) == [1, 4, 3, 2])
    #expect(try ids(Item.order { $0.discount.desc(nulls: .last) }) == [2, 3, 1, 4])
  }

  @Test(arguments: BackendKind.allCases)
  func tiesAreBrokenByRowid(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    // reorderLevel: 10, 10, 10, 5. Ties keep rowid order in both directions.
    #expect(try ids(Item.order { $0.reorderLevel }) == [4, 1, 2, 3])
    #expect(try ids(Item.order { $0.reorderLevel.desc() }) == [1, 2, 3, 4])
    #expect(try ids(Item.order { $0.discount.isNull() }) == [2, 3, 1, 4])
  }

  @Test(arguments: BackendKind.allCases)
  func withoutOrderRowsComeInRowidOrder(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    for id in [5, 1, 3] { try db.insert(Reminder(id: id, title: "#\(id)")) }
    #expect(try db.fetchAll(Reminder.all).map(\.id) == [1, 3, 5])
    #expect(try db.fetchAll(Reminder.where { $0.id > 1 }.select { $0.title }) == ["#3", "#5"])

    // A unique column does not change the order (SQLite could otherwise scan its index).
    let accounts = try makeDatabase(kind)
    try accounts.create(Account.self)
    try accounts.insert([
      Account(id: 1, email: "c@example.com"), Account(id: 2, email: "a@example.com"),
      Account(id: 3, email: "b@example.com"),
    ])
    #expect(try accounts.fetchAll(Account.all.select { $0.email }) == ["c@example.com", "a@example.com", "b@example.com"])
    #expect(try accounts.fetchAll(Account.where { $0.email > "a" }.select { $0.id }) == [1, 2, 3])
  }

  @Test(arguments: BackendKind.allCases)
  func limitAndOffset(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    let byPrice = Item.order { $0.price }
    #expect(try ids(byPrice.limit(2)) == [2, 1])
    #expect(try ids(byPrice.limit(2, offset: 1)) == [1, 3])
    #expect(try ids(byPrice.limit(10, offset: 3)) == [4])
    #expect(try ids(byPrice.limit(10, offset: 4)) == [])
    #expect(try ids(byPrice.limit(0)) == [])
    // A negative limit means no limit; a negative offset means none.
    #expect(try ids(byPrice.limit(-1, offset: 2)) == [3, 4])
    #expect(try ids(byPrice.limit(2, offset: -3)) == [2, 1])
    #expect(try ids(Item.all.limit(3)) == [1, 2, 3])
    #expect(try db.fetchCount(byPrice.limit(3, offset: 2)) == 2)
    #expect(try db.fetchOne(byPrice.limit(1, offset: 2))?.id == 3)
  }

  @Test(arguments: BackendKind.allCases)
  func limitAndOffsetAsParameters(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let byPrice = Item.order { $0.price }   // 2, 1, 3, 4
    let page = byPrice.limit(Parameter("size"), offset: Parameter("start"))
    #expect(try db.fetchAll(page, parameters: ["size": 2, "start": 0]).map(\.id) == [2, 1])
    #expect(try db.fetchAll(page, parameters: ["size": 2, "start": 2]).map(\.id) == [3, 4])
    #expect(try db.fetchAll(page, parameters: ["size": -1, "start": 1]).map(\.id) == [1, 3, 4])
    #expect(try db.fetchCount(page, parameters: ["size": 10, "start": 3]) == 1)
    #expect(try db.fetchAll(byPrice.limit(Parameter("size")), parameters: ["size": 3]).map(\.id) == [2, 1, 3])
    #expect(try db.fetchAll(byPrice.limit(1, offset: Parameter("start")), parameters: ["start": 3]).map(\.id) == [4])
    #expect(try db.fetchAll(byPrice.limit(Parameter("size"), offset: 1), parameters: ["size": 1]).map(\.id) == [1])
    // Values are taken as SQLite takes them: integral text and reals are integers, NULL or a
    // fraction is a datatype mismatch, and a missing value is a misuse.
    #expect(try db.fetchAll(page, parameters: ["size": "2", "start": 2.0]).map(\.id) == [3, 4])
    let nullSize = try #require(throws: TandemError.self) { try db.fetchAll(page, parameters: ["size": nil, "start": 0]) }
    #expect(nullSize.signature == .sqlite(code: 20, message: "datatype mismatch"))
    let fractionalStart = try #require(throws: TandemError.self) { try db.fetchAll(page, parameters: ["size": 1, "start": 0.5]) }
    #expect(fractionalStart.signature == .sqlite(code: 20, message: "datatype mismatch"))
    let missing = try #require(throws: TandemError.self) { try db.fetchAll(page, parameters: ["size": 1]) }
    #expect(missing.kind == .misuse)
  }

  @Test(arguments: BackendKind.allCases)
  func distinct(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // Distinct results come sorted by their columns.
    #expect(try db.fetchAll(Item.all.select { $0.reorderLevel }.distinct()) == [5, 10])
    #expect(try db.fetchAll(Item.all.select { $0.discount }.distinct()) == [nil, 0, 10])
    #expect(try db.fetchCount(Item.all.select { $0.reorderLevel }.distinct()) == 2)
    #expect(try db.fetchCount(Item.all.select { $0.reorderLevel }) == 4)
    let pairs = try db.fetchAll(Item.all.select { ($0.reorderLevel, $0.discount == nil) }.distinct())
    #expect(pairs.map(\.0) == [5, 10, 10])
    #expect(pairs.map(\.1) == [true, false, true])
    #expect(try db.fetchAll(Item.order { $0.reorderLevel.desc() }.select { $0.reorderLevel }.distinct()) == [10, 5])
    #expect(try db.fetchAll(Item.all.select { $0.reorderLevel }.distinct().distinct(false)) == [10, 10, 10, 5])
  }

  @Test(arguments: BackendKind.allCases)
  func textOrderIsByBytesAndNocaseFoldsASCII(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Word.self)
    let texts = ["b", "B", "a", "A", "_", "c", "é", "É", "e\u{301}"]
    try db.insert(texts.enumerated().map { Word(id: $0.offset + 1, text: $0.element) })
    func ordered(_ query: Select<Word, Word>) throws -> [[UInt8]] { try db.fetchAll(query).map { Array($0.text.utf8) } }
    func bytes(_ list: [String]) -> [[UInt8]] { list.map { Array($0.utf8) } }

    #expect(try ordered(Word.order { $0.text }) == bytes(["A", "B", "_", "a", "b", "c", "e\u{301}", "É", "é"]))
    #expect(try ordered(Word.order { $0.text.collate(.nocase) }) == bytes(["_", "a", "A", "b", "B", "c", "e\u{301}", "É", "é"]))
    #expect(try ordered(Word.order { $0.text.collate(.nocase).desc() }) == bytes(["é", "É", "e\u{301}", "c", "b", "B", "a", "A", "_"]))
    #expect(try ordered(Word.order { $0.text.desc() }) == bytes(["é", "É", "e\u{301}", "c", "b", "a", "_", "B", "A"]))
  }
}
