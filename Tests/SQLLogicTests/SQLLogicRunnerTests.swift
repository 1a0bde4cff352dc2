import SQLLogicTest
import TandemCore
import Testing

/// An engine that answers from a table of canned results, to test the runner's rules alone.
private final class CannedEngine: SQLLogicEngine {
  var results: [String: SQLLogicResult] = [:]
  var errors: [String: any Error] = [:]
  var executed: [String] = []

  func execute(script: String) throws {
    executed.append(script)
    if let error = errors[script] { throw error }
  }

  func query(_ sql: String, rowOrderMatters: Bool) throws -> SQLLogicResult {
    if let error = errors[sql] { throw error }
    return results[sql] ?? SQLLogicResult(columnCount: 1, rows: [])
  }
}

@Suite struct SQLLogicRunnerTests {
  private func query(_ types: [SQLLogicColumnType], _ sort: SQLLogicQuery.SortMode, label: String? = nil) -> SQLLogicQuery {
    SQLLogicQuery(types: types, sortMode: sort, label: label, sql: "q", expected: [])
  }

  @Test func rowsortComparesRenderedTextByteWiseColumnByColumn() {
    let rows: [[SqliteValue]] = [[.integer(9), .text("b")], [.integer(10), .text("z")], [.integer(9), .text("a")], [.null, .text("B")]]
    let lines = SQLLogicRunner.render(query([.integer, .text], .rowSort), rows: rows, hashThreshold: 0).lines
    #expect(lines == ["10", "z", "9", "a", "9", "b", "NULL", "B"])
  }

  @Test func valuesortSortsEveryValueAlone() {
    let rows: [[SqliteValue]] = [[.integer(9), .text("b")], [.integer(10), .text("A")]]
    let lines = SQLLogicRunner.render(query([.integer, .text], .valueSort), rows: rows, hashThreshold: 0).lines
    #expect(lines == ["10", "9", "A", "b"])
  }

  @Test func nosortKeepsTheEngineOrder() {
    let rows: [[SqliteValue]] = [[.integer(9)], [.integer(10)]]
    #expect(SQLLogicRunner.render(query([.integer], .noSort), rows: rows, hashThreshold: 0).lines == ["9", "10"])
  }

  @Test func resultsOverTheThresholdCompareByHash() {
    let rows: [[SqliteValue]] = (1...3).map { [.integer(Int64($0))] }
    // md5("1\n2\n3\n")
    let hashLine = "3 values hashing to c0710d6b4f15dfa88f600b0e6b624077"
    #expect(SQLLogicRunner.render(query([.integer], .noSort), rows: rows, hashThreshold: 2).lines == [hashLine])
    #expect(SQLLogicRunner.render(query([.integer], .noSort), rows: rows, hashThreshold: 3).lines == ["1", "2", "3"])
    #expect(SQLLogicRunner.render(query([.integer], .noSort), rows: rows, hashThreshold: 0).lines == ["1", "2", "3"])
    let labelled = SQLLogicRunner.render(query([.integer], .noSort, label: "x"), rows: rows, hashThreshold: 0)
    #expect(labelled.lines == ["1", "2", "3"])
    #expect(labelled.hash == hashLine)
  }

  @Test func countsEveryOutcome() {
    let engine = CannedEngine()
    engine.results["SELECT 1"] = SQLLogicResult(columnCount: 1, rows: [[.integer(1)]])
    engine.results["SELECT 2"] = SQLLogicResult(columnCount: 1, rows: [[.integer(3)]])
    engine.results["SELECT 1, 2"] = SQLLogicResult(columnCount: 2, rows: [[.integer(1), .integer(2)]])
    engine.results["SELECT sum(x)"] = SQLLogicResult(columnCount: 1, rows: [[.integer(5)]], stepError: RawSQLiteError(description: "integer overflow"))
    engine.errors["SELECT nope"] = RawSQLiteError(description: "no such column: nope")
    engine.errors["WITH RECURSIVE c AS (SELECT 1) SELECT 1"] = TandemError.unsupported("WITH RECURSIVE", backend: "memory")
    engine.errors["CREATE TRIGGER t"] = TandemError.unsupported("CREATE TRIGGER", backend: "memory")
    let script = SQLLogicScript(parsing: """
      statement ok
      CREATE TABLE t(x)

      statement error
      SELECT nope

      statement error
      CREATE TABLE u(x)

      query I nosort
      SELECT 1
      ----
      1

      query I nosort
      SELECT 2
      ----
      2

      query I nosort
      SELECT 1, 2
      ----
      1
      2

      query I nosort
      SELECT sum(x)
      ----
      5

      query I nosort
      SELECT nope
      ----

      query I nosort
      WITH RECURSIVE c AS (SELECT 1) SELECT 1
      ----
      1

      statement ok
      CREATE TRIGGER t

      skipif sqlite
      query I nosort
      SELECT 1
      ----
      1

      onlyif mysql
      statement ok
      CREATE TABLE mine(x)

      onlyif mssql
      halt

      query I nosort label-a
      SELECT 1
      ----
      1

      query I nosort label-a
      SELECT 2
      ----
      3

      halt

      statement ok
      never run
      """)
    let report = SQLLogicRunner().run(script, named: "canned", on: engine)
    #expect(report.passed == 5)
    #expect(report.failed == 5)
    #expect(report.unsupported == 2)
    #expect(report.skipped == 2)
    #expect(report.unsupportedConstructs == ["WITH RECURSIVE": 1, "CREATE TRIGGER": 1])
    #expect(report.failures.map(\.line) == [7, 15, 20, 31, 61])
    #expect(report.failures.map(\.reason).last?.hasPrefix("labeled result set does not match") == true)
    #expect(!engine.executed.contains("never run"))
    #expect(!engine.executed.contains("CREATE TABLE mine(x)"))
  }

  @Test func failureListIsCapped() {
    let engine = CannedEngine()
    let text = (0..<10).map { _ in "query I nosort\nSELECT 9\n----\n1\n" }.joined(separator: "\n")
    let report = SQLLogicRunner(failureLimit: 3).run(SQLLogicScript(parsing: text), named: "capped", on: engine)
    #expect(report.failed == 10)
    #expect(report.failures.count == 3)
  }
}
