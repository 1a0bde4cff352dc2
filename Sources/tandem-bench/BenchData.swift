/// Deterministic data for every workload, so every engine sees the same rows and keys.
enum BenchData {
  /// Values of `c1`…`c9` lie in `0..<valueRange`.
  static let valueRange = 1_000_000
  /// W4 keeps rows with `c3 > scanC3Above AND c5 < scanC5Below` (about a quarter of them).
  static let scanC3Above = 500_000
  static let scanC5Below = 500_000

  /// W7's "today": a reminder is overdue when it is not completed and its `dueDay` is before it
  /// (about one reminder in 220, so about a third of the lists have one).
  static let today = 25

  /// W6–W7's lists, ids `1...count`, named `List 0001`, `List 0002`, …
  static func lists(count: Int) -> [BenchList] {
    count > 0 ? (1...count).map { BenchList(id: $0, name: listName($0)) } : []
  }

  /// The name of the list with primary key `id`.
  static func listName(_ id: Int) -> String {
    let digits = String(id)
    return "List " + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// W6–W7's reminders, ids `1...count`, each in a pseudo-random one of `lists` lists: a list's
  /// reminders are spread over the whole table, as if added over time. 70% are completed; 40%
  /// have no due day, the others one in `0..<1000`.
  static func reminders(count: Int, lists: Int) -> [BenchReminder] {
    guard count > 0 else { return [] }
    return (1...count).map { id in
      let due = mix(UInt64(id) << 4 | 12) % 1000
      return BenchReminder(
        id: id, listID: Int(mix(UInt64(id) << 4 | 10) % UInt64(max(1, lists))) + 1, title: "Reminder \(id)",
        dueDay: mix(UInt64(id) << 4 | 11) % 10 < 4 ? nil : Int(due), isCompleted: mix(UInt64(id) << 4 | 13) % 10 < 7)
    }
  }

  /// W6's lists: `count` ids spread evenly over `1...lists`.
  static func joinedListIDs(count: Int, lists: Int) -> [Int] {
    let step = max(1, lists / max(1, count))
    let offset = 7 % step
    return (0..<count).map { min(lists, $0 * step + offset + 1) }
  }

  /// Rows with ids `1...count`.
  static func rows(count: Int) -> [Row10] {
    count > 0 ? (1...count).map(row) : []
  }

  /// The row with primary key `id`.
  static func row(_ id: Int) -> Row10 {
    Row10(
      id: id, c1: value(id, 1), c2: value(id, 2), c3: value(id, 3), c4: value(id, 4), c5: value(id, 5),
      c6: value(id, 6), c7: value(id, 7), c8: value(id, 8), c9: value(id, 9))
  }

  /// `count` pseudo-random primary keys in `1...tableSize` (every one exists).
  static func lookupKeys(count: Int, tableSize: Int) -> [Int] {
    (0..<count).map { Int(mix(UInt64($0) &+ 0x5EED) % UInt64(max(1, tableSize))) + 1 }
  }

  private static func value(_ id: Int, _ column: Int) -> Int {
    Int(mix(UInt64(id) << 4 | UInt64(column)) % UInt64(valueRange))
  }

  /// SplitMix64's finalizer: a cheap, well-spread hash.
  private static func mix(_ seed: UInt64) -> UInt64 {
    var z = seed &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
