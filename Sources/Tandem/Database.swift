import Foundation
import TandemCore
import TandemMemory
import TandemSQLite

/// A database, on the engine chosen when it is opened; every other line of your code is the same.
///
/// ```swift
/// let db = try Database(.sqlite(path: "app.sqlite"))  // ship on SQLite
/// let db = try Database(.memory)                      // unit tests in microseconds
/// let db = try Database(.tandem)                      // both at once, failing on any difference
///
/// try db.create(Reminder.self)
/// try db.insert(Reminder(id: 1, title: "Milk"))
/// let open = try db.fetchAll(Reminder.where { !$0.isCompleted })
/// ```
///
/// `Database` is `Sendable`: share it between tasks and threads. Statements run one at a time.
public final class Database: DatabaseWriter, Sendable {
  /// Which engine stores the data.
  public enum Storage: Sendable, Hashable {
    /// A SQLite database file (created if missing), in WAL mode.
    case sqlite(path: String)
    /// A private SQLite database in memory.
    case sqliteInMemory
    /// Tandem's pure-Swift engine, which answers exactly as SQLite does.
    case memory
    /// Both engines at once: every statement runs on SQLite in memory and on the memory engine,
    /// and a ``TandemError/Kind/divergence`` error is thrown the moment their answers differ.
    case tandem
  }

  /// The engine this database runs on.
  public let storage: Storage?
  private let lock: ConnectionLock

  /// Opens a database on the chosen engine.
  ///
  /// ```swift
  /// let db = try Database(.sqliteInMemory)
  /// ```
  public init(_ storage: Storage) throws {
    self.storage = storage
    let backend: any DatabaseBackend
    switch storage {
    case .sqlite(let path): backend = try SQLiteBackend(path: path)
    case .sqliteInMemory: backend = try SQLiteBackend.inMemory()
    case .memory: backend = MemoryBackend()
    case .tandem: backend = TandemBackend(reference: try SQLiteBackend.inMemory(), candidate: MemoryBackend())
    }
    lock = ConnectionLock(Connection(backend: backend))
  }

  /// Opens a database over any engine that implements ``DatabaseBackend``.
  public init(backend: sending any DatabaseBackend) {
    self.storage = nil
    lock = ConnectionLock(Connection(backend: backend))
  }

  public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
    try lock.withLock(body)
  }

  /// Calls `trace` with every statement the engine executes (SQL text on SQLite, a description
  /// of the statement on the memory engine); `nil` stops tracing.
  ///
  /// ```swift
  /// db.trace { print($0) }
  /// ```
  public func trace(_ trace: (@Sendable (String) -> Void)?) {
    try? lock.withLock { $0.backend.setTrace(trace) }
  }
}

/// Serializes access to the connection. It is recursive so that a call made on `db` inside
/// `db.transaction { … }` joins the transaction instead of deadlocking.
private final class ConnectionLock: @unchecked Sendable {
  // @unchecked: `connection` is only touched while `lock` is held, so no two threads use it at once.
  private let lock = NSRecursiveLock()
  private let connection: Connection

  init(_ connection: Connection) { self.connection = connection }

  func withLock<T>(_ body: (Connection) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(connection)
  }
}
