extension Database {
  /// How a database is opened: how long a write waits for another writer, and whether the file
  /// may be written at all.
  ///
  /// ```swift
  /// var configuration = Database.Configuration()
  /// configuration.busyTimeout = .seconds(10)
  /// let db = try Database(.sqlite(path: "app.sqlite"), configuration: configuration)
  ///
  /// let reader = try Database(.sqlite(path: "app.sqlite"), configuration: .init(readOnly: true))
  /// ```
  public struct Configuration: Sendable, Hashable {
    /// How long a write waits while another connection — another `Database` on the same file, or
    /// another process such as an app extension — is writing, before it fails with SQLite's
    /// `database is locked` (code 5). SQLite only; 5 seconds unless set.
    public var busyTimeout: Duration
    /// Opens an existing SQLite file for reading only: reads work, every write (and `create`)
    /// fails with SQLite's `attempt to write a readonly database` (kind `.sqlite`, code 8). The
    /// file is neither created nor switched to WAL mode. Only for `.sqlite(path:)`: any other
    /// storage throws ``TandemError/Kind/misuse``.
    public var readOnly: Bool

    /// A configuration: 5 second busy timeout, read-write unless `readOnly`.
    ///
    /// ```swift
    /// Database.Configuration(busyTimeout: .milliseconds(500))
    /// ```
    public init(busyTimeout: Duration = .seconds(5), readOnly: Bool = false) {
      self.busyTimeout = busyTimeout
      self.readOnly = readOnly
    }
  }
}
