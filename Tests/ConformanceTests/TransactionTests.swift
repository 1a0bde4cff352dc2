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

  /// A run of consecutive inserts, with changes to those rows in between and a savepoint inside,
  /// rolls back row by row (the memory engine logs such a run as one range).
  @Test(arguments: BackendKind.allCases)
  func rollbackUndoesRunsOfConsecutiveInserts(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(throws: Abort.self) {
      try db.transaction { db in
        for id in 10..<40 { try db.insert(Item(id: id, name: "bulk \(id)")) }
        try db.delete(Item.where { $0.id == 15 })
        try db.insert(Item(id: 15, name: "again"))
        try db.update(Item.where { $0.id == 20 }) { $0.set(\.name, to: "changed") }
        try? db.transaction { inner in
          for id in 40..<45 { try inner.insert(Item(id: id, name: "inner \(id)")) }
          throw Abort()
        }
        for id in 45..<50 { try db.insert(Item(id: id, name: "after \(id)")) }
        #expect(try db.fetchCount(Item.all) == Item.samples.count + 35)
        throw Abort()
      }
    }
    #expect(try db.fetchAll(Item.all) == Item.samples)
  }

  /// A failing statement undoes only its own rows, even when they continue the rowids the
  /// statement before it inserted.
  @Test(arguments: BackendKind.allCases)
  func failedBatchKeepsTheConsecutiveRowsBeforeIt(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.transaction { db in
      try db.insert(Item(id: 10, name: "kept"))
      #expect(throws: TandemError.self) {
        try db.insert([Item(id: 11, name: "undone"), Item(id: 12, name: "undone"), Item(id: 1, name: "duplicate")])
      }
      try db.insert(Item(id: 11, name: "kept too"))
    }
    #expect(try db.fetchAll(Item.where { $0.id >= 10 }.select { $0.name }) == ["kept", "kept too"])
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

  static let endedMessage =
    "a Connection was used after its transaction ended; use the database, or the connection the current transaction's closure receives"

  /// A connection kept after its closure returned would otherwise write outside any transaction,
  /// or into whichever transaction is open at the time.
  @Test(arguments: BackendKind.allCases)
  func aConnectionStopsWorkingWhenItsClosureReturns(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let escaped = try db.transaction { $0 }
    let uses: [(Connection) throws -> Void] = [
      { try $0.insert(Item(id: 5, name: "late")) },
      { _ = try $0.fetchAll(Item.all) },
      { _ = try $0.fetchCount(Item.all) },
      { _ = try $0.find(Item.self, key: 1) },
      { try $0.delete(Item.all) },
      { try $0.transaction { _ in } },
    ]
    for use in uses {
      let error = try #require(throws: TandemError.self) { try use(escaped) }
      #expect(error.kind == .misuse)
      #expect(error.message == Self.endedMessage)
    }
    // Not even inside another transaction.
    try db.transaction { _ in
      #expect(throws: TandemError.misuse(Self.endedMessage)) { try escaped.insert(Item(id: 6, name: "sneaky")) }
    }
    #expect(try db.fetchAll(Item.all) == Item.samples)
  }

  /// A nested transaction's connection ends with its own closure; the outer one goes on.
  @Test(arguments: BackendKind.allCases)
  func aNestedConnectionEndsWithItsClosure(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.transaction { outer in
      let inner = try outer.transaction { inner in
        try inner.insert(Item(id: 5, name: "elderberry"))
        try outer.insert(Item(id: 6, name: "fig"))  // the outer connection works inside too
        return inner
      }
      #expect(throws: TandemError.misuse(Self.endedMessage)) { try inner.delete(Item.all) }
      try outer.insert(Item(id: 7, name: "grape"))
    }
    #expect(try db.fetchAll(Item.all.select { $0.id }) == [1, 2, 3, 4, 5, 6, 7])
  }

  /// Used from another thread while a transaction is open, an escaped connection waits for the
  /// database like any other caller (it cannot slip into that transaction), then fails.
  @Test(arguments: BackendKind.allCases)
  func anEscapedConnectionCannotWriteIntoAnotherThreadsTransaction(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let escaped = ConnectionBox(try db.transaction { $0 })
    let opened = DispatchSemaphore(value: 0)
    let attempted = DispatchSemaphore(value: 0)
    let outcome = OutcomeBox()
    Thread.detachNewThread {
      opened.wait()
      do {
        try escaped.connection.insert(Item(id: 6, name: "intruder"))
        outcome.set("inserted")
      } catch {
        outcome.set("\(error)")
      }
      attempted.signal()
    }
    struct Abort: Error {}
    #expect(throws: Abort.self) {
      try db.transaction { db in
        try db.insert(Item(id: 5, name: "elderberry"))
        opened.signal()
        // The other thread is blocked on the database until this transaction ends.
        #expect(attempted.wait(timeout: .now() + 0.3) == .timedOut)
        throw Abort()
      }
    }
    attempted.wait()
    #expect(outcome.value == "\(TandemError.misuse(Self.endedMessage))")
    #expect(try db.fetchAll(Item.all) == Item.samples)
  }

  /// Fuzzer seed 0xC0FFEE4D case 272109: `INSERT OR REPLACE … DEFAULT VALUES` writes no rowid,
  /// so SQLite codes no REPLACE of one and runs the statement without a statement journal; when
  /// AUTOINCREMENT has run out of rowids, `database or disk is full` then rolls back the whole
  /// transaction. The memory engine read the empty row as one naming every column, the rowid
  /// included, counted a REPLACE under foreign keys, and kept the transaction's earlier UPDATE.
  @Test(arguments: BackendKind.allCases)
  func fullFromReplacingDefaultValuesEndsTheTransaction(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE child (c INTEGER PRIMARY KEY AUTOINCREMENT);
      CREATE TABLE other (ref INTEGER REFERENCES child (c) ON UPDATE CASCADE);
      INSERT INTO child (c) VALUES (-9223372036854775807);
      """)
    let ended = try #require(throws: TandemError.self) {
      try db.transaction { connection in
        try connection.execute(sql: "UPDATE child SET c = abs(c)")
        do {
          try connection.execute(sql: "INSERT OR REPLACE INTO child DEFAULT VALUES")
          Issue.record("AUTOINCREMENT has no rowid left")
        } catch {
          #expect((error as? TandemError)?.message == "database or disk is full")
        }
      }
    }
    #expect(ended.kind == .misuse)
    #expect(try db.values(sql: "SELECT c FROM child") == [[-9_223_372_036_854_775_807]])
    // Rows written with values name the rowid: SQLite codes its REPLACE, with a journal, and
    // undoes that statement alone.
    try db.transaction { connection in
      try connection.execute(sql: "UPDATE child SET c = abs(c)")
      #expect(throws: TandemError.self) { try connection.execute(sql: "INSERT OR REPLACE INTO child VALUES (NULL)") }
    }
    #expect(try db.values(sql: "SELECT c FROM child") == [[9_223_372_036_854_775_807]])
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

/// Hands a connection to another thread, which a test does on purpose to check that it cannot
/// get around the database's lock.
private final class ConnectionBox: @unchecked Sendable {
  // @unchecked: the connection itself takes the database's lock before it does anything.
  let connection: Connection
  init(_ connection: Connection) { self.connection = connection }
}

/// What another thread reports back.
private final class OutcomeBox: @unchecked Sendable {
  // @unchecked: `stored` is only touched while `lock` is held.
  private let lock = NSLock()
  private var stored: String?

  func set(_ value: String) {
    lock.lock()
    defer { lock.unlock() }
    stored = value
  }

  var value: String? {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
