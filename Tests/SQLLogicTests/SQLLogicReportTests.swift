import SQLLogicTest
import Testing

@Suite struct SQLLogicReportTests {
  @Test func addsCountsFailuresAndConstructs() {
    var first = SQLLogicReport(name: "a.test", failureLimit: 5)
    first.passed = 3
    first.skipped = 1
    first.recordFailure(SQLLogicFailure(file: "a.test", line: 4, sql: "SELECT 1", reason: "wrong result"))
    first.recordUnsupported("WITH RECURSIVE", line: 9, sql: "WITH RECURSIVE c(x) AS (SELECT 1) SELECT x FROM c")
    var second = SQLLogicReport(name: "b.test", failureLimit: 5, unsupportedLimit: 1)
    second.passed = 2
    second.recordUnsupported("WITH RECURSIVE", line: 3, sql: "WITH RECURSIVE …")
    second.recordUnsupported("CREATE TRIGGER", line: 5, sql: "CREATE TRIGGER …")
    #expect(second.unsupportedRecords.map(\.line) == [3])
    #expect(second.unsupportedRecords.first?.reason == "unsupported: WITH RECURSIVE")
    #expect(first.unsupportedRecords.isEmpty)
    var total = SQLLogicReport(name: "total", failureLimit: 0, unsupportedLimit: 5)
    total.add(first)
    total.add(second)
    #expect(total.summaryLine == "total: 5 passed, 1 failed, 3 unsupported, 1 skipped (0.0 s)")
    #expect(total.total == 10)
    #expect(total.failures.isEmpty)
    #expect(total.unsupportedRecords.map(\.file) == ["b.test"])
    #expect(total.constructLines(limit: 10) == ["      2  WITH RECURSIVE", "      1  CREATE TRIGGER"])
  }

  @Test func failureDescriptionShowsSQLExpectedAndActual() {
    let failure = SQLLogicFailure(
      file: "a.test", line: 7, sql: "SELECT a\n  FROM t", reason: "wrong result", expected: ["1", "2"], actual: ["1"])
    #expect(failure.description == """
      a.test:7: wrong result
          SELECT a
            FROM t
        expected: 1 | 2
        actual:   1
      """)
  }
}
