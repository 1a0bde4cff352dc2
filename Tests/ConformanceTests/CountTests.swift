import Tandem
import Testing

/// `fetchCount` counts exactly the rows `fetchAll` returns for the same query, and fails where
/// `fetchAll` fails.
@Suite struct CountTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)
    return db
  }

  /// The count and the rows' count agree, or both fail with the same error.
  static func expectCountMatchesFetchAll<Output>(
    _ db: Database, _ query: Select<Item, Output>, parameters: [String: SqliteValue] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    func outcome(_ body: () throws -> Int) -> String {
      do {
        return "\(try body()) rows"
      } catch let error as TandemError {
        return "\(error.signature)"
      } catch {
        return "\(error)"
      }
    }
    #expect(
      outcome { try db.fetchCount(query, parameters: parameters) }
        == outcome { try db.fetchAll(query, parameters: parameters).count }, sourceLocation: sourceLocation)
  }

  /// The probe: HAVING on a query that is not an aggregate is an error, for both.
  @Test(arguments: BackendKind.allCases)
  func havingWithoutAnAggregateFailsAsFetchAllFails(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let query = Item.all.having { $0.stock > 3 }
    let fetchError = try #require(throws: TandemError.self) { try db.fetchAll(query) }
    let countError = try #require(throws: TandemError.self) { try db.fetchCount(query) }
    #expect(countError.signature == fetchError.signature)
    #expect(countError.message == "HAVING clause on a non-aggregate query")
  }

  /// A result column or ordering term that fails on some row fails the count too.
  @Test(arguments: BackendKind.allCases)
  func failingColumnsAndTermsFailTheCount(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.insert(Item(id: 5, name: "min", stock: Int.min))
    let overflow = TandemError.Signature.sqlite(code: 1, message: "integer overflow")
    let column = try #require(throws: TandemError.self) { try db.fetchCount(Item.all.select { $0.stock.abs() }) }
    #expect(column.signature == overflow)
    let term = try #require(throws: TandemError.self) { try db.fetchCount(Item.order { $0.stock.abs() }) }
    #expect(term.signature == overflow)
    let filter = try #require(throws: TandemError.self) { try db.fetchCount(Item.where { $0.stock.abs() > 1 }) }
    #expect(filter.signature == overflow)
    let parameter = try #require(throws: TandemError.self) {
      try db.fetchCount(Item.all.select { _ in Parameter<Int>("missing") })
    }
    #expect(parameter.signature.kind == .misuse)
  }

  @Test(arguments: BackendKind.allCases)
  func countsWhatFetchAllReturns(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.insert(Item(id: 5, name: "apple", stock: 5, reorderLevel: 10, price: 1.5))
    Self.expectCountMatchesFetchAll(db, Item.all)
    Self.expectCountMatchesFetchAll(db, Item.where { $0.stock > 3 && $0.name.like("%a%") })
    Self.expectCountMatchesFetchAll(db, Item.all.select { $0.name }.distinct())
    Self.expectCountMatchesFetchAll(db, Item.group { $0.reorderLevel }.select { $0.reorderLevel })
    Self.expectCountMatchesFetchAll(db, Item.all.select { $0.stock.sum() })
    Self.expectCountMatchesFetchAll(db, Item.where { $0.stock > 100 }.select { $0.stock.sum() })
    Self.expectCountMatchesFetchAll(db, Item.all.limit(2, offset: 1))
    Self.expectCountMatchesFetchAll(db, Item.all.limit(10, offset: 4))
    Self.expectCountMatchesFetchAll(db, Item.order { $0.price.desc() }.select { $0.name.upper() })
    Self.expectCountMatchesFetchAll(
      db, Item.where { $0.name == Parameter<String>("name") }, parameters: ["name": "apple"])
    #expect(try db.fetchCount(Item.all.select { $0.name }.distinct()) == 4)
    #expect(try db.fetchCount(Item.all.select { $0.stock.sum() }) == 1)
    #expect(try db.fetchCount(Item.all.limit(2, offset: 4)) == 1)
  }
}
