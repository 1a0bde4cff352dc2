import TandemCore

/// The rows a join's sorter holds until it hands them out in ORDER BY order (SQLite's sorter,
/// `vdbesort.c`): each row's result columns and its ORDER BY key, side by side in two flat
/// arrays (two allocations for the whole result, not two per row).
///
/// ```swift
/// var rows = SorterRows(width: 2, keyWidth: 2)
/// try rows.append(evaluating: projection, keys: orderKeys, context)   // one joined row
/// for index in rows.sortedIndices(terms) { emit(rows.row(index)) }
/// ```
struct SorterRows {
  /// The result columns of a row.
  let width: Int
  /// The values of a row's ORDER BY key.
  let keyWidth: Int
  /// The rows held.
  private(set) var count = 0
  private var values: [SqliteValue] = []
  private var keys: [SqliteValue] = []

  init(width: Int, keyWidth: Int) {
    self.width = width
    self.keyWidth = keyWidth
    // Room for a few dozen rows before the arrays first grow.
    values.reserveCapacity(32 * width)
    keys.reserveCapacity(32 * keyWidth)
  }

  /// Appends a row whose result columns (`projection`, or none) and key are computed in that
  /// order, as SQLite computes them for its sorter.
  mutating func append(
    evaluating projection: [ValueEvaluator]?, keys orderKeys: [ValueEvaluator], _ context: EvaluationContext
  ) throws {
    if let projection {
      for column in projection { values.append(try column(context)) }
    }
    for key in orderKeys { keys.append(try key(context)) }
    count += 1
  }

  /// Appends a row computed already.
  mutating func append(row: [SqliteValue], key: [SqliteValue]) {
    insert(row: row, key: key, at: count)
  }

  /// Puts a row computed already at `position`, moving the rows from there one place on.
  mutating func insert(row: [SqliteValue], key: [SqliteValue], at position: Int) {
    values.insert(contentsOf: row, at: position * width)
    keys.insert(contentsOf: key, at: position * keyWidth)
    count += 1
  }

  /// Drops the last row.
  mutating func removeLast() {
    values.removeLast(width)
    keys.removeLast(keyWidth)
    count -= 1
  }

  /// The result columns of row `index`.
  func row(_ index: Int) -> ArraySlice<SqliteValue> { values[index * width..<(index + 1) * width] }

  /// Value `term` of row `index`'s key.
  func keyValue(_ index: Int, term: Int) -> SqliteValue { keys[index * keyWidth + term] }

  /// Whether rows `a` and `b` hold the very same result columns.
  func rowsAreIdentical(_ a: Int, _ b: Int) -> Bool { row(a) == row(b) }

  /// How row `a`'s key compares with row `b`'s under `terms`.
  func compareKeys(_ a: Int, _ b: Int, _ terms: [SortTerm]) -> Int {
    keys.withUnsafeBufferPointer { stored in
      guard let base = stored.baseAddress else { return 0 }
      return Ordering.compare(base + a * keyWidth, base + b * keyWidth, terms)
    }
  }

  /// How row `index`'s key compares with `key` under `terms`.
  func compareKey(_ index: Int, with key: [SqliteValue], _ terms: [SortTerm]) -> Int {
    keys.withUnsafeBufferPointer { stored in
      key.withUnsafeBufferPointer { other in
        guard let base = stored.baseAddress, let probe = other.baseAddress else { return 0 }
        return Ordering.compare(base + index * keyWidth, probe, terms)
      }
    }
  }

  /// The rows' positions in key order; rows of equal keys keep the order they came in. Rows
  /// that came in order (a join whose loops meet them in rowid order) are not sorted again.
  func sortedIndices(_ terms: [SortTerm]) -> [Int] {
    keys.withUnsafeBufferPointer { stored in
      guard let base = stored.baseAddress else { return Array(0..<count) }
      let width = keyWidth
      return Ordering.sortedIndices(count: count) { Ordering.compare(base + $0 * width, base + $1 * width, terms) }
    }
  }
}
