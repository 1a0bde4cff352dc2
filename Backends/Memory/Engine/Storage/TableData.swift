import TandemCore

/// The rows of one table and its unique hash indexes.
///
/// Rows live in a flat cell array (`columnCount` values per slot, no per-row allocation);
/// ``RowidOrder`` keeps the rowids sorted with their slots, for scans and O(log n) lookups.
/// Every unique constraint has a hash map from its key to the owning rowid.
struct TableData {
  let columnCount: Int
  /// The rowid alias, whose stored value is always a copy of the rowid.
  private let rowidColumn: Int?
  private let uniqueColumns: [[Int]]
  private(set) var cells: ContiguousArray<SqliteValue> = []
  private var slotRowids: ContiguousArray<Int64> = []
  private var freeSlots: [Int32] = []
  private(set) var order = RowidOrder()
  private(set) var uniqueMaps: [[IndexKey: Int64]]
  /// The AUTOINCREMENT high-water mark (the table's `sqlite_sequence` value; 0 when unused).
  var sequence: Int64 = 0

  init(definition: TableDefinition) {
    columnCount = definition.columnCount
    rowidColumn = definition.rowidColumn
    uniqueColumns = definition.uniqueConstraints.map(\.columns)
    uniqueMaps = Array(repeating: [:], count: definition.uniqueConstraints.count)
  }

  /// The number of rows.
  var rowCount: Int { order.count }

  /// The largest rowid in the table, or `nil` when it is empty.
  var maxRowid: Int64? { order.maxRowid }

  /// Whether a row with this rowid exists.
  func contains(_ rowid: Int64) -> Bool { order.slot(of: rowid) != nil }

  /// A copy of the row's values, or `nil` when there is no such row.
  func row(_ rowid: Int64) -> [SqliteValue]? {
    guard let slot = order.slot(of: rowid) else { return nil }
    let base = Int(slot) * columnCount
    return Array(cells[base..<base + columnCount])
  }

  /// One value of a row (`nil` when there is no such row).
  func value(_ rowid: Int64, column: Int) -> SqliteValue? {
    guard let slot = order.slot(of: rowid) else { return nil }
    return cells[Int(slot) * columnCount + column]
  }

  /// The rowid of the row holding `key` in unique constraint `constraint`, if any.
  func owner(of key: IndexKey, in constraint: Int) -> Int64? { uniqueMaps[constraint][key] }

  /// The key a row with `values` has in unique constraint `constraint` (`nil` if it has a NULL).
  func key(of values: [SqliteValue], in constraint: Int) -> IndexKey? {
    let columns = uniqueColumns[constraint]
    if columns.count == 1 { return IndexKey.make(values[columns[0]]) }
    return IndexKey.make(columns.map { values[$0] })
  }

  /// Adds a row; its rowid must be new and its unique keys free.
  mutating func insert(_ rowid: Int64, values: [SqliteValue]) {
    let slot: Int32
    if let free = freeSlots.popLast() {
      slot = free
      let base = Int(slot) * columnCount
      for column in 0..<columnCount { cells[base + column] = values[column] }
      slotRowids[Int(slot)] = rowid
    } else {
      slot = Int32(slotRowids.count)
      if cells.isEmpty { cells.reserveCapacity(columnCount * 16) }
      // Element by element: appending the array at once copies through generic value witnesses.
      for value in values { cells.append(value) }
      slotRowids.append(rowid)
    }
    order.insert(rowid, slot: slot)
    for constraint in uniqueMaps.indices {
      if let key = key(of: values, in: constraint) { uniqueMaps[constraint][key] = rowid }
    }
  }

  /// Removes a row and returns its values (`nil` when there was none).
  @discardableResult
  mutating func remove(_ rowid: Int64) -> [SqliteValue]? {
    guard let slot = order.slot(of: rowid) else { return nil }
    let base = Int(slot) * columnCount
    let values = Array(cells[base..<base + columnCount])
    for column in 0..<columnCount { cells[base + column] = .null }
    freeSlots.append(slot)
    order.remove(rowid)
    removeKeys(of: values, rowid: rowid)
    return values
  }

  /// Replaces the values of an existing row (same rowid) and returns the old ones.
  @discardableResult
  mutating func replace(_ rowid: Int64, values: [SqliteValue]) -> [SqliteValue]? {
    guard let slot = order.slot(of: rowid) else { return nil }
    let base = Int(slot) * columnCount
    let old = Array(cells[base..<base + columnCount])
    removeKeys(of: old, rowid: rowid)
    for column in 0..<columnCount { cells[base + column] = values[column] }
    for constraint in uniqueMaps.indices {
      if let key = key(of: values, in: constraint) { uniqueMaps[constraint][key] = rowid }
    }
    return old
  }

  private mutating func removeKeys(of values: [SqliteValue], rowid: Int64) {
    for constraint in uniqueMaps.indices {
      if let key = key(of: values, in: constraint), uniqueMaps[constraint][key] == rowid {
        uniqueMaps[constraint][key] = nil
      }
    }
  }

  /// Calls `body` with each row (a pointer to its `columnCount` values) and rowid, in rowid
  /// order, until it returns false. The pointer is valid only during the call.
  func scan(_ body: (UnsafePointer<SqliteValue>, Int64) throws -> Bool) rethrows {
    try cells.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      try order.forEach { entry in
        try body(base + Int(entry.slot) * columnCount, entry.rowid)
      }
    }
  }

  /// All rowids in ascending order.
  var rowids: [Int64] { order.rowids }

  /// Checks (in debug builds) that the slot map, the order and every unique index agree with the rows.
  func assertInvariants() {
    #if DEBUG
      var previous: Int64?
      order.forEach { entry in
        assert(previous.map { $0 < entry.rowid } ?? true, "rowid order is not ascending")
        assert(order.slot(of: entry.rowid) == entry.slot, "rowid order points at the wrong slot")
        assert(slotRowids[Int(entry.slot)] == entry.rowid, "slot holds another rowid")
        if let alias = rowidColumn {
          assert(cells[Int(entry.slot) * columnCount + alias] == .integer(entry.rowid), "alias differs from the rowid")
        }
        previous = entry.rowid
        return true
      }
      for constraint in uniqueMaps.indices {
        var expected: [IndexKey: Int64] = [:]
        order.forEach { entry in
          let base = Int(entry.slot) * columnCount
          let values = Array(cells[base..<base + columnCount])
          if let key = key(of: values, in: constraint) {
            assert(expected[key] == nil, "two rows share a unique key")
            expected[key] = entry.rowid
          }
          return true
        }
        assert(expected == uniqueMaps[constraint], "unique index does not match the rows")
      }
    #endif
  }
}

extension TableData {
  /// The slot of a rowid, if the row exists.
  func slot(of rowid: Int64) -> Int32? { order.slot(of: rowid) }

  /// Calls `body` with the base address of the cell storage (`nil` when no row was ever stored).
  /// Row `slot` starts at `base + slot * columnCount`; valid only during the call.
  func withCells<R>(_ body: (UnsafePointer<SqliteValue>?) throws -> R) rethrows -> R {
    try cells.withUnsafeBufferPointer { try body($0.baseAddress) }
  }
}
