/// An engine that can say how it runs a statement, in the words of SQLite's
/// `EXPLAIN QUERY PLAN`: one line per step, indented by two spaces per level.
///
/// ```swift
/// try backend.queryPlan(for: .select(statement), parameters: [:])
/// // ["SEARCH items USING INTEGER PRIMARY KEY (rowid>?)", "USE TEMP B-TREE FOR ORDER BY"]
/// ```
public protocol QueryPlanDescribing {
  /// The plan of `statement` run with `parameters` (which matter only where SQLite reads a bound
  /// value while planning: a LIKE or GLOB pattern).
  func queryPlan(for statement: Statement, parameters: [String: SqliteValue]) throws -> [String]
}
