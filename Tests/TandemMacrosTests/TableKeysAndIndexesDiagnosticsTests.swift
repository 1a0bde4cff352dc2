import SwiftSyntaxMacrosTestSupport
import XCTest

/// The errors `@Table` reports about foreign keys and indexes: arguments it cannot read from
/// their spelling, and names that are not the table's columns.
final class TableKeysAndIndexesDiagnosticsTests: XCTestCase {
  func testReferencesAndActionsMustBeSpelledOut() {
    assertTableExpansion(
      """
      @Table struct Reminder {
        let id: Int
        @Column(references: listType) var listID: Int
        @Column(references: \\.code) var listCode: String
        @Column(references: RemindersList.self, onDelete: deleteAction, onUpdate: .explode) var otherID: Int
      }
      """,
      expandedSource: """
        struct Reminder {
          let id: Int
          var listID: Int
          var listCode: String
          var otherID: Int
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "@Column's references must be a table type written 'Parent.self', or one property written "
            + "'\\Parent.property'",
          line: 3, column: 23),
        DiagnosticSpec(
          message: "@Column's references must be a table type written 'Parent.self', or one property written "
            + "'\\Parent.property'",
          line: 4, column: 23),
        DiagnosticSpec(
          message: "@Column's onDelete must be one of .noAction, .restrict, .setNull, .setDefault or .cascade",
          line: 5, column: 53),
        DiagnosticSpec(
          message: "@Column's onUpdate must be one of .noAction, .restrict, .setNull, .setDefault or .cascade",
          line: 5, column: 77),
      ]
    )
  }

  func testSelfReferenceNeedsAColumn() {
    assertTableExpansion(
      """
      @Table struct Node {
        @Column(primaryKey: true) var a: Int
        @Column(primaryKey: true) var b: Int
        @Column(references: Node.self) var parent: Int?
        @Column(references: \\Node.missing) var other: Int?
      }
      """,
      expandedSource: """
        struct Node {
          var a: Int
          var b: Int
          var parent: Int?
          var other: Int?
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'Node' references itself by its primary key, which is not one column; "
            + "name the referenced property, such as @Column(references: \\Node.id)",
          line: 4, column: 38),
        DiagnosticSpec(message: "'Node' has no column 'missing' to reference", line: 5, column: 42),
      ]
    )
  }

  func testAQualifiedNameOfTheTableItselfIsAmbiguous() {
    assertTableExpansion(
      """
      @Table struct Node {
        let id: Int
        @Column(references: Graph.Node.self) var parent: Int?
      }
      """,
      expandedSource: """
        struct Node {
          let id: Int
          var parent: Int?
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "write 'references: Self.self' to reference 'Node' itself; for another type named 'Graph.Node', "
            + "reference its key property, such as '\\Graph.Node.id'",
          line: 3, column: 44)
      ]
    )
  }

  func testIndexesMustBeLiteralsNamingColumns() {
    assertTableExpansion(
      """
      @Table(indexes: [.index(on: ["title", "isDone", "nope"]), .index(on: names), .index(on: [])])
      struct Reminder {
        let id: Int
        var title: String
        @Column("is_done") var isDone: Bool
      }
      """,
      expandedSource: """
        struct Reminder {
          let id: Int
          var title: String
          var isDone: Bool
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "@Table's indexes must be an array literal of indexes written with literals, such as "
            + "[.index(\"by_title\", on: [\"title\"], unique: true)]",
          line: 1, column: 59),
        DiagnosticSpec(
          message: "index column 'isDone' is not a column of 'reminders'; property 'isDone' is stored in column 'is_done'",
          line: 1, column: 39),
        DiagnosticSpec(message: "index column 'nope' is not a column of 'reminders'", line: 1, column: 49),
        DiagnosticSpec(message: "an index needs at least one column, such as .index(on: [\"title\"])", line: 1, column: 78),
      ]
    )
    assertTableExpansion(
      """
      @Table(indexes: allIndexes)
      struct Reminder {
        let id: Int
      }
      """,
      expandedSource: """
        struct Reminder {
          let id: Int
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "@Table's indexes must be an array literal of indexes written with literals, such as "
            + "[.index(\"by_title\", on: [\"title\"], unique: true)]",
          line: 1, column: 17)
      ]
    )
  }
}
