import Foundation
import Tandem
import Testing

/// Transactions commit when their closure returns and roll back everything when it throws;
/// nested transactions are savepoints.
@Suite struct TransactionTests {
  struct Abort: Error {}

  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)
    return db
  }

  @Test(arguments: BackendKind.allCases)
  func commit(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let count = try db.transaction { db in
      try db.insert(Item(id: 5, name: "elderberry"))
      try db.update(Item.where { $0.id == 1 }) { $0.set(\.stock, to: 0) }
      try db.delete(Item.where { $0.id == 2 })
      return try db.fetchCount(Item.all)
    }
    #expect(count == 4)
    #expect(try db.fetchAll(Item.all.select { $0.id }) == [1, 3, 4, 5])
    #expect(try db.fetchOne(Item.where { $0.id == 1 }.select { $0.stock }) == Optional(0))
  }

  @Test(arguments: BackendKind.allCases)
  func throwingClosureRollsBackEverything(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(throws: Abort.self) {
      try db.transaction { connection in
        try connection.insert(Item(id: 5, name: "elderberry"))
        try connection.update(Item.all) { $0.set(\.stock, to: $0.stock * 2) }
        try connection.delete(Item.where { $0.id == 2 })
        // Writes through the database itself join the open transaction.
        try db.insert(Item(id: 6, name: "fig"))
        #expect(try connection.fetchCount(Item.all) == 5)
        throw Abort()
      }
    }
    #expect(try db.fetchAll(Item.all) == Item.samples)
  }

  @Test(arguments: BackendKind.allCases)
  func constraintErrorRollsBackTheTransaction(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let error = try #require(throws: TandemError.self) {
      try db.transaction { db in
        try db.insert(Item(id: 5, name: "elderberry"))
        try db.insert(Item(id: 1, name: "duplicate"))
      }
    }
    #expect(error.constraint == .primaryKey)
    #expect(try db.fetchAll(Item.all) == Item.samples)
  }

  /// Inside a transaction, a statement that fails half-way changes nothing, and the transaction
  /// goes on.
  @Test(arguments: BackendKind.allCases)
  func failedStatementInsideATransactionChangesNothing(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.transaction { db in
      // Row 1: 5 - 20 + Int.min becomes a REAL, so abs() works and the row is deleted first;
      // row 2: 20 - 20 + Int.min is Int.min, and abs(Int.min) overflows.
      let error = try #require(throws: TandemError.self) {
        try db.delete(Item.where { ($0.stock - 20 + Int.min).abs() > 0 })
      }
      #expect(error.message == "integer overflow")
      #expect(try db.fetchAll(Item.all) == Item.samples)
      try db.insert(Item(id: 5, name: "elderberry"))
    }
    #expect(try db.fetchAll(Item.all) == Item.samples + [Item(id: 5, name: "elderberry")])
  }

  @Test(arguments: BackendKind.allCases)
  func nestedTransactionRolledBackWhileTheOuterCommits(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.transaction { db in
      try db.insert(Item(id: 5, name: "elderberry"))
      #expect(throws: Abort.self) {
        try db.transaction { db in
          try db.insert(Item(id: 6, name: "fig"))
          try db.update(Item.all) { $0.set(\.name, to: "gone") }
          throw Abort()
        }
      }
      try db.transaction { db in
        try db.insert(Item(id: 7, name: "grape"))
      }
      try db.insert(Item(id: 8, name: "honeydew"))
    }
    #expect(try db.fetchAll(Item.all.select { $0.name }) == ["apple", "banana", "cherry", "date", "elderberry", "grape", "honeydew"])
  }

  @Test(arguments: BackendKind.allCases)
  func committedSavepointIsUndoneWithItsOuterTransaction(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(throws: Abort.self) {
      try db.transaction { db in
        try db.transaction { db in try db.insert(Item(id: 5, name: "elderberry")) }
        try db.transaction { db in
          try db.transaction { db in try db.delete(Item.all) }
        }
        #expect(try db.fetchCount(Item.all) == 0)
        throw Abort()
      }
    }
    #expect(try db.fetchAll(Item.all) == Item.samples)
  }

  @Test(arguments: [BackendKind.sqliteFile])
  func rolledBackTransactionLeavesTheFileUnchanged(_ kind: BackendKind) throws {
    let path: String
    do {
      let db = try Self.database(kind)
      guard case .sqlite(let file)? = db.storage else {
        Issue.record("a file database reports its path")
        return
      }
      path = file
      #expect(throws: Abort.self) {
        try db.transaction { db in
          try db.insert(Item(id: 5, name: "elderberry"))
          try db.delete(Item.where { $0.id == 1 })
          throw Abort()
        }
      }
      try db.transaction { db in try db.insert(Item(id: 6, name: "fig")) }
    }
    // The first connection is closed; a new one sees exactly the committed state.
    let reopened = try Database(.sqlite(path: path))
    #expect(try reopened.fetchAll(Item.all) == Item.samples + [Item(id: 6, name: "fig")])
  }
}
