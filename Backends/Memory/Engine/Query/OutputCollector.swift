import TandemCore

/// The end of SQLite's select loop: DISTINCT, then ORDER BY (a sorter that holds at most
/// LIMIT + OFFSET rows when there is a LIMIT), then OFFSET and LIMIT.
///
/// It evaluates result columns and sort keys exactly when SQLite does, so a failing expression
/// fails on the same rows: without ORDER BY, rows skipped by OFFSET are never projected and the
/// scan stops at LIMIT; with a LIMIT, a row whose sort key cannot enter the full sorter is
/// dropped before its result columns are computed.
struct OutputCollector {
  private struct Entry {
    let keys: [SqliteValue]
    let sequence: Int
    let row: [SqliteValue]
  }

  private let distinctCollations: [Collation]?
  private let orderTerms: [SortTerm]?
  private let limit: Int?
  private let offset: Int
  /// LIMIT + OFFSET when ORDER BY has a LIMIT (SQLite's `OP_OffsetLimit`); `nil` is unbounded.
  private let capacity: Int?
  private var seen = Set<[ValueEqualityKey]>()
  private var rows: [[SqliteValue]] = []
  private var skipped = 0
  /// ORDER BY entries; a max-heap (greatest key on top) while bounded, else in arrival order.
  private var entries: [Entry] = []
  private var sequence = 0

  /// A collector for a statement's DISTINCT flag (with each result column's collation), ORDER BY
  /// terms (`nil`: none) and window.
  init(distinct: [Collation]?, orderBy: [SortTerm]?, window: (limit: Int?, offset: Int)) {
    distinctCollations = distinct
    orderTerms = orderBy
    limit = window.limit
    offset = window.offset
    if orderBy != nil, let limit = window.limit {
      let (sum, overflow) = limit.addingReportingOverflow(window.offset)
      capacity = overflow ? nil : sum
    } else {
      capacity = nil
    }
  }

  /// Offers one row. `project` computes its result columns and `keys` its ORDER BY values, each
  /// called at most once and only when SQLite would. Returns false once no later row can appear
  /// in the output (no ORDER BY and LIMIT reached): the caller stops.
  mutating func offer(project: () throws -> [SqliteValue], keys: () throws -> [SqliteValue]) throws -> Bool {
    var projected: [SqliteValue]?
    if let collations = distinctCollations {
      let values = try project()
      let key = zip(values, collations).map { ValueEqualityKey($0, collation: $1) }
      if !seen.insert(key).inserted { return true }
      projected = values
    }
    guard let terms = orderTerms else {
      if skipped < offset {
        skipped += 1
        return true
      }
      rows.append(try projected ?? project())
      if let limit, rows.count >= limit { return false }
      return true
    }
    let sortKeys = try keys()
    if let capacity, entries.count >= capacity {
      guard let top = entries.first, Ordering.compare(top.keys, sortKeys, terms) > 0 else { return true }
      popTop(terms)
    }
    let entry = Entry(keys: sortKeys, sequence: sequence, row: try projected ?? project())
    sequence += 1
    entries.append(entry)
    if capacity != nil { siftUp(entries.count - 1, terms) }
    return true
  }

  /// The output rows.
  func result() -> [[SqliteValue]] {
    guard let terms = orderTerms else { return rows }
    let ordered = entries.sorted { Self.precedes($0, $1, terms) }.map(\.row)
    return LimitClause.apply((limit, offset), to: ordered)
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
