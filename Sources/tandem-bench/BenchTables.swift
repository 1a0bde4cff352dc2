import Tandem

/// The row of workloads W1–W4: a primary key and nine integer columns (10 INTEGER columns).
@Table("bench_rows")
struct Row10: Equatable {
  let id: Int
  var c1: Int
  var c2: Int
  var c3: Int
  var c4: Int
  var c5: Int
  var c6: Int
  var c7: Int
  var c8: Int
  var c9: Int
}

/// W5's first table: the parent of `Book`.
@Table("authors")
struct Author: Equatable {
  let id: Int
  var name: String
  var born: Int
}

/// W5's second table, with a nullable REAL column.
@Table("books")
struct Book: Equatable {
  let id: Int
  var authorID: Int
  var title: String
  var year: Int
  var rating: Double?
}

/// W5's third table.
@Table("reviews")
struct Review: Equatable {
  let id: Int
  var bookID: Int
  var stars: Int
  var body: String
}

/// W6–W7's parent table: a reminders list.
@Table("bench_lists")
struct BenchList: Equatable {
  let id: Int
  var name: String
}

/// W6–W7's child table: a reminder in a list, found from its list through the index on `listID`.
@Table("bench_reminders", indexes: [.index(on: ["listID"])])
struct BenchReminder: Equatable {
  let id: Int
  @Column(references: BenchList.self) var listID: Int
  var title: String
  /// A day number; `nil` when the reminder has no due date.
  var dueDay: Int?
  var isCompleted: Bool
}
