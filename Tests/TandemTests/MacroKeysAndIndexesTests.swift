import Foundation
import Tandem
import Testing

/// Tables declaring foreign keys, indexes and composite keys with `@Table` and `@Column`.
enum KeyedTables {
  @Table("lists") struct List {
    let id: Int
    @Column(unique: true) var code: String
  }

  @Table(indexes: [.index(on: ["listID", "title"], unique: true), .index("by_due", on: ["due_at"])])
  struct Todo {
    let id: Int
    @Column(references: List.self, onDelete: .cascade, onUpdate: .cascade) var listID: Int
    @Column(references: \List.code, onDelete: .setNull, onUpdate: .restrict) var listCode: String?
    @Column(references: Todo.self, onDelete: .setDefault) var parentID: Int? = 0
    var title: String
    @Column("due_at", as: Date.UnixTimeRepresentation.self) var dueAt: Date?
  }

  @Table struct Share {
    @Column(primaryKey: true, references: List.self) var listID: Int
    @Column(primaryKey: true) var user: String
  }

  /// `Self` names the table itself, by its key or by a property.
  @Table struct Folder {
    @Column(primaryKey: true) var path: String
    @Column(references: Self.self, onDelete: .cascade) var parent: String?
    @Column(references: \Self.path) var alias: String?
  }

  /// Two tables that reference each other: one side names the property, so that neither schema
  /// needs the other's to be built first.
  @Table struct Team {
    let id: Int
    @Column(references: \Player.id) var captainID: Int?
  }

  @Table struct Player {
    let id: Int
    @Column(references: Team.self) var teamID: Int?
  }
}

@Suite struct MacroKeysAndIndexesTests {
  @Test func foreignKeysAndIndexesAreInTheDDL() {
    #expect(
      KeyedTables.Todo.schema.createTableSQL()
        == #"CREATE TABLE "todos" ("id" INTEGER PRIMARY KEY, "#
        + #""listID" INTEGER NOT NULL REFERENCES "lists" ("id") ON DELETE CASCADE ON UPDATE CASCADE, "#
        + #""listCode" TEXT REFERENCES "lists" ("code") ON DELETE SET NULL ON UPDATE RESTRICT, "#
        + #""parentID" INTEGER DEFAULT 0 REFERENCES "todos" ("id") ON DELETE SET DEFAULT, "#
        + #""title" TEXT NOT NULL, "due_at" INTEGER)"#)
    #expect(
      KeyedTables.Todo.schema.createIndexSQL() == [
        #"CREATE UNIQUE INDEX "todos_on_listID_title" ON "todos" ("listID", "title")"#,
        #"CREATE INDEX "by_due" ON "todos" ("due_at")"#,
      ])
  }

  @Test func compositeKeyIsInTheDDL() {
    #expect(
      KeyedTables.Share.schema.createTableSQL()
        == #"CREATE TABLE "shares" ("listID" INTEGER NOT NULL REFERENCES "lists" ("id"), "user" TEXT NOT NULL, "#
        + #"PRIMARY KEY ("listID", "user"))"#)
    #expect(KeyedTables.Share.schema.rowidColumn == nil)
  }

  @Test func selfReferences() {
    #expect(
      KeyedTables.Folder.schema.columns.compactMap(\.references) == [
        .table("folders", column: "path", onDelete: .cascade), .table("folders", column: "path"),
      ])
  }

  @Test func tablesThatReferenceEachOther() {
    #expect(KeyedTables.Team.schema.columns[1].references == .table("players", column: "id"))
    #expect(KeyedTables.Player.schema.columns[1].references == .table("teams", column: "id"))
  }
}
