/// Prepared statements keyed by their SQL text, least recently used evicted first.
///
/// A statement is always reset after it runs, so a cached one holds no lock or open read.
struct StatementCache {
  /// A class, so that marking a hit as recent needs no second dictionary lookup.
  private final class Entry {
    let statement: SQLiteStatement
    var lastUse: UInt64
    init(statement: SQLiteStatement, lastUse: UInt64) {
      self.statement = statement
      self.lastUse = lastUse
    }
  }

  /// The most statements kept at once.
  let capacity: Int
  private var entries: [String: Entry] = [:]
  private var clock: UInt64 = 0
  /// How many statements were prepared because the cache did not hold them.
  private(set) var misses = 0

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The number of cached statements.
  var count: Int { entries.count }

  /// The cached statement for `sql`, or a new one from `prepare`, which is then cached.
  mutating func statement(for sql: String, prepare: () throws -> SQLiteStatement) throws -> SQLiteStatement {
    clock &+= 1
    if let entry = entries[sql] {
      entry.lastUse = clock
      return entry.statement
    }
    let statement = try prepare()
    misses += 1
    if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
      entries[oldest.key] = nil
    }
    entries[sql] = Entry(statement: statement, lastUse: clock)
    return statement
  }

  /// Whether a statement for `sql` is cached.
  func contains(_ sql: String) -> Bool { entries[sql] != nil }

  /// Finalizes every cached statement.
  mutating func removeAll() { entries.removeAll() }
}
