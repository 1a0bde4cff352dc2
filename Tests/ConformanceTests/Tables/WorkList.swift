import Tandem

/// A list of tasks: the parent of the join tests.
@Table struct WorkList: Equatable {
  let id: Int
  var name: String
  var isArchived = false
}

/// A task in a list (`listID` references `workLists(id)`): the child of the join tests.
@Table struct WorkTask: Equatable {
  let id: Int
  var listID: Int
  var title: String
  var isDone = false
  var estimate: Double?
}

/// An amount booked to a list: integer sums over a join.
@Table struct LedgerEntry: Equatable {
  let id: Int
  var listID: Int
  var amount: Int
}

/// The rows of a common table expression: list ids (never created as a table).
@Table struct ListNumber: Equatable {
  let n: Int
}
