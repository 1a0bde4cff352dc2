/// One leaf of a ``RecordTree``: up to ``maximumEntries`` entries, each a record (see ``Record``)
/// and a rowid, kept in the tree's order, with the records packed one after another in one buffer
/// (SQLite's b-tree page, without the fixed page size).
///
/// The buffers are raw allocations so that reading an entry costs a few pointer loads even in a
/// debug build, and so that a page holds no memory beyond its entries once it is full.
final class RecordPage {
  /// The most entries a page holds before it is split.
  static let maximumEntries = 128
  /// The most record bytes a page holds before it is split (a page with one large record may
  /// hold more).
  static let maximumBytes = 16 * 1024

  /// The number of entries (read for every row visited, like `bytes`: unchecked).
  @exclusivity(unchecked) private(set) var count = 0
  /// The entries' rowids.
  let rowids: UnsafeMutablePointer<Int64>
  /// Where each record starts; `offsets[count]` is the number of bytes in use.
  let offsets: UnsafeMutablePointer<Int32>
  /// The records, one after another. Read for every row visited, always under the database's
  /// lock: the runtime's exclusivity check is left out.
  @exclusivity(unchecked) private(set) var bytes: UnsafeMutableRawPointer
  /// The size of `bytes`.
  private(set) var byteCapacity: Int

  /// An empty page with room for `bytes` record bytes.
  init(byteCapacity: Int = 256) {
    rowids = .allocate(capacity: Self.maximumEntries + 1)
    offsets = .allocate(capacity: Self.maximumEntries + 2)
    offsets[0] = 0
    self.byteCapacity = max(byteCapacity, 16)
    bytes = .allocate(byteCount: self.byteCapacity, alignment: 8)
  }

  deinit {
    rowids.deallocate()
    offsets.deallocate()
    bytes.deallocate()
  }

  /// The number of record bytes in use.
  @inline(__always) var usedBytes: Int { Int(offsets[count]) }

  /// The record of entry `slot`.
  @inline(__always) func record(_ slot: Int) -> UnsafeRawPointer { UnsafeRawPointer(bytes + Int(offsets[slot])) }

  /// The length of entry `slot`'s record.
  @inline(__always) func recordLength(_ slot: Int) -> Int { Int(offsets[slot + 1] - offsets[slot]) }

  /// Whether the page has more entries or bytes than a page should hold.
  var isOverfull: Bool { count > Self.maximumEntries || (count > 1 && usedBytes > Self.maximumBytes) }

  /// Whether one more entry would make the page overfull.
  var isFull: Bool { count >= Self.maximumEntries || usedBytes >= Self.maximumBytes }

  private func reserve(_ total: Int) {
    guard total > byteCapacity else { return }
    var capacity = byteCapacity
    while capacity < total { capacity *= 2 }
    resize(to: capacity)
  }

  private func resize(to capacity: Int) {
    let new = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    new.copyMemory(from: bytes, byteCount: usedBytes)
    bytes.deallocate()
    bytes = new
    byteCapacity = capacity
  }

  /// Gives back the unused part of the record buffer (for a page that will not grow soon).
  func shrinkToFit() {
    let used = max(usedBytes, 16)
    if byteCapacity > used + used / 8 { resize(to: used) }
  }

  /// Inserts an entry at `slot`, whose record `write` writes into `length` bytes.
  func insert(at slot: Int, rowid: Int64, length: Int, write: (UnsafeMutableRawPointer) -> Void) {
    let used = usedBytes
    reserve(used + length)
    let start = Int(offsets[slot])
    if slot < count {
      (bytes + start + length).copyMemory(from: bytes + start, byteCount: used - start)
      (rowids + slot + 1).update(from: rowids + slot, count: count - slot)
      var index = count + 1
      while index > slot {
        offsets[index] = offsets[index - 1] + Int32(length)
        index -= 1
      }
    } else {
      offsets[count + 1] = Int32(used + length)
    }
    write(bytes + start)
    rowids[slot] = rowid
    count += 1
  }

  /// Removes the entry at `slot`.
  func remove(at slot: Int) {
    let start = Int(offsets[slot])
    let length = recordLength(slot)
    let used = usedBytes
    (bytes + start).copyMemory(from: bytes + start + length, byteCount: used - start - length)
    if slot + 1 < count { (rowids + slot).update(from: rowids + slot + 1, count: count - slot - 1) }
    var index = slot
    while index < count {
      offsets[index] = offsets[index + 1] - Int32(length)
      index += 1
    }
    count -= 1
  }

  /// Replaces entry `slot`'s record with one of `length` bytes that `write` writes.
  func replace(at slot: Int, length: Int, write: (UnsafeMutableRawPointer) -> Void) {
    let start = Int(offsets[slot])
    let old = recordLength(slot)
    if length != old {
      let used = usedBytes
      reserve(used - old + length)
      let tail = start + old
      (bytes + start + length).copyMemory(from: bytes + tail, byteCount: used - tail)
      let delta = Int32(length - old)
      var index = slot + 1
      while index <= count {
        offsets[index] += delta
        index += 1
      }
    }
    write(bytes + start)
  }

  /// Moves the entries from `slot` on into a new page, which it returns.
  func split(at slot: Int) -> RecordPage {
    let start = Int(offsets[slot])
    let moved = usedBytes - start
    let page = RecordPage(byteCapacity: moved)
    page.bytes.copyMemory(from: bytes + start, byteCount: moved)
    let movedCount = count - slot
    page.rowids.update(from: rowids + slot, count: movedCount)
    var index = 0
    while index <= movedCount {
      page.offsets[index] = offsets[slot + index] - Int32(start)
      index += 1
    }
    page.count = movedCount
    count = slot
    shrinkToFit()
    return page
  }

  /// The number of bytes this page holds (for memory reports).
  var allocatedBytes: Int {
    byteCapacity + (Self.maximumEntries + 1) * MemoryLayout<Int64>.stride
      + (Self.maximumEntries + 2) * MemoryLayout<Int32>.stride
  }
}
