import Foundation

/// Runs the chosen workloads on every engine and collects one ``Outcome`` per pair.
///
/// Runs are interleaved: run 1 on (a), (b), (c), (d), then run 2 on each, and so on, so that a
/// burst of load on the machine slows every engine alike instead of one column of the table.
/// Each workload starts with one untimed warm-up round (caches, heap, page faults), except W5 on
/// files, which is slow and runs once.
struct BenchRunner {
  let options: BenchOptions
  let engines: [any BenchEngine]

  /// `outcomes[workload][engine index]`.
  typealias Outcomes = [Workload: [Outcome]]

  /// The indexes of the engines chosen with `--engine`.
  private var active: [Int] { engines.indices.filter(options.engines.contains) }

  func run() -> Outcomes {
    var outcomes: Outcomes = [:]
    for workload in options.workloads {
      outcomes[workload] = engines.indices.map { options.engines.contains($0) ? .failed("not run") : .skipped }
    }
    let sizes = options.sizes
    for workload in options.workloads where workload == .insert || workload == .insertEach {
      let rows = BenchData.rows(count: sizes.insertedRows)
      record(workload, measureInsert(workload, rows), into: &outcomes)
    }
    let reads = options.workloads.filter(\.readsPopulatedTable)
    if !reads.isEmpty {
      let populated = populate(BenchData.rows(count: sizes.tableRows))
      for workload in reads {
        record(workload, measureRead(workload, populated), into: &outcomes)
      }
      for index in active { engines[index].close() }
    }
    let joins = options.workloads.filter(\.readsJoinTables)
    if !joins.isEmpty {
      let filled = fillJoinTables(
        lists: BenchData.lists(count: sizes.lists), reminders: BenchData.reminders(count: sizes.reminders, lists: sizes.lists))
      for workload in joins {
        record(workload, measureRead(workload, filled), into: &outcomes)
      }
      for index in active { engines[index].close() }
    }
    if options.workloads.contains(.unitTests) {
      let recorders = interleave(active, runs: { engines[$0].suiteUsesFiles ? 1 : options.runs }) { engine in
        (setUp: {}, body: { try engine.runUnitTestSuites(count: sizes.databases, fixture: .standard) })
      }
      record(.unitTests, recorders, into: &outcomes)
    }
    return outcomes
  }

  // MARK: - Workloads

  /// W1/W1b: a fresh table each run; the checksum is the table's content after the last run.
  private func measureInsert(_ workload: Workload, _ rows: [Row10]) -> [Int: RunRecorder] {
    var recorders = interleave(active, runs: { _ in options.runs }) { engine in
      (
        setUp: engine.reset,
        body: {
          if workload == .insert {
            try engine.insertInOneTransaction(rows)
          } else {
            try engine.insertEachInOneTransaction(rows)
          }
          return Checksum()
        }
      )
    }
    for index in active where recorders[index]?.outcome.isFailure == false {
      do {
        recorders[index]?.setChecksum(try engines[index].contentChecksum())
      } catch {
        recorders[index]?.fail("reading the table back: \(error)")
      }
      engines[index].close()
    }
    return recorders
  }

  /// Fills every active engine's table once for W2–W4; the value is why an engine could not be.
  private func populate(_ rows: [Row10]) -> [Int: String] {
    var failures: [Int: String] = [:]
    for index in active {
      do {
        try engines[index].reset()
        try engines[index].insertInOneTransaction(rows)
      } catch {
        failures[index] = "populating the table: \(error)"
      }
    }
    return failures
  }

  /// Fills every active engine's join tables once for W6–W7; the value is why an engine could not be.
  private func fillJoinTables(lists: [BenchList], reminders: [BenchReminder]) -> [Int: String] {
    var failures: [Int: String] = [:]
    for index in active {
      do {
        try engines[index].fillJoinTables(lists: lists, reminders: reminders)
      } catch {
        failures[index] = "filling the join tables: \(error)"
      }
    }
    return failures
  }

  private func measureRead(_ workload: Workload, _ populateFailures: [Int: String]) -> [Int: RunRecorder] {
    let sizes = options.sizes
    let keys = workload == .lookup || workload == .lookupPrepared ? BenchData.lookupKeys(count: sizes.lookups, tableSize: sizes.tableRows) : []
    let listNames = workload == .join || workload == .joinPrepared
      ? BenchData.joinedListIDs(count: sizes.joinQueries, lists: sizes.lists).map(BenchData.listName) : []
    let ready = active.filter { populateFailures[$0] == nil }
    var recorders = interleave(ready, runs: { _ in options.runs }) { engine in
      (
        setUp: {},
        body: {
          switch workload {
          case .fetch: try engine.fetchAll()
          case .lookup: try engine.lookUp(keys)
          case .lookupPrepared: try engine.lookUpWithParameter(keys)
          case .scan: try engine.scan(c3Above: BenchData.scanC3Above, c5Below: BenchData.scanC5Below)
          case .join: try engine.joinRemindersOfLists(named: listNames)
          case .joinPrepared: try engine.joinRemindersOfListsWithParameter(named: listNames)
          case .exists: try engine.listsWithOverdueReminder(today: BenchData.today)
          case .insert, .insertEach, .unitTests:
            throw BenchError("\(workload.rawValue) does not read a populated table")
          }
        }
      )
    }
    for (index, message) in populateFailures {
      var recorder = RunRecorder()
      recorder.fail(message)
      recorders[index] = recorder
    }
    return recorders
  }

  // MARK: - Running

  /// Runs round-robin over `indexes`: run 1 on each engine, then run 2 on each, …
  private func interleave(
    _ indexes: [Int], runs: (Int) -> Int,
    _ work: (any BenchEngine) -> (setUp: () throws -> Void, body: () throws -> Checksum)
  ) -> [Int: RunRecorder] {
    var recorders = Dictionary(uniqueKeysWithValues: indexes.map { ($0, RunRecorder()) })
    // Which rounds each engine runs: an untimed warm-up first (unless it runs only once), then timed ones.
    let schedules = Dictionary(uniqueKeysWithValues: indexes.map { index in
      let timed = runs(index)
      return (index, (timed > 1 ? [false] : []) + Array(repeating: true, count: timed))
    })
    let rounds = schedules.values.map(\.count).max() ?? 0
    for round in 0..<rounds {
      for index in indexes {
        guard let schedule = schedules[index], round < schedule.count else { continue }
        let (setUp, body) = work(engines[index])
        recorders[index]?.run(isTimed: schedule[round], setUp: setUp, body: body)
      }
    }
    return recorders
  }

  private func record(_ workload: Workload, _ recorders: [Int: RunRecorder], into outcomes: inout Outcomes) {
    for (index, recorder) in recorders.sorted(by: { $0.key < $1.key }) {
      let outcome = recorder.outcome
      outcomes[workload]?[index] = outcome
      report(workload, engines[index], outcome)
    }
  }

  /// Progress on standard error, so the table on standard output stays clean.
  private func report(_ workload: Workload, _ engine: any BenchEngine, _ outcome: Outcome) {
    let text: String
    switch outcome {
    case .measured(let m): text = "best \(m.best.formatted), median \(m.median.formatted), checksum \(m.checksum)"
    case .failed(let message): text = "FAILED: \(message)"
    case .skipped: return
    }
    FileHandle.standardError.write(Data("  \(workload.rawValue) \(engine.label): \(text)\n".utf8))
  }
}
