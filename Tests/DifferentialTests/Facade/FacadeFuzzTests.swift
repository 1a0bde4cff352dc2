import Foundation
import Tandem
import Testing
import SeededRandomness

/// The differential fuzzer one level up: the typed, record-level API (`insert`, `upsert`,
/// `update`, `delete`, `find`, drafts, typed queries, transactions) on `.sqliteInMemory` and
/// `.memory`, with every answer and the whole table compared after each call.
///
/// `TANDEM_FUZZ_SEED` and `TANDEM_FUZZ_CASES` work as for the statement fuzzer (a case here is
/// 40 calls on a fresh pair of databases; CI runs a tenth of the statement fuzzer's cases).
@Suite("Differential fuzzing of the record API")
struct FacadeFuzzTests {
  @Test("Every record-level call answers the same on SQLite and on the memory engine")
  func recordCallsAgree() throws {
    try RecordFuzzCampaign.run(
      title: "record API", suite: "FacadeFuzzTests", stream: 0xFACADE, callsPerCase: 40,
      databases: FacadePerformer.databases, newCase: { _ in { FacadeCall.random(&$0) } },
      perform: { try FacadePerformer.perform($0, on: $1) })
  }
}

/// One record-level call, with its arguments.
enum FacadeCall: CustomStringConvertible {
  case insert(Probe, ConflictPolicy)
  case insertMany([Probe], ConflictPolicy)
  case insertDraft(Probe.Draft)
  case upsert(Probe)
  case update(Probe)
  case delete(Probe)
  case find(Int)
  case query(FacadeQuery)
  case project(FacadeQuery, Int)
  case count(FacadeQuery)
  case updateWhere(FacadeQuery, bump: Int)
  case deleteWhere(FacadeQuery)
  case transaction([FacadeCall], rollsBack: Bool)

  static func random(_ random: inout SplitMix64, depth: Int = 0) -> FacadeCall {
    let policies: [ConflictPolicy] = [.abort, .abort, .replace, .ignore]
    switch random.int(0...(depth == 0 ? 12 : 10)) {
    case 0, 1: return .insert(Probe.random(&random), random.pick(policies))
    case 2: return .insertMany((0..<random.int(1...5)).map { _ in Probe.random(&random) }, random.pick(policies))
    case 3: return .insertDraft(Probe.randomDraft(&random))
    case 4: return .upsert(Probe.random(&random))
    case 5: return .update(Probe.random(&random))
    case 6: return .delete(Probe.random(&random))
    case 7: return .find(random.int(-3...12))
    case 8: return random.chance(0.5) ? .query(FacadeQuery.random(&random)) : .project(FacadeQuery.random(&random), random.int(0...7))
    case 9: return .count(FacadeQuery.random(&random))
    case 10: return random.chance(0.5) ? .updateWhere(FacadeQuery.random(&random), bump: random.int(-2...2)) : .deleteWhere(FacadeQuery.random(&random))
    default:
      return .transaction((0..<random.int(1...4)).map { _ in FacadeCall.random(&random, depth: 1) }, rollsBack: random.chance(0.3))
    }
  }

  var description: String {
    switch self {
    case .insert(let record, let policy): "insert(\(record), onConflict: \(policy))"
    case .insertMany(let records, let policy): "insert(\(records), onConflict: \(policy))"
    case .insertDraft(let draft): "insert(\(draft))"
    case .upsert(let record): "upsert(\(record))"
    case .update(let record): "update(\(record))"
    case .delete(let record): "delete(\(record))"
    case .find(let key): "find(Probe.self, key: \(key))"
    case .query(let query): "fetchAll(\(query))"
    case .project(let query, let kind): "fetchAll(projection \(kind) of \(query))"
    case .count(let query): "fetchCount(\(query))"
    case .updateWhere(let query, let bump): "update(\(query)) { rank = rank + \(bump); score = score * 2 }"
    case .deleteWhere(let query): "delete(\(query))"
    case .transaction(let calls, let rollsBack):
      "transaction { \(calls.map(\.description).joined(separator: "; "))\(rollsBack ? "; throw" : "") }"
    }
  }
}

/// A typed query over `Probe`: a filter, an ordering and a limit, each drawn at random.
struct FacadeQuery: CustomStringConvertible {
  var filter: Int
  var constant: Int
  var pattern: String
  var ordering: Int
  var limit: Int?

  static func random(_ random: inout SplitMix64) -> FacadeQuery {
    FacadeQuery(
      filter: random.int(0...11), constant: random.int(-3...6), pattern: random.pick(["%", "a%", "%A%", "_", "%é%", "1%"]),
      ordering: random.int(0...4), limit: random.chance(0.3) ? random.int(0...4) : nil)
  }

  var select: Select<Probe, Probe> {
    var query = filtered
    switch ordering {
    case 0: break
    case 1: query = query.order { $0.score.desc() }
    case 2: query = query.order { $0.name }
    case 3: query = query.order { ($0.flag, $0.rank.desc(nulls: .last)) }
    default: query = query.order { $0.code.collate(.nocase) }
    }
    if let limit { query = query.limit(limit) }
    return query
  }

  /// The rows of a projection of the query: plain (with its ordering and limit), aggregate,
  /// grouped or DISTINCT (on the filter alone, so no ordering reads a bare column).
  func project(_ kind: Int, on db: some DatabaseWriter) throws -> [[SqliteValue]] {
    switch kind {
    case 0:
      return try db.fetchAll(select.select { ($0.name, $0.score, $0.payload) }, parameters: parameters).map { [$0.0.sqliteValue, $0.1.sqliteValue, $0.2.sqliteValue] }
    case 1:
      return try db.fetchAll(filtered.select { ($0.rank.count(), $0.rank.sum(), $0.score.avg(), $0.score.total()) }, parameters: parameters)
        .map { [$0.0.sqliteValue, $0.1.sqliteValue, $0.2.sqliteValue, $0.3.sqliteValue] }
    case 2:
      // Blobs have no typed `max()` (Data has no Swift order); the engines' blob max is still
      // compared, through the untyped aggregate.
      return try db.fetchAll(
        filtered.select {
          ($0.name.min(), TypedExpression<Data?>(.aggregate(.max, $0.payload.expression, distinct: false)), $0.score.max(),
           $0.code.count(distinct: true))
        }, parameters: parameters)
        .map { [$0.0.sqliteValue, $0.1.sqliteValue, $0.2.sqliteValue, $0.3.sqliteValue] }
    case 3:
      return try db.fetchAll(filtered.group { $0.flag }.select { ($0.flag, $0.rank.count(), $0.score.max(), $0.rank.sum()) }, parameters: parameters)
        .map { [$0.0.sqliteValue, $0.1.sqliteValue, $0.2.sqliteValue, $0.3.sqliteValue] }
    case 4:
      return try db.fetchAll(filtered.select { $0.code }.distinct(), parameters: parameters).map { [$0.sqliteValue] }
    case 5:
      return try db.fetchAll(
        select.select { ($0.name.upper(), $0.name.length(), $0.code ?? "none", $0.score * 2, ($0.rank ?? 1) / 0) },
        parameters: parameters
      ).map { [$0.0.sqliteValue, $0.1.sqliteValue, $0.2.sqliteValue, $0.3.sqliteValue, $0.4.sqliteValue] }
    case 6:
      return try db.fetchAll(
        filtered.group { $0.code }.having { $0.rank.count() > 0 }.select { ($0.code, $0.score.sum(), $0.name.max()) },
        parameters: parameters
      ).map { [$0.0.sqliteValue, $0.1.sqliteValue, $0.2.sqliteValue] }
    default:
      return try db.fetchAll(select.select { $0.name.substr(2, 3) + $0.name.trim() }, parameters: parameters).map { [$0.sqliteValue] }
    }
  }

  /// Values for the filter's named parameters.
  var parameters: [String: SqliteValue] { filter == 10 ? ["low": .real(Double(constant) / 2)] : [:] }

  /// The query's filter alone.
  var filtered: Select<Probe, Probe> {
    let k = constant
    let pattern = pattern
    var query: Select<Probe, Probe>
    switch filter {
    case 0: query = Probe.all
    case 1: query = Probe.where { $0.rank > k }
    case 2: query = Probe.where { $0.score <= Double(k) / 2 }
    case 3: query = Probe.where { $0.name.like(pattern) }
    case 4: query = Probe.where { $0.flag && $0.rank.isNull() }
    case 5: query = Probe.where { ($0.rank ?? 0) + $0.id > k }
    case 6: query = Probe.where { $0.code == "a" || $0.code.isNull() }
    case 7: query = Probe.where { $0.id.between(0, and: k) }
    case 8: query = Probe.where { $0.rank.in([k, k + 1, 0]) || $0.code.notIn(["a", "é"]) }
    case 9: query = Probe.where { $0.name.like("%!%%", escape: "!") || $0.name.notLike(pattern) }
    case 10: query = Probe.where { $0.rank.isNot(k) && $0.score > Parameter<Double>("low") }
    default: query = Probe.where { $0.name.collate(.nocase) == "abc" || $0.payload.isNull() }
    }
    return query
  }

  var description: String {
    "filter \(filter) (k \(constant), pattern \(pattern.debugDescription)), ordering \(ordering), limit \(limit.map(String.init) ?? "-")"
  }
}

/// How the fuzzer's calls run on one database.
enum FacadePerformer {
  /// The two databases, each holding the table.
  static func databases() throws -> EnginePair {
    try EnginePair(creating: { try $0.create(Probe.self) }, contents: { try $0.fetchAll(Probe.all).map(\.sqliteValues) })
  }

  static func perform(_ call: FacadeCall, on db: some DatabaseWriter) throws -> [[SqliteValue]] {
    switch call {
    case .insert(let record, let policy):
      return [[.integer(try db.insert(record, onConflict: policy))]]
    case .insertMany(let records, let policy):
      try db.insert(records, onConflict: policy)
      return []
    case .insertDraft(let draft):
      return [try db.insert(draft).sqliteValues]
    case .upsert(let record):
      try db.upsert(record)
      return []
    case .update(let record):
      return [[.integer(try db.update(record) ? 1 : 0)]]
    case .delete(let record):
      return [[.integer(try db.delete(record) ? 1 : 0)]]
    case .find(let key):
      return try db.find(Probe.self, key: key).map { [$0.sqliteValues] } ?? []
    case .query(let query):
      return try db.fetchAll(query.select, parameters: query.parameters).map(\.sqliteValues)
    case .project(let query, let kind):
      return try query.project(kind, on: db)
    case .count(let query):
      return [[.integer(Int64(try db.fetchCount(query.select, parameters: query.parameters)))]]
    case .updateWhere(let query, let bump):
      let changed = try db.update(
        query.select,
        set: {
          $0.set(\.rank, to: $0.rank + bump)
          $0.set(\.score, to: $0.score * 2)
        }, parameters: query.parameters)
      return [[.integer(Int64(changed))]]
    case .deleteWhere(let query):
      return [[.integer(Int64(try db.delete(query.select, parameters: query.parameters)))]]
    case .transaction(let calls, let rollsBack):
      return try EnginePair.transaction(calls, rollsBack: rollsBack, on: db) { try perform($0, on: $1) }
    }
  }
}
