import Foundation
@_spi(TandemBackend) import TandemCore
import Testing

@testable import TandemSQLite

/// Create / insert / select / update / delete on a real file and on `:memory:`.
@Suite("SQLite backend: execution")
struct BackendExecutionTests {
  static let reminders = TableSchema(
    "reminders",
    columns: [
      .column("id", .integer, primaryKey: true),
      .column("title", .text, default: ""),
      .column("isCompleted", .integer, default: 0),
      .column("dueDate", .null(.text)),
    ],
    indexes: [.index(on: ["title"])])

  @Test(arguments: DatabaseKind.allCases)
  func createInsertSelectUpdateDelete(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      #expect(backend.name == "sqlite")
      try backend.create(Self.reminders, ifNotExists: false)
      let first = try backend.execute(
        insertRow("reminders", ["title", "dueDate"], ["Milk", .null]), parameters: [:])
      #expect(first == StatementResult(lastInsertRowid: 1, changes: 1))
      let many = try backend.execute(
        .insert(
          InsertStatement(
            table: "reminders", columns: ["id", "title", "isCompleted"],
            rows: [[.literal(10), .literal("Eggs"), .literal(1)], [.literal(11), .literal("Bread"), .literal(0)]])),
        parameters: [:])
      #expect(many == StatementResult(lastInsertRowid: 11, changes: 2))

      let all = try backend.execute(selectAll("reminders", ["id", "title", "isCompleted", "dueDate"]), parameters: [:])
      #expect(
        all.rows == [
          [.integer(1), .text("Milk"), .integer(0), .null],
          [.integer(10), .text("Eggs"), .integer(1), .null],
          [.integer(11), .text("Bread"), .integer(0), .null],
        ])
      #expect(all.changes == 0 && all.lastInsertRowid == 0)

      let updated = try backend.execute(
        .update(
          UpdateStatement(
            table: "reminders", assignments: [Assignment(column: "dueDate", value: .literal("2024-01-01"))],
            filter: .binary(.equal, .column("isCompleted"), .literal(0)))),
        parameters: [:])
      #expect(updated == StatementResult(changes: 2))

      let deleted = try backend.execute(
        .delete(DeleteStatement(table: "reminders", filter: .binary(.greater, .column("id"), .literal(10)))),
        parameters: [:])
      #expect(deleted == StatementResult(changes: 1))

      let remaining = try backend.execute(selectAll("reminders", ["id", "dueDate"]), parameters: [:])
      #expect(remaining.rows == [[.integer(1), .text("2024-01-01")], [.integer(10), .null]])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func namedParametersRunOneStatementWithManyValues(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(Self.reminders, ifNotExists: false)
      let insert = Statement.insert(
        InsertStatement(table: "reminders", columns: ["title"], rows: [[.parameter("title")]]))
      for (index, title) in ["a", "b", "c"].enumerated() {
        let result = try backend.execute(insert, parameters: ["title": .text(title), "unused": 1])
        #expect(result.lastInsertRowid == Int64(index + 1))
      }
      let select = Statement.select(
        SelectStatement(
          table: "reminders", columns: [.column("title")], filter: .binary(.greaterOrEqual, .rowid, .parameter("from")),
          orderBy: [OrderingTerm(.rowid, descending: true)]))
      #expect(try backend.execute(select, parameters: ["from": 2]).rows == [[.text("c")], [.text("b")]])
      #expect(try backend.execute(select, parameters: ["from": 3]).rows == [[.text("c")]])

      let error = tandemError { _ = try backend.execute(select, parameters: [:]) }
      #expect(error?.kind == .misuse)
      #expect(error?.message == "missing value for parameter :from")
      #expect(error?.statement?.hasPrefix(#"SELECT "title" FROM "reminders""#) == true)
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func lastInsertRowidCountsOnlyThisStatementsInserts(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(
        TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("n", .integer, unique: true)]),
        ifNotExists: false)
      #expect(try backend.execute(insertRow("t", ["n"], [1]), parameters: [:]).lastInsertRowid == 1)
      let ignored = try backend.execute(
        .insert(InsertStatement(table: "t", columns: ["n"], rows: [[.literal(1)]], conflict: .ignore)), parameters: [:])
      #expect(ignored == StatementResult(lastInsertRowid: 0, changes: 0))
      let upserted = try backend.execute(
        .insert(
          InsertStatement(
            table: "t", columns: ["n"], rows: [[.literal(1)]],
            conflict: .update(target: ["n"], assignments: [Assignment(column: "n", value: .literal(5))]))),
        parameters: [:])
      #expect(upserted == StatementResult(lastInsertRowid: 0, changes: 1))
      let nothing = try backend.execute(
        .insert(InsertStatement(table: "t", columns: ["n"], rows: [[.literal(5)]], conflict: .nothing(target: ["n"]))),
        parameters: [:])
      #expect(nothing == StatementResult(lastInsertRowid: 0, changes: 0))
      let replaced = try backend.execute(
        .insert(InsertStatement(table: "t", columns: ["id", "n"], rows: [[.literal(7), .literal(5)]], conflict: .replace)),
        parameters: [:])
      #expect(replaced.lastInsertRowid == 7)
      #expect(try backend.execute(selectAll("t", ["id", "n"]), parameters: [:]).rows == [[.integer(7), .integer(5)]])
      // A later statement that inserts nothing reports 0, not the previous insert's rowid.
      let none = try backend.execute(
        .insert(InsertStatement(table: "t", columns: ["n"], rows: [[.literal(5)]], conflict: .ignore)), parameters: [:])
      #expect(none.lastInsertRowid == 0)
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func defaultValuesInsert(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(
        TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("v", .text, default: "d")]),
        ifNotExists: false)
      let result = try backend.execute(.insert(InsertStatement(table: "t", columns: [], rows: [[]])), parameters: [:])
      #expect(result == StatementResult(lastInsertRowid: 1, changes: 1))
      #expect(try backend.execute(selectAll("t", ["id", "v"]), parameters: [:]).rows == [[.integer(1), .text("d")]])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func rowidShadowedByAColumnIsStillReachable(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("t", columns: [.column("ROWID", .text), .column("v", .integer)]), ifNotExists: false)
      _ = try backend.execute(insertRow("t", ["ROWID", "v"], ["a", 1]), parameters: [:])
      _ = try backend.execute(insertRow("t", ["ROWID", "v"], ["b", 2]), parameters: [:])
      let rows = try backend.execute(
        .select(
          SelectStatement(
            table: "t", columns: [.rowid, .column("ROWID")], orderBy: [OrderingTerm(.rowid, descending: true)])),
        parameters: [:]
      ).rows
      #expect(rows == [[.integer(2), .text("b")], [.integer(1), .text("a")]])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func keywordAndQuotedIdentifiersWorkOnSQLite(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      let table = #"order "by" ☕︎"#
      let column = #"a "quoted" name"#
      try backend.create(TableSchema(table, columns: [.column("select", .integer), .column(column, .text)]), ifNotExists: false)
      _ = try backend.execute(insertRow(table, ["select", column], [1, "'); DROP TABLE reminders; --"]), parameters: [:])
      let rows = try backend.execute(
        .select(
          SelectStatement(
            table: table, columns: [.column(column)], filter: .binary(.equal, .column("select"), .literal(1)))),
        parameters: [:]
      ).rows
      #expect(rows == [[.text("'); DROP TABLE reminders; --")]])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func createIfNotExistsAndDrop(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(Self.reminders, ifNotExists: false)
      try backend.create(Self.reminders, ifNotExists: true)
      let again = tandemError { try backend.create(Self.reminders, ifNotExists: false) }
      #expect(again?.kind == .sqlite)
      #expect(again?.sqliteCode == 1)
      #expect(again?.message == "table \"reminders\" already exists")

      try backend.drop(table: "reminders", ifExists: false)
      try backend.drop(table: "reminders", ifExists: true)
      let missing = tandemError { _ = try backend.execute(selectAll("reminders", ["id"]), parameters: [:]) }
      #expect(missing?.kind == .sqlite)
      #expect(missing?.sqliteCode == 1)
      #expect(missing?.message == "no such table: reminders")
      #expect(missing?.statement == #"SELECT "id" FROM "reminders" ORDER BY rowid ASC"#)
      let dropMissing = tandemError { try backend.drop(table: "reminders", ifExists: false) }
      #expect(dropMissing?.message == "no such table: reminders")
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func failedCreateLeavesNothing(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      // The table statement succeeds, the index statement fails: the table must not remain.
      let broken = TableSchema("t", columns: [.column("a", .integer)], indexes: [.index(on: ["nope"])])
      let error = tandemError { try backend.create(broken, ifNotExists: false) }
      #expect(error?.kind == .sqlite)
      #expect(error?.message == "no such column: nope")
      #expect(try backend.run("SELECT count(*) FROM sqlite_schema") == [[.integer(0)]])
      #expect(!backend.connection.isInTransaction)
      try backend.create(TableSchema("t", columns: [.column("a", .integer)]), ifNotExists: false)
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func quotedNamesOfNoColumnAreErrorsNotStrings(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("t", columns: [.column("a", .integer)]), ifNotExists: false)
      _ = try backend.execute(insertRow("t", ["a"], [1]), parameters: [:])
      // With SQLite's legacy double-quoted strings this would return the text 'nope'.
      let error = tandemError {
        _ = try backend.execute(.select(SelectStatement(table: "t", columns: [.column("nope")])), parameters: [:])
      }
      #expect(error?.kind == .sqlite)
      #expect(error?.sqliteCode == 1)
      #expect(error?.message == "no such column: nope")
    }
  }

  @Test func fileDatabaseUsesWALAndForeignKeys() throws {
    let file = TemporaryDatabaseFile()
    defer { file.remove() }
    let backend = try file.open()
    #expect(try backend.run("PRAGMA journal_mode") == [[.text("wal")]])
    #expect(try backend.run("PRAGMA foreign_keys") == [[.integer(1)]])
    #expect(try backend.run("PRAGMA busy_timeout") == [[.integer(5000)]])
    let memory = try SQLiteBackend.inMemory()
    #expect(try memory.run("PRAGMA foreign_keys") == [[.integer(1)]])
    #expect(memory.path == ":memory:")
  }

  @Test func releasingTheBackendClosesTheFile() throws {
    let file = TemporaryDatabaseFile()
    defer { file.remove() }
    do {
      let backend = try file.open()
      try backend.create(Self.reminders, ifNotExists: false)
      _ = try backend.execute(insertRow("reminders", ["title"], ["Milk"]), parameters: [:])
      _ = try backend.execute(selectAll("reminders", ["title"]), parameters: [:])
      #expect(backend.statements.count > 0)
      #expect(FileManager.default.fileExists(atPath: file.path + "-wal"))
    }
    // SQLite checkpoints and deletes the WAL when the last connection closes: the handle (and
    // every cached statement) was finalized and closed when the backend went away.
    #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
    #expect(try file.open().execute(selectAll("reminders", ["title"]), parameters: [:]).rows == [["Milk"]])
  }

  /// The error names the file: "unable to open database file" alone does not say which.
  @Test func openingAnImpossiblePathThrowsNamingIt() {
    let path = "/nonexistent-directory-\(UUID().uuidString)/db.sqlite"
    let error = tandemError { _ = try SQLiteBackend(path: path) }
    #expect(error?.kind == .sqlite)
    #expect(error?.sqliteCode == 14)  // SQLITE_CANTOPEN
    #expect(error?.message == "unable to open database file: \(path)")
  }

  @Test func rawSQLMustHoldExactlyOneStatement() throws {
    let backend = try SQLiteBackend.inMemory()
    #expect(tandemError { _ = try backend.run("SELECT 1; SELECT 2") }?.kind == .misuse)
    #expect(tandemError { _ = try backend.run("  ") }?.kind == .misuse)
    #expect(try backend.run("SELECT 1;  ") == [[.integer(1)]])
  }

  /// The seam's one entry point refuses bindings that do not fit the statement, as the memory
  /// engine does: rows as data for a select, positional values not one per parameter name.
  @Test(arguments: DatabaseKind.allCases)
  func runRefusesBindingsThatDoNotFit(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(Self.reminders, ifNotExists: false)
      let select = PreparedStatement(
        SelectStatement(table: "reminders", columns: [.column("id")], filter: .binary(.equal, .column("id"), .parameter("id"))),
        parameterNames: ["id"])
      let rows = tandemError { _ = try backend.run(select, .rows([[1]])) { _ in } }
      #expect(rows?.kind == .misuse)
      let count = tandemError { _ = try backend.run(select, .positional([1, 2])) { _ in } }
      #expect(count?.kind == .misuse)
    }
  }
}
