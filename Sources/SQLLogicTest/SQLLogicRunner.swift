import Foundation
import TandemCore

/// Runs sqllogictest scripts on an ``SQLLogicEngine`` and compares results the way SQLite's
/// reference driver does.
///
/// ```swift
/// let runner = SQLLogicRunner()  // as engine "sqlite": honours `skipif sqlite`, `onlyif sqlite`
/// let report = try runner.run(fileAt: url, on: engine)
/// print(report.summaryLine)
/// ```
public struct SQLLogicRunner: Sendable {
  /// The engine name `skipif` and `onlyif` lines are matched against.
  public var engineName: String
  /// How many failures each report keeps.
  public var failureLimit: Int
  /// How many unsupported records each report keeps (their SQL and construct).
  public var unsupportedLimit: Int
  /// The hash threshold a script starts with, until a `hash-threshold` record changes it: 8, as
  /// in the reference driver.
  public var defaultHashThreshold: Int

  /// A runner that plays the engine `engineName` (every Tandem engine reproduces `sqlite`).
  ///
  /// ```swift
  /// SQLLogicRunner(engineName: "sqlite", failureLimit: 50, defaultHashThreshold: 8)
  /// ```
  public init(
    engineName: String = "sqlite", failureLimit: Int = 20, unsupportedLimit: Int = 0, defaultHashThreshold: Int = 8
  ) {
    self.engineName = engineName
    self.failureLimit = failureLimit
    self.unsupportedLimit = unsupportedLimit
    self.defaultHashThreshold = defaultHashThreshold
  }

  /// Parses and runs one file; the report is named after `name`, or the file's path.
  ///
  /// ```swift
  /// try runner.run(fileAt: URL(fileURLWithPath: "test/select1.test"), on: engine)
  /// ```
  public func run(fileAt url: URL, named name: String? = nil, on engine: some SQLLogicEngine) throws -> SQLLogicReport {
    let script = try SQLLogicScript(contentsOf: url)
    return run(script, named: name ?? url.path, on: engine)
  }

  /// Runs a parsed script, record by record, until its end or a `halt`.
  ///
  /// ```swift
  /// runner.run(SQLLogicScript(parsing: text), named: "inline", on: engine)
  /// ```
  public func run(_ script: SQLLogicScript, named name: String, on engine: some SQLLogicEngine) -> SQLLogicReport {
    let start = ContinuousClock.now
    var report = SQLLogicReport(name: name, failureLimit: failureLimit, unsupportedLimit: unsupportedLimit)
    var hashThreshold = defaultHashThreshold
    var labels: [String: String] = [:]
    records: for record in script.records {
      guard record.applies(to: engineName) else {
        if record.isTest { report.skipped += 1 }
        continue
      }
      switch record.kind {
      case .halt:
        break records
      case .hashThreshold(let threshold):
        hashThreshold = threshold
      case .invalid(let reason):
        report.recordFailure(SQLLogicFailure(file: name, line: record.line, sql: "", reason: reason))
      case .statement(let expectsError, let sql):
        runStatement(sql, expectsError: expectsError, line: record.line, on: engine, into: &report)
      case .query(let query):
        runQuery(query, line: record.line, hashThreshold: hashThreshold, labels: &labels, on: engine, into: &report)
      }
    }
    let elapsed = ContinuousClock.now - start
    report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return report
  }

  private func runStatement(
    _ sql: String, expectsError: Bool, line: Int, on engine: some SQLLogicEngine, into report: inout SQLLogicReport
  ) {
    do {
      try engine.execute(script: sql)
      if expectsError {
        report.recordFailure(SQLLogicFailure(file: report.name, line: line, sql: sql, reason: "statement succeeded, an error was expected"))
      } else {
        report.passed += 1
      }
    } catch {
      if let construct = Self.unsupportedConstruct(error) {
        report.recordUnsupported(construct, line: line, sql: sql)
      } else if expectsError {
        report.passed += 1
      } else {
        report.recordFailure(SQLLogicFailure(file: report.name, line: line, sql: sql, reason: "statement failed: \(Self.message(error))"))
      }
    }
  }

  private func runQuery(
    _ query: SQLLogicQuery, line: Int, hashThreshold: Int, labels: inout [String: String],
    on engine: some SQLLogicEngine, into report: inout SQLLogicReport
  ) {
    let file = report.name
    let failure = { (reason: String, actual: [String]) in
      SQLLogicFailure(file: file, line: line, sql: query.sql, reason: reason, expected: query.expected, actual: actual)
    }
    let result: SQLLogicResult
    do {
      result = try engine.query(query.sql, rowOrderMatters: query.sortMode == .noSort)
    } catch {
      if let construct = Self.unsupportedConstruct(error) {
        report.recordUnsupported(construct, line: line, sql: query.sql)
      } else {
        report.recordFailure(failure("query failed: \(Self.message(error))", []))
      }
      return
    }
    if let stepError = result.stepError, let construct = Self.unsupportedConstruct(stepError) {
      report.recordUnsupported(construct, line: line, sql: query.sql)
      return
    }
    let columnCounts = Set(result.rows.map(\.count) + (result.columnCount.map { [$0] } ?? []))
    if let wrong = columnCounts.first(where: { $0 != query.types.count }) {
      report.recordFailure(failure("wrong number of result columns: expected \(query.types.count) but got \(wrong)", []))
      return
    }
    let rendered = Self.render(query, rows: result.rows, hashThreshold: hashThreshold)
    if let label = query.label, let hash = rendered.hash {
      if let earlier = labels[label], earlier != hash {
        report.recordFailure(failure("labeled result set does not match label \(label): \(earlier)", [hash]))
        return
      }
      labels[label] = hash
    }
    if rendered.lines == query.expected {
      report.passed += 1
    } else {
      report.recordFailure(failure("wrong result", rendered.lines))
    }
  }

  /// The lines a query's rows compare as: the rendered values after the sort mode, or their
  /// `N values hashing to <md5>` line when there are more than `hashThreshold` (if not 0); and
  /// that hash line whenever it was computed (labelled queries always compute it).
  ///
  /// ```swift
  /// SQLLogicRunner.render(query, rows: [[.integer(2)], [.integer(10)]], hashThreshold: 8).lines  // rowsort: ["10", "2"]
  /// ```
  public static func render(_ query: SQLLogicQuery, rows: [[SqliteValue]], hashThreshold: Int) -> (lines: [String], hash: String?) {
    let width = query.types.count
    var values: [String] = []
    values.reserveCapacity(rows.count * width)
    for row in rows {
      for column in 0..<min(width, row.count) {
        values.append(query.types[column].render(row[column]))
      }
    }
    // Rendered values are printable ASCII, for which String's `<` is strcmp's byte order; a row is
    // compared as its values joined by NUL, which sorts below every printable byte, so that a
    // shorter value sorts first as strcmp has it.
    switch query.sortMode {
    case .noSort:
      break
    case .rowSort where width > 0:
      var keyed: [(key: String, row: ArraySlice<String>)] = []
      keyed.reserveCapacity(rows.count)
      var start = 0
      while start < values.count {
        let row = values[start..<min(start + width, values.count)]
        keyed.append((row.joined(separator: "\u{0}"), row))
        start += width
      }
      keyed.sort { $0.key < $1.key }
      values.removeAll(keepingCapacity: true)
      for entry in keyed {
        values.append(contentsOf: entry.row)
      }
    case .rowSort:
      break
    case .valueSort:
      values.sort()
    }
    let hashed = hashThreshold > 0 && values.count > hashThreshold
    var hash: String?
    if hashed || query.label != nil {
      var bytes: [UInt8] = []
      for value in values {
        bytes.append(contentsOf: value.utf8)
        bytes.append(UInt8(ascii: "\n"))
      }
      hash = "\(values.count) values hashing to \(MD5.digest(of: bytes))"
    }
    if hashed, let hash { return ([hash], hash) }
    return (values, hash)
  }

  /// The construct an `.unsupported` error names (its message before "is not supported"), or
  /// `nil` for any other error.
  ///
  /// ```swift
  /// SQLLogicRunner.unsupportedConstruct(TandemError.unsupported("WITH RECURSIVE", backend: "memory"))  // "WITH RECURSIVE"
  /// ```
  public static func unsupportedConstruct(_ error: any Error) -> String? {
    guard let error = error as? TandemError, error.kind == .unsupported else { return nil }
    if let range = error.message.range(of: " is not supported") {
      return String(error.message[..<range.lowerBound])
    }
    return error.message
  }

  private static func message(_ error: any Error) -> String {
    (error as? TandemError)?.message ?? String(describing: error)
  }
}
