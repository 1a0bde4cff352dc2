import Foundation
@testable import TandemCore
import Testing
import SQLiteReference

@Suite struct DDLTests {
  static let reminders = TableSchema(
    "reminders",
    columns: [
      .column("id", .integer, primaryKey: true),
      .column("title", .text, default: ""),
      .column("is_completed", .integer, default: false),
      .column("dueDate", .null(.text)),
      .column("priority", .null(.integer)),
    ])

  @Test func goldenReminders() {
    #expect(
      Self.reminders.createTableSQL()
        == #"CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "is_completed" INTEGER NOT NULL DEFAULT 0, "dueDate" TEXT, "priority" INTEGER)"#
    )
    #expect(Self.reminders.createTableSQL(ifNotExists: true, strict: true).hasPrefix(#"CREATE TABLE IF NOT EXISTS "reminders" ("#))
    #expect(Self.reminders.createTableSQL(strict: true).hasSuffix(") STRICT"))
  }

  @Test func goldenConstraintsAndIndexes() {
    let schema = TableSchema(
      "items",
      columns: [
        .column("id", .integer, primaryKey: .autoincrement),
        .column("sku", .text, unique: true),
        .column("listID", .null(.integer), references: .table("lists", column: "id", onDelete: .cascade)),
        .column("price", .real, default: 0.1),
        .column("blob", .blob, default: .blob(Data([0xCA, 0xFE]))),
        .column("note", .text, default: "it's"),
        .column("delta", .integer, default: .integer(Int64.min)),
      ],
      indexes: [.index(on: ["listID", "sku"]), .index("by_price", on: ["price"], unique: true)])
    #expect(
      schema.createTableSQL()
        == #"CREATE TABLE "items" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "sku" TEXT NOT NULL UNIQUE, "listID" INTEGER REFERENCES "lists" ("id") ON DELETE CASCADE, "price" REAL NOT NULL DEFAULT 0.1, "blob" BLOB NOT NULL DEFAULT X'CAFE', "note" TEXT NOT NULL DEFAULT 'it''s', "delta" INTEGER NOT NULL DEFAULT (-9223372036854775808))"#
    )
    #expect(
      schema.createIndexSQL() == [
        #"CREATE INDEX "items_on_listID_sku" ON "items" ("listID", "sku")"#,
        #"CREATE UNIQUE INDEX "by_price" ON "items" ("price")"#,
      ])
  }

  @Test func foreignKeyActions() {
    let schema = TableSchema(
      "items",
      columns: [
        .column("id", .integer, primaryKey: true),
        .column("a", .integer, references: .table("lists", column: "id", onUpdate: .cascade)),
        .column("b", .null(.text), references: .table("lists", column: "code", onDelete: .setNull, onUpdate: .setDefault)),
        .column("c", .null(.integer), references: .table("lists", column: "id", onDelete: .restrict)),
      ])
    #expect(
      schema.createTableSQL()
        == #"CREATE TABLE "items" ("id" INTEGER PRIMARY KEY, "a" INTEGER NOT NULL REFERENCES "lists" ("id") ON UPDATE CASCADE, "b" TEXT REFERENCES "lists" ("code") ON DELETE SET NULL ON UPDATE SET DEFAULT, "c" INTEGER REFERENCES "lists" ("id") ON DELETE RESTRICT)"#
    )
  }

  @Test func compositePrimaryKey() {
    let schema = TableSchema("pairs", columns: [.column("a", .text, primaryKey: true), .column("b", .integer, primaryKey: true)])
    #expect(schema.createTableSQL() == #"CREATE TABLE "pairs" ("a" TEXT NOT NULL, "b" INTEGER NOT NULL, PRIMARY KEY ("a", "b"))"#)
    #expect(schema.rowidColumn == nil)
  }

  @Test func hostileNamesAreQuoted() {
    let schema = TableSchema(
      "order", columns: [.column(#"a "quoted" name"#, .text), .column("größe", .null(.real))],
      indexes: [.index(on: [#"a "quoted" name"#])])
    #expect(schema.createTableSQL() == #"CREATE TABLE "order" ("a ""quoted"" name" TEXT NOT NULL, "größe" REAL)"#)
    #expect(schema.createIndexSQL() == [#"CREATE INDEX "order_on_a ""quoted"" name" ON "order" ("a ""quoted"" name")"#])
  }

  /// Every schema below is executed by real SQLite and read back with PRAGMA table_info,
  /// PRAGMA index_list and PRAGMA foreign_key_list, then compared with the schema.
  static let executedSchemas: [TableSchema] = [
    reminders,
    TableSchema(
      "order",
      columns: [
        .column("id", .integer, primaryKey: .autoincrement),
        .column(#"a "quoted" name"#, .text, unique: true, default: "x'y"),
        .column("größe", .null(.real), default: -1.5),
        .column("select", .blob, default: .blob(Data())),
        .column("big", .integer, default: .integer(Int64.min)),
        .column("tiny", .real, default: .real(.leastNonzeroMagnitude)),
        .column("inf", .real, default: .real(-.infinity)),
        .column("parent", .null(.integer), references: .table("order", column: "id", onDelete: .setNull, onUpdate: .restrict)),
        .column("nul", .text, default: "a\u{0}b"),
      ],
      indexes: [.index(on: ["größe", "select"]), .index("uniq", on: ["big"], unique: true)]),
    TableSchema("pairs", columns: [.column("a", .text, primaryKey: true), .column("b", .integer, primaryKey: true), .column("c", .null(.blob))]),
    TableSchema("codes", columns: [.column("code", .text, primaryKey: true), .column("n", .real)]),
  ]

  @Test(arguments: executedSchemas, [false, true])
  func emittedDDLRunsInSQLiteAndMatchesPragmas(schema: TableSchema, strict: Bool) throws {
    let db = try SQLiteHandle()
    for sql in schema.createStatements(strict: strict) { try db.execute(sql) }
    for sql in schema.createStatements(ifNotExists: true, strict: strict) { try db.execute(sql) }

    let info = try db.rows("PRAGMA table_info(\(SQLQuoting.identifier(schema.name)))")
    #expect(info.count == schema.columns.count)
    let keyCount = schema.primaryKeyColumns.count
    for (column, row) in zip(schema.columns, info) {
      #expect(row[1] == .text(column.name))
      #expect(row[2] == .text(column.type.declaredName))
      let isRowidAlias = keyCount == 1 && column.primaryKey != nil && column.type.storage == .integer
      #expect(row[3] == .integer(column.type.isNullable || isRowidAlias ? 0 : 1), "notnull of \(column.name)")
      let expectedDefault = column.defaultValue.map { TableSchema.defaultLiteral($0) }
        .map { $0.hasPrefix("(") ? String($0.dropFirst().dropLast()) : $0 }
      #expect(row[4] == (expectedDefault.map(SqliteValue.text) ?? .null), "default of \(column.name)")
      let keyPosition = schema.primaryKeyColumns.firstIndex(of: column).map { Int64($0 + 1) } ?? 0
      #expect(row[5] == .integer(keyPosition), "pk of \(column.name)")
    }

    // The stored default value is the schema's value, exactly (checked by inserting a row of defaults).
    let defaulted = schema.columns.filter { $0.defaultValue != nil }
    let required = schema.columns.filter { !$0.type.isNullable && $0 != schema.rowidColumn }
    if !defaulted.isEmpty, required.allSatisfy({ $0.defaultValue != nil }) {
      try db.execute("INSERT INTO \(SQLQuoting.identifier(schema.name)) DEFAULT VALUES")
      let names = defaulted.map { SQLQuoting.identifier($0.name) }.joined(separator: ", ")
      let stored = try db.rows("SELECT \(names) FROM \(SQLQuoting.identifier(schema.name))")
      #expect(stored.first == defaulted.map { $0.defaultValue ?? .null })
    }

    // Unique indexes: one per declared unique index, unique column, and non-rowid primary key.
    let indexes = try db.rows("PRAGMA index_list(\(SQLQuoting.identifier(schema.name)))")
    let declaredNames = Set(schema.indexes.map { $0.name(in: schema.name) })
    let listedNames = Set(indexes.compactMap { row -> String? in if case .text(let n) = row[1] { n } else { nil } })
    #expect(declaredNames.isSubset(of: listedNames))
    for index in schema.indexes {
      let row = indexes.first { $0[1] == .text(index.name(in: schema.name)) }
      #expect(row?[2] == .integer(index.isUnique ? 1 : 0))
      let indexed = try db.rows("PRAGMA index_info(\(SQLQuoting.identifier(index.name(in: schema.name))))").map { $0[2] }
      #expect(indexed == index.columns.map { .text($0) })
    }
    let uniqueColumns = schema.columns.filter { $0.isUnique && $0.primaryKey == nil }.count
    let autoIndexes = indexes.filter { if case .text(let n) = $0[1] { n.hasPrefix("sqlite_autoindex") } else { false } }
    #expect(autoIndexes.count == uniqueColumns + (keyCount > 0 && schema.rowidColumn == nil ? 1 : 0))

    let foreignKeys = try db.rows("PRAGMA foreign_key_list(\(SQLQuoting.identifier(schema.name)))")
    let references = schema.columns.filter { $0.references != nil }
    #expect(foreignKeys.count == references.count)
    for (column, row) in zip(references, foreignKeys) {
      #expect(row[2] == .text(column.references?.table ?? ""))
      #expect(row[3] == .text(column.name))
      #expect(row[4] == .text(column.references?.column ?? ""))
      #expect(row[5] == .text(column.references?.onUpdate.rawValue ?? ""))
      #expect(row[6] == .text(column.references?.onDelete.rawValue ?? ""))
    }
  }
}
