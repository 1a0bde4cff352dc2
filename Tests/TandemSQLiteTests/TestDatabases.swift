import Foundation
import Testing
import TandemCore

@testable import TandemSQLite

/// A database file in the temporary directory, deleted (with its WAL and shared-memory files)
/// by `remove()`.
struct TemporaryDatabaseFile {
  let path: String

  init() {
    path = FileManager.default.temporaryDirectory
      .appendingPathComponent("tandem-sqlite-\(UUID().uuidString).sqlite").path
  }

  func open() throws -> SQLiteBackend { try SQLiteBackend(path: path) }

  func remove() {
    for suffix in ["", "-wal", "-shm", "-journal"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }
}

/// The two kinds of SQLite database every execution test runs on.
enum DatabaseKind: String, CaseIterable, CustomTestStringConvertible {
  case file
  case memory

  var testDescription: String { rawValue }

  /// Runs `body` with a fresh database of this kind, deleting a file afterwards.
  func withBackend<Result>(_ body: (SQLiteBackend) throws -> Result) throws -> Result {
    switch self {
    case .memory:
      return try body(try SQLiteBackend.inMemory())
    case .file:
      let file = TemporaryDatabaseFile()
      defer { file.remove() }
      return try body(try file.open())
    }
  }
}

/// An in-memory backend with `schema`'s table created and `rows` (one value per column, in
/// column order) inserted.
func inMemoryBackend(_ schema: TableSchema, rows: [[SqliteValue]]) throws -> SQLiteBackend {
  let backend = try SQLiteBackend.inMemory()
  try backend.create(schema, ifNotExists: false)
  _ = try backend.insert(into: schema.name, columns: schema.columns.map(\.name), values: rows, conflict: .abort)
  return backend
}

/// `SELECT columns FROM table ORDER BY rowid`.
func selectAll(_ table: String, _ columns: [String]) -> Statement {
  .select(SelectStatement(table: table, columns: columns.map { .column($0) }, orderBy: [OrderingTerm(.rowid)]))
}

/// `INSERT INTO table (columns) VALUES (values…)` of one row of literals.
func insertRow(_ table: String, _ columns: [String], _ values: [SqliteValue]) -> Statement {
  .insert(InsertStatement(table: table, columns: columns, rows: [values.map { .literal($0) }]))
}

/// The error `body` throws as a `TandemError`, or `nil` when it throws none (or another type).
func tandemError(_ body: () throws -> Void) -> TandemError? {
  do {
    try body()
    return nil
  } catch {
    return error as? TandemError
  }
}
