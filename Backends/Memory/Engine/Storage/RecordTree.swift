import Foundation
import TandemCore

/// A sorted sequence of entries (a record and a rowid) in pages: SQLite's b-tree, two levels deep.
///
/// A table's rows are ordered by rowid (``Order/rowid``); an index's entries by their key
/// fields, then the rowid (``Order/key(fields:)``), comparing as SQLite's index b-trees compare
/// under BINARY collation, a `DESC` field (``descendingFields``) the other way round (the rowid
/// always ascends). Finding an entry is a binary search over the pages, then within one.
///
/// ```swift
/// let rows = RecordTree(order: .rowid)
/// rows.insert(Record.encode([.text("a")]), rowid: 7)
/// rows.find(rowid: 7)  // Position(page: 0, slot: 0)
/// ```
final class RecordTree {
  /// How entries are ordered.
  enum Order: Equatable {
    /// By rowid alone (a table).
    case rowid
    /// By the first `fields` values of the record, then by rowid (an index).
    case key(fields: Int)
  }

  /// Where an entry is: its page and its slot in the page. Valid until the tree next changes.
  struct Position: Equatable {
    var page: Int
    var slot: Int
  }

  let order: Order
  /// For an index, whether each key field is in descending order; empty when none is.
  let descendingFields: [Bool]
  /// The pages, in key order. This and `lastRowids` are read on every lookup and every step of
  /// a scan, always under the database's lock: the runtime's exclusivity checks are left out.
  @exclusivity(unchecked) private(set) var pages: [RecordPage] = []
  /// For a table tree, each page's last rowid, side by side: a lookup by rowid searches this
  /// array, not the pages themselves (SQLite's interior b-tree pages play this part).
  @exclusivity(unchecked) private var lastRowids: [Int64] = []
  /// The number of entries.
  private(set) var count = 0
  /// Changes whenever an entry is inserted or removed (positions are then stale).
  private(set) var version = 0
  /// Changes whenever an entry is inserted, removed or replaced: a compiled plan that read the
  /// tree's content (see ``Catalog/contentVersion``) is stale once it moves.
  private(set) var changeCount = 0

  init(order: Order, descendingFields: [Bool] = []) {
    self.order = order
    self.descendingFields = descendingFields.contains(true) ? descendingFields : []
  }

  /// The number of key fields of an index tree (0 for a table).
  var keyFields: Int {
    if case .key(let fields) = order { return fields }
    return 0
  }

  // MARK: - Positions

  /// The first entry, if any.
  var first: Position? { count == 0 ? nil : Position(page: 0, slot: 0) }

  /// The last entry, if any.
  var last: Position? { count == 0 ? nil : Position(page: pages.count - 1, slot: pages[pages.count - 1].count - 1) }

  /// The entry after `position`, if any.
  @inline(__always)
  func next(_ position: Position) -> Position? {
    if position.slot + 1 < pages[position.page].count { return Position(page: position.page, slot: position.slot + 1) }
    if position.page + 1 < pages.count { return Position(page: position.page + 1, slot: 0) }
    return nil
  }

  /// The entry before `position`, if any.
  @inline(__always)
  func previous(_ position: Position) -> Position? {
    if position.slot > 0 { return Position(page: position.page, slot: position.slot - 1) }
    if position.page > 0 { return Position(page: position.page - 1, slot: pages[position.page - 1].count - 1) }
    return nil
  }

  /// The rowid of the entry at `position`.
  @inline(__always)
  func rowid(at position: Position) -> Int64 { pages[position.page].rowids[position.slot] }

  /// The record of the entry at `position` (valid until the tree next changes).
  @inline(__always)
  func record(at position: Position) -> UnsafeRawPointer { pages[position.page].record(position.slot) }

  /// The first position at or after which the entries are not "before" the target, where
  /// `isBefore(page, slot)` is true for every entry before some point and false after it.
  private func partition(_ isBefore: (RecordPage, Int) -> Bool) -> Position? {
    guard count > 0 else { return nil }
    // The first page whose last entry is not before the target.
    var low = 0
    var high = pages.count
    while low < high {
      let mid = (low + high) / 2
      let page = pages[mid]
      if isBefore(page, page.count - 1) { low = mid + 1 } else { high = mid }
    }
    if low == pages.count { return nil }
    let page = pages[low]
    var lowSlot = 0
    var highSlot = page.count
    while lowSlot < highSlot {
      let mid = (lowSlot + highSlot) / 2
      if isBefore(page, mid) { lowSlot = mid + 1 } else { highSlot = mid }
    }
    return Position(page: low, slot: lowSlot)
  }

  /// The first entry whose rowid is ≥ `rowid` (a table tree).
  func lowerBound(rowid: Int64) -> Position? {
    rowidPartition(rowid, orEqual: true)
  }

  /// The first entry whose rowid is > `rowid` (a table tree).
  func upperBound(rowid: Int64) -> Position? {
    rowidPartition(rowid, orEqual: false)
  }

  /// The first entry whose rowid is ≥ `rowid` (`orEqual`) or > it: a binary search over the
  /// pages' last rowids, then over the rowids of one page.
  private func rowidPartition(_ rowid: Int64, orEqual: Bool) -> Position? {
    let pageIndex: Int = lastRowids.withUnsafeBufferPointer { lasts in
      var low = 0
      var high = lasts.count
      while low < high {
        let mid = (low + high) / 2
        if orEqual ? lasts[mid] < rowid : lasts[mid] <= rowid { low = mid + 1 } else { high = mid }
      }
      return low
    }
    if pageIndex == pages.count { return nil }
    let page = pages[pageIndex]
    let rowids = page.rowids
    let first = rowids[0]
    // A page of consecutive rowids (the usual table) is indexed directly.
    if rowids[page.count - 1] &- first == Int64(page.count - 1), rowid >= first {
      let slot = Int(rowid &- first) + (orEqual ? 0 : 1)
      return Position(page: pageIndex, slot: min(slot, page.count))
    }
    var low = 0
    var high = page.count
    while low < high {
      let mid = (low + high) / 2
      if orEqual ? rowids[mid] < rowid : rowids[mid] <= rowid { low = mid + 1 } else { high = mid }
    }
    return Position(page: pageIndex, slot: low)
  }

  /// Records page `index`'s last rowid after it changed (a table tree).
  @inline(__always)
  private func noteLastRowid(of index: Int) {
    guard case .rowid = order else { return }
    let page = pages[index]
    lastRowids[index] = page.rowids[page.count - 1]
  }

  /// Inserts the page at `index` (and its last rowid).
  private func insertPage(_ page: RecordPage, at index: Int) {
    pages.insert(page, at: index)
    if case .rowid = order { lastRowids.insert(page.rowids[page.count - 1], at: index) }
  }

  /// Removes the page at `index` (and its last rowid).
  private func removePage(at index: Int) {
    pages.remove(at: index)
    if case .rowid = order { lastRowids.remove(at: index) }
  }

  /// The entry with this rowid (a table tree).
  func find(rowid: Int64) -> Position? {
    guard let position = lowerBound(rowid: rowid), self.rowid(at: position) == rowid else { return nil }
    return position
  }

  /// The first index entry that compares ≥ the probe (`orEqual`) or > it: the probe's values
  /// are compared with the entry's first `probe.count` fields (a shorter probe is a prefix),
  /// then, when `rowid` is given, the rowid.
  func seek(_ probe: UnsafeBufferPointer<SqliteValue>, rowid: Int64? = nil, orEqual: Bool) -> Position? {
    let fields = keyFields
    return partition { page, slot in
      var order = Self.compare(
        page.record(slot), fields: fields, probe, rowid: page.rowids[slot], descending: self.descendingFields)
      if order == 0, let rowid { order = page.rowids[slot] < rowid ? -1 : (page.rowids[slot] > rowid ? 1 : 0) }
      return orEqual ? order < 0 : order <= 0
    }
  }

  /// Compares the entry at `position` with the probe values in the tree's order (see
  /// ``compare(_:fields:_:rowid:descending:)``).
  @inline(__always)
  func compare(at position: Position, _ probe: UnsafeBufferPointer<SqliteValue>) -> Int {
    Self.compare(record(at: position), fields: keyFields, probe, rowid: rowid(at: position), descending: descendingFields)
  }

  /// Compares the first `probe.count` fields of an index entry with the probe values, as SQLite
  /// compares index keys under BINARY collation, a field marked in `descending` the other way
  /// round. The entry is its record's `fields` fields and then its rowid, which SQLite's index
  /// records end with: a probe one value longer than the key bounds the rowid too (`a = ? AND
  /// rowid > ?` searched in an index on a).
  static func compare(
    _ record: UnsafeRawPointer, fields: Int, _ probe: UnsafeBufferPointer<SqliteValue>, rowid: Int64,
    descending: [Bool] = []
  ) -> Int {
    var header = 0
    var body = Record.headerSize(record, count: fields)
    let compared = min(probe.count, fields)
    var index = 0
    while index < compared {
      let type = Record.readVarint(record, &header)
      let order = compareField(type, record + body, probe[index])
      if order != 0 { return index < descending.count && descending[index] ? -order : order }
      body += Record.bodyLength(type)
      index += 1
    }
    if probe.count > fields { return ValueOrder.compare(.integer(rowid), probe[fields], collation: .binary) }
    return 0
  }

  /// Compares one encoded field with a value.
  @inline(__always)
  static func compareField(_ type: Int, _ body: UnsafeRawPointer, _ value: SqliteValue) -> Int {
    let rank = Record.storageRank(type)
    let valueRank: Int
    switch value {
    case .null: valueRank = 0
    case .integer, .real: valueRank = 1
    case .text: valueRank = 2
    case .blob: valueRank = 3
    }
    if rank != valueRank { return rank < valueRank ? -1 : 1 }
    switch value {
    case .null:
      return 0
    case .integer, .real:
      return ValueOrder.compare(Record.value(serialType: type, at: body), value, collation: .binary)
    case .text(let text):
      let stored = UnsafeRawBufferPointer(start: body, count: (type - 13) >> 1)
      return withUTF8Bytes(of: text) { probe in compareBytes(stored, UnsafeRawBufferPointer(probe)) }
    case .blob(let data):
      let stored = UnsafeRawBufferPointer(start: body, count: (type - 12) >> 1)
      return data.withUnsafeBytes { probe in compareBytes(stored, probe) }
    }
  }

  /// memcmp over the common length, then the shorter first.
  @inline(__always)
  private static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    if common > 0, let x = a.baseAddress, let y = b.baseAddress {
      let order = memcmp(x, y, common)
      if order != 0 { return order < 0 ? -1 : 1 }
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }

  // MARK: - Changes

  /// Inserts an entry whose record `write` writes into `length` bytes, at its place in the order.
  /// For an index the record must already be encoded (`record`), to find its place.
  func insert(rowid: Int64, length: Int, record: UnsafeRawPointer?, write: (UnsafeMutableRawPointer) -> Void) {
    version &+= 1
    changeCount &+= 1
    count += 1
    guard !pages.isEmpty else {
      let page = RecordPage(byteCapacity: max(length, 64))
      page.insert(at: 0, rowid: rowid, length: length, write: write)
      insertPage(page, at: 0)
      return
    }
    let target: Position
    switch order {
    case .rowid:
      let lastPage = pages[pages.count - 1]
      if lastPage.rowids[lastPage.count - 1] < rowid {
        target = Position(page: pages.count - 1, slot: lastPage.count)
      } else {
        target = lowerBound(rowid: rowid) ?? Position(page: pages.count - 1, slot: lastPage.count)
      }
    case .key(let fields):
      guard let record else { preconditionFailure("an index entry needs its encoded record") }
      target =
        partition { page, slot in
          let order = Record.compare(page.record(slot), record, count: fields, descending: descendingFields)
          return order < 0 || (order == 0 && page.rowids[slot] < rowid)
        } ?? Position(page: pages.count - 1, slot: pages[pages.count - 1].count)
    }
    let page = pages[target.page]
    if target.page == pages.count - 1 && target.slot == page.count && page.isFull {
      // Appending past a full last page (the usual case): start a new page, as SQLite's
      // balance_quick does, and leave the full one without spare room.
      page.shrinkToFit()
      let fresh = RecordPage(byteCapacity: max(length, 256))
      fresh.insert(at: 0, rowid: rowid, length: length, write: write)
      insertPage(fresh, at: pages.count)
      return
    }
    page.insert(at: target.slot, rowid: rowid, length: length, write: write)
    if page.isOverfull {
      insertPage(page.split(at: page.count / 2), at: target.page + 1)
    }
    noteLastRowid(of: target.page)
  }

  /// Inserts an entry with these record bytes.
  func insert(rowid: Int64, record bytes: UnsafeRawBufferPointer) {
    insert(rowid: rowid, length: bytes.count, record: bytes.baseAddress) { destination in
      if let base = bytes.baseAddress { destination.copyMemory(from: base, byteCount: bytes.count) }
    }
  }

  /// Removes the entry at `position`.
  func remove(at position: Position) {
    version &+= 1
    changeCount &+= 1
    count -= 1
    let page = pages[position.page]
    page.remove(at: position.slot)
    if page.count == 0 {
      removePage(at: position.page)
    } else if position.page > 0, page.count + pages[position.page - 1].count <= RecordPage.maximumEntries / 2 {
      merge(position.page)
    } else {
      noteLastRowid(of: position.page)
    }
  }

  /// Moves page `index`'s entries to the end of the page before it and drops it.
  private func merge(_ index: Int) {
    let source = pages[index]
    let target = pages[index - 1]
    for slot in 0..<source.count {
      let length = source.recordLength(slot)
      let record = source.record(slot)
      target.insert(at: target.count, rowid: source.rowids[slot], length: length) { destination in
        destination.copyMemory(from: record, byteCount: length)
      }
    }
    removePage(at: index)
    noteLastRowid(of: index - 1)
  }

  /// Replaces the record of the entry at `position` (a table tree: the order does not change).
  func replace(at position: Position, length: Int, write: (UnsafeMutableRawPointer) -> Void) {
    changeCount &+= 1
    pages[position.page].replace(at: position.slot, length: length, write: write)
  }

  /// Removes every entry.
  func removeAll() {
    version &+= 1
    changeCount &+= 1
    count = 0
    pages.removeAll()
    lastRowids.removeAll()
  }

  /// The bytes the tree's pages hold.
  var allocatedBytes: Int { pages.reduce(0) { $0 + $1.allocatedBytes } }

  /// Checks that every page is sorted and non-empty and that the pages follow each other in order.
  func checkOrder() -> String? {
    var previous: (record: UnsafeRawPointer, rowid: Int64)?
    var total = 0
    for page in pages {
      if page.count == 0 { return "an empty page" }
      for slot in 0..<page.count {
        let current = (record: page.record(slot), rowid: page.rowids[slot])
        if let previous {
          let order: Int
          switch self.order {
          case .rowid: order = previous.rowid < current.rowid ? -1 : 1
          case .key(let fields):
            let keys = Record.compare(previous.record, current.record, count: fields, descending: descendingFields)
            order = keys != 0 ? keys : (previous.rowid < current.rowid ? -1 : 1)
          }
          if order >= 0 { return "entries out of order" }
        }
        previous = current
        total += 1
      }
    }
    if case .rowid = order, lastRowids != pages.map({ $0.rowids[$0.count - 1] }) {
      return "the pages' last rowids are out of date"
    }
    return total == count ? nil : "the count differs from the entries"
  }
}
