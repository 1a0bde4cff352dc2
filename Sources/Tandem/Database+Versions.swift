import TandemMemory
import TandemSQLite

extension Database {
  /// The version of the SQLite library this process links (`sqlite3_libversion()`), which
  /// `.sqlite`, `.sqliteInMemory` and the SQLite half of `.tandem` run on.
  ///
  /// ```swift
  /// Database.sqliteVersion  // "3.40.1" on Debian 12, "3.45.1" on Ubuntu 24.04
  /// ```
  public static var sqliteVersion: String { SQLiteBackend.libraryVersion }

  /// The SQLite version whose answers the memory engine reproduces. Where the linked SQLite is
  /// another version, the two can differ where SQLite itself changed (Docs/Testing.md lists
  /// what is known to differ).
  ///
  /// ```swift
  /// Database.memoryEngineSQLiteVersion  // "3.40.1"
  /// ```
  public static var memoryEngineSQLiteVersion: String { MemoryBackend.reproducedSQLiteVersion }
}
