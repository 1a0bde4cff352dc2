import TandemCore

/// The end of SQLite's select loop: DISTINCT, then the ORDER BY — no sort when the scan already
/// delivers the order, a sorter, or a sorter per block of rows whose leading ORDER BY terms the
/// scan delivers — then OFFSET and LIMIT, handing each result row to the caller as soon as SQLite
/// would.
///
/// It evaluates result columns and sort keys exactly when SQLite does, so a failing expression
/// fails on the same rows: without a sort, rows skipped by OFFSET are never projected and the
/// scan stops at LIMIT; with a LIMIT, the sorter holds at most LIMIT + OFFSET rows, and a row
/// whose sort key cannot enter the full sorter is dropped before its result columns are
/// computed; a block sorter computes them first, and stops at the end of the block that
/// reached the limit.
struct OutputCollector {
  /// How the ORDER BY is met.
  enum Order {
    /// No ORDER BY, or the scan delivers it: rows go out as they come.
    case none
    /// A sorter over every row.
    case sorted([SortTerm])
    /// The scan delivers the first `prefix` terms: rows are sorted block by block.
    case blocks([SortTerm], prefix: Int)
  }

  private struct Entry {
    let keys: [SqliteValue]
    let sequence: Int
    let row: [SqliteValue]
  }

  private let distinctCollations: [Collation]?
  private let order: Order
  /// LIMIT (`nil`: none) and the rows still to skip for OFFSET.
  private var limit: Int?
  private var offset: Int
  /// Rows the sorter may still take before it only replaces its largest (SQLite's LIMIT+OFFSET
  /// counter); `nil` without a LIMIT.
  private var capacity: Int?
  /// Whether a row that cannot enter the full sorter ends the scan's current IN value (SQLite's
  /// ORDER BY LIMIT optimization over an ordered inner loop).
  private let skipsInnerLoop: Bool
  private var seen = Set<[ValueEqualityKey]>()
  private var delivered = 0
  /// Sorter entries; a max-heap (greatest key on top) while bounded, else in arrival order.
  private var entries: [Entry] = []
  private var sequence = 0
  /// The leading keys of the current block.
  private var blockPrefix: [SqliteValue]?
  /// Whether each row goes out only when the next one comes (or at the end): a DISTINCT that
  /// SQLite runs as a GROUP BY outputs a group once the first row of the next has passed WHERE.
  private let sendsEachRowLate: Bool
  /// The row held back until the next one comes (``sendsEachRowLate``).
  private var held: [SqliteValue]?

  /// A collector for a statement's DISTINCT flag (with each result column's collation), order and
  /// window. With `sendsEachRowLate`, rows the scan delivers in order go out one late: a
  /// DISTINCT whose ORDER BY is its result list is SQLite's GROUP BY of those columns, which
  /// outputs a group when the first row of the next has passed WHERE, so a row failing in WHERE
  /// after it (even one past the LIMIT) leaves it unsent.
  init(
    distinct: [Collation]?, order: Order, window: (limit: Int?, offset: Int), skipsInnerLoop: Bool = false,
    sendsEachRowLate: Bool = false
  ) {
    distinctCollations = distinct
    self.order = order
    self.sendsEachRowLate = sendsEachRowLate
    limit = window.limit
    offset = window.offset
    self.skipsInnerLoop = skipsInnerLoop
    if case .none = order {
      capacity = nil
    } else if let limit = window.limit {
      let (sum, overflow) = limit.addingReportingOverflow(window.offset)
      capacity = overflow ? nil : sum
    } else {
      capacity = nil
    }
  }

  /// Offers one row. `project` computes its result columns and `keys` its ORDER BY values, each
  /// called at most once and only when SQLite would; `emit` receives each result row as SQLite
  /// hands it out. Returns what the scan does next.
  mutating func offer(
    project: () throws -> [SqliteValue], keys: () throws -> [SqliteValue], emit: ([SqliteValue]) throws -> Void
  ) throws -> TableScan.Step {
    var projected: [SqliteValue]?
    if let collations = distinctCollations {
      let values = try project()
      let key = zip(values, collations).map { ValueEqualityKey($0, collation: $1) }
      if !seen.insert(key).inserted { return .next }
      projected = values
    }
    switch order {
    case .none:
      if sendsEachRowLate {
        let previous = held
        held = try projected ?? project()
        guard let previous else { return .next }
        let step = try send(previous, emit: emit)
        if step == .stop { held = nil }
        return step
      }
      // A row OFFSET skips is never projected.
      if offset > 0 {
        offset -= 1
        return .next
      }
      return try send(projected ?? project(), emit: emit)

    case .sorted(let terms):
      let sortKeys = try keys()
      return try insert(sortKeys, terms, projected: projected, project: project)

    case .blocks(let terms, let prefix):
      let sortKeys = try keys()
      let row = try projected ?? project()
      let leading = Array(sortKeys[..<prefix])
      if let current = blockPrefix, !Self.samePrefix(current, leading, terms) {
        try flush(terms, emit: emit)
        if capacity == 0 { return .stop }
      }
      blockPrefix = leading
      _ = try insert(sortKeys, terms, projected: row, project: { row })
      return .next
    }
  }

  /// Adds a row to the sorter, keeping at most `capacity` rows.
  private mutating func insert(
    _ sortKeys: [SqliteValue], _ terms: [SortTerm], projected: [SqliteValue]?, project: () throws -> [SqliteValue]
  ) throws -> TableScan.Step {
    let bounded = capacity != nil
    if let remaining = capacity {
      if remaining > 0 {
        capacity = remaining - 1
      } else {
        guard let top = entries.first, Ordering.compare(top.keys, sortKeys, terms) > 0 else {
          return skipsInnerLoop ? .skipInnerLoop : .next
        }
        popTop(terms)
      }
    }
    let entry = Entry(keys: sortKeys, sequence: sequence, row: try projected ?? project())
    sequence += 1
    entries.append(entry)
    if bounded { siftUp(entries.count - 1, terms) }
    return .next
  }

  /// Hands out a row after OFFSET, counting it against LIMIT.
  private mutating func send(_ row: [SqliteValue], emit: ([SqliteValue]) throws -> Void) throws -> TableScan.Step {
    if offset > 0 {
      offset -= 1
      return .next
    }
    try emit(row)
    delivered += 1
    if let limit, delivered >= limit { return .stop }
    return .next
  }

  /// Hands out the rows still held: the sorter's, in order, after OFFSET, or the one held back.
  mutating func finish(emit: ([SqliteValue]) throws -> Void) throws {
    switch order {
    case .none:
      if let last = held {
        held = nil
        _ = try send(last, emit: emit)
      }
    case .sorted(let terms), .blocks(let terms, _): try flush(terms, emit: emit)
    }
  }

  private mutating func flush(_ terms: [SortTerm], emit: ([SqliteValue]) throws -> Void) throws {
    let ordered = entries.sorted { Self.precedes($0, $1, terms) }
    entries.removeAll(keepingCapacity: true)
    for entry in ordered {
      if offset > 0 {
        offset -= 1
        continue
      }
      if let limit, delivered >= limit { break }
      try emit(entry.row)
      delivered += 1
    }
  }

  /// Whether two rows' leading keys are equal (SQLite compares them with their collations).
  private static func samePrefix(_ a: [SqliteValue], _ b: [SqliteValue], _ terms: [SortTerm]) -> Bool {
    for index in a.indices {
      let x = a[index]
      let y = b[index]
      if x.isNull != y.isNull { return false }
      if x.isNull { continue }
      if ValueOrder.compare(x, y, collation: terms[index].collation) != 0 { return false }
    }
    return true
  }

  private static func precedes(_ a: Entry, _ b: Entry, _ terms: [SortTerm]) -> Bool {
    let order = Ordering.compare(a.keys, b.keys, terms)
    return order != 0 ? order < 0 : a.sequence < b.sequence
  }

  private mutating func siftUp(_ start: Int, _ terms: [SortTerm]) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(entries[parent], entries[child], terms) else { return }
      entries.swapAt(parent, child)
      child = parent
    }
  }

  private mutating func popTop(_ terms: [SortTerm]) {
    entries.swapAt(0, entries.count - 1)
    entries.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var largest = parent
      if left < entries.count, Self.precedes(entries[largest], entries[left], terms) { largest = left }
      if right < entries.count, Self.precedes(entries[largest], entries[right], terms) { largest = right }
      if largest == parent { return }
      entries.swapAt(parent, largest)
      parent = largest
    }
  }
}
