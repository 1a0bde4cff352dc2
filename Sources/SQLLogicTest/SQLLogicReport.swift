/// The counts of a run — of one file or of many — with the first failures and the unsupported
/// constructs met.
///
/// ```swift
/// var total = SQLLogicReport(name: "total")
/// total.add(fileReport)
/// print(total.summaryLine)  // "total: 1000 passed, 0 failed, 3 unsupported, 12 skipped"
/// ```
public struct SQLLogicReport: Sendable, Hashable {
  /// The file's path, or a name for a total.
  public var name: String
  /// Records whose outcome was the expected one.
  public var passed = 0
  /// Records whose outcome was not.
  public var failed = 0
  /// Records the engine refused as unsupported.
  public var unsupported = 0
  /// Records not run: `skipif` this engine, `onlyif` another.
  public var skipped = 0
  /// The first failures, at most ``failureLimit``.
  public var failures: [SQLLogicFailure] = []
  /// How many failures are kept in ``failures``.
  public var failureLimit: Int
  /// For each unsupported construct (the engine's message up to "is not supported"), how many
  /// records it stopped.
  public var unsupportedConstructs: [String: Int] = [:]
  /// The first unsupported records, at most ``unsupportedLimit``, each with its construct as
  /// the reason.
  public var unsupportedRecords: [SQLLogicFailure] = []
  /// How many unsupported records are kept in ``unsupportedRecords``.
  public var unsupportedLimit: Int
  /// Seconds the run took.
  public var seconds: Double = 0

  /// An empty report.
  ///
  /// ```swift
  /// SQLLogicReport(name: "select1.test", failureLimit: 20)
  /// ```
  public init(name: String, failureLimit: Int = 20, unsupportedLimit: Int = 0) {
    self.name = name
    self.failureLimit = failureLimit
    self.unsupportedLimit = unsupportedLimit
  }

  /// Every record counted.
  public var total: Int { passed + failed + unsupported + skipped }

  /// Counts a failure, keeping it if the list is not full.
  ///
  /// ```swift
  /// report.recordFailure(failure)
  /// ```
  public mutating func recordFailure(_ failure: SQLLogicFailure) {
    failed += 1
    if failures.count < failureLimit { failures.append(failure) }
  }

  /// Counts a record stopped by an unsupported construct.
  ///
  /// ```swift
  /// report.recordUnsupported("WITH RECURSIVE", line: 12, sql: "WITH RECURSIVE …")
  /// ```
  public mutating func recordUnsupported(_ construct: String, line: Int, sql: String) {
    unsupported += 1
    unsupportedConstructs[construct, default: 0] += 1
    if unsupportedRecords.count < unsupportedLimit {
      unsupportedRecords.append(SQLLogicFailure(file: name, line: line, sql: sql, reason: "unsupported: \(construct)"))
    }
  }

  /// Adds another report's counts, failures (up to the limit), constructs and time.
  ///
  /// ```swift
  /// total.add(fileReport)
  /// ```
  public mutating func add(_ other: SQLLogicReport) {
    passed += other.passed
    failed += other.failed
    unsupported += other.unsupported
    skipped += other.skipped
    failures.append(contentsOf: other.failures.prefix(max(0, failureLimit - failures.count)))
    unsupportedRecords.append(contentsOf: other.unsupportedRecords.prefix(max(0, unsupportedLimit - unsupportedRecords.count)))
    for (construct, count) in other.unsupportedConstructs {
      unsupportedConstructs[construct, default: 0] += count
    }
    seconds += other.seconds
  }

  /// One line of counts: `name: P passed, F failed, U unsupported, S skipped (T s)`.
  ///
  /// ```swift
  /// report.summaryLine  // "select1.test: 1031 passed, 0 failed, 0 unsupported, 0 skipped (0.41 s)"
  /// ```
  public var summaryLine: String {
    let time = (seconds * 100).rounded() / 100
    return "\(name): \(passed) passed, \(failed) failed, \(unsupported) unsupported, \(skipped) skipped (\(time) s)"
  }

  /// The unsupported constructs, most frequent first, one `count  construct` line each.
  ///
  /// ```swift
  /// report.constructLines(limit: 10)  // ["   12  WITH RECURSIVE", …]
  /// ```
  public func constructLines(limit: Int) -> [String] {
    unsupportedConstructs.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      .prefix(limit)
      .map { construct, count in
        let number = String(count)
        return String(repeating: " ", count: max(0, 7 - number.count)) + number + "  " + construct
      }
  }
}
