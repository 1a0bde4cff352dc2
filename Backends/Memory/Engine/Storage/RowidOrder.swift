/// The rowids of a table in ascending order, each with the storage slot of its row.
///
/// A two-level sorted structure (an array of sorted chunks of bounded size): appending a new
/// largest rowid — the common case — is O(1); inserting or removing elsewhere costs a binary
/// search plus a move within one chunk; iteration is in rowid order.
struct RowidOrder {
  /// One rowid and the slot holding its row.
  struct Entry {
    var rowid: Int64
    var slot: Int32
  }

  private static let chunkCapacity = 512
  private(set) var chunks: [[Entry]] = []
  /// The first rowid of each chunk, for the binary search that finds a chunk.
  private var firstRowids: [Int64] = []
  private(set) var count = 0

  /// The largest rowid, or `nil` for an empty table.
  var maxRowid: Int64? { chunks.last?.last?.rowid }

  /// Adds a rowid that is not present yet.
  mutating func insert(_ rowid: Int64, slot: Int32) {
    count += 1
    let entry = Entry(rowid: rowid, slot: slot)
    guard let lastChunk = chunks.indices.last, let last = chunks[lastChunk].last else {
      appendChunk(entry)
      return
    }
    if rowid > last.rowid {
      if chunks[lastChunk].count < Self.chunkCapacity {
        chunks[lastChunk].append(entry)
      } else {
        appendChunk(entry)
      }
      return
    }
    let chunk = chunkIndex(for: rowid)
    let position = Self.position(of: rowid, in: chunks[chunk])
    chunks[chunk].insert(entry, at: position)
    if position == 0 { firstRowids[chunk] = rowid }
    if chunks[chunk].count > Self.chunkCapacity * 2 {
      let upper = Array(chunks[chunk][Self.chunkCapacity...])
      chunks[chunk].removeSubrange(Self.chunkCapacity...)
      chunks.insert(upper, at: chunk + 1)
      firstRowids.insert(upper[0].rowid, at: chunk + 1)
    }
  }

  private mutating func appendChunk(_ entry: Entry) {
    var chunk: [Entry] = []
    // A small table's one chunk grows as needed; later chunks are sure to fill up.
    chunk.reserveCapacity(chunks.isEmpty ? 16 : Self.chunkCapacity)
    chunk.append(entry)
    chunks.append(chunk)
    firstRowids.append(entry.rowid)
  }

  /// The slot of a rowid, or `nil` when it is absent (binary search, O(log n)).
  func slot(of rowid: Int64) -> Int32? {
    guard !chunks.isEmpty else { return nil }
    let chunk = chunkIndex(for: rowid)
    let entries = chunks[chunk]
    let position = Self.position(of: rowid, in: entries)
    guard position < entries.count, entries[position].rowid == rowid else { return nil }
    return entries[position].slot
  }

  /// Removes a rowid that is present.
  mutating func remove(_ rowid: Int64) {
    guard !chunks.isEmpty else { return }
    let chunk = chunkIndex(for: rowid)
    let position = Self.position(of: rowid, in: chunks[chunk])
    guard position < chunks[chunk].count, chunks[chunk][position].rowid == rowid else { return }
    count -= 1
    chunks[chunk].remove(at: position)
    if chunks[chunk].isEmpty {
      chunks.remove(at: chunk)
      firstRowids.remove(at: chunk)
    } else if position == 0 {
      firstRowids[chunk] = chunks[chunk][0].rowid
    }
  }

  /// Calls `body` with every entry in ascending rowid order; `body` returns false to stop.
  func forEach(_ body: (Entry) throws -> Bool) rethrows {
    for chunk in chunks {
      for entry in chunk where try !body(entry) { return }
    }
  }

  /// Calls `body` with every entry in descending rowid order; `body` returns false to stop.
  func forEachReversed(_ body: (Entry) throws -> Bool) rethrows {
    for chunk in chunks.reversed() {
      for entry in chunk.reversed() where try !body(entry) { return }
    }
  }

  /// All rowids in ascending order.
  var rowids: [Int64] {
    var result: [Int64] = []
    result.reserveCapacity(count)
    for chunk in chunks { for entry in chunk { result.append(entry.rowid) } }
    return result
  }

  /// The chunk that holds (or would hold) `rowid`: the last chunk whose first rowid is ≤ it.
  private func chunkIndex(for rowid: Int64) -> Int {
    firstRowids.withUnsafeBufferPointer { firsts in
      var low = 0
      var high = firsts.count - 1
      while low < high {
        let mid = (low + high + 1) / 2
        if firsts[mid] <= rowid { low = mid } else { high = mid - 1 }
      }
      return low
    }
  }

  /// The first position in `chunk` whose rowid is ≥ `rowid`.
  private static func position(of rowid: Int64, in chunk: [Entry]) -> Int {
    chunk.withUnsafeBufferPointer { entries in
      var low = 0
      var high = entries.count
      while low < high {
        let mid = (low + high) / 2
        if entries[mid].rowid < rowid { low = mid + 1 } else { high = mid }
      }
      return low
    }
  }
}
