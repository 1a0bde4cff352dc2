import TandemMacros
import XCTest

/// The default table name: first letter lowercased, last word pluralized.
final class TableNamingTests: XCTestCase {
  func testConvention() {
    let expected = [
      "Reminder": "reminders",
      "Category": "categories",
      "Status": "statuses",
      "RemindersList": "remindersLists",
      "Box": "boxes",
      "Day": "days",
      "Entry": "entries",
      "Match": "matches",
      "Wish": "wishes",
      "Quiz": "quizes",
      "Key": "keys",
      "Tag": "tags",
    ]
    for (typeName, tableName) in expected {
      XCTAssertEqual(TableNaming.tableName(forTypeNamed: typeName), tableName, typeName)
    }
  }

  /// The limits the guide documents: irregular plurals and trailing capitals are not special.
  func testDocumentedLimits() {
    XCTAssertEqual(TableNaming.tableName(forTypeNamed: "Person"), "persons")
    XCTAssertEqual(TableNaming.tableName(forTypeNamed: "Child"), "childs")
    XCTAssertEqual(TableNaming.tableName(forTypeNamed: "URL"), "uRLs")
    XCTAssertEqual(TableNaming.tableName(forTypeNamed: "Series"), "serieses")
    XCTAssertEqual(TableNaming.tableName(forTypeNamed: "Y"), "ys")
  }
}
