import TandemCore

/// A compiled UPDATE or DELETE: both run from a WHERE clause on one table, with named
/// parameters, and report the rows they changed through the session.
protocol WritePlan: AnyObject, Sendable {
  /// The table's position in the catalog's creation order.
  var tablePosition: Int { get }
  /// The parameter names in placeholder order, for the missing-value check of later runs.
  var placeholderNames: [String] { get }
  func run(_ parameters: [String: SqliteValue], table: TableStorage, session: WriteSession) throws
  /// The plan's EXPLAIN QUERY PLAN lines, for a table named `table`.
  func queryPlan(_ parameters: [String: SqliteValue], table: String) throws -> [String]
}

extension UpdatePlan: WritePlan {}
extension DeletePlan: WritePlan {}
