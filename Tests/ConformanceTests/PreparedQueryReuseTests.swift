import Foundation
import Tandem
import Testing

/// A query built once and run many times: engines keep what they compiled for it (SQLite its
/// rendering and prepared statement, the memory engine its plan) and must still answer each run
/// as if it were new.
@Suite("Prepared queries run again")
struct PreparedQueryReuseTests {
  /// Each run reads the rows and parameter values of that run.
  @Test(arguments: BackendKind.allCases)
  func aQueryRunAgainSeesNewRowsAndValues(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Word.self)
    try db.insert(Word.samples)
    let byText = Word.where { $0.text == Parameter<String>("text") }.select { $0.id }
    #expect(try db.fetchAll(byText, parameters: ["text": "Milk"]) == [1])
    #expect(try db.fetchAll(byText, parameters: ["text": "1000"]) == [5])
    try db.insert(Word(id: 7, text: "Milk"))
    #expect(try db.fetchAll(byText, parameters: ["text": "Milk"]) == [1, 7])
    #expect(try db.find(Word.self, key: 7)?.text == "Milk")
    try db.delete(Word.where { $0.id == 7 })
    #expect(try db.find(Word.self, key: 7) == nil)
    // Bindings that do not fit a query run before are refused as on its first run.
    let missing = try #require(throws: TandemError.self) { try db.fetchAll(byText) }
    #expect(missing.kind == .misuse)
  }

  /// A table dropped and created again with a column named `rowid` changes how the same query
  /// must spell the rowid its order ends with: the second run orders by the table's rowid, not by
  /// the new column (regression: SQLite's compiled query kept across a schema change).
  @Test(arguments: BackendKind.allCases)
  func aQueryRunAfterTheTableChangesReadsTheNewTable(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Tag.self)
    try db.insert([Tag(name: "b"), Tag(name: "a")])
    let all = Tag.all
    #expect(try db.fetchAll(all).map(\.name) == ["b", "a"])
    #expect(try db.fetchAll(all).map(\.name) == ["b", "a"])
    try db.execute(sql: "DROP TABLE \(quoted(Tag.tableName))")
    try db.execute(sql: "CREATE TABLE \(quoted(Tag.tableName)) (\"name\" TEXT PRIMARY KEY, \"rowid\" TEXT)")
    try db.execute(sql: "INSERT INTO \(quoted(Tag.tableName)) VALUES ('d', 'z'), ('c', 'y')")
    #expect(try db.fetchAll(all).map(\.name) == ["d", "c"])
  }

  /// A join run again reads each run's rows and values, through every lookup it plans: here the
  /// tasks are found by an automatic index on `title` (no index holds it), which the memory
  /// engine builds on the first run (regression: a join's compiled plan kept its transient index
  /// after a row was inserted, updated or deleted, or a transaction rolled back).
  @Test(arguments: BackendKind.allCases)
  func aJoinRunAgainSeesNewRowsAndValues(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    func named(_ name: String, in db: some DatabaseWriter) throws -> [String] {
      try db.fetchAll(
        WorkList.join(WorkTask.self) { $0.name == $1.title }
          .where { list, _ in list.name != name }
          .select { list, task in (list.name, task.id) }
      ).map { "\($0.0):\($0.1)" }
    }
    #expect(try named("Work", in: db) == [])
    try db.insert(WorkTask(id: 6, listID: 4, title: "Home"))
    #expect(try named("Work", in: db) == ["Home:6"])
    #expect(try named("Home", in: db) == [])
    try db.update(WorkTask.where { $0.id == 2 }) { $0.set(\.title, to: "Work") }
    #expect(try named("Home", in: db) == ["Work:2"])
    #expect(try named("Work", in: db) == ["Home:6"])
    do {
      try db.transaction { db in
        try db.delete(WorkTask.where { $0.id == 6 })
        #expect(try named("Work", in: db) == [])
        throw RolledBack()
      }
    } catch is RolledBack {}
    #expect(try named("Work", in: db) == ["Home:6"])
    try db.delete(WorkTask.where { $0.id == 6 })
    #expect(try named("Work", in: db) == [])
  }

  private struct RolledBack: Error {}

  /// A join's first condition comparing a text column with a parameter: the value bound decides
  /// what matches, text by its bytes, a number by the column's affinity (the memory engine tests
  /// a bound TEXT on the stored bytes before it decodes a row, and tests any other value as the
  /// comparison does).
  @Test(arguments: BackendKind.allCases)
  func aJoinComparingATextColumnWithAParameterMatchesTheValueBound(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE l(id INTEGER PRIMARY KEY, name TEXT)")
    try db.execute(sql: "CREATE TABLE r(id INTEGER PRIMARY KEY, lid INTEGER)")
    try db.execute(sql: "INSERT INTO l VALUES (1, 'a'), (2, '5'), (3, 'é'), (4, 'e\u{301}')")
    try db.execute(sql: "INSERT INTO r VALUES (1, 2), (2, 1), (3, 3), (4, 4), (5, 2)")
    let sql = "SELECT r.id FROM l JOIN r ON r.lid = l.id WHERE l.name = ? ORDER BY r.id"
    func ids(_ value: SqliteValue) throws -> [Int] { try db.fetchAll(sql: sql, arguments: [value]).map { try $0[0] as Int } }
    #expect(try ids("a") == [2])
    #expect(try ids(5) == [1, 5])
    #expect(try ids(5.0) == [])  // the text 5.0
    #expect(try ids("5") == [1, 5])
    #expect(try ids("\u{E9}") == [3])
    #expect(try ids("e\u{301}") == [4])
    #expect(try ids(.null) == [])
    #expect(try ids(.blob(Data([0x61]))) == [])
  }

  private func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
