import CSQLite
import Foundation
import Tandem
import Testing
import SQLiteReference

/// Tables declared with `@Table`, nested so their names stay out of other tests' way.
enum MacroTables {
  enum Priority: Int, ColumnType { case low = 1, medium, high }

  @Table struct Reminder: Equatable {
    let id: Int
    var title = ""
    @Column("is_completed") var isCompleted = false
    var dueDate: Date?
    var priority: Priority?
  }

  @Table("reminders_list") struct RemindersList: Equatable {
    @Column(primaryKey: true) let code: String
    var name: String
  }

  @Table struct Event: Equatable, Identifiable {
    let id: Int
    @Column(as: Date.UnixTimeRepresentation.self) var startsAt: Date
    @Column(as: Date.UnixTimeRepresentation.self) var endsAt: Date?
    @Column(as: JSONRepresentation<[String]>.self) var tags: [String] = []
    @Column(unique: true) var slug: String
    @Ignored var cache: String = "not stored"
    var computed: Int { 1 }
    static let shared = 0
  }

  /// Every column has a default, so `INSERT … DEFAULT VALUES` makes a whole row.
  @Table struct Setting: Equatable {
    @Column(primaryKey: true) var key = "theme"
    var count = 3
    var offset = -2
    var ratio = 0.5
    var delta = -1.5
    var label: String? = nil
    var level: Priority = .medium
    var flags: Int32 = 0
    var enabled = true
  }

  /// A public table and a column that is named `id` but is not its key.
  @Table public struct Tagging: Equatable {
    @Column(primaryKey: false) public var id: String
    @Column("tag_name", unique: true) public var tagName: String
  }

  /// `Int64` keys get a `Draft` too, and a public one has a public initializer.
  @Table public struct Counter: Equatable {
    public let id: Int64
    public var total = 0
  }

  enum Naming {
    @Table struct Category { let id: Int }
    @Table struct Status { let id: Int }
    @Table struct RemindersList { let id: Int }
    @Table struct Box { let id: Int }
    @Table struct Day { let id: Int }
    @Table struct Entry { let id: Int }
    @Table struct Person { let id: Int }
    @Table("people") struct PersonWithName { let id: Int }
  }
}

@Suite struct MacroTableTests {
  typealias Reminder = MacroTables.Reminder
  typealias Event = MacroTables.Event

  @Test func namesFollowTheConvention() {
    #expect(Reminder.tableName == "reminders")
    #expect(MacroTables.RemindersList.tableName == "reminders_list")
    #expect(MacroTables.Naming.Category.tableName == "categories")
    #expect(MacroTables.Naming.Status.tableName == "statuses")
    #expect(MacroTables.Naming.RemindersList.tableName == "remindersLists")
    #expect(MacroTables.Naming.Box.tableName == "boxes")
    #expect(MacroTables.Naming.Day.tableName == "days")
    #expect(MacroTables.Naming.Entry.tableName == "entries")
    #expect(MacroTables.Naming.Person.tableName == "persons")
    #expect(MacroTables.Naming.PersonWithName.tableName == "people")
    #expect(Reminder.schema.name == Reminder.tableName)
  }

  @Test func reminderDDLMatchesSQLitesTableInfo() throws {
    #expect(
      Reminder.schema.createTableSQL()
        == #"CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "#
        + #""is_completed" INTEGER NOT NULL DEFAULT 0, "dueDate" TEXT, "priority" INTEGER)"#)
    let db = try SQLiteHandle()
    try db.execute(Reminder.schema.createTableSQL())
    let columns = try db.tableInfo("reminders")
    #expect(
      columns == [
        TableInfoRow(name: "id", type: "INTEGER", notNull: false, defaultValue: nil, primaryKey: 1),
        TableInfoRow(name: "title", type: "TEXT", notNull: true, defaultValue: "''", primaryKey: 0),
        TableInfoRow(name: "is_completed", type: "INTEGER", notNull: true, defaultValue: "0", primaryKey: 0),
        TableInfoRow(name: "dueDate", type: "TEXT", notNull: false, defaultValue: nil, primaryKey: 0),
        TableInfoRow(name: "priority", type: "INTEGER", notNull: false, defaultValue: nil, primaryKey: 0),
      ])
  }

  @Test func columnsAreTypedAndNamed() {
    let isCompleted: ColumnExpression<Bool> = Reminder.columns.isCompleted
    let startsAt: ColumnExpression<Date.UnixTimeRepresentation> = Event.columns.startsAt
    let endsAt: ColumnExpression<Date.UnixTimeRepresentation?> = Event.columns.endsAt
    let tags: ColumnExpression<JSONRepresentation<[String]>> = Event.columns.tags
    #expect(isCompleted.name == "is_completed")
    #expect(startsAt.name == "startsAt")
    #expect(endsAt.name == "endsAt")
    #expect(tags.name == "tags")
    #expect(Event.schema.columns.map(\.name) == ["id", "startsAt", "endsAt", "tags", "slug"])
  }

  @Test func reminderRoundTripsThroughItsValues() throws {
    let reminder = Reminder(
      id: 7, title: "Milk", isCompleted: true, dueDate: Date(timeIntervalSince1970: 86_400.5),
      priority: .high)
    let values = reminder.sqliteValues
    #expect(values == [.integer(7), .text("Milk"), .integer(1), .text("1970-01-02T00:00:00.500Z"), .integer(3)])
    #expect(try Reminder(sqliteValues: values) == reminder)

    let empty = Reminder(id: 8)
    #expect(empty.sqliteValues == [.integer(8), .text(""), .integer(0), .null, .null])
    #expect(try Reminder(sqliteValues: empty.sqliteValues) == empty)
  }

  @Test func undecodableValueNamesTableAndColumn() {
    let error = #expect(throws: TandemError.self) {
      try Reminder(sqliteValues: [.integer(1), .text("Milk"), .integer(0), .null, .integer(9)])
    }
    #expect(error?.kind == .decodingFailure)
    #expect(error?.table == "reminders")
    #expect(error?.columns == ["priority"])
    #expect(error?.value == .integer(9))
  }

  @Test func representationsAndIgnoredProperties() throws {
    var event = Event(
      id: 1, startsAt: Date(timeIntervalSince1970: 60), endsAt: nil, tags: ["a", "b"], slug: "launch")
    event.cache = "changed in memory"
    let values = event.sqliteValues
    #expect(values == [.integer(1), .integer(60), .null, .text(#"["a","b"]"#), .text("launch")])
    let decoded = try Event(sqliteValues: values)
    #expect(decoded.cache == "not stored")
    #expect(decoded.startsAt == event.startsAt)
    #expect(decoded.endsAt == nil)
    #expect(decoded.tags == ["a", "b"])
    #expect(Event.schema.columns[4].isUnique)
  }

  @Test func eventDDLIsAcceptedBySQLite() throws {
    #expect(
      Event.schema.createTableSQL()
        == #"CREATE TABLE "events" ("id" INTEGER PRIMARY KEY, "startsAt" INTEGER NOT NULL, "endsAt" INTEGER, "#
        + #""tags" TEXT NOT NULL, "slug" TEXT NOT NULL UNIQUE)"#)
    let db = try SQLiteHandle()
    try db.execute(Event.schema.createTableSQL())
    let event = Event(id: 1, startsAt: Date(timeIntervalSince1970: 60), slug: "launch")
    try db.insert(into: Event.schema, event.sqliteValues)
    let rows = try db.rows("SELECT * FROM events")
    #expect(try rows.map(Event.init(sqliteValues:)) == [event])
    #expect(throws: SQLiteHandle.Failure.self) {
      try db.insert(into: Event.schema, Event(id: 2, startsAt: Date(), slug: "launch").sqliteValues)
    }
  }

  @Test func textPrimaryKey() throws {
    let db = try SQLiteHandle()
    try db.execute(MacroTables.RemindersList.schema.createTableSQL())
    #expect(
      try db.tableInfo("reminders_list") == [
        TableInfoRow(name: "code", type: "TEXT", notNull: true, defaultValue: nil, primaryKey: 1),
        TableInfoRow(name: "name", type: "TEXT", notNull: true, defaultValue: nil, primaryKey: 0),
      ])
    let list = MacroTables.RemindersList(code: "home", name: "Home")
    #expect(try MacroTables.RemindersList(sqliteValues: list.sqliteValues) == list)
  }

  @Test func idThatIsNotTheKey() throws {
    let schema = MacroTables.Tagging.schema
    #expect(schema.primaryKeyColumns.isEmpty)
    #expect(schema.columns.map(\.name) == ["id", "tag_name"])
    #expect(schema.columns[1].isUnique)
    let tagging = MacroTables.Tagging(id: "x", tagName: "red")
    #expect(try MacroTables.Tagging(sqliteValues: tagging.sqliteValues) == tagging)
  }

  @Test func sqliteDefaultsEqualSwiftDefaults() throws {
    let db = try SQLiteHandle()
    try db.execute(MacroTables.Setting.schema.createTableSQL())
    try db.execute(#"INSERT INTO "settings" DEFAULT VALUES"#)
    let rows = try db.rows(#"SELECT * FROM "settings""#)
    #expect(try rows.map(MacroTables.Setting.init(sqliteValues:)) == [MacroTables.Setting()])
    #expect(rows == [MacroTables.Setting().sqliteValues])
  }

  @Test func draftEncodesInRecordOrderAndSQLiteAssignsTheKey() throws {
    let draft = Reminder.Draft(title: "Milk")
    #expect(draft.id == nil)
    var encoder = RowEncoder()
    draft.encode(to: &encoder)
    #expect(encoder.values == [.null, .text("Milk"), .integer(0), .null, .null])

    let db = try SQLiteHandle()
    try db.execute(Reminder.schema.createTableSQL())
    try db.insert(into: Reminder.schema, encoder.values)
    var second = Reminder.Draft(title: "Eggs", isCompleted: true, priority: .low)
    second.dueDate = Date(timeIntervalSince1970: 0)
    var secondEncoder = RowEncoder()
    second.encode(to: &secondEncoder)
    try db.insert(into: Reminder.schema, secondEncoder.values)

    let reminders = try db.rows("SELECT * FROM reminders").map(Reminder.init(sqliteValues:))
    #expect(
      reminders == [
        Reminder(id: 1, title: "Milk"),
        Reminder(id: 2, title: "Eggs", isCompleted: true, dueDate: Date(timeIntervalSince1970: 0), priority: .low),
      ])
  }

  @Test func publicDraftWithInt64Key() {
    let draft = MacroTables.Counter.Draft(total: 5)
    var encoder = RowEncoder()
    draft.encode(to: &encoder)
    #expect(encoder.values == [.null, .integer(5)])
    #expect(MacroTables.Counter.schema.rowidColumn?.name == "id")
  }
}

// MARK: - The guide's samples (Docs/Tables.md)

enum TablesGuide {
  @Table struct Reminder {
    let id: Int
    var title = ""
    @Column("is_completed") var isCompleted = false
    var dueDate: Date?
    var priority: Priority?
  }

  enum Priority: Int, ColumnType { case low = 1, medium, high }

  @Table("people") struct Person {
    let id: Int
    var name: String
  }

  @Table struct Country {
    @Column(primaryKey: true) let code: String
    var name: String
  }

  @Table struct Visit {
    @Column(primaryKey: false) var id: String
    var page: String
  }

  @Table struct Membership {
    @Column(primaryKey: true, references: RemindersList.self, onDelete: .cascade) var listID: Int
    @Column(primaryKey: true) var userName: String
    var role = "member"
  }

  @Table struct RemindersList {
    let id: Int
    @Column(unique: true) var code: String
  }

  @Table struct Chore {
    let id: Int
    @Column(references: RemindersList.self, onDelete: .cascade, onUpdate: .cascade) var listID: Int
    @Column(references: \RemindersList.code, onDelete: .setNull) var listCode: String?
    @Column(references: Chore.self) var parentID: Int?
    var title: String
  }

  @Table(indexes: [
    .index(on: ["listID", "title"], unique: true),
    .index("chores_by_due_date", on: ["due_date"]),
  ])
  struct ScheduledChore {
    let id: Int
    var listID: Int
    var title: String
    @Column("due_date") var dueDate: Date?
  }

  @Table struct Todo {
    let id: Int
    var title = "Untitled"
    var priority: Priority = .medium
    var estimate: Double? = nil
    var createdAt: Date = Date()
  }

  @Table struct Post {
    let id: Int
    @Column(as: Date.UnixTimeRepresentation.self) var publishedAt: Date
    @Column(as: Date.UnixTimeRepresentation.self) var editedAt: Date?
    @Column(as: JSONRepresentation<[String]>.self) var tags: [String] = []
    @Column(unique: true) var slug: String
  }

  @Table struct Article {
    let id: Int
    var title: String
    @Ignored var isExpanded = false
    var wordCount: Int { title.split(separator: " ").count }
    static let maximumTitleLength = 120
  }
}

@Suite struct TablesGuideTests {
  @Test func declaringATable() {
    #expect(
      TablesGuide.Reminder.schema.createTableSQL()
        == #"CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "#
        + #""is_completed" INTEGER NOT NULL DEFAULT 0, "dueDate" TEXT, "priority" INTEGER)"#)
  }

  @Test func naming() {
    #expect(TablesGuide.Person.tableName == "people")
    #expect(TablesGuide.Country.tableName == "countries")
  }

  @Test func primaryKeys() {
    #expect(
      TablesGuide.Country.schema.createTableSQL()
        == #"CREATE TABLE "countries" ("code" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL)"#)
    #expect(
      TablesGuide.Visit.schema.createTableSQL()
        == #"CREATE TABLE "visits" ("id" TEXT NOT NULL, "page" TEXT NOT NULL)"#)
  }

  @Test func compositeKeys() {
    #expect(
      TablesGuide.Membership.schema.createTableSQL()
        == #"CREATE TABLE "memberships" ("listID" INTEGER NOT NULL REFERENCES "remindersLists" ("id") "#
        + #"ON DELETE CASCADE, "userName" TEXT NOT NULL, "role" TEXT NOT NULL DEFAULT 'member', "#
        + #"PRIMARY KEY ("listID", "userName"))"#)
  }

  @Test func foreignKeys() {
    #expect(
      TablesGuide.Chore.schema.createTableSQL()
        == #"CREATE TABLE "chores" ("id" INTEGER PRIMARY KEY, "#
        + #""listID" INTEGER NOT NULL REFERENCES "remindersLists" ("id") ON DELETE CASCADE ON UPDATE CASCADE, "#
        + #""listCode" TEXT REFERENCES "remindersLists" ("code") ON DELETE SET NULL, "#
        + #""parentID" INTEGER REFERENCES "chores" ("id"), "title" TEXT NOT NULL)"#)
  }

  @Test func indexes() {
    #expect(
      TablesGuide.ScheduledChore.schema.createIndexSQL() == [
        #"CREATE UNIQUE INDEX "scheduledChores_on_listID_title" ON "scheduledChores" ("listID", "title")"#,
        #"CREATE INDEX "chores_by_due_date" ON "scheduledChores" ("due_date")"#,
      ])
  }

  @Test func draft() {
    let draft = TablesGuide.Reminder.Draft(title: "Milk")
    var row = RowEncoder()
    draft.encode(to: &row)
    #expect(row.values == [.null, .text("Milk"), .integer(0), .null, .null])
  }

  @Test func defaults() {
    #expect(
      TablesGuide.Todo.schema.createTableSQL()
        == #"CREATE TABLE "todos" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT 'Untitled', "#
        + #""priority" INTEGER NOT NULL DEFAULT 2, "estimate" REAL DEFAULT NULL, "createdAt" TEXT NOT NULL)"#)
  }

  @Test func representations() {
    #expect(
      TablesGuide.Post.schema.createTableSQL()
        == #"CREATE TABLE "posts" ("id" INTEGER PRIMARY KEY, "publishedAt" INTEGER NOT NULL, "#
        + #""editedAt" INTEGER, "tags" TEXT NOT NULL, "slug" TEXT NOT NULL UNIQUE)"#)
    let post = TablesGuide.Post(id: 1, publishedAt: Date(timeIntervalSince1970: 60), editedAt: nil, tags: ["swift"], slug: "hello")
    #expect(post.sqliteValues == [.integer(1), .integer(60), .null, .text(#"["swift"]"#), .text("hello")])
  }

  @Test func ignoredProperties() throws {
    #expect(TablesGuide.Article.schema.columns.map(\.name) == ["id", "title"])
    var article = TablesGuide.Article(id: 1, title: "Hello world")
    article.isExpanded = true
    let decoded = try TablesGuide.Article(sqliteValues: article.sqliteValues)
    #expect(decoded.isExpanded == false)
    #expect(decoded.wordCount == 2)
  }
}

// MARK: - A scratch SQLite database

/// One row of `PRAGMA table_info`.
private struct TableInfoRow: Equatable {
  var name: String
  var type: String
  var notNull: Bool
  var defaultValue: String?
  var primaryKey: Int
}

/// What the macros generate, checked against the real engine.
extension SQLiteHandle {
  fileprivate func insert(into schema: TableSchema, _ values: [SqliteValue]) throws {
    let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
    _ = try rows(#"INSERT INTO "\#(schema.name)" VALUES (\#(placeholders))"#, bindings: values)
  }

  fileprivate func tableInfo(_ table: String) throws -> [TableInfoRow] {
    try rows(#"PRAGMA table_info("\#(table)")"#).map { row in
      guard case .text(let name) = row[1], case .text(let type) = row[2], case .integer(let notNull) = row[3],
        case .integer(let primaryKey) = row[5]
      else { throw Failure(code: 0, message: "unexpected table_info row \(row)", sql: "PRAGMA table_info") }
      var defaultValue: String?
      if case .text(let text) = row[4] { defaultValue = text }
      return TableInfoRow(
        name: name, type: type, notNull: notNull != 0, defaultValue: defaultValue, primaryKey: Int(primaryKey))
    }
  }
}
