import Foundation
import Tandem
import Testing

/// Concurrent writers of one SQLite file: each runs short transactions that read the counter and
/// then write it, plus a row recording what it read. Any lost update or failed transaction shows
/// in ``check(_:writers:transactions:sourceLocation:)``.
enum CounterWorkload {
  /// Creates the tables and the counter (0).
  static func prepare(_ db: Database) throws {
    try db.create(Counter.self)
    try db.create(CounterTick.self)
    try db.insert(Counter(id: 1, value: 0))
  }

  /// Runs `transactions` read-then-write transactions as `writer`.
  ///
  /// Each reads the counter, pauses briefly (so that the other writers' transactions overlap
  /// it), writes the counter + 1 and inserts a tick. A pause between transactions lets a waiting
  /// writer take the lock (SQLite's busy handler polls; without it one writer tends to keep the
  /// lock until it is done).
  static func run(on db: Database, writer: String, transactions: Int) throws {
    for sequence in 0..<transactions {
      try db.transaction { db in
        guard let counter = try db.find(Counter.self, key: 1) else { throw MissingCounter() }
        usleep(200)
        try db.update(Counter(id: 1, value: counter.value + 1))
        try db.insert(CounterTick.Draft(writer: writer, sequence: sequence, seen: counter.value))
      }
      usleep(1_000)
    }
  }

  /// Expects every transaction of every writer to be there, serialized: the counter equals the
  /// number of transactions, each writer's ticks are all present, and the values the ticks read
  /// are 0, 1, 2, … with none read twice.
  static func check(
    _ db: Database, writers: [String], transactions: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let total = writers.count * transactions
    #expect(try db.find(Counter.self, key: 1)?.value == total, sourceLocation: sourceLocation)
    let ticks = try db.fetchAll(CounterTick.all)
    #expect(ticks.map(\.seen).sorted() == Array(0..<total), sourceLocation: sourceLocation)
    for writer in writers {
      #expect(
        ticks.filter { $0.writer == writer }.map(\.sequence) == Array(0..<transactions), "writer \(writer)",
        sourceLocation: sourceLocation)
    }
  }

  /// How often consecutive ticks (in commit order) come from different writers: above 1 only
  /// when the writers really ran at the same time.
  static func writerSwitches(_ db: Database) throws -> Int {
    let writers = try db.fetchAll(CounterTick.all.select { $0.writer })
    return zip(writers, writers.dropFirst()).filter { $0 != $1 }.count
  }

  struct MissingCounter: Error {}
}
