import SwiftSyntaxMacrosTestSupport
import XCTest

/// Snapshots of the code `@Table` generates, one per kind of declaration it accepts.
final class TableExpansionTests: XCTestCase {
  /// The design's example: `id` is the integer key (so `Draft`), literal defaults become `DEFAULT`,
  /// `@Column("…")` renames, optionals are nullable.
  func testReminderWithDraftAndDefaults() {
    assertTableExpansion(
      """
      @Table struct Reminder {
        let id: Int
        var title = ""
        @Column("is_completed") var isCompleted = false
        var dueDate: Date?
        var priority: Priority?
      }
      """,
      expandedSource: """
      struct Reminder {
        let id: Int
        var title = ""
        var isCompleted = false
        var dueDate: Date?
        var priority: Priority?

        nonisolated struct Columns: TandemCore.TableColumns {
          let id = TandemCore.ColumnExpression<Int>("id")
          let title = TandemCore.ColumnExpression<Swift.String>("title")
          let isCompleted = TandemCore.ColumnExpression<Swift.Bool>("is_completed")
          let dueDate = TandemCore.ColumnExpression<Date?>("dueDate")
          let priority = TandemCore.ColumnExpression<Priority?>("priority")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "reminders"

        nonisolated static let schema = TandemCore.TableSchema(
          "reminders",
          columns: [
            .column("id", Int.sqliteTypeName, primaryKey: true),
            .column("title", Swift.String.sqliteTypeName, default: ("" as Swift.String).sqliteValue),
            .column("is_completed", Swift.Bool.sqliteTypeName, default: (false as Swift.Bool).sqliteValue),
            .column("dueDate", Swift.Optional<Date>.sqliteTypeName),
            .column("priority", Swift.Optional<Priority>.sqliteTypeName)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.title)
          row.encode(self.isCompleted)
          row.encode(self.dueDate)
          row.encode(self.priority)
        }

        nonisolated struct Draft: TandemCore.TableDraft, Swift.Sendable {
          typealias Record = Reminder
          var id: Int? = nil
          var title: Swift.String = ""
          var isCompleted: Swift.Bool = false
          var dueDate: Date?
          var priority: Priority?
          nonisolated func encode(to row: inout TandemCore.RowEncoder) {
            row.encode(self.id)
            row.encode(self.title)
            row.encode(self.isCompleted)
            row.encode(self.dueDate)
            row.encode(self.priority)
          }
        }
      }

      nonisolated extension Reminder: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
          self.title = try row.decode()
          self.isCompleted = try row.decode()
          self.dueDate = try row.decode()
          self.priority = try row.decode()
        }
      }
      """
    )
  }

  /// `@Table("name")` and `@Column(primaryKey: true)` on a text key: no `Draft`.
  func testExplicitTableNameAndTextPrimaryKey() {
    assertTableExpansion(
      """
      @Table("reminders_list") struct RemindersList {
        @Column(primaryKey: true) let code: String
        var name: String
      }
      """,
      expandedSource: """
      struct RemindersList {
        let code: String
        var name: String

        nonisolated struct Columns: TandemCore.TableColumns {
          let code = TandemCore.ColumnExpression<String>("code")
          let name = TandemCore.ColumnExpression<String>("name")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "reminders_list"

        nonisolated static let schema = TandemCore.TableSchema(
          "reminders_list",
          columns: [
            .column("code", String.sqliteTypeName, primaryKey: true),
            .column("name", String.sqliteTypeName)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.code)
          row.encode(self.name)
        }
      }

      nonisolated extension RemindersList: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.code = try row.decode()
          self.name = try row.decode()
        }
      }
      """
    )
  }

  /// Representations (an optional property stores the optional representation), `unique`, and
  /// the properties that are not columns: `@Ignored`, computed, static.
  func testRepresentationsIgnoredComputedAndStatic() {
    assertTableExpansion(
      """
      @Table struct Event: Equatable, Identifiable {
        let id: Int
        @Column(as: Date.UnixTimeRepresentation.self) var startsAt: Date
        @Column(as: Date.UnixTimeRepresentation.self) var endsAt: Date?
        @Column(as: JSONRepresentation<[String]>.self) var tags: [String] = []
        @Column(unique: true) var slug: String
        @Ignored var cache: String = ""
        var computed: Int { 1 }
        static var shared = 0
      }
      """,
      expandedSource: """
      struct Event: Equatable, Identifiable {
        let id: Int
        var startsAt: Date
        var endsAt: Date?
        var tags: [String] = []
        var slug: String
        var cache: String = ""
        var computed: Int { 1 }
        static var shared = 0

        nonisolated struct Columns: TandemCore.TableColumns {
          let id = TandemCore.ColumnExpression<Int>("id")
          let startsAt = TandemCore.ColumnExpression<Date.UnixTimeRepresentation>("startsAt")
          let endsAt = TandemCore.ColumnExpression<Date.UnixTimeRepresentation?>("endsAt")
          let tags = TandemCore.ColumnExpression<JSONRepresentation<[String]>>("tags")
          let slug = TandemCore.ColumnExpression<String>("slug")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "events"

        nonisolated static let schema = TandemCore.TableSchema(
          "events",
          columns: [
            .column("id", Int.sqliteTypeName, primaryKey: true),
            .column("startsAt", Date.UnixTimeRepresentation.sqliteTypeName),
            .column("endsAt", Swift.Optional<Date.UnixTimeRepresentation>.sqliteTypeName),
            .column("tags", JSONRepresentation<[String]>.sqliteTypeName),
            .column("slug", String.sqliteTypeName, unique: true)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.startsAt, as: Date.UnixTimeRepresentation.self)
          row.encode(self.endsAt, as: Swift.Optional<Date.UnixTimeRepresentation>.self)
          row.encode(self.tags, as: JSONRepresentation<[String]>.self)
          row.encode(self.slug)
        }

        nonisolated struct Draft: TandemCore.TableDraft, Swift.Sendable {
          typealias Record = Event
          var id: Int? = nil
          var startsAt: Date
          var endsAt: Date?
          var tags: [String] = []
          var slug: String
          nonisolated func encode(to row: inout TandemCore.RowEncoder) {
            row.encode(self.id)
            row.encode(self.startsAt, as: Date.UnixTimeRepresentation.self)
            row.encode(self.endsAt, as: Swift.Optional<Date.UnixTimeRepresentation>.self)
            row.encode(self.tags, as: JSONRepresentation<[String]>.self)
            row.encode(self.slug)
          }
        }
      }

      nonisolated extension Event: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          func represented<R: TandemCore.ColumnRepresentation>(_ column: TandemCore.ColumnExpression<R>) throws -> R.Represented {
            try row.decode(as: R.self)
          }
          self.id = try row.decode()
          self.startsAt = try represented(Self.columns.startsAt)
          self.endsAt = try represented(Self.columns.endsAt)
          self.tags = try represented(Self.columns.tags)
          self.slug = try row.decode()
        }
      }
      """
    )
  }

  /// A public struct gets public members, and a public `Draft` initializer since the memberwise one
  /// is internal; `Int64` keys get a `Draft` too.
  func testPublicStructGetsPublicMembersAndDraftInitializer() {
    assertTableExpansion(
      """
      @Table public struct Tag {
        public var id: Int64
        public var name: String
        public var note: String?
      }
      """,
      expandedSource: """
      public struct Tag {
        public var id: Int64
        public var name: String
        public var note: String?

        public nonisolated struct Columns: TandemCore.TableColumns {
          public let id = TandemCore.ColumnExpression<Int64>("id")
          public let name = TandemCore.ColumnExpression<String>("name")
          public let note = TandemCore.ColumnExpression<String?>("note")
        }

        public nonisolated static let columns = Columns()

        public nonisolated static let tableName = "tags"

        public nonisolated static let schema = TandemCore.TableSchema(
          "tags",
          columns: [
            .column("id", Int64.sqliteTypeName, primaryKey: true),
            .column("name", String.sqliteTypeName),
            .column("note", Swift.Optional<String>.sqliteTypeName)
          ],
          indexes: []
        )

        public nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.name)
          row.encode(self.note)
        }

        public nonisolated struct Draft: TandemCore.TableDraft, Swift.Sendable {
          public typealias Record = Tag
          public var id: Int64? = nil
          public var name: String
          public var note: String?
          public init(id: Int64? = nil, name: String, note: String? = nil) {
            self.id = id
            self.name = name
            self.note = note
          }
          public nonisolated func encode(to row: inout TandemCore.RowEncoder) {
            row.encode(self.id)
            row.encode(self.name)
            row.encode(self.note)
          }
        }
      }

      nonisolated extension Tag: TandemCore.Table {
        public nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
          self.name = try row.decode()
          self.note = try row.decode()
        }
      }
      """
    )
  }

  /// Generated members of a property keep its own access, capped by the struct's; the `Draft`
  /// initializer stays memberwise when a property is not public.
  func testMemberAccessFollowsEachProperty() {
    assertTableExpansion(
      """
      @Table public struct Note {
        public let id: Int
        var body = "text"
        private var secret: String
      }
      """,
      expandedSource: """
      public struct Note {
        public let id: Int
        var body = "text"
        private var secret: String

        public nonisolated struct Columns: TandemCore.TableColumns {
          public let id = TandemCore.ColumnExpression<Int>("id")
          let body = TandemCore.ColumnExpression<Swift.String>("body")
          let secret = TandemCore.ColumnExpression<String>("secret")
        }

        public nonisolated static let columns = Columns()

        public nonisolated static let tableName = "notes"

        public nonisolated static let schema = TandemCore.TableSchema(
          "notes",
          columns: [
            .column("id", Int.sqliteTypeName, primaryKey: true),
            .column("body", Swift.String.sqliteTypeName, default: ("text" as Swift.String).sqliteValue),
            .column("secret", String.sqliteTypeName)
          ],
          indexes: []
        )

        public nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.body)
          row.encode(self.secret)
        }

        public nonisolated struct Draft: TandemCore.TableDraft, Swift.Sendable {
          public typealias Record = Note
          public var id: Int? = nil
          var body: Swift.String = "text"
          var secret: String
          public nonisolated func encode(to row: inout TandemCore.RowEncoder) {
            row.encode(self.id)
            row.encode(self.body)
            row.encode(self.secret)
          }
        }
      }

      nonisolated extension Note: TandemCore.Table {
        public nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
          self.body = try row.decode()
          self.secret = try row.decode()
        }
      }
      """
    )
  }

  /// Literals, negative numbers, `nil` and enum cases become `DEFAULT`; interpolations and calls do not.
  func testWhichDefaultsBecomeColumnDefaults() {
    assertTableExpansion(
      #"""
      @Table struct Setting {
        var count = 3
        var offset = -2
        var ratio = 0.5
        var delta = -1.5
        var label: String? = nil
        var level: Priority = .medium
        var greeting = "hi \(name)"
        var createdAt: Date = Date()
        @Column(as: Date.UnixTimeRepresentation.self) var seenAt: Date? = nil
        var flags: Int32 = 0
      }
      """#,
      expandedSource: #"""
      struct Setting {
        var count = 3
        var offset = -2
        var ratio = 0.5
        var delta = -1.5
        var label: String? = nil
        var level: Priority = .medium
        var greeting = "hi \(name)"
        var createdAt: Date = Date()
        var seenAt: Date? = nil
        var flags: Int32 = 0

        nonisolated struct Columns: TandemCore.TableColumns {
          let count = TandemCore.ColumnExpression<Swift.Int>("count")
          let offset = TandemCore.ColumnExpression<Swift.Int>("offset")
          let ratio = TandemCore.ColumnExpression<Swift.Double>("ratio")
          let delta = TandemCore.ColumnExpression<Swift.Double>("delta")
          let label = TandemCore.ColumnExpression<String?>("label")
          let level = TandemCore.ColumnExpression<Priority>("level")
          let greeting = TandemCore.ColumnExpression<Swift.String>("greeting")
          let createdAt = TandemCore.ColumnExpression<Date>("createdAt")
          let seenAt = TandemCore.ColumnExpression<Date.UnixTimeRepresentation?>("seenAt")
          let flags = TandemCore.ColumnExpression<Int32>("flags")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "settings"

        nonisolated static let schema = TandemCore.TableSchema(
          "settings",
          columns: [
            .column("count", Swift.Int.sqliteTypeName, default: (3 as Swift.Int).sqliteValue),
            .column("offset", Swift.Int.sqliteTypeName, default: (-2 as Swift.Int).sqliteValue),
            .column("ratio", Swift.Double.sqliteTypeName, default: (0.5 as Swift.Double).sqliteValue),
            .column("delta", Swift.Double.sqliteTypeName, default: (-1.5 as Swift.Double).sqliteValue),
            .column("label", Swift.Optional<String>.sqliteTypeName, default: (nil as String?).sqliteValue),
            .column("level", Priority.sqliteTypeName, default: (.medium as Priority).sqliteValue),
            .column("greeting", Swift.String.sqliteTypeName),
            .column("createdAt", Date.sqliteTypeName),
            .column("seenAt", Swift.Optional<Date.UnixTimeRepresentation>.sqliteTypeName, default: Swift.Optional<Date.UnixTimeRepresentation>(nil).sqliteValue),
            .column("flags", Int32.sqliteTypeName, default: (0 as Int32).sqliteValue)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.count)
          row.encode(self.offset)
          row.encode(self.ratio)
          row.encode(self.delta)
          row.encode(self.label)
          row.encode(self.level)
          row.encode(self.greeting)
          row.encode(self.createdAt)
          row.encode(self.seenAt, as: Swift.Optional<Date.UnixTimeRepresentation>.self)
          row.encode(self.flags)
        }
      }

      nonisolated extension Setting: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          func represented<R: TandemCore.ColumnRepresentation>(_ column: TandemCore.ColumnExpression<R>) throws -> R.Represented {
            try row.decode(as: R.self)
          }
          self.count = try row.decode()
          self.offset = try row.decode()
          self.ratio = try row.decode()
          self.delta = try row.decode()
          self.label = try row.decode()
          self.level = try row.decode()
          self.greeting = try row.decode()
          self.createdAt = try row.decode()
          self.seenAt = try represented(Self.columns.seenAt)
          self.flags = try row.decode()
        }
      }
      """#
    )
  }

  /// `@Column(primaryKey: false)` on `id`: no key, no `Draft`; a renamed unique column.
  func testIdThatIsNotThePrimaryKey() {
    assertTableExpansion(
      """
      @Table struct Tagging {
        @Column(primaryKey: false) var id: String
        @Column("tag_name", unique: true) var tagName: String
      }
      """,
      expandedSource: """
      struct Tagging {
        var id: String
        var tagName: String

        nonisolated struct Columns: TandemCore.TableColumns {
          let id = TandemCore.ColumnExpression<String>("id")
          let tagName = TandemCore.ColumnExpression<String>("tag_name")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "taggings"

        nonisolated static let schema = TandemCore.TableSchema(
          "taggings",
          columns: [
            .column("id", String.sqliteTypeName),
            .column("tag_name", String.sqliteTypeName, unique: true)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.tagName)
        }
      }

      nonisolated extension Tagging: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
          self.tagName = try row.decode()
        }
      }
      """
    )
  }

  /// Any fixed-width signed integer key gets a `Draft`; an optional key does not.
  func testDraftOnlyForANonOptionalIntegerKey() {
    assertTableExpansion(
      """
      @Table struct Country {
        @Column(primaryKey: true) var code: Int16
        var name: String
      }
      @Table struct Planet {
        var id: Int?
        var name: String
      }
      """,
      expandedSource: """
      struct Country {
        var code: Int16
        var name: String

        nonisolated struct Columns: TandemCore.TableColumns {
          let code = TandemCore.ColumnExpression<Int16>("code")
          let name = TandemCore.ColumnExpression<String>("name")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "countries"

        nonisolated static let schema = TandemCore.TableSchema(
          "countries",
          columns: [
            .column("code", Int16.sqliteTypeName, primaryKey: true),
            .column("name", String.sqliteTypeName)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.code)
          row.encode(self.name)
        }

        nonisolated struct Draft: TandemCore.TableDraft, Swift.Sendable {
          typealias Record = Country
          var code: Int16? = nil
          var name: String
          nonisolated func encode(to row: inout TandemCore.RowEncoder) {
            row.encode(self.code)
            row.encode(self.name)
          }
        }
      }
      struct Planet {
        var id: Int?
        var name: String

        nonisolated struct Columns: TandemCore.TableColumns {
          let id = TandemCore.ColumnExpression<Int?>("id")
          let name = TandemCore.ColumnExpression<String>("name")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "planets"

        nonisolated static let schema = TandemCore.TableSchema(
          "planets",
          columns: [
            .column("id", Swift.Optional<Int>.sqliteTypeName, primaryKey: true),
            .column("name", String.sqliteTypeName)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.name)
        }
      }

      nonisolated extension Country: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.code = try row.decode()
          self.name = try row.decode()
        }
      }

      nonisolated extension Planet: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
          self.name = try row.decode()
        }
      }
      """
    )
  }

  /// `var x, y: Double` makes two columns; a property with observers is stored; `lazy` is not a column.
  func testMultipleBindingsObserversAndLazy() {
    assertTableExpansion(
      """
      @Table struct Point {
        var x, y: Double
        var `default` = 0 {
          didSet { print("changed") }
        }
        lazy var cached = 1
      }
      """,
      expandedSource: """
      struct Point {
        var x, y: Double
        var `default` = 0 {
          didSet { print("changed") }
        }
        lazy var cached = 1

        nonisolated struct Columns: TandemCore.TableColumns {
          let x = TandemCore.ColumnExpression<Double>("x")
          let y = TandemCore.ColumnExpression<Double>("y")
          let `default` = TandemCore.ColumnExpression<Swift.Int>("default")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "points"

        nonisolated static let schema = TandemCore.TableSchema(
          "points",
          columns: [
            .column("x", Double.sqliteTypeName),
            .column("y", Double.sqliteTypeName),
            .column("default", Swift.Int.sqliteTypeName, default: (0 as Swift.Int).sqliteValue)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.x)
          row.encode(self.y)
          row.encode(self.`default`)
        }
      }

      nonisolated extension Point: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.x = try row.decode()
          self.y = try row.decode()
          self.`default` = try row.decode()
        }
      }
      """
    )
  }

  /// A package struct gets package members.
  func testPackageStruct() {
    assertTableExpansion(
      """
      @Table package struct Box {
        package let id: Int
        package var width = 1.0
      }
      """,
      expandedSource: """
      package struct Box {
        package let id: Int
        package var width = 1.0

        package nonisolated struct Columns: TandemCore.TableColumns {
          package let id = TandemCore.ColumnExpression<Int>("id")
          package let width = TandemCore.ColumnExpression<Swift.Double>("width")
        }

        package nonisolated static let columns = Columns()

        package nonisolated static let tableName = "boxes"

        package nonisolated static let schema = TandemCore.TableSchema(
          "boxes",
          columns: [
            .column("id", Int.sqliteTypeName, primaryKey: true),
            .column("width", Swift.Double.sqliteTypeName, default: (1.0 as Swift.Double).sqliteValue)
          ],
          indexes: []
        )

        package nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
          row.encode(self.width)
        }

        package nonisolated struct Draft: TandemCore.TableDraft, Swift.Sendable {
          package typealias Record = Box
          package var id: Int? = nil
          package var width: Swift.Double = 1.0
          package init(id: Int? = nil, width: Swift.Double = 1.0) {
            self.id = id
            self.width = width
          }
          package nonisolated func encode(to row: inout TandemCore.RowEncoder) {
            row.encode(self.id)
            row.encode(self.width)
          }
        }
      }

      nonisolated extension Box: TandemCore.Table {
        package nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
          self.width = try row.decode()
        }
      }
      """
    )
  }

  /// A struct that already declares `Table` gets the members without a second conformance.
  func testStructThatAlreadyDeclaresTable() {
    assertTableExpansion(
      """
      @Table struct Person: Table {
        @Column(primaryKey: false) var id: String
      }
      """,
      expandedSource: """
      struct Person: Table {
        var id: String

        nonisolated struct Columns: TandemCore.TableColumns {
          let id = TandemCore.ColumnExpression<String>("id")
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = "persons"

        nonisolated static let schema = TandemCore.TableSchema(
          "persons",
          columns: [
            .column("id", String.sqliteTypeName)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.id)
        }
      }

      nonisolated extension Person {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.id = try row.decode()
        }
      }
      """,
      macros: tandemMacrosWithoutConformance
    )
  }

  /// Names with quotes and backslashes are written back as raw string literals.
  func testNamesThatNeedEscaping() {
    assertTableExpansion(
      #"""
      @Table(#"odd "table""#) struct Odd {
        @Column(#"a\b"#) var path: String
      }
      """#,
      expandedSource: #"""
      struct Odd {
        var path: String

        nonisolated struct Columns: TandemCore.TableColumns {
          let path = TandemCore.ColumnExpression<String>(#"a\b"#)
        }

        nonisolated static let columns = Columns()

        nonisolated static let tableName = #"odd "table""#

        nonisolated static let schema = TandemCore.TableSchema(
          #"odd "table""#,
          columns: [
            .column(#"a\b"#, String.sqliteTypeName)
          ],
          indexes: []
        )

        nonisolated func encode(to row: inout TandemCore.RowEncoder) {
          row.encode(self.path)
        }
      }

      nonisolated extension Odd: TandemCore.Table {
        nonisolated init(row: inout TandemCore.RowDecoder) throws {
          self.path = try row.decode()
        }
      }
      """#
    )
  }
}
