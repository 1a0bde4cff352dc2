import Foundation
import Tandem

/// How urgent a reminder is; stored as its raw integer, and ordered by it.
enum Priority: Int, ColumnType, QueryComparable {
  case low = 1, medium, high
}

/// The table of the design document: an integer key, defaults, a renamed column, optionals.
@Table struct Reminder: Equatable {
  let id: Int
  var title = ""
  @Column("is_completed") var isCompleted = false
  var dueDate: Date?
  var priority: Priority?
}
