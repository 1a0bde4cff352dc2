import Tandem

/// The table of the plan-dependent answers: a rowid alias, NOT NULL columns an UPDATE can break,
/// and a UNIQUE text column SQLite seeks through its automatic index.
///
/// ```sql
/// CREATE TABLE "items" ("id" INTEGER PRIMARY KEY, "n" INTEGER NOT NULL, "s" TEXT NOT NULL, "t" TEXT, "code" TEXT UNIQUE)
/// ```
@Table("items") struct PlannedItem: Equatable {
  let id: Int
  var n: Int
  var s: String
  var t: String?
  @Column(unique: true) var code: String?
}

extension PlannedItem {
  /// Row 1 holds the smallest integer, whose `abs()` overflows; row 2 has no `t`.
  static let samples = [
    PlannedItem(id: 1, n: .min, s: "x", t: "ok", code: "a"),
    PlannedItem(id: 2, n: 1, s: "y", t: nil, code: "z"),
  ]
}
