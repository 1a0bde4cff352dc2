import SwiftSyntaxMacrosTestSupport
import XCTest

/// Every error `@Table` reports, where it points, and the fix-its it offers. A declaration with an
/// error expands to nothing, so the compiler shows the macro's message rather than follow-on errors.
final class TableDiagnosticsTests: XCTestCase {
  func testOnlyStructs() {
    for (keyword, kind) in [("class", "a class"), ("enum", "an enum"), ("actor", "an actor")] {
      assertTableExpansion(
        """
        @Table \(keyword) Reminder {
          var id = 0
        }
        """,
        expandedSource: """
          \(keyword) Reminder {
            var id = 0
          }
          """,
        diagnostics: [
          DiagnosticSpec(message: "@Table can only be applied to a struct, not \(kind)", line: 1, column: 1)
        ]
      )
    }
    assertTableExpansion(
      """
      @Table protocol Reminder {
        var id: Int { get }
      }
      """,
      expandedSource: """
        protocol Reminder {
          var id: Int { get }
        }
        """,
      diagnostics: [
        DiagnosticSpec(message: "@Table can only be applied to a struct, not a protocol", line: 1, column: 1)
      ]
    )
  }

  func testCollectionIsNotAColumnTypeAndFixItStoresItAsJSON() {
    assertTableExpansion(
      """
      @Table struct Post {
        let id: Int
        var tags: [String]
      }
      """,
      expandedSource: """
        struct Post {
          let id: Int
          var tags: [String]
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "property 'tags' of type '[String]' is not a ColumnType; "
            + "store it with @Column(as: JSONRepresentation<[String]>.self)",
          line: 3, column: 7,
          fixIts: [FixItSpec(message: "store it with @Column(as: JSONRepresentation<[String]>.self)")])
      ],
      applyFixIts: ["store it with @Column(as: JSONRepresentation<[String]>.self)"],
      fixedSource: """
        @Table struct Post {
          let id: Int
          @Column(as: JSONRepresentation<[String]>.self) var tags: [String]
        }
        """
    )
  }

  func testOtherTypesThatAreNeverColumnTypes() {
    assertTableExpansion(
      """
      @Table struct Shape {
        var bytes: [UInt8]
        var lookup: [String: Int]?
        var corner: (Int, Int)
        var onTap: () -> Void
        var members: Set<String>
      }
      """,
      expandedSource: """
        struct Shape {
          var bytes: [UInt8]
          var lookup: [String: Int]?
          var corner: (Int, Int)
          var onTap: () -> Void
          var members: Set<String>
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "property 'lookup' of type '[String: Int]?' is not a ColumnType; "
            + "store it with @Column(as: JSONRepresentation<[String: Int]>.self)",
          line: 3, column: 7,
          fixIts: [FixItSpec(message: "store it with @Column(as: JSONRepresentation<[String: Int]>.self)")]),
        DiagnosticSpec(
          message: "property 'corner' of type '(Int, Int)' is not a ColumnType; "
            + "store its parts in separate properties, or mark it @Ignored and give it a default value",
          line: 4, column: 7),
        DiagnosticSpec(
          message: "property 'onTap' of type '() -> Void' is not a ColumnType; "
            + "mark it @Ignored and give it a default value",
          line: 5, column: 7),
        DiagnosticSpec(
          message: "property 'members' of type 'Set<String>' is not a ColumnType; "
            + "store it with @Column(as: JSONRepresentation<Set<String>>.self)",
          line: 6, column: 7,
          fixIts: [FixItSpec(message: "store it with @Column(as: JSONRepresentation<Set<String>>.self)")]),
      ]
    )
  }

  func testTwoPrimaryKeysAndFixItUnmarksID() {
    assertTableExpansion(
      """
      @Table struct Item {
        let id: Int
        @Column(primaryKey: true) let code: String
      }
      """,
      expandedSource: """
        struct Item {
          let id: Int
          let code: String
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'code' is a primary key, and so is 'id' by its name; mark 'id' with "
            + "@Column(primaryKey: false), or with @Column(primaryKey: true) for a composite key",
          line: 2, column: 7,
          fixIts: [FixItSpec(message: "mark 'id' with @Column(primaryKey: false)")])
      ],
      applyFixIts: ["mark 'id' with @Column(primaryKey: false)"],
      fixedSource: """
        @Table struct Item {
          @Column(primaryKey: false) let id: Int
          @Column(primaryKey: true) let code: String
        }
        """
    )
  }

  func testTwoPropertiesInOneColumn() {
    assertTableExpansion(
      """
      @Table struct Person {
        @Column("name") var firstName: String
        @Column("name") var lastName: String
      }
      """,
      expandedSource: """
        struct Person {
          var firstName: String
          var lastName: String
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "properties 'firstName' and 'lastName' are both stored in column 'name'; "
            + "give one another name with @Column(\"name\")",
          line: 3, column: 23)
      ]
    )
  }

  func testLetWithDefaultAndFixItMakesItVar() {
    assertTableExpansion(
      """
      @Table struct Flag {
        let id: Int
        let isOn = true
      }
      """,
      expandedSource: """
        struct Flag {
          let id: Int
          let isOn = true
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'let' property 'isOn' has a default value, so a row cannot set it; "
            + "declare it with 'var', or mark it @Ignored to keep it out of the table",
          line: 3, column: 3,
          fixIts: [FixItSpec(message: "replace 'let' with 'var'")])
      ],
      applyFixIts: ["replace 'let' with 'var'"],
      fixedSource: """
        @Table struct Flag {
          let id: Int
          var isOn = true
        }
        """
    )
  }

  func testIgnoredWithoutDefault() {
    assertTableExpansion(
      """
      @Table struct Row {
        let id: Int
        @Ignored var cache: String
        @Ignored var note: String?
      }
      """,
      expandedSource: """
        struct Row {
          let id: Int
          var cache: String
          var note: String?
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "@Ignored property 'cache' needs a default value: records read from a row get it",
          line: 3, column: 16)
      ]
    )
  }

  func testMissingTypeForANonLiteralDefault() {
    assertTableExpansion(
      """
      @Table struct Stamp {
        let id: Int
        var createdAt = Date()
        var level = Level.high
      }
      """,
      expandedSource: """
        struct Stamp {
          let id: Int
          var createdAt = Date()
          var level = Level.high
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "property 'createdAt' needs an explicit type: @Table infers a type only from a string, "
            + "integer, float or boolean literal; write 'var createdAt: <Type> = …'",
          line: 3, column: 7),
        DiagnosticSpec(
          message: "property 'level' needs an explicit type: @Table infers a type only from a string, "
            + "integer, float or boolean literal; write 'var level: <Type> = …'",
          line: 4, column: 7),
      ]
    )
  }

  func testMarkersOnPropertiesThatAreNotStored() {
    assertTableExpansion(
      """
      @Table struct Order {
        let id: Int
        @Column var total: Int { 1 }
        @Ignored static var count = 0
        @Column("x") @Ignored var both = 1
      }
      """,
      expandedSource: """
        struct Order {
          let id: Int
          var total: Int { 1 }
          static var count = 0
          var both = 1
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "@Column and @Ignored apply only to stored instance properties; 'total' is not one",
          line: 3, column: 15),
        DiagnosticSpec(
          message: "@Column and @Ignored apply only to stored instance properties; 'count' is not one",
          line: 4, column: 23),
        DiagnosticSpec(
          message: "property 'both' is marked both @Column and @Ignored; keep one of them",
          line: 5, column: 29),
      ]
    )
  }

  func testNamesMustBeLiterals() {
    assertTableExpansion(
      """
      @Table(name) struct Box {
        @Column(columnName) var width: Int
        @Column(primaryKey: isKey) var height: Int
      }
      """,
      expandedSource: """
        struct Box {
          var width: Int
          var height: Int
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "@Table's name must be a plain string literal, such as @Table(\"reminders\")", line: 1, column: 8),
        DiagnosticSpec(message: "@Column's name must be a plain string literal", line: 2, column: 11),
        DiagnosticSpec(message: "@Column's primaryKey must be true or false", line: 3, column: 23),
      ]
    )
  }

  func testTableWithoutColumns() {
    assertTableExpansion(
      """
      @Table struct Empty {
        static let shared = Empty()
        var description: String { "" }
      }
      """,
      expandedSource: """
        struct Empty {
          static let shared = Empty()
          var description: String { "" }
        }
        """,
      diagnostics: [
        DiagnosticSpec(message: "@Table needs at least one stored property to make a column", line: 1, column: 1)
      ]
    )
  }
}
