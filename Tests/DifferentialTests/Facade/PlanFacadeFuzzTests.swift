import Foundation
import Tandem
import Testing
import SeededRandomness

/// The record-API fuzzer on shapes whose answer depends on SQLite's plan: typed filters that
/// seek the rowid or an index (`id > k`, `code.in`, `code == a || code == b`, `code.glob`,
/// `code == nil`, ranges, an OR of two keys) beside `n.abs()`, which overflows on `Int.min`;
/// fetches whose row decodes fail (`n` read as a Bool) before or after a row that overflows;
/// min/max of the key; and updates that shift a unique column or fail on two rows in turn.
/// Each call runs on `.sqliteInMemory` and `.memory`; answers and the table must agree.
@Suite("Differential fuzzing of plan-dependent record calls")
struct PlanFacadeFuzzTests {
  @Test("Plan-dependent record calls answer the same on SQLite and on the memory engine")
  func plannedCallsAgree() throws {
    try RecordFuzzCampaign.run(
      title: "plan-dependent record", suite: "PlanFacadeFuzzTests", stream: 0x91A7_0000, callsPerCase: 30,
      databases: PlannedPerformer.databases,
      newCase: { random in
        var nextSlot = random.int(-2...3)
        return { PlannedCall.random(&$0, nextSlot: &nextSlot) }
      },
      perform: { try PlannedPerformer.perform($0, on: $1) })
  }
}

/// One plan-dependent record call.
enum PlannedCall: CustomStringConvertible {
  case insert([PlannedProbe], ConflictPolicy)
  case fetch(PlannedQuery, projection: Int)
  case count(PlannedQuery)
  case update(PlannedQuery, change: Int, step: Int)
  case delete(PlannedQuery)
  case transaction([PlannedCall], rollsBack: Bool)

  static func random(_ random: inout SplitMix64, nextSlot: inout Int, depth: Int = 0) -> PlannedCall {
    switch random.weighted([(3, 0), (8, 1), (1, 2), (3, 3), (1, 4), (depth == 0 ? 1 : 0, 5)]) {
    case 0:
      let batch = PlannedProbe.randomBatch(&random, count: random.int(1...4), firstSlot: nextSlot)
      nextSlot += batch.count + random.int(0...1)
      return .insert(batch, random.pick([ConflictPolicy.abort, .abort, .ignore, .replace]))
    case 1:
      // Mostly the projections whose answer depends on the order rows are produced in.
      let projection = random.weighted([(1, 0), (1, 1), (3, 2), (2, 3), (3, 4), (2, 5), (1, 6)])
      return .fetch(PlannedQuery.random(&random), projection: projection)
    case 2: return .count(PlannedQuery.random(&random))
    case 3: return .update(PlannedQuery.random(&random), change: random.int(0...2), step: random.pick([1, 1, -1, 2]))
    case 4: return .delete(PlannedQuery.random(&random))
    default:
      return .transaction(
        (0..<random.int(1...3)).map { _ in PlannedCall.random(&random, nextSlot: &nextSlot, depth: 1) },
        rollsBack: random.chance(0.3))
    }
  }

  var description: String {
    switch self {
    case .insert(let records, let policy): "insert(\(records), onConflict: \(policy))"
    case .fetch(let query, let projection): "fetchAll(projection \(projection) of \(query))"
    case .count(let query): "fetchCount(\(query))"
    case .update(let query, let change, let step): "update(\(query)) change \(change), step \(step)"
    case .delete(let query): "delete(\(query))"
    case .transaction(let calls, let rollsBack):
      "transaction { \(calls.map(\.description).joined(separator: "; "))\(rollsBack ? "; throw" : "") }"
    }
  }
}

/// A typed filter over `PlannedProbe` that SQLite may answer through the rowid or an index,
/// usually beside `n.abs()`, with an ordering and a limit.
struct PlannedQuery: CustomStringConvertible {
  var filter: Int
  var k: Int
  var codes: (String?, String?)
  var pattern: String
  var ordering: Int
  var limit: Int?

  static func random(_ random: inout SplitMix64) -> PlannedQuery {
    PlannedQuery(
      filter: random.int(0...13), k: random.int(-1...8), codes: (random.pick(PlannedProbe.codes), random.pick(PlannedProbe.codes)),
      pattern: random.pick(["z*", "a*", "m?", "*", "[a-m]*", "Z*", ""]), ordering: random.int(0...4),
      limit: random.chance(0.25) ? random.int(0...3) : nil)
  }

  /// The filter alone.
  var filtered: Select<PlannedProbe, PlannedProbe> {
    let k = k
    let (a, b) = codes
    let pattern = pattern
    switch filter {
    case 0: return PlannedProbe.where { $0.n.abs() > 0 && $0.id > k }
    case 1: return PlannedProbe.where { $0.id >= k && $0.n.abs() >= 0 }
    case 2: return PlannedProbe.where { $0.n.abs() > 0 && $0.code.in([a, b]) }
    case 3: return PlannedProbe.where { $0.n.abs() > 0 && ($0.code == a || $0.code == b) }
    case 4: return PlannedProbe.where { $0.n.abs() > 0 && $0.code.glob(pattern) }
    case 5: return PlannedProbe.where { $0.n.abs() > 0 && $0.code == nil }
    case 6: return PlannedProbe.where { $0.n.abs() > 0 && $0.code > (a ?? "") }
    case 7: return PlannedProbe.where { $0.n.abs() > 0 && $0.slot.between(k, and: k + 2) }
    case 8: return PlannedProbe.where { $0.n.abs() >= 0 && ($0.id == k || $0.slot == k + 1) }
    case 9: return PlannedProbe.where { $0.n.abs() > 0 && $0.n == k - 4 }
    case 10: return PlannedProbe.where { $0.label == (a ?? "x") && $0.n.abs() > 0 }
    case 11: return PlannedProbe.where { $0.slot > k }
    // Both branches on the rowid: a MULTI-INDEX OR even where indexes are off (DISTINCT).
    case 12: return PlannedProbe.where { $0.n.abs() >= 0 && ($0.id == k || $0.id > k + 3) }
    default: return PlannedProbe.all
    }
  }

  /// The filter with its ordering and limit.
  var select: Select<PlannedProbe, PlannedProbe> {
    var query = filtered
    switch ordering {
    case 0: break
    case 1: query = query.order { $0.slot }
    case 2: query = query.order { $0.code.desc() }
    case 3: query = query.order { ($0.label, $0.n) }
    default: query = query.order { $0.id.desc() }
    }
    if let limit { query = query.limit(limit) }
    return query
  }

  /// The rows of a projection of the query.
  func project(_ kind: Int, on db: some DatabaseWriter) throws -> [[SqliteValue]] {
    switch kind {
    case 0:
      return try db.fetchAll(select.select { $0.id }).map { [$0.sqliteValue] }
    case 1:
      return try db.fetchAll(select).map(\.sqliteValues)
    case 2:
      // `n` read as a Bool fails to decode on 2 and Int.min; abs() overflows on Int.min: which
      // comes first depends on the order rows are produced in.
      return try db.fetchAll(select.select { (TypedExpression<Bool>($0.n), $0.n.abs()) })
        .map { [$0.0.sqliteValue, $0.1.sqliteValue] }
    case 3:
      return try db.fetchAll(select.select { ($0.slot, $0.n.abs()) }).map { [$0.0.sqliteValue, $0.1.sqliteValue] }
    case 4:
      return try db.fetchAll(filtered.select { ($0.label, $0.id) }.distinct()).map { [$0.0.sqliteValue, $0.1.sqliteValue] }
    case 5:
      return try db.fetchAll(filtered.select { $0.id.max() }).map { [$0.sqliteValue] }
        + db.fetchAll(filtered.select { $0.id.min() }).map { [$0.sqliteValue] }
    default:
      return try db.fetchAll(filtered.select { $0.slot.count() }).map { [$0.sqliteValue] }
    }
  }

  var description: String {
    "filter \(filter) (k \(k), codes \(String(describing: codes)), pattern \(pattern.debugDescription)), ordering \(ordering), "
      + "limit \(limit.map(String.init) ?? "-")"
  }
}

/// How the fuzzer's calls run on one database.
enum PlannedPerformer {
  /// The two databases, each holding the table.
  static func databases() throws -> EnginePair {
    try EnginePair(creating: { try $0.create(PlannedProbe.indexedSchema) }, contents: { try $0.fetchAll(PlannedProbe.all).map(\.sqliteValues) })
  }

  static func perform(_ call: PlannedCall, on db: some DatabaseWriter) throws -> [[SqliteValue]] {
    switch call {
    case .insert(let records, let policy):
      try db.insert(records, onConflict: policy)
      return []
    case .fetch(let query, let projection):
      return try query.project(projection, on: db)
    case .count(let query):
      return [[.integer(Int64(try db.fetchCount(query.select)))]]
    case .update(let query, let change, let step):
      let changed = try db.update(query.filtered) { row in
        switch change {
        case 0:
          // Shifts the unique slots: a transient duplicate, or not, by the order rows are visited.
          row.set(\.slot, to: row.slot + step)
        case 1:
          // Two errors on different rows (an overflow, a NOT NULL label): the first row visited decides.
          row.set(\.n, to: row.n.abs())
          row.set(\.label, to: TypedExpression<String>(row.note))
        default:
          row.set(\.label, to: "seen")
        }
      }
      return [[.integer(Int64(changed))]]
    case .delete(let query):
      return [[.integer(Int64(try db.delete(query.filtered)))]]
    case .transaction(let calls, let rollsBack):
      return try EnginePair.transaction(calls, rollsBack: rollsBack, on: db) { try perform($0, on: $1) }
    }
  }
}
