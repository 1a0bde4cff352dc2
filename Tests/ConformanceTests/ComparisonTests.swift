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
  func comparisonWithAnOptionalExpression(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    // reorderLevel 10, 10, 10, 5 against discount NULL, 10, 0, NULL: a NULL side never matches.
    #expect(try ids(Item.where { $0.reorderLevel == $0.discount }) == [2])
    #expect(try ids(Item.where { $0.reorderLevel != $0.discount }) == [3])
    #expect(try ids(Item.where { $0.reorderLevel < $0.discount }) == [])
    #expect(try ids(Item.where { $0.reorderLevel <= $0.discount }) == [2])
    #expect(try ids(Item.where { $0.reorderLevel > $0.discount }) == [3])
    #expect(try ids(Item.where { $0.reorderLevel >= $0.discount }) == [2, 3])
    // The optional expression first.
    #expect(try ids(Item.where { $0.discount == $0.reorderLevel }) == [2])
    #expect(try ids(Item.where { $0.discount != $0.reorderLevel }) == [3])
    #expect(try ids(Item.where { $0.discount < $0.reorderLevel }) == [3])
    #expect(try ids(Item.where { $0.discount <= $0.reorderLevel }) == [2, 3])
    #expect(try ids(Item.where { $0.discount > $0.reorderLevel }) == [])
    #expect(try ids(Item.where { $0.discount >= $0.reorderLevel }) == [2])
    // Computed expressions on either side.
    #expect(try ids(Item.where { $0.reorderLevel * 2 > $0.discount + 5 }) == [2, 3])
    // The NULL is there to read when the result is re-typed.
    let results = try db.rows(Item.all.select { ($0.reorderLevel == $0.discount, $0.discount < $0.reorderLevel) })
    #expect(results == [[nil, nil], [1, 0], [0, 1], [nil, nil]])

    let words = try makeDatabase(kind)
    try words.create(Word.self)
    try words.insert(Word.samples)
    // Text compares by bytes: "ÉCOLE" < "École", "" < "1000", "b_c" < "straße"; "fresh" > "  oat milk  ".
    #expect(try words.fetchAll(Word.where { $0.note < $0.text }).map(\.id) == [3, 5, 6])
    #expect(try words.fetchAll(Word.where { $0.text > $0.note }).map(\.id) == [3, 5, 6])
    #expect(try words.fetchAll(Word.where { $0.text != $0.note }).map(\.id) == [2, 3, 5, 6])
    // upper() folds ASCII only: "ÉCOLE" and "École" both become "ÉCOLE".
    #expect(try words.fetchAll(Word.where { $0.note.upper() == $0.text.upper() }).map(\.id) == [3])
    #expect(try words.fetchAll(Word.where { $0.note + "" >= $0.text }).map(\.id) == [2])
  }

  @Test(arguments: BackendKind.allCases)
  func isInAndBetweenWithExpressions(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Item, Item>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    // stock 5, 20, 10, 0; reorderLevel 10, 10, 10, 5; discount NULL, 10, 0, NULL.
    #expect(try ids(Item.where { $0.stock.is($0.reorderLevel) }) == [3])
    #expect(try ids(Item.where { $0.stock.isNot($0.reorderLevel) }) == [1, 2, 4])
    // IS treats NULL as a value, where `==` gives NULL.
    #expect(try ids(Item.where { $0.discount.is($0.discount) }) == [1, 2, 3, 4])
    #expect(try ids(Item.where { $0.discount == $0.discount }) == [2, 3])
    #expect(try ids(Item.where { $0.discount.isNot($0.discount * 2) }) == [2])

    #expect(try ids(Item.where { $0.stock.in([$0.reorderLevel, $0.reorderLevel * 2]) }) == [2, 3])
    #expect(try ids(Item.where { $0.stock.notIn([$0.reorderLevel, $0.reorderLevel * 2]) }) == [1, 4])
    let withParameter = Item.where { $0.stock.in([$0.reorderLevel - 5, Parameter<Int>("x")]) }
    #expect(try db.fetchAll(withParameter, parameters: ["x": 20]).map(\.id) == [1, 2, 4])
    #expect(try ids(Item.where { $0.discount.in([$0.discount - 10, $0.discount * 0]) }) == [3])
    // An empty list of values still reads as values.
    #expect(try ids(Item.where { $0.id.notIn([]) }) == [1, 2, 3, 4])

    #expect(try ids(Item.where { $0.stock.between($0.reorderLevel - 5, and: $0.reorderLevel) }) == [1, 3, 4])
    #expect(try ids(Item.where { $0.stock.notBetween($0.reorderLevel - 5, and: $0.reorderLevel) }) == [2])
    #expect(try ids(Item.where { $0.discount.between($0.stock - 100, and: $0.reorderLevel) }) == [2, 3])
    let membership = try db.rows(Item.all.select { ($0.discount.in([$0.stock, $0.reorderLevel]), $0.discount.between($0.discount, and: $0.discount)) })
    #expect(membership == [[nil, nil], [1, 1], [0, 1], [nil, nil]])
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
