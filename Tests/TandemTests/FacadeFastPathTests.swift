import Foundation
import Tandem
import Testing

/// Tables for the facade's fast paths, nested so their names stay out of other tests' way.
enum FastPathTables {
  @Table("fast_items") struct Item: Equatable {
    let id: Int
    @Column(unique: true) var name: String
    var stock: Int?
  }

  @Table("fast_tags") struct Tag: Equatable {
    @Column(primaryKey: true) let code: String
    var label: String
  }
}

/// The facade's value inserts, streamed fetches and cached key lookups, on every engine: the
/// same records, results and errors as the statement path they replace.
@Suite struct FacadeFastPathTests {
  typealias Item = FastPathTables.Item
  typealias Tag = FastPathTables.Tag

  static let storages: [Database.Storage] = [.sqliteInMemory, .memory, .tandem]

  private func database(_ storage: Database.Storage) throws -> Database {
    let db = try Database(storage)
    try db.create(Item.self)
    try db.create(Tag.self)
    return db
  }

  private func items(_ count: Int, from first: Int = 1) -> [Item] {
    (first..<first + count).map { Item(id: $0, name: "item \($0)", stock: $0.isMultiple(of: 3) ? nil : $0 * 10) }
  }

  @Test(arguments: storages)
  func batchInsertStoresEveryRecordInOrder(storage: Database.Storage) throws {
    let db = try database(storage)
    let records = items(2_500)
    try db.insert(records)
    #expect(try db.fetchAll(Item.all) == records)
    #expect(try db.fetchCount(Item.all) == 2_500)
  }

  /// A duplicate in the middle of a batch leaves none of the batch, in and outside a transaction.
  @Test(arguments: storages, [false, true])
  func batchInsertIsAllOrNone(storage: Database.Storage, inTransaction: Bool) throws {
    let db = try database(storage)
    try db.insert(Item(id: 1, name: "first", stock: 1))
    var batch = items(1_500, from: 2)
    batch[700].name = "first"
    let body = { (writer: any DatabaseWriter) throws -> TandemError? in
      do {
        try writer.insert(batch)
        return nil
      } catch let error as TandemError {
        return error
      }
    }
    let error = inTransaction ? try db.transaction { try body($0) } : try body(db)
    #expect(error?.kind == .constraintViolation)
    #expect(error?.constraint == .unique)
    #expect(error?.table == "fast_items")
    #expect(error?.columns == ["name"])
    #expect(try db.fetchAll(Item.all) == [Item(id: 1, name: "first", stock: 1)])
    // The database is still usable afterwards.
    try db.insert(items(3, from: 10))
    #expect(try db.fetchCount(Item.all) == 4)
  }

  @Test(arguments: storages)
  func singleInsertsReturnRowidsAndReportConflicts(storage: Database.Storage) throws {
    let db = try database(storage)
    #expect(try db.insert(Item(id: 5, name: "a", stock: nil)) == 5)
    #expect(try db.insert(Item(id: 5, name: "b", stock: 1), onConflict: .ignore) == 0)
    #expect(try db.insert(Item(id: 5, name: "c", stock: 2), onConflict: .replace) == 5)
    let error = #expect(throws: TandemError.self) { try db.insert(Item(id: 6, name: "c", stock: nil)) }
    #expect(error?.constraint == .unique)
    #expect(error?.columns == ["name"])
    try db.upsert(Item(id: 5, name: "d", stock: 3))
    try db.upsert(Item(id: 7, name: "e", stock: nil))
    #expect(try db.fetchAll(Item.all) == [Item(id: 5, name: "d", stock: 3), Item(id: 7, name: "e", stock: nil)])
  }

  @Test(arguments: storages)
  func draftsAreInsertedAndReadBack(storage: Database.Storage) throws {
    let db = try database(storage)
    try db.insert(items(2))
    let stored = try db.insert(Item.Draft(name: "drafted", stock: 4))
    #expect(stored == Item(id: 3, name: "drafted", stock: 4))
    #expect(try db.find(Item.self, key: 3) == stored)
  }

  @Test(arguments: storages)
  func findUsesOneQueryPerTableType(storage: Database.Storage) throws {
    let db = try database(storage)
    try db.insert(items(20))
    try db.insert([Tag(code: "b", label: "Bee"), Tag(code: "a", label: "Ay")])
    for id in [20, 1, 7, 21, 7] {
      #expect(try db.find(Item.self, key: id) == (id <= 20 ? items(1, from: id)[0] : nil))
    }
    #expect(try db.find(Tag.self, key: "a") == Tag(code: "a", label: "Ay"))
    #expect(try db.find(Tag.self, key: "z") == nil)
    #expect(try db.find(Item.self, key: 2) == items(1, from: 2)[0])
  }

  @Test func findStatementsAreTheSameForEveryKey() throws {
    let db = try Database(.sqliteInMemory)
    try db.create(Item.self)
    try db.insert(items(3))
    let statements = StatementLog()
    db.trace { statements.append($0) }
    _ = try db.find(Item.self, key: 1)
    _ = try db.find(Item.self, key: 3)
    db.trace(nil)
    // No LIMIT: a key matches at most one row, and the key is then the only value bound.
    let expected = #"SELECT "id", "name", "stock" FROM "fast_items" WHERE ("id" = ?) ORDER BY rowid ASC"#
    #expect(statements.all == [expected, expected])
  }

  @Test(arguments: storages)
  func fetchOneDecodesOnlyTheFirstRow(storage: Database.Storage) throws {
    let db = try database(storage)
    try db.insert(items(6))
    #expect(try db.fetchOne(Item.all.limit(4, offset: 1)) == items(1, from: 2)[0])
    #expect(try db.fetchOne(Item.where { $0.id > 100 }) == nil)
    let stocks = try db.fetchAll(Item.all.select { $0.stock })
    #expect(stocks == [10, 20, nil, 40, 50, nil])
    #expect(try db.fetchOne(Item.where { $0.id == 3 }.select { $0.stock }) == .some(nil))
  }

  /// A row that does not decode names the table and column, from the cached key lookup as well.
  @Test(arguments: storages)
  func decodingErrorsNameTheColumn(storage: Database.Storage) throws {
    let db = try database(storage)
    try db.execute(
      .insert(InsertStatement(table: "fast_items", columns: ["id", "name", "stock"], rows: [[.literal(1), .literal("n"), .literal("many")]])))
    for error in [
      #expect(throws: TandemError.self) { _ = try db.fetchAll(Item.all) },
      #expect(throws: TandemError.self) { _ = try db.find(Item.self, key: 1) },
      #expect(throws: TandemError.self) { _ = try db.fetchOne(Item.all) },
    ] {
      #expect(error?.kind == .decodingFailure)
      #expect(error?.table == "fast_items")
      #expect(error?.columns == ["stock"])
      #expect(error?.value == .text("many"))
    }
    let projection = #expect(throws: TandemError.self) { _ = try db.fetchAll(Item.all.select { ($0.id, $0.stock) }) }
    #expect(projection?.columns == ["stock"])
    #expect(projection?.table == "fast_items")
  }
}

/// Collects traced SQL from SQLite's callback.
final class StatementLog: @unchecked Sendable {
  // @unchecked: `statements` is only touched under `lock`.
  private let lock = NSLock()
  private var statements: [String] = []

  func append(_ statement: String) {
    lock.withLock { statements.append(statement) }
  }

  var all: [String] { lock.withLock { statements } }
}
