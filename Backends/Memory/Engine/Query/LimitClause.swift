import TandemCore

/// LIMIT and OFFSET, evaluated before anything else as SQLite does (Docs/SQLiteSemantics.md §10).
struct LimitClause: Sendable {
  let limit: ValueEvaluator?
  let offset: ValueEvaluator?

  init(limit: SQLExpression?, offset: SQLExpression?, compiler: ExpressionCompiler) throws {
    self.limit = try limit.map { try compiler.compile($0).evaluate }
    self.offset = try offset.map { try compiler.compile($0).evaluate }
  }

  /// The row window: `nil` limit means none. Returns `nil` when LIMIT is 0 (SQLite then stops
  /// before evaluating anything else, OFFSET included).
  func evaluate(_ context: EvaluationContext) throws -> (limit: Int?, offset: Int)? {
    var count: Int?
    if let limit {
      guard let value = ValueOperations.mustBeInteger(try limit(context)) else {
        throw EngineError.datatypeMismatch
      }
      if value == 0 { return nil }
      count = value < 0 ? nil : Int(clamping: value)
    }
    var skip = 0
    if let offset {
      guard let value = ValueOperations.mustBeInteger(try offset(context)) else {
        throw EngineError.datatypeMismatch
      }
      skip = value < 0 ? 0 : Int(clamping: value)
    }
    return (count, skip)
  }

  /// Applies the window to already-ordered rows.
  static func apply(_ window: (limit: Int?, offset: Int), to rows: [[SqliteValue]]) -> [[SqliteValue]] {
    guard window.offset < rows.count else { return [] }
    let tail = rows[window.offset...]
    guard let limit = window.limit else { return Array(tail) }
    return Array(tail.prefix(limit))
  }
}
