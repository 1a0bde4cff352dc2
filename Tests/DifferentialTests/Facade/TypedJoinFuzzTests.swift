import Foundation
import Tandem
import Testing
import SeededRandomness

/// Tandem-mode fuzzing of the typed relational API: random lists and items (with NULLs, shared
/// and missing parents), then joins, left joins, grouped reports, EXISTS, IN, self-joins,
/// compounds and a DELETE with a subquery, each run on `.tandem`, which fails on any difference
/// between SQLite and the memory engine.
///
/// `TANDEM_FUZZ_SEED` and `TANDEM_JOIN_FUZZ_CASES` (default 60) set the campaign.
@Suite("Tandem-mode fuzzing of typed joins")
struct TypedJoinFuzzTests {
  @Table struct FuzzList: Equatable {
    let id: Int
    var name: String?
    var weight: Double?
  }

  @Table struct FuzzItem: Equatable {
    let id: Int
    var listID: Int?
    var label: String
    var amount: Int?
    var score: Double?
  }

  @Test("Typed joins and subqueries answer the same on SQLite and on the memory engine")
  func typedJoinsAgree() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["TANDEM_FUZZ_SEED"].flatMap { UInt64($0.replacingOccurrences(of: "0x", with: ""), radix: 16) }
      ?? 0x7A4D_E11A
    let cases = environment["TANDEM_JOIN_FUZZ_CASES"].flatMap { Int($0) } ?? 60
    var failures = 0
    for index in 0..<UInt64(cases) where failures < 5 {
      do {
        try Self.run(seed: seed, index: index)
      } catch let error as TandemError {
        failures += 1
        Issue.record("seed 0x\(String(seed, radix: 16)) case \(index): \(error)")
      }
    }
  }

  static func run(seed: UInt64, index: UInt64) throws {
    var random = SplitMix64(seed: seed ^ 0x4A4F_494E, stream: index)
    let db = try Database(.tandem)
    try db.create(FuzzList.self)
    try db.create(FuzzItem.self)
    let names = ["Home", "Work", "home", "Old", "Äpfel", ""]
    let lists = (1...random.int(1...6)).map { id in
      FuzzList(
        id: id, name: random.chance(0.2) ? nil : random.pick(names),
        weight: random.chance(0.3) ? nil : Double(random.int(-4...8)) / 2)
    }
    try db.insert(lists)
    let items = (1...random.int(0...14) + 1).map { id in
      FuzzItem(
        id: id, listID: random.chance(0.15) ? nil : random.int(1...7), label: random.pick(["a", "b", "B", "c", "a "]),
        amount: random.chance(0.2) ? nil : random.int(-5...9),
        score: random.chance(0.25) ? nil : Double(random.int(-8...8)) / 4)
    }
    try db.insert(items)
    let k = random.int(-3...6)
    let w = Double(random.int(-2...4)) / 2

    _ = try db.fetchAll(
      FuzzItem.join(FuzzList.self) { $0.listID == $1.id }
        .where { item, _ in item.amount > k }
        .order { item, list in (list.name, item.label) }
        .select { item, list in (item.label, list.name, item.score) })
    _ = try db.fetchAll(FuzzList.leftJoin(FuzzItem.self) { $0.id == $1.listID }.select { ($0, $1) })
    _ = try db.fetchAll(
      FuzzList.leftJoin(FuzzItem.self) { $0.id == $1.listID && $1.amount > k }
        .group { list, _ in list.id }
        .select { list, item in (list.name, item.id.count(), item.amount.sum(), item.score.total()) })
    _ = try db.fetchAll(
      FuzzItem.join(FuzzList.self) { $0.listID == $1.id }
        .group { _, list in list.name }
        .having { item, _ in item.id.count() > 1 }
        .select { item, list in (list.name, item.score.avg(), item.amount.max()) })
    _ = try db.fetchAll(FuzzList.where { list in FuzzItem.where { $0.listID == list.id && $0.amount > k }.exists() })
    _ = try db.fetchAll(FuzzList.where { list in !FuzzItem.where { $0.listID == list.id }.exists() })
    _ = try db.fetchAll(FuzzItem.where { $0.listID.in(FuzzList.where { $0.weight > w }.select { $0.id }) })
    _ = try db.fetchAll(FuzzItem.where { $0.listID.notIn(FuzzList.where { $0.weight > w }.select { $0.id }) })
    _ = try db.fetchAll(
      FuzzItem.join(FuzzItem.self) { $0.listID == $1.listID && $0.id < $1.id }.select { a, b in (a.id, b.id, b.label) })
    _ = try db.fetchAll(
      FuzzItem.join(FuzzList.self) { $0.listID == $1.id }
        .join(FuzzItem.self) { item, _, other in other.listID == item.listID && other.label == item.label }
        .select { item, list, other in (item.id, list.weight, other.id) })
    _ = try db.fetchAll(
      FuzzItem.where { $0.amount > k }.select { $0.label }.union(FuzzItem.where { $0.score > w }.select { $0.label }))
    _ = try db.fetchAll(FuzzItem.all.select { $0.listID }.except(FuzzList.all.select { TypedExpression<Int?>($0.id) }))
    try db.delete(FuzzItem.where { $0.listID.in(FuzzList.where { $0.weight < w }.select { $0.id }) })
    _ = try db.fetchAll(FuzzItem.all)
  }
}
