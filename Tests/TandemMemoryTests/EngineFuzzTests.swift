import Foundation
import Testing
import TandemCore
@testable import TandemMemory
import SeededRandomness

/// A small seeded differential run: random rows and random queries over the whole query model,
/// each compared with real SQLite. (The project's own fuzzer runs far more; this keeps the engine
/// honest while it is developed and stays fast.)
@Suite struct EngineFuzzTests {
  static let schema = TableSchema(
    "f",
    columns: [
      .column("id", .integer, primaryKey: true), .column("i", .null(.integer)), .column("r", .null(.real)),
      .column("t", .null(.text)), .column("b", .null(.blob)), .column("u", .null(.integer), unique: true),
    ])

  struct Generator {
    var random: SplitMix64

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func value() -> SqliteValue {
      pick([
        .null, 0, 1, -1, 2, 10, .integer(.max), .integer(.min), 1.5, -0.0, 1e20, 2.0, "", "a", "A", "abc", "10", " 7 ", "1e3",
        "é", "a ", .blob(Data()), .blob(Data([0x61])), .blob(Data([0x31, 0x30])),
      ])
    }

    mutating func column() -> SQLExpression { pick([.column("i"), .column("r"), .column("t"), .column("b"), .column("u"), .rowid]) }

    mutating func expression(_ depth: Int = 0) -> SQLExpression {
      if depth > 2 || chance(30) { return chance(50) ? column() : .literal(value()) }
      switch Int.random(in: 0..<14, using: &random) {
      case 0: return .binary(pick([.equal, .notEqual, .less, .greaterOrEqual, .is, .isNot]), expression(depth + 1), expression(depth + 1))
      case 1: return .binary(pick([.add, .subtract, .multiply, .divide, .remainder, .concatenate]), expression(depth + 1), expression(depth + 1))
      case 2: return .binary(pick([.and, .or]), expression(depth + 1), expression(depth + 1))
      case 3: return .unary(pick([.negate, .plus, .not]), expression(depth + 1))
      case 4: return .function(pick([.abs, .length, .lower, .upper, .typeof, .trim]), [expression(depth + 1)])
      case 5: return .function(pick([.coalesce, .ifnull, .nullif, .instr, .min, .max]), [expression(depth + 1), expression(depth + 1)])
      case 6: return .cast(expression(depth + 1), as: pick([.integer, .real, .text, .blob, .numeric]))
      case 7: return .inList(expression(depth + 1), (0..<Int.random(in: 0..<4, using: &random)).map { _ in expression(depth + 1) }, negated: chance(30))
      case 8: return .between(expression(depth + 1), expression(depth + 1), expression(depth + 1), negated: chance(30))
      case 9: return .like(expression(depth + 1), pattern: .literal(pick(["a%", "%", "_", "A_C", "1%", "%e"])), escape: nil, negated: chance(30))
      case 10: return .glob(expression(depth + 1), pattern: .literal(pick(["a*", "*", "?", "[a-c]*", "1*"])), negated: chance(30))
      case 11: return .isNull(expression(depth + 1), negated: chance(50))
      case 12:
        return .caseWhen(
          base: chance(50) ? expression(depth + 1) : nil,
          branches: [CaseBranch(when: expression(depth + 1), then: expression(depth + 1))], else: chance(50) ? expression(depth + 1) : nil)
      default: return .collate(expression(depth + 1), pick([.binary, .nocase, .rtrim]))
      }
    }

    mutating func aggregate() -> SQLExpression {
      .aggregate(pick([.count, .sum, .total, .avg, .min, .max]), expression(2), distinct: chance(20))
    }
  }

  /// `ENGINE_FUZZ_SEEDS=n` runs n seeds instead of the fixed one.
  static var seeds: [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let seed = environment["ENGINE_FUZZ_SEED"].flatMap({ UInt64($0) }) { return [seed] }
    let count = environment["ENGINE_FUZZ_SEEDS"].flatMap { UInt64($0) } ?? 0
    return count == 0 ? [20_240_601] : Array(1...count)
  }

  @Test func randomQueriesMatchSQLite() {
    for seed in Self.seeds { run(seed: seed) }
  }

  static let child = TableSchema(
    "g",
    columns: [
      .column("k", .null(.integer), references: .table("f", column: "id", onDelete: .cascade)),
      .column("n", .text, default: "d"),
    ])

  /// Random multi-row writes inside a transaction: which failing statements SQLite undoes as a
  /// whole (statement journal) and which leave their first rows behind.
  @Test func randomWritesInATransactionMatchSQLite() {
    for seed in Self.seeds { runWrites(seed: seed) }
  }

  private func runWrites(seed: UInt64) {
    var g = Generator(random: SplitMix64(state: seed))
    let db = EngineTandem(Self.schema, Self.child)
    db.savepoint("tx")
    func key() -> SQLExpression {
      g.pick([.literal(1), .literal(2), .literal(3), .literal("x"), .literal(.null), .literal(2.0), .function(.abs, [.literal(.integer(.min))])])
    }
    for step in 0..<150 {
      let conflict: InsertStatement.ConflictResolution = g.pick([
        .abort, .ignore, .replace, .nothing(target: []), .nothing(target: ["id"]), .nothing(target: ["u"]),
        .update(target: ["id"], assignments: [Assignment(column: "i", value: .literal(1))]),
        .update(target: ["u"], assignments: [Assignment(column: "u", value: .binary(.add, .excluded("u"), .literal(1)))]),
      ])
      let rows = (0..<Int.random(in: 1...3, using: &g.random)).map { _ in [key(), key()] }
      db.write(.insert(InsertStatement(table: "f", columns: g.pick([["id", "u"], ["u", "i"]]), rows: rows, conflict: conflict)))
      let childRows = (0..<Int.random(in: 1...2, using: &g.random)).map { _ in [key(), g.pick([SQLExpression.literal("n"), .literal(.null)])] }
      db.write(.insert(InsertStatement(table: "g", columns: ["k", "n"], rows: childRows, conflict: g.pick([.abort, .ignore, .replace]))))
      if g.chance(30) { db.write(Q.update("f", [(g.pick(["id", "u", "i"]), key())], where: g.chance(50) ? .binary(.greater, .rowid, .literal(1)) : nil)) }
      if g.chance(20) { db.write(Q.delete("f", where: .binary(.equal, .rowid, key()))) }
      if step % 50 == 49 {
        db.rollback(to: "tx")
      }
    }
    db.release("tx")
  }

  private func run(seed: UInt64) {
    var g = Generator(random: SplitMix64(state: seed))
    let db = EngineTandem(Self.schema)
    for _ in 0..<40 {
      let row: [SqliteValue] = [g.value(), g.value(), g.value(), g.value(), g.chance(50) ? .integer(Int64.random(in: 0..<30, using: &g.random)) : .null]
      db.run(Q.insert("f", ["i", "r", "t", "b", "u"], [row], .ignore))
    }
    for _ in 0..<250 {
      let columns = (0..<Int.random(in: 1..<4, using: &g.random)).map { _ in g.expression() }
      let orderBy = [OrderingTerm(g.expression(), descending: g.chance(50)), OrderingTerm(.rowid)]
      db.run(Q.select("f", [.rowid] + columns, where: g.chance(70) ? g.expression() : nil, orderBy: orderBy, limit: g.chance(20) ? .literal(3) : nil))
      let key = g.column()
      db.run(Q.select("f", [key, g.aggregate(), g.aggregate()], groupBy: [key], having: g.chance(30) ? .binary(.greater, g.aggregate(), g.expression(2)) : nil))
      // The query builder orders DISTINCT results by their columns (SQLite's own order is the plan's).
      db.run(Q.select("f", columns, distinct: true, orderBy: columns.map { OrderingTerm($0) }))
    }
    for _ in 0..<60 {
      db.write(Q.update("f", [(g.pick(["i", "r", "t", "b", "u"]), g.expression(1))], where: g.expression(1)))
      db.write(Q.delete("f", where: .binary(.and, g.expression(1), .binary(.less, .function(.abs, [.rowid]), .literal(.integer(3))))))
      db.write(.insert(InsertStatement(table: "f", columns: ["i", "t", "u"], rows: [[.literal(g.value()), g.expression(2), .literal(g.value())]], conflict: g.pick([.abort, .ignore, .replace]))))
    }
  }
}
