import Foundation
import Tandem
import Testing

/// `find` runs one prepared query per table type and connection, which engines recognize by
/// identity: repeated lookups, interleaved with other statements and schema changes, must return
/// the right records on every engine.
@Suite struct FacadeKeyLookupTests {
  typealias Item = FastPathTables.Item
  typealias Tag = FastPathTables.Tag

  @Test(arguments: FacadeFastPathTests.storages)
  func repeatedFindInterleavedWithOtherStatements(storage: Database.Storage) throws {
    let db = try Database(storage)
    try db.create(Item.self)
    try db.create(Tag.self)
    let records = (1...20).map { Item(id: $0, name: "item \($0)", stock: $0.isMultiple(of: 4) ? nil : $0) }
    try db.insert(records)
    try db.insert(Tag(code: "a", label: "first"))
    for round in 0..<3 {
      for record in records.reversed() {
        #expect(try db.find(Item.self, key: record.id) == record)
        // Other selects, another table's lookup and a write in between.
        #expect(try db.find(Tag.self, key: "a")?.label == (round == 0 ? "first" : "label \(round - 1)"))
        #expect(try db.fetchOne(Item.where { $0.id == record.id + 1 })?.id == (record.id < 20 ? record.id + 1 : nil))
      }
      #expect(try db.find(Item.self, key: 21 + round) == nil)
      #expect(try db.update(Tag(code: "a", label: "label \(round)")))
    }
    try db.transaction { db in
      try db.insert(Item(id: 100, name: "inside", stock: 1))
      #expect(try db.find(Item.self, key: 100)?.name == "inside")
      #expect(try db.find(Item.self, key: 1) == records[0])
    }
    #expect(try db.find(Item.self, key: 100)?.name == "inside")
  }

  /// Dropping and re-creating tables moves them in the schema: the cached lookup must follow.
  @Test(arguments: FacadeFastPathTests.storages)
  func findAfterSchemaChanges(storage: Database.Storage) throws {
    let db = try Database(storage)
    try db.create(Item.self)
    try db.create(Tag.self)
    try db.insert(Item(id: 1, name: "old", stock: 5))
    try db.insert(Tag(code: "x", label: "old tag"))
    #expect(try db.find(Item.self, key: 1)?.name == "old")
    #expect(try db.find(Tag.self, key: "x")?.label == "old tag")

    try db.drop(Item.self)
    let error = #expect(throws: TandemError.self) { try db.find(Item.self, key: 1) }
    #expect(error?.kind != .divergence)
    #expect(try db.find(Tag.self, key: "x")?.label == "old tag")

    // Re-created after `Tag`, with other rows.
    try db.create(Item.self)
    #expect(try db.find(Item.self, key: 1) == nil)
    try db.insert(Item(id: 1, name: "new", stock: nil))
    try db.insert(Item(id: 2, name: "second", stock: 2))
    #expect(try db.find(Item.self, key: 1) == Item(id: 1, name: "new", stock: nil))
    #expect(try db.find(Item.self, key: 2) == Item(id: 2, name: "second", stock: 2))

    try db.drop(Tag.self)
    try db.create(Tag.self)
    #expect(try db.find(Tag.self, key: "x") == nil)
    #expect(try db.find(Item.self, key: 2)?.name == "second")
  }

  /// Fresh databases of one schema each answer from their own rows.
  @Test(arguments: FacadeFastPathTests.storages)
  func findOnManyFreshDatabases(storage: Database.Storage) throws {
    for index in 0..<5 {
      let db = try Database(storage)
      if index.isMultiple(of: 2) { try db.create(Tag.self) }
      try db.create(Item.self)
      try db.insert(Item(id: 7, name: "db \(index)", stock: index))
      #expect(try db.find(Item.self, key: 7) == Item(id: 7, name: "db \(index)", stock: index))
      #expect(try db.find(Item.self, key: 8) == nil)
    }
  }
}
