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
    /// A SQLite database file (created if missing), in WAL mode. The path must name a file:
    /// `""`, `":memory:"` and `file:` URIs throw ``TandemError/Kind/misuse`` (use
    /// ``sqliteInMemory`` for a database in memory).
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
  /// How it was opened.
  public let configuration: Configuration
  private let connection: DatabaseConnection

  /// Opens a database on the chosen engine.
  ///
  /// ```swift
  /// let db = try Database(.sqliteInMemory)
  /// ```
  public convenience init(_ storage: Storage) throws {
    try self.init(storage, configuration: Configuration())
  }

  /// Opens a database on the chosen engine, as `configuration` says.
  ///
  /// ```swift
  /// let db = try Database(.sqlite(path: "app.sqlite"), configuration: .init(busyTimeout: .seconds(10)))
  /// let reader = try Database(.sqlite(path: "app.sqlite"), configuration: .init(readOnly: true))
  /// ```
  public init(_ storage: Storage, configuration: Configuration) throws {
    self.storage = storage
    self.configuration = configuration
    if configuration.readOnly {
      guard case .sqlite = storage else {
        throw TandemError.misuse(
          "readOnly needs a SQLite file (.sqlite(path:)): .\(storage) starts empty, so it would have nothing to read")
      }
    }
    let timeout = configuration.busyTimeout
    let backend: any DatabaseBackend
    switch storage {
    case .sqlite(let path):
      backend = try SQLiteBackend(path: path, busyTimeout: timeout, readOnly: configuration.readOnly)
    case .sqliteInMemory: backend = try SQLiteBackend.inMemory()
    case .memory: backend = MemoryBackend()
    case .tandem: backend = TandemBackend(reference: try SQLiteBackend.inMemory(), candidate: MemoryBackend())
    }
    connection = DatabaseConnection(Connection(backend: backend))
  }

  /// Opens a database over any engine that implements ``DatabaseBackend``.
  public init(backend: sending any DatabaseBackend) {
    self.storage = nil
    self.configuration = Configuration()
    connection = DatabaseConnection(Connection(backend: backend))
  }

  public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
    try connection.connection.withConnection(body)
  }

  /// Calls `trace` with every statement the engine executes (SQL text on SQLite, a description
  /// of the statement on the memory engine); `nil` stops tracing.
  ///
  /// ```swift
  /// db.trace { print($0) }
  /// ```
  public func trace(_ trace: (@Sendable (String) -> Void)?) {
    try? withConnection { $0.backend.setTrace(trace) }
  }
}

/// The database's own connection, shared by every thread.
private final class DatabaseConnection: @unchecked Sendable {
  // @unchecked: a connection runs nothing unless its thread holds the database's lock (see
  // `Connection.withConnection`), so no two threads use it at once.
  let connection: Connection

  init(_ connection: Connection) { self.connection = connection }
}
