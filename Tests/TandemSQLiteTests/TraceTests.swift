import Foundation
import TandemCore
import Testing

@testable import TandemSQLite

/// Collects traced SQL from SQLite's callback.
private final class TracedStatements: @unchecked Sendable {
  // @unchecked: every access to `lines` goes through `lock`.
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ line: String) {
    lock.lock()
    lines.append(line)
    lock.unlock()
  }

  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return lines
  }
}

@Suite("SQLite backend: trace")
struct TraceTests {
  @Test(arguments: DatabaseKind.allCases)
  func traceReceivesSQLWithoutValues(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      let traced = TracedStatements()
      backend.setTrace { traced.append($0) }
      try backend.create(TableSchema("t", columns: [.column("v", .text)]), ifNotExists: false)
      _ = try backend.execute(insertRow("t", ["v"], ["secret value"]), parameters: [:])
      _ = try backend.execute(selectAll("t", ["v"]), parameters: [:])
      #expect(
        traced.all == [
          // A transaction of its own for the table and its indexes: all or nothing.
          "BEGIN IMMEDIATE", #"SAVEPOINT "tandem_create""#, #"CREATE TABLE "t" ("v" TEXT NOT NULL)"#, "COMMIT",
          #"INSERT INTO "t" ("v") VALUES (?)"#, #"SELECT "v" FROM "t" ORDER BY rowid ASC"#,
        ])
      #expect(!traced.all.contains { $0.contains("secret") })

      backend.setTrace(nil)
      _ = try backend.execute(selectAll("t", ["v"]), parameters: [:])
      #expect(traced.all.count == 6)
    }
  }

  @Test func replacingTheTraceReleasesTheOldOne() throws {
    let backend = try SQLiteBackend.inMemory()
    let first = TracedStatements()
    let second = TracedStatements()
    backend.setTrace { first.append($0) }
    _ = try backend.run("SELECT 1")
    backend.setTrace { second.append($0) }
    _ = try backend.run("SELECT 2")
    #expect(first.all == ["SELECT 1"])
    #expect(second.all == ["SELECT 2"])
  }
}
