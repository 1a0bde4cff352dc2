import SwiftSyntaxMacrosTestSupport
import XCTest

/// Snapshots of the foreign keys, indexes and composite primary keys `@Table` writes into the
/// schema.
final class TableKeysAndIndexesExpansionTests: XCTestCase {
  /// `references: Parent.self` reads the parent's key from its schema; `references: \Parent.code`
  /// reads the column's name from the parent's columns. Actions left at `.noAction` are not written.
  func testForeignKeysToAnotherTable() {
    assertTableExpansion(
      """
      @Table struct Reminder {
        let id: Int
        @Column(references: RemindersList.self, onDelete: .cascade, onUpdate: .cascade) var listID: Int
        @Column("list_code", references: \\RemindersList.code, onUpdate: ForeignKey.Action.setNull) var listCode: String?
        @Column(references: Person.self) var assigneeID: Int?
      }
      """,
      expandedSource: """
      struct Reminder {
        let id: Int
        var listID: Int
        var listCode: String?
        var assigneeID: Int?

        nonisolated struct Columns: TandemCore.TableColumns {
          let id = TandemCore.ColumnExpression<Int>("id")
          let listID = TandemCore.ColumnExpression<Int>("listID")
          let listCode = TandemCore.ColumnExpression<String?>("list_code")
          let assigneeID = TandemCore.ColumnExpression<Int?>("assigneeID")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "reminders"

        nonisolated static let schema = TandemCore.TableSchema(
          "reminders",
          columns: [
            .column("id", Int.sqliteTypeName, primaryKey: true),
            .column("listID", Int.sqliteTypeName, references: TandemCore.ForeignKey.table(RemindersList.self, onDelete: .cascade, onUpdate: .cascade)),
            .column("list_code", Swift.Optional<String>.sqliteTypeName, references: TandemCore.ForeignKey.table(RemindersList.tableName, column: RemindersList.columns.code.name, onUpdate: .setNull)),
            .column("assigneeID", Swift.Optional<Int>.sqliteTypeName, references: TandemCore.ForeignKey.table(Person.self))
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.listID)
          row.encode(self.listCode)
          row.encode(self.assigneeID)
        }

        nonisolated struct Draft: TandemCore.TableDraft, Swift.Sendable {
          typealias Record = Reminder
          var id: Int? = nil
          var listID: Int
          var listCode: String?
          var assigneeID: Int?
          nonisolated func encode(to row: inout TandemCore.RowEncoder) {
            row.encode(self.id)
            row.encode(self.listID)
            row.encode(self.listCode)
            row.encode(self.assigneeID)
          }
        }
      }

      nonisolated extension Reminder: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
          self.listID = try row.decode()
          self.listCode = try row.decode()
          self.assigneeID = try row.decode()
        }
      }
      """
    )
  }

  /// A table that references itself is resolved from its own columns, as literals: reading its
  /// own schema while building it would never finish.
  func testSelfReference() {
    assertTableExpansion(
      """
      @Table struct Category {
        @Column(primaryKey: true) var name: String
        @Column(references: Category.self, onDelete: .cascade) var parent: String?
        @Column("alias_of", references: \\Self.name, onUpdate: .cascade) var aliasOf: String?
      }
      """,
      expandedSource: """
      struct Category {
        var name: String
        var parent: String?
        var aliasOf: String?

        nonisolated struct Columns: TandemCore.TableColumns {
          let name = TandemCore.ColumnExpression<String>("name")
          let parent = TandemCore.ColumnExpression<String?>("parent")
          let aliasOf = TandemCore.ColumnExpression<String?>("alias_of")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "categories"

        nonisolated static let schema = TandemCore.TableSchema(
          "categories",
          columns: [
            .column("name", String.sqliteTypeName, primaryKey: true),
            .column("parent", Swift.Optional<String>.sqliteTypeName, references: TandemCore.ForeignKey.table("categories", column: "name", onDelete: .cascade)),
            .column("alias_of", Swift.Optional<String>.sqliteTypeName, references: TandemCore.ForeignKey.table("categories", column: "name", onUpdate: .cascade))
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.name)
          row.encode(self.parent)
          row.encode(self.aliasOf)
        }
      }

      nonisolated extension Category: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.name = try row.decode()
          self.parent = try row.decode()
          self.aliasOf = try row.decode()
        }
      }
      """
    )
  }

  /// `@Table(indexes:)` is written out as the schema's indexes, with the literals normalized.
  func testIndexes() {
    assertTableExpansion(
      """
      @Table("items", indexes: [.index(on: ["listID", "title"]), IndexSchema.index("by_slug", on: ["slug"], unique: true), .index(nil, on: ["title"], unique: false)])
      struct Item {
        let id: Int
        var listID: Int
        var title: String
        var slug: String
      }
      """,
      expandedSource: """
      struct Item {
        let id: Int
        var listID: Int
        var title: String
        var slug: String

        nonisolated struct Columns: TandemCore.TableColumns {
          let id = TandemCore.ColumnExpression<Int>("id")
          let listID = TandemCore.ColumnExpression<Int>("listID")
          let title = TandemCore.ColumnExpression<String>("title")
          let slug = TandemCore.ColumnExpression<String>("slug")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "items"

        nonisolated static let schema = TandemCore.TableSchema(
          "items",
          columns: [
            .column("id", Int.sqliteTypeName, primaryKey: true),
            .column("listID", Int.sqliteTypeName),
            .column("title", String.sqliteTypeName),
            .column("slug", String.sqliteTypeName)
          ],
          indexes: [.index(on: ["listID", "title"]), .index("by_slug", on: ["slug"], unique: true), .index(on: ["title"])]
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.listID)
          row.encode(self.title)
          row.encode(self.slug)
        }

        nonisolated struct Draft: TandemCore.TableDraft, Swift.Sendable {
          typealias Record = Item
          var id: Int? = nil
          var listID: Int
          var title: String
          var slug: String
          nonisolated func encode(to row: inout TandemCore.RowEncoder) {
            row.encode(self.id)
            row.encode(self.listID)
            row.encode(self.title)
            row.encode(self.slug)
          }
        }
      }

      nonisolated extension Item: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
          self.listID = try row.decode()
          self.title = try row.decode()
          self.slug = try row.decode()
        }
      }
      """
    )
  }

  /// Two or more `@Column(primaryKey: true)` make a composite key, even with integer columns and
  /// one named `id`: the database cannot assign such a key, so there is no `Draft`.
  func testCompositePrimaryKey() {
    assertTableExpansion(
      """
      @Table struct Membership {
        @Column(primaryKey: true) var id: Int
        @Column(primaryKey: true) var groupID: Int
        var role = "member"
      }
      """,
      expandedSource: """
      struct Membership {
        var id: Int
        var groupID: Int
        var role = "member"

        nonisolated struct Columns: TandemCore.TableColumns {
          let id = TandemCore.ColumnExpression<Int>("id")
          let groupID = TandemCore.ColumnExpression<Int>("groupID")
          let role = TandemCore.ColumnExpression<Swift.String>("role")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "memberships"

        nonisolated static let schema = TandemCore.TableSchema(
          "memberships",
          columns: [
            .column("id", Int.sqliteTypeName, primaryKey: true),
            .column("groupID", Int.sqliteTypeName, primaryKey: true),
            .column("role", Swift.String.sqliteTypeName, default: ("member" as Swift.String).sqliteValue)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.groupID)
          row.encode(self.role)
        }
      }

      nonisolated extension Membership: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
          self.groupID = try row.decode()
          self.role = try row.decode()
        }
      }
      """
    )
  }
}
