/// An order-sensitive FNV-1a style hash of everything a workload read, so the optimizer cannot
/// drop the work and engines can be checked to return the same rows in the same order.
struct Checksum: Hashable, CustomStringConvertible {
  private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325
  /// How many values were mixed in.
  private(set) var count = 0

  mutating func mix(_ integer: Int) {
    value = (value ^ UInt64(bitPattern: Int64(integer))) &* 0x100_0000_01B3
    count += 1
  }

  mutating func mix(_ real: Double?) {
    mix(real.map { Int(bitPattern: UInt($0.bitPattern)) } ?? Int.min)
  }

  mutating func mix(_ text: String) {
    for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
    mix(text.utf8.count)
  }

  mutating func mix(_ row: Row10) {
    mix(row.id)
    mix(row.c1)
    mix(row.c2)
    mix(row.c3)
    mix(row.c4)
    mix(row.c5)
    mix(row.c6)
    mix(row.c7)
    mix(row.c8)
    mix(row.c9)
  }

  mutating func mix(_ rows: [Row10]) {
    mix(rows.count)
    for row in rows { mix(row) }
  }

  mutating func mix(_ author: Author) {
    mix(author.id)
    mix(author.name)
    mix(author.born)
  }

  mutating func mix(_ book: Book) {
    mix(book.id)
    mix(book.authorID)
    mix(book.title)
    mix(book.year)
    mix(book.rating)
  }

  mutating func mix(_ review: Review) {
    mix(review.id)
    mix(review.bookID)
    mix(review.stars)
    mix(review.body)
  }

  mutating func mix(_ list: BenchList) {
    mix(list.id)
    mix(list.name)
  }

  /// Combines another checksum into this one.
  mutating func mix(_ other: Checksum) {
    mix(Int(bitPattern: UInt(other.value)))
  }

  var description: String {
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
  }
}
