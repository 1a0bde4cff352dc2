import Foundation
import Tandem
import TandemMemory

/// Runs a case on SQLite in memory and on the memory engine in lockstep, comparing every answer
/// and, after every write or savepoint, every table's full contents.
struct PairRunner {
  /// How one case ended.
  enum Verdict: Sendable {
    /// Every answer agreed.
    case agreed
    /// An unsupported write left the engines' data apart, so the case stopped there.
    case abandoned(feature: String)
    case mismatch(Mismatch)
  }

  var statistics = FuzzStatistics()

  /// A memory-engine database that verifies its storage (every b-tree's order, every index
  /// entry against its row) after each write, which `.memory` leaves to the engine's own tests.
  static func checkedMemoryDatabase() -> Database {
    let backend = MemoryBackend()
    backend.checksInvariants = true
    return Database(backend: backend)
  }

  /// Runs `fuzzCase` on two fresh databases.
  mutating func run(_ fuzzCase: FuzzCase) -> Verdict {
    statistics.cases += 1
    let execution: PairExecution
    do {
      execution = PairExecution(
        fuzzCase: fuzzCase, sqlite: try Database(.sqliteInMemory), memory: Self.checkedMemoryDatabase())
    } catch {
      let failure = Outcome.failure(TandemError.Signature(error))
      return .mismatch(
        Mismatch(fuzzCase: fuzzCase, path: [], step: .savepoint, sqlite: failure, memory: failure, contentsBefore: [:]))
    }
    defer { statistics.merge(execution.statistics) }
    do {
      try execution.run()
      return .agreed
    } catch {
      switch error {
      case .abandoned(let feature):
        execution.statistics.abandonedCases += 1
        return .abandoned(feature: feature)
      case .mismatch(let mismatch):
        execution.statistics.mismatches += 1
        return .mismatch(mismatch)
      }
    }
  }
}

/// Why a case stopped before its end.
enum CaseStop: Error {
  case mismatch(Mismatch)
  case abandoned(String)
}

/// Thrown inside a savepoint to roll it back.
struct RollbackRequest: Error {}

/// The state of one case being run on two databases.
final class PairExecution {
  let fuzzCase: FuzzCase
  let sqlite: Database
  let memory: Database
  var statistics = FuzzStatistics()
  /// SQLite's contents of each table, as last read.
  var contents: [String: [[SqliteValue]]] = [:]

  init(fuzzCase: FuzzCase, sqlite: Database, memory: Database) {
    self.fuzzCase = fuzzCase
    self.sqlite = sqlite
    self.memory = memory
  }

  func run() throws(CaseStop) {
    for schema in fuzzCase.schemas {
      let expected = Outcome.of {
        try sqlite.create(schema)
        return StatementResult()
      }
      let actual = Outcome.of {
        try memory.create(schema)
        return StatementResult()
      }
      if let feature = actual.unsupportedFeature {
        statistics.unsupported["create: " + feature, default: 0] += 1
        throw .abandoned(feature)
      }
      guard expected == actual else { throw .mismatch(mismatch([], .create(schema), expected, actual)) }
      if case .failure(let failure) = expected { throw .abandoned("create failed on both: \(failure.message)") }
      contents[schema.name] = []
    }
    try run(fuzzCase.operations, path: [], sqlite, memory)
  }

  private func run(
    _ operations: [FuzzOperation], path: [Int], _ a: any DatabaseWriter, _ b: any DatabaseWriter
  ) throws(CaseStop) {
    for (index, operation) in operations.enumerated() {
      let here = path + [index]
      switch operation {
      case .statement(let statement, let parameters):
        try runStatement(statement, parameters, path: here, a, b)
      case .savepoint(let body, let rollback):
        try runSavepoint(body, rollback: rollback, path: here, a, b)
        try compareContents(
          after: "the savepoint at \(here) \(rollback ? "rolled back" : "released")", path: here, a, b)
      }
    }
  }

  private func runStatement(
    _ statement: Statement, _ parameters: [String: SqliteValue], path: [Int], _ a: any DatabaseWriter,
    _ b: any DatabaseWriter
  ) throws(CaseStop) {
    try comparePlans(statement, parameters, path: path, a, b)
    let expected = Outcome.of { try a.execute(statement, parameters: parameters) }
    let actual = Outcome.of { try b.execute(statement, parameters: parameters) }
    statistics.record(statement.kindName, expected)
    if let feature = actual.unsupportedFeature ?? expected.unsupportedFeature {
      statistics.unsupported[statement.kindName + ": " + feature, default: 0] += 1
      if statement.isWrite { throw .abandoned(feature) }
      return
    }
    guard expected == actual else {
      if case .insert = statement, rowidSpaceExhausted(statement.table, a) {
        statistics.engineChoices += 1
        throw .abandoned("ENGINE CHOICE: SQLite picks a random rowid once 9223372036854775807 is taken")
      }
      throw .mismatch(mismatch(path, .statement(statement, parameters: parameters), expected, actual))
    }
    if !statement.isWrite {
      // Run again, nothing changed: an engine that keeps what it compiled (the memory engine's
      // plans, with the transient indexes their runs built) must answer as it did the first time.
      let again = Outcome.of { try b.execute(statement, parameters: parameters) }
      guard again == actual else {
        throw .mismatch(mismatch(path, .statement(statement, parameters: parameters), expected, again))
      }
    }
    if statement.isWrite {
      do {
        try compareContents(after: "statement \(path)", path: path, a, b)
      } catch .mismatch(let found) {
        if case .insert = statement, rowidSpaceExhausted(statement.table, a) {
          statistics.engineChoices += 1
          throw .abandoned("ENGINE CHOICE: SQLite picks a random rowid once 9223372036854775807 is taken")
        }
        throw .mismatch(found)
      } catch {
        throw error
      }
    }
  }

  /// Compares SQLite's `EXPLAIN QUERY PLAN` of a select, update or delete with the plan the
  /// memory engine follows: the loop lines (SCAN, SEARCH, MULTI-INDEX OR and its branches) and,
  /// for a query without aggregates, the ORDER BY sorter. A statement either engine cannot
  /// prepare is left to the comparison of answers.
  private func comparePlans(
    _ statement: Statement, _ parameters: [String: SqliteValue], path: [Int], _ a: any DatabaseWriter,
    _ b: any DatabaseWriter
  ) throws(CaseStop) {
    if case .insert = statement { return }
    guard let expected = try? a.queryPlan(for: statement, parameters: parameters),
      let actual = try? b.queryPlan(for: statement, parameters: parameters)
    else { return }
    statistics.comparedPlans += 1
    let sqlitePlan = statement.comparablePlanLines(expected)
    let memoryPlan = statement.comparablePlanLines(actual)
    guard sqlitePlan == memoryPlan else {
      func outcome(_ lines: [String]) -> Outcome {
        .result(StatementResult(rows: lines.map { [.text($0)] }))
      }
      throw .mismatch(mismatch(path, .queryPlan(statement, parameters: parameters), outcome(sqlitePlan), outcome(memoryPlan)))
    }
  }

  private func runSavepoint(
    _ body: [FuzzOperation], rollback: Bool, path: [Int], _ a: any DatabaseWriter, _ b: any DatabaseWriter
  ) throws(CaseStop) {
    // Each engine's savepoint is opened, released or rolled back on its own, so that a failure
    // of that machinery is attributed to the engine that had it.
    var expected = Outcome.result(StatementResult())
    var actual = Outcome.result(StatementResult())
    var openedA = false
    do {
      try a.transaction { innerA in
        openedA = true
        do {
          try b.transaction { innerB in
            try self.run(body, path: path, innerA, innerB)
            if rollback { throw RollbackRequest() }
          }
        } catch is RollbackRequest {
        } catch let stop as CaseStop {
          throw stop
        } catch {
          actual = .failure(TandemError.Signature(error))
        }
        if rollback { throw RollbackRequest() }
      }
    } catch let stop as CaseStop {
      throw stop
    } catch is RollbackRequest {
    } catch {
      expected = .failure(TandemError.Signature(error))
    }
    if !openedA {
      // The first engine could not open its savepoint (its transaction was ended by an earlier
      // error): the second's own attempt is what compares, opened and at once rolled back.
      do {
        try b.transaction { _ in throw RollbackRequest() }
      } catch is RollbackRequest {
      } catch {
        actual = .failure(TandemError.Signature(error))
      }
    }
    guard expected == actual else { throw .mismatch(mismatch(path, .savepoint, expected, actual)) }
  }

  /// Whether the largest rowid of `table`, before or after the statement, is 9223372036854775807:
  /// SQLite then assigns new rowids at random, which no other engine can reproduce.
  private func rowidSpaceExhausted(_ table: String, _ a: any DatabaseWriter) -> Bool {
    // With AUTOINCREMENT the next insert fails with "database or disk is full" instead: determined.
    let schema = fuzzCase.schemas.first { $0.name == table }
    if schema?.rowidColumn?.primaryKey == .autoincrement { return false }
    let largest = SelectStatement(table: table, columns: [.aggregate(.max, .rowid, distinct: false)])
    let after = (try? a.execute(.select(largest)).rows.first?.first) ?? nil
    let before = contents[table]?.last?.first
    return after == .integer(.max) || before == .integer(.max)
  }

  /// Compares every table's rows, with their rowids, in rowid order.
  func compareContents(after label: String, path: [Int], _ a: any DatabaseWriter, _ b: any DatabaseWriter)
    throws(CaseStop)
  {
    var fresh: [String: [[SqliteValue]]] = [:]
    for schema in fuzzCase.schemas {
      let dump = Statement.select(
        SelectStatement(
          table: schema.name, columns: [.rowid] + schema.columns.map { .column($0.name) },
          orderBy: [OrderingTerm(.rowid)]))
      let expected = Outcome.of { try a.execute(dump) }
      let actual = Outcome.of { try b.execute(dump) }
      guard expected == actual else {
        throw .mismatch(mismatch(path, .tableContents(schema.name, after: label), expected, actual))
      }
      if case .result(let result) = expected { fresh[schema.name] = result.rows }
    }
    contents = fresh
  }

  private func mismatch(_ path: [Int], _ step: Mismatch.Step, _ expected: Outcome, _ actual: Outcome) -> Mismatch {
    Mismatch(fuzzCase: fuzzCase, path: path, step: step, sqlite: expected, memory: actual, contentsBefore: contents)
  }
}

extension Statement {
  /// `select`, `insert`, `update` or `delete`, with the insert's conflict policy.
  var kindName: String {
    switch self {
    case .select(let select):
      if !select.groupBy.isEmpty { return "select (grouped)" }
      if select.isAggregate { return "select (aggregate)" }
      return select.distinct ? "select (distinct)" : "select"
    case .insert(let insert):
      switch insert.conflict {
      case .abort: return "insert"
      case .replace: return "insert or replace"
      case .ignore: return "insert or ignore"
      case .update: return "upsert do update"
      case .nothing: return "upsert do nothing"
      }
    case .update: return "update"
    case .delete: return "delete"
    }
  }
}
