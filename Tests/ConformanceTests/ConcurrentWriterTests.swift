import Foundation
import Tandem
import Testing

/// Writers on one SQLite file — two `Database` values, or two processes (an app and its
/// extension) — wait for each other instead of failing: every transaction commits, none is lost.
@Suite struct ConcurrentWriterTests {
  static let transactionsPerWriter = 100

  @Test func twoDatabasesOnOneFileWaitForEachOther() throws {
    let path = TemporaryDatabaseFiles.newPath()
    try CounterWorkload.prepare(try Database(.sqlite(path: path)))
    let failures = FailureList()
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    for writer in 0..<2 {
      // Threads of their own: both really run at once.
      Thread.detachNewThread {
        defer { finished.signal() }
        let db: Database
        do {
          db = try Database(.sqlite(path: path))
        } catch {
          failures.append("writer \(writer): \(error)")
          ready.signal()
          return
        }
        ready.signal()
        go.wait()
        do {
          try CounterWorkload.run(on: db, writer: "\(writer)", transactions: Self.transactionsPerWriter)
        } catch {
          failures.append("writer \(writer): \(error)")
        }
      }
    }
    for _ in 0..<2 { ready.wait() }
    for _ in 0..<2 { go.signal() }
    for _ in 0..<2 { finished.wait() }
    #expect(failures.all == [])
    let db = try Database(.sqlite(path: path))
    try CounterWorkload.check(db, writers: ["0", "1"], transactions: Self.transactionsPerWriter)
    #expect(try CounterWorkload.writerSwitches(db) > 1, "the two writers did not overlap")
  }

  /// The test process writes the file while a second process, launched from this very test
  /// bundle, writes it too (``writerProcess()`` is that process's side).
  @Test func twoProcessesWritingOneFileLoseNothing() throws {
    let path = TemporaryDatabaseFiles.newPath()
    let db = try Database(.sqlite(path: path))
    try CounterWorkload.prepare(db)
    let writer = try WriterProcess(database: path)
    defer { writer.stop() }
    // Both start together: the other process waits for the go signal once it is ready.
    try writer.waitUntilReady()
    try writer.go()
    try CounterWorkload.run(on: db, writer: "parent", transactions: Self.transactionsPerWriter)
    let (status, output) = try writer.waitForExit()
    #expect(status == 0, "the other process failed:\n\(output)")
    #expect(output.contains("writerProcess()"), "the other process did not run its writer test:\n\(output)")
    try CounterWorkload.check(db, writers: ["parent", "child"], transactions: Self.transactionsPerWriter)
    #expect(try CounterWorkload.writerSwitches(db) > 1, "the two processes did not overlap")
  }

  /// The second process of ``twoProcessesWritingOneFileLoseNothing()``; does nothing unless that
  /// test launched it.
  @Test func writerProcess() throws {
    guard let path = ProcessInfo.processInfo.environment[WriterProcess.databaseVariable] else { return }
    let db = try Database(.sqlite(path: path))
    try WriterProcess.signalReadyAndWaitForGo(database: path)
    try CounterWorkload.run(on: db, writer: "child", transactions: Self.transactionsPerWriter)
  }

  /// A write waits for another connection's write as long as the busy timeout says, then fails
  /// with `database is locked`.
  @Test func theBusyTimeoutIsHowLongAWriteWaits() throws {
    let path = TemporaryDatabaseFiles.newPath()
    let holder = try Database(.sqlite(path: path))
    try CounterWorkload.prepare(holder)
    let impatient = try Database(.sqlite(path: path), configuration: .init(busyTimeout: .milliseconds(100)))
    let patient = try Database(.sqlite(path: path))
    #expect(impatient.configuration.busyTimeout == .milliseconds(100))
    #expect(patient.configuration == Database.Configuration(busyTimeout: .seconds(5), readOnly: false))

    let locked = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      _ = try? holder.transaction { db in
        try db.update(Counter(id: 1, value: 10))
        locked.signal()
        release.wait()
      }
      done.signal()
    }
    locked.wait()
    let start = Date()
    let error = try #require(throws: TandemError.self) {
      try impatient.update(Counter.all) { $0.set(\.value, to: 20) }
    }
    let waited = Date().timeIntervalSince(start)
    #expect(error.kind == .sqlite)
    #expect(error.sqliteCode == 5)
    #expect(error.message == "database is locked")
    #expect(waited >= 0.09, "failed after \(waited) s, before its busy timeout")
    #expect(waited < 3, "waited \(waited) s, well past its 100 ms busy timeout")

    // The patient writer waits for the holder's commit, then writes after it.
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { release.signal() }
    try patient.transaction { db in
      let counter = try db.find(Counter.self, key: 1)
      try db.update(Counter(id: 1, value: (counter?.value ?? 0) + 1))
    }
    done.wait()
    #expect(try patient.find(Counter.self, key: 1)?.value == 11)
  }

  @Test func aNegativeBusyTimeoutIsAMisuse() throws {
    let error = try #require(throws: TandemError.self) {
      try Database(.sqlite(path: TemporaryDatabaseFiles.newPath()), configuration: .init(busyTimeout: .seconds(-1)))
    }
    #expect(error.kind == .misuse)
    #expect(error.message == "the busy timeout must not be negative")
  }
}

/// Failures collected from several threads.
private final class FailureList: @unchecked Sendable {
  // @unchecked: `failures` is only touched while `lock` is held.
  private let lock = NSLock()
  private var failures: [String] = []

  func append(_ failure: String) {
    lock.lock()
    defer { lock.unlock() }
    failures.append(failure)
  }

  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return failures
  }
}
