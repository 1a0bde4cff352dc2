/// Whether the caller of SQL text depends on the order of the rows it returns.
///
/// SQL leaves the order of some rows open — all rows of a join without ORDER BY, rows that tie
/// in ORDER BY — and SQLite then returns them in the order its plan happens to find them. The
/// memory engine knows SQLite's plan for one table, not for every join, so by default it refuses
/// (``TandemError/Kind/unsupported``) a query whose row order only SQLite's plan decides. A
/// caller that sorts, counts or compares the rows as a set says so with `.unordered`.
///
/// ```swift
/// let pairs = try db.fetchAll(sql: "SELECT a.x, b.y FROM a, b", rowOrder: .unordered)
/// ```
public enum RowOrder: Sendable, Hashable {
  /// Rows in exactly the order SQLite returns them (the default).
  case sqlite
  /// Rows in an order that may differ from SQLite's where SQL leaves it open; tandem mode
  /// compares such results as multisets.
  case unordered
}
