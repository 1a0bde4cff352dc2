import Testing
@testable import TandemMemory

/// The chunked rowid order against a plain sorted array, over many random operations.
@Suite struct EngineRowidOrderTests {
  @Test func matchesASortedArray() {
    var order = RowidOrder()
    var reference: [Int64: Int32] = [:]
    var generator = EngineSeededGenerator(seed: 42)
    for step in 0..<40_000 {
      let rowid = Int64.random(in: -3_000...3_000, using: &generator)
      if reference[rowid] == nil, step % 3 != 0 {
        order.insert(rowid, slot: Int32(step))
        reference[rowid] = Int32(step)
      } else if reference[rowid] != nil {
        order.remove(rowid)
        reference[rowid] = nil
      }
      if step % 5_000 == 0 {
        #expect(order.rowids == reference.keys.sorted())
      }
    }
    #expect(order.count == reference.count)
    #expect(order.rowids == reference.keys.sorted())
    #expect(order.maxRowid == reference.keys.max())
    for rowid in Int64(-3_100)...3_100 {
      #expect(order.slot(of: rowid) == reference[rowid])
    }
    // Appending in ascending order after the mixed phase.
    for rowid in Int64(3_001)...Int64(6_000) { order.insert(rowid, slot: 0) }
    #expect(order.rowids == reference.keys.sorted() + Array(Int64(3_001)...Int64(6_000)))
  }
}
