/// A database a sqllogictest script runs on. Each script gets a fresh, empty one.
///
/// Throw a `TandemError` of kind `.unsupported` for SQL the engine does not implement: the runner
/// counts such records as unsupported, not failed.
///
/// ```swift
/// final class Engine: SQLLogicEngine {
///   func execute(script: String) throws { try db.execute(sql: script) }
///   func query(_ sql: String, rowOrderMatters: Bool) throws -> SQLLogicResult { … }
/// }
/// ```
public protocol SQLLogicEngine {
  /// Runs a statement record's SQL, every statement in it. Throws when SQLite would report an error.
  func execute(script: String) throws

  /// Runs a query: its column count and the rows read before any error. Throws only when the
  /// query cannot be prepared; an error while stepping goes in ``SQLLogicResult/stepError``.
  /// `rowOrderMatters` is false for `rowsort` and `valuesort` records, whose rows the runner sorts.
  func query(_ sql: String, rowOrderMatters: Bool) throws -> SQLLogicResult
}
