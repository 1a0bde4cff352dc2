/// Prints the results table, the checksum comparison and the targets of Docs/Performance.md.
struct Report {
  let options: BenchOptions
  /// Column headings of the engines, in the order (a) raw file, (b) raw memory, (c) Tandem SQLite,
  /// (d) Tandem memory.
  let labels: [String]
  let outcomes: BenchRunner.Outcomes

  static let rawFile = 0
  static let rawMemory = 1
  static let tandemSQLite = 2
  static let tandemMemory = 3

  /// Whether every engine produced a measurement and every checksum agreed.
  var isConsistent: Bool {
    outcomes.values.allSatisfy { row in
      !row.contains(where: \.isFailure) && Set(row.compactMap(\.measurement?.checksum)).count <= 1
    }
  }

  func print(header: String) {
    Swift.print(header)
    Swift.print("")
    printTable()
    Swift.print("")
    printChecksums()
    Swift.print("")
    printTargets()
  }

  // MARK: - Times and ratios

  private func printTable() {
    let widths = [48, 12, 12, 12, 12, 7, 7, 7, 7]
    let heading = ["workload"] + labels + ["c/a", "c/b", "d/a", "d/b"]
    Swift.print(line(heading, widths))
    Swift.print(String(repeating: "-", count: widths.reduce(0, +) + widths.count - 1))
    for workload in options.workloads {
      guard let row = outcomes[workload] else { continue }
      var cells = ["\(workload.rawValue.padding(4)) \(workload.title(options.sizes))"]
      cells += row.map { outcome in
        switch outcome {
        case .measured(let measurement): measurement.best.formatted
        case .failed: "error"
        case .skipped: "-"
        }
      }
      cells += [
        ratio(row, Self.tandemSQLite, Self.rawFile), ratio(row, Self.tandemSQLite, Self.rawMemory),
        ratio(row, Self.tandemMemory, Self.rawFile), ratio(row, Self.tandemMemory, Self.rawMemory),
      ]
      Swift.print(line(cells, widths))
    }
    Swift.print("")
    Swift.print("(a) raw C on a WAL file  (b) raw C on :memory:  (c) Database(.sqlite(path:)) — W5: .sqliteInMemory")
    Swift.print("(d) Database(.memory).  Ratios are time ÷ time: below 1.00 is faster than the baseline.")
    if options.workloads.contains(.unitTests) {
      Swift.print("W5 on (a) makes \(options.sizes.databases.formatted) WAL files (several fsyncs each), so it is timed once, not best of \(options.runs).")
    }
  }

  private func ratio(_ row: [Outcome], _ subject: Int, _ baseline: Int) -> String {
    guard let value = ratioValue(row, subject, baseline) else { return "-" }
    return String(fixed: value, digits: 2)
  }

  private func ratioValue(_ row: [Outcome], _ subject: Int, _ baseline: Int) -> Double? {
    guard row.indices.contains(subject), row.indices.contains(baseline),
      let s = row[subject].measurement?.best.seconds, let b = row[baseline].measurement?.best.seconds, b > 0
    else { return nil }
    return s / b
  }

  private func line(_ cells: [String], _ widths: [Int]) -> String {
    zip(cells, widths).enumerated().map { index, pair in
      index == 0 ? pair.0.padding(pair.1) : pair.0.leftPadding(pair.1)
    }.joined(separator: " ")
  }

  // MARK: - Checksums

  private func printChecksums() {
    for workload in options.workloads {
      guard let row = outcomes[workload] else { continue }
      let checksums = row.map { $0.measurement.map { "\($0.checksum)" } ?? "-" }
      let distinct = Set(row.compactMap(\.measurement?.checksum)).count
      let failures = row.filter(\.isFailure).count
      let verdict =
        distinct > 1 ? "DIFFER" : failures == 0 ? "agree" : "agree where measured (\(failures) engine(s) failed)"
      Swift.print("\(workload.rawValue.padding(4)) checksums \(verdict): \(checksums.joined(separator: " "))")
      for (index, outcome) in row.enumerated() {
        if case .failed(let message) = outcome { Swift.print("     \(labels[index]) failed: \(message)") }
      }
    }
  }

  // MARK: - Targets

  private struct Target: Sendable {
    let workload: Workload
    let text: String
    let subject: Int
    let baseline: Int
    /// Whether `subject time ÷ baseline time` meets the target.
    let isMet: @Sendable (Double) -> Bool
    /// How to show the ratio.
    let show: @Sendable (Double) -> String
  }

  private static let times: @Sendable (Double) -> String = { String(fixed: $0, digits: 2) + "×" }
  private static let speedup: @Sendable (Double) -> String = { String(fixed: 1 / $0, digits: 1) + "× faster" }

  private static func sqliteWithin(_ limit: Double, on workload: Workload) -> Target {
    Target(
      workload: workload, text: "SQLite backend ≤ \(String(fixed: limit, digits: 2))× raw C file", subject: tandemSQLite,
      baseline: rawFile, isMet: { $0 <= limit }, show: times)
  }

  private static func memoryFaster(on workload: Workload) -> Target {
    Target(
      workload: workload, text: "memory backend faster than raw C :memory:", subject: tandemMemory,
      baseline: rawMemory, isMet: { $0 < 1 }, show: times)
  }

  /// The targets Docs/Performance.md sets.
  private static let targets: [Target] =
    [sqliteWithin(1.30, on: .insert), sqliteWithin(1.15, on: .fetch)]
    + [Workload.insert, .fetch, .lookup, .scan].map(memoryFaster)
    + [sqliteWithin(1.10, on: .join), sqliteWithin(1.10, on: .exists), memoryFaster(on: .join), memoryFaster(on: .exists)]
    + [
      Target(
        workload: .unitTests, text: "memory backend ≥ 5× faster than raw C :memory:", subject: tandemMemory,
        baseline: rawMemory, isMet: { $0 <= 0.2 }, show: speedup)
    ]

  /// The same targets applied to the variant workloads, for information.
  private static let variantTargets: [Target] = [
    sqliteWithin(1.30, on: .insertEach), memoryFaster(on: .insertEach), memoryFaster(on: .lookupPrepared),
  ]

  /// In a debug build (what unit tests run in), W5's target is the memory engine beating
  /// SQLite in memory through the same API: (d) against (c), which W5 runs on `.sqliteInMemory`.
  private static let debugTarget = Target(
    workload: .unitTests, text: "memory backend faster than .sqliteInMemory", subject: tandemMemory,
    baseline: tandemSQLite, isMet: { $0 < 1 }, show: times)

  private func printTargets() {
    #if DEBUG
      printDebugTargets()
    #else
      printReleaseTargets()
    #endif
  }

  private func printDebugTargets() {
    Swift.print("Targets of a debug build (Docs/Performance.md)")
    printTarget(Self.debugTarget, pass: "PASS", miss: "MISS")
    Swift.print("The other targets are for release builds: swift run -c release --scratch-path .build-bench tandem-bench")
  }

  private func printReleaseTargets() {
    Swift.print("Targets (Docs/Performance.md)")
    for target in Self.targets { printTarget(target, pass: "PASS", miss: "MISS") }
    let variants = Self.variantTargets.filter { outcomes[$0.workload] != nil }
    guard !variants.isEmpty else { return }
    Swift.print("Informative: the same targets on the variants")
    for target in variants { printTarget(target, pass: "pass", miss: "miss") }
  }

  private func printTarget(_ target: Target, pass: String, miss: String) {
    guard let row = outcomes[target.workload] else { return }
    let name = target.workload.rawValue.padding(4)
    guard let value = ratioValue(row, target.subject, target.baseline) else {
      Swift.print("  n/a   \(name) \(target.text)")
      return
    }
    let verdict = target.isMet(value) ? pass : miss
    Swift.print("  \(verdict)  \(name) \(target.text.padding(48)) \(target.show(value))")
  }
}
