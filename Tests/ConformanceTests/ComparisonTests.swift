import Tandem
import Testing

/// `== != < <= > >=`, `IS`, NULL tests, IN and BETWEEN, with SQL's NULL semantics.
@Suite struct ComparisonTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)
    return db
  }

  @Test(arguments: BackendKind.allCases)
  func comparisonWithValues(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    #expect(try ids(Item.where { $0.stock == 10 }) == [3])
    #expect(try ids(Item.where { $0.stock != 10 }) == [1, 2, 4])
    #expect(try ids(Item.where { $0.stock < 10 }) == [1, 4])
    #expect(try ids(Item.where { $0.stock <= 10 }) == [1, 3, 4])
    #expect(try ids(Item.where { $0.stock > 10 }) == [2])
    #expect(try ids(Item.where { $0.stock >= 10 }) == [2, 3])
    #expect(try ids(Item.where { $0.price > 1 }) == [1, 3, 4])
    #expect(try ids(Item.where { $0.price == 3 }) == [3])
    #expect(try ids(Item.where { $0.name == "apple" }) == [1])
    #expect(try ids(Item.where { $0.name == "Apple" }) == [])
    #expect(try ids(Item.where { $0.name < "c" }) == [1, 2])
  }

  @Test(arguments: BackendKind.allCases)
  func comparisonOfTwoColumns(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    #expect(try ids(Item.where { $0.stock == $0.reorderLevel }) == [3])
    #expect(try ids(Item.where { $0.stock != $0.reorderLevel }) == [1, 2, 4])
    #expect(try ids(Item.where { $0.stock < $0.reorderLevel }) == [1, 4])
    #expect(try ids(Item.where { $0.stock <= $0.reorderLevel }) == [1, 3, 4])
    #expect(try ids(Item.where { $0.stock > $0.reorderLevel }) == [2])
    #expect(try ids(Item.where { $0.stock >= $0.reorderLevel }) == [2, 3])
    #expect(try ids(Item.where { $0.discount == $0.discount }) == [2, 3])
  }

  @Test(arguments: BackendKind.allCases)
  func comparisonWithNull(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    // `== nil` is IS NULL, never `= NULL` (which is never true).
    #expect(try ids(Item.where { $0.discount == nil }) == [1, 4])
    #expect(try ids(Item.where { $0.discount != nil }) == [2, 3])
    #expect(try ids(Item.where { $0.discount.isNull() }) == [1, 4])
    #expect(try ids(Item.where { $0.discount.isNotNull() }) == [2, 3])
    // A comparison with a NULL column value is NULL: the row is not selected either way.
    #expect(try ids(Item.where { $0.discount == 10 }) == [2])
    #expect(try ids(Item.where { $0.discount != 10 }) == [3])
    #expect(try ids(Item.where { $0.discount < 5 }) == [3])
    #expect(try ids(Item.where { !($0.discount < 5) }) == [2])
    // IS / IS NOT treat NULL as a value.
    #expect(try ids(Item.where { $0.discount.is(nil) }) == [1, 4])
    #expect(try ids(Item.where { $0.discount.is(10) }) == [2])
    #expect(try ids(Item.where { $0.discount.isNot(10) }) == [1, 3, 4])
    #expect(try ids(Item.where { $0.discount.isNot(nil) }) == [2, 3])

    let comparisons = try db.rows(Item.all.select { ($0.discount > 5, $0.discount == nil, $0.discount.is(0)) })
    #expect(comparisons == [[nil, 1, 0], [1, 0, 0], [0, 0, 1], [nil, 1, 0]])
  }

  @Test(arguments: BackendKind.allCases)
  func inAndNotIn(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    #expect(try ids(Item.where { $0.id.in([1, 3, 99]) }) == [1, 3])
    #expect(try ids(Item.where { $0.id.notIn([1, 3, 99]) }) == [2, 4])
    #expect(try ids(Item.where { $0.name.in(["date", "apple"]) }) == [1, 4])
    #expect(try ids(Item.where { $0.discount.in([0, 10]) }) == [2, 3])
    #expect(try ids(Item.where { $0.discount.notIn([0]) }) == [2])
    // An empty list: IN is false and NOT IN true, even for NULL.
    #expect(try ids(Item.where { $0.id.in([]) }) == [])
    #expect(try ids(Item.where { $0.discount.notIn([]) }) == [1, 2, 3, 4])
    // A NULL in the list makes a miss NULL rather than false.
    #expect(try ids(Item.where { $0.discount.in([nil, 10]) }) == [2])
    #expect(try ids(Item.where { $0.discount.notIn([nil, 10]) }) == [])

    let membership = try db.rows(
      Item.all.select { ($0.discount.in([nil, 10]), $0.discount.in([]), $0.discount.notIn([]), $0.discount.in([0])) })
    #expect(membership == [[nil, 0, 1, nil], [1, 0, 1, 0], [nil, 0, 1, 1], [nil, 0, 1, nil]])
  }

  @Test(arguments: BackendKind.allCases)
  func between(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    #expect(try ids(Item.where { $0.stock.between(5, and: 10) }) == [1, 3])
    #expect(try ids(Item.where { $0.stock.notBetween(5, and: 10) }) == [2, 4])
    #expect(try ids(Item.where { $0.stock.between(10, and: 5) }) == [])
    #expect(try ids(Item.where { $0.price.between(0.25, and: 1.5) }) == [1, 2])
    #expect(try ids(Item.where { $0.name.between("b", and: "d") }) == [2, 3])
    #expect(try ids(Item.where { $0.discount.between(0, and: 10) }) == [2, 3])
    #expect(try ids(Item.where { $0.discount.notBetween(1, and: 5) }) == [2, 3])
    // A NULL bound can still make the result false: 10 <= NULL is NULL, but 10 >= 20 is false.
    #expect(try db.rows(Item.where { $0.id == 2 }.select { $0.discount.between(20, and: nil) }) == [[0]])
    #expect(try db.rows(Item.where { $0.id == 2 }.select { $0.discount.between(5, and: nil) }) == [[nil]])
  }
}
