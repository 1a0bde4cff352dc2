import SQLLogicTest
import Testing

@Suite struct SQLLogicScriptTests {
  @Test func readsStatementsQueriesAndControlRecords() {
    let script = SQLLogicScript(parsing: """
      hash-threshold 8

      # a comment line does not separate records
      statement ok
      CREATE TABLE t1(a INTEGER, b TEXT);
      # nor does it reach the SQL
      INSERT INTO t1 VALUES(1, 'x')

      skipif mysql # not compatible
      onlyif sqlite
      query IT rowsort label-1
      SELECT a,
             b FROM t1
      ----
      1
      x

      statement error
      SELECT nope FROM t1

      query R nosort
      SELECT 1.5
      ----
      30 values hashing to 3c13dee48d9356ae19af2515e05e6b54

      query I valuesort
      SELECT a FROM t1 WHERE 0

      halt

      """)
    #expect(script.records.map(\.line) == [1, 4, 9, 18, 21, 26, 29])
    #expect(script.records[0].kind == .hashThreshold(8))
    #expect(script.records[1].kind == .statement(expectsError: false, sql: "CREATE TABLE t1(a INTEGER, b TEXT);\nINSERT INTO t1 VALUES(1, 'x')"))
    #expect(script.records[2].conditions == [.skipIf("mysql"), .onlyIf("sqlite")])
    #expect(script.records[2].kind == .query(SQLLogicQuery(
      types: [.integer, .text], sortMode: .rowSort, label: "label-1", sql: "SELECT a,\n       b FROM t1", expected: ["1", "x"])))
    #expect(script.records[3].kind == .statement(expectsError: true, sql: "SELECT nope FROM t1"))
    #expect(script.records[4].kind == .query(SQLLogicQuery(
      types: [.real], sortMode: .noSort, label: nil, sql: "SELECT 1.5",
      expected: ["30 values hashing to 3c13dee48d9356ae19af2515e05e6b54"])))
    #expect(script.records[5].kind == .query(SQLLogicQuery(
      types: [.integer], sortMode: .valueSort, label: nil, sql: "SELECT a FROM t1 WHERE 0", expected: [])))
    #expect(script.records[6].kind == .halt)
  }

  @Test func conditionsPickTheEngine() {
    let script = SQLLogicScript(parsing: "skipif sqlite\nhalt\n\nonlyif mssql\nhalt\n\nonlyif sqlite\nskipif mysql\nhalt\n")
    #expect(script.records.map { $0.applies(to: "sqlite") } == [false, false, true])
    #expect(script.records.map { $0.applies(to: "mssql") } == [true, true, false])
  }

  @Test func unknownRecordsAndTypesAreInvalid() {
    let script = SQLLogicScript(parsing: "query IX nosort\nSELECT 1, 2\n\nstatement maybe\nSELECT 1\n\nfrobnicate\n\nquery I upsidedown\nSELECT 1\n")
    #expect(script.records.count == 4)
    for record in script.records {
      guard case .invalid = record.kind else {
        Issue.record("expected an invalid record, got \(record.kind)")
        continue
      }
    }
  }

  @Test func carriageReturnsAndTrailingBlanksAreIgnored() {
    let script = SQLLogicScript(parsing: "query T nosort  \r\nSELECT 'a'\r\n----\r\na\r\n  \r\nhalt\r\n")
    #expect(script.records.count == 2)
    #expect(script.records[0].kind == .query(SQLLogicQuery(types: [.text], sortMode: .noSort, label: nil, sql: "SELECT 'a'", expected: ["a"])))
  }
}
