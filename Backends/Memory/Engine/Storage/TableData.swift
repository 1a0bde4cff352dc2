import TandemCore

/// The rows of one table and every index SQLite keeps for it.
///
/// Rows live in a ``RecordTree`` ordered by rowid, each encoded as a ``Record`` (the rowid alias
/// is stored as NULL, as SQLite stores it, and read back from the rowid). Each index of the
/// table's definition (``TableDefinition/indexes``) is a ``RecordTree`` of its key values and
/// the row's rowid, kept up to date with every change, so that unique keys are found and index
/// ranges walked in the order SQLite walks them.
final class TableData {
  let columnCount: Int
  /// The rowid alias, whose stored value is always a copy of the rowid.
  let rowidColumn: Int?
  let definition: TableDefinition
  /// The rows, by rowid.
  let rows = RecordTree(order: .rowid)
  /// One tree per index of the definition, in the same order.
  let indexes: [RecordTree]
  /// The AUTOINCREMENT high-water mark (the table's `sqlite_sequence` value; 0 when unused).
  var sequence: Int64 = 0

  init(definition: TableDefinition) {
    self.definition = definition
    columnCount = definition.columnCount
    rowidColumn = definition.rowidColumn
    indexes = definition.indexes.map { RecordTree(order: .key(fields: $0.columns.count), descendingFields: $0.descending) }
  }

  /// The number of rows.
  var rowCount: Int { rows.count }

  /// The largest rowid in the table, or `nil` when it is empty.
  var maxRowid: Int64? { rows.last.map(rows.rowid(at:)) }

  /// Whether a row with this rowid exists.
  func contains(_ rowid: Int64) -> Bool { rows.find(rowid: rowid) != nil }

  /// A copy of the row's values, or `nil` when there is no such row.
  func row(_ rowid: Int64) -> [SqliteValue]? {
    guard let position = rows.find(rowid: rowid) else { return nil }
    return values(at: position)
  }

  /// The values of the row at `position`.
  func values(at position: RecordTree.Position) -> [SqliteValue] {
    var values = Record.values(rows.record(at: position), count: columnCount)
    if let alias = rowidColumn { values[alias] = .integer(rows.rowid(at: position)) }
    return values
  }

  /// Decodes the row at `position` into `buffer` (`columnCount` initialized values).
  @inline(__always)
  func decode(_ position: RecordTree.Position, into buffer: UnsafeMutablePointer<SqliteValue>) {
    Record.decode(rows.record(at: position), count: columnCount, into: buffer)
    if let alias = rowidColumn { buffer[alias] = .integer(rows.rowid(at: position)) }
  }

  /// Decodes the columns at the positions `columns` (ascending) of the row with this record and
  /// rowid into `buffer`, the rowid alias's from the rowid; the other slots keep what they held.
  @inline(__always)
  func decode(
    _ record: UnsafeRawPointer, rowid: Int64, columns: UnsafeBufferPointer<Int>,
    into buffer: UnsafeMutablePointer<SqliteValue>
  ) {
    guard !columns.isEmpty else { return }
    if columns.count == columnCount {
      Record.decode(record, count: columnCount, into: buffer)
    } else {
      Record.decode(record, count: columnCount, columns: columns, into: buffer)
    }
    if let alias = rowidColumn, columns.contains(alias) { buffer[alias] = .integer(rowid) }
  }

  /// One value of a row (`nil` when there is no such row).
  func value(_ rowid: Int64, column: Int) -> SqliteValue? {
    guard let position = rows.find(rowid: rowid) else { return nil }
    if column == rowidColumn { return .integer(rowid) }
    return Record.value(rows.record(at: position), count: columnCount, column: column)
  }

  // MARK: - Unique keys

  /// The key values a row with `values` has in the index at `index`.
  func key(of values: [SqliteValue], index: Int) -> [SqliteValue] {
    definition.indexes[index].columns.map { values[$0] }
  }

  /// The rowid of the row holding these key values in the unique index at `index`, if any. A
  /// key with a NULL in it matches no row (NULLs never conflict).
  func owner(of key: [SqliteValue], index: Int) -> Int64? {
    if key.contains(where: \.isNull) { return nil }
    let tree = indexes[index]
    return key.withUnsafeBufferPointer { probe in
      guard let position = tree.seek(probe, orEqual: true),
        tree.compare(at: position, probe) == 0
      else { return nil }
      return tree.rowid(at: position)
    }
  }

  /// The rowid of the row that conflicts with `values` in unique constraint `constraint`, if any.
  func owner(of values: [SqliteValue], inConstraint constraint: Int) -> Int64? {
    let index = definition.uniqueConstraints[constraint].index
    return owner(of: key(of: values, index: index), index: index)
  }

  // MARK: - Changes

  /// Adds a row; its rowid must be new and its unique keys free.
  func insert(_ rowid: Int64, values: [SqliteValue]) {
    values.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let length = Record.encodedSize(base, count: columnCount, skipping: rowidColumn)
      rows.insert(rowid: rowid, length: length, record: nil) { destination in
        Record.write(base, count: columnCount, skipping: rowidColumn, to: destination)
      }
    }
    insertKeys(of: values, rowid: rowid)
  }

  /// Removes a row and returns its values (`nil` when there was none).
  @discardableResult
  func remove(_ rowid: Int64) -> [SqliteValue]? {
    guard let position = rows.find(rowid: rowid) else { return nil }
    let old = values(at: position)
    rows.remove(at: position)
    removeKeys(of: old, rowid: rowid)
    return old
  }

  /// Replaces the values of an existing row (same rowid) and returns the old ones.
  @discardableResult
  func replace(_ rowid: Int64, values: [SqliteValue]) -> [SqliteValue]? {
    guard let position = rows.find(rowid: rowid) else { return nil }
    let old = self.values(at: position)
    values.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let length = Record.encodedSize(base, count: columnCount, skipping: rowidColumn)
      rows.replace(at: position, length: length) { destination in
        Record.write(base, count: columnCount, skipping: rowidColumn, to: destination)
      }
    }
    for index in indexes.indices {
      let columns = definition.indexes[index].columns
      if columns.contains(where: { old[$0] != values[$0] }) {
        removeKey(of: old, rowid: rowid, index: index)
        insertKey(of: values, rowid: rowid, index: index)
      }
    }
    return old
  }

  private func insertKeys(of values: [SqliteValue], rowid: Int64) {
    var index = 0
    while index < indexes.count {
      insertKey(of: values, rowid: rowid, index: index)
      index += 1
    }
  }

  private func removeKeys(of values: [SqliteValue], rowid: Int64) {
    var index = 0
    while index < indexes.count {
      removeKey(of: values, rowid: rowid, index: index)
      index += 1
    }
  }

  private func insertKey(of values: [SqliteValue], rowid: Int64, index: Int) {
    let record = Record.encode(key(of: values, index: index))
    record.withUnsafeBytes { bytes in indexes[index].insert(rowid: rowid, record: bytes) }
  }

  private func removeKey(of values: [SqliteValue], rowid: Int64, index: Int) {
    let tree = indexes[index]
    key(of: values, index: index).withUnsafeBufferPointer { probe in
      guard let position = tree.seek(probe, rowid: rowid, orEqual: true), tree.rowid(at: position) == rowid else {
        return
      }
      tree.remove(at: position)
    }
  }

  /// Calls `body` with each row (decoded into a buffer valid only during the call) and rowid,
  /// in rowid order, until it returns false.
  func scan(_ body: (UnsafePointer<SqliteValue>, Int64) throws -> Bool) rethrows {
    try withRowBuffer(columnCount) { buffer in
      var position = rows.first
      while let current = position {
        decode(current, into: buffer)
        if try !body(UnsafePointer(buffer), rows.rowid(at: current)) { return }
        position = rows.next(current)
      }
    }
  }

  /// All rowids in ascending order.
  var rowids: [Int64] {
    var result: [Int64] = []
    result.reserveCapacity(rows.count)
    var position = rows.first
    while let current = position {
      result.append(rows.rowid(at: current))
      position = rows.next(current)
    }
    return result
  }

  /// The bytes the rows and indexes hold.
  var allocatedBytes: Int { indexes.reduce(rows.allocatedBytes) { $0 + $1.allocatedBytes } }

  /// A description of the first way the rows and indexes disagree, or `nil` when they agree:
  /// every tree is in order, and each index holds exactly one entry per row, with its key.
  func invariantViolation() -> String? {
    if let problem = rows.checkOrder() { return "rows: \(problem)" }
    for (position, tree) in indexes.enumerated() {
      let name = definition.indexes[position].name
      if let problem = tree.checkOrder() { return "\(name): \(problem)" }
      if tree.count != rows.count { return "\(name) has \(tree.count) entries for \(rows.count) rows" }
      var entry = tree.first
      while let current = entry {
        let rowid = tree.rowid(at: current)
        guard let row = row(rowid) else { return "\(name) names a missing row" }
        let key = key(of: row, index: position)
        let matches = key.withUnsafeBufferPointer { probe in
          tree.compare(at: current, probe) == 0
        }
        if !matches { return "\(name) holds a stale key" }
        entry = tree.next(current)
      }
      if definition.indexes[position].isUnique {
        var previous: RecordTree.Position?
        entry = tree.first
        while let current = entry {
          if let previous, Record.compare(tree.record(at: previous), tree.record(at: current), count: tree.keyFields, descending: tree.descendingFields) == 0,
            !Record.hasNull(tree.record(at: current), count: tree.keyFields)
          {
            return "\(name): two rows share a unique key"
          }
          previous = current
          entry = tree.next(current)
        }
      }
    }
    return nil
  }
}

/// Runs `body` with a temporary buffer of `count` NULL values (deinitialized afterwards).
@inline(__always)
func withRowBuffer<Result>(_ count: Int, _ body: (UnsafeMutablePointer<SqliteValue>) throws -> Result) rethrows -> Result {
  try withUnsafeTemporaryAllocation(of: SqliteValue.self, capacity: max(count, 1)) { buffer in
    let base = buffer.baseAddress!
    base.initialize(repeating: .null, count: count)
    defer { base.deinitialize(count: count) }
    return try body(base)
  }
}

extension Record {
  /// Whether one of the first `count` values of a record is NULL.
  static func hasNull(_ record: UnsafeRawPointer, count: Int) -> Bool {
    var header = 0
    for _ in 0..<count where readVarint(record, &header) == 0 { return true }
    return false
  }
}
