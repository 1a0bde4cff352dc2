import TandemCore

/// What a compiled expression reads while it runs: the current row, the row proposed by an
/// upsert (`excluded`), the bound parameters and the current group's aggregate values.
///
/// Pointers refer to storage that outlives the evaluation (a table's cells inside a scan, or a
/// local buffer); they are never retained past it.
struct EvaluationContext {
  /// The current row's values, or `nil` when there is no row (an aggregate over no rows).
  var row: UnsafePointer<SqliteValue>?
  /// The current row's rowid.
  var rowid: Int64 = 0
  /// The proposed row of an upsert's `DO UPDATE`.
  var excluded: UnsafePointer<SqliteValue>?
  /// Parameter values, in the statement's parameter order.
  var parameters: UnsafePointer<SqliteValue>?
  /// The current group's aggregate results, in the statement's aggregate order.
  var aggregates: UnsafePointer<SqliteValue>?
}

/// A compiled expression: evaluates to a value.
typealias ValueEvaluator = @Sendable (EvaluationContext) throws -> SqliteValue

/// A compiled condition: whether the expression is true (or false, for a falsity test), using
/// SQLite's short-circuit jumps.
typealias ConditionEvaluator = @Sendable (EvaluationContext) throws -> Bool

/// The result of compiling one expression: its evaluator and the static properties SQLite uses
/// to compare it (Docs/SQLiteSemantics.md §3.2, §3.3).
struct CompiledExpression {
  /// Computes the value.
  let evaluate: ValueEvaluator
  /// The expression affinity: a column's affinity, a CAST's type, otherwise none.
  let affinity: Affinity
  /// The collation SQLite's `sqlite3ExprCollSeq` finds, if any.
  let collation: Collation?
  /// Whether an explicit COLLATE appears in the expression (SQLite's `EP_Collate`).
  let hasExplicitCollation: Bool
  /// Whether the value is the same for every row (no column, rowid or aggregate).
  let isConstant: Bool
}
