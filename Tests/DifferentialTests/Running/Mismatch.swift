import Tandem

/// The first place where the two engines of a case answered differently.
struct Mismatch: Sendable {
  /// What was being compared.
  enum Step: Sendable, Hashable {
    /// Creating a table.
    case create(TableSchema)
    /// A statement's own answer.
    case statement(Statement, parameters: [String: SqliteValue])
    /// A statement's query plan: SQLite's `EXPLAIN QUERY PLAN` against the memory engine's.
    case queryPlan(Statement, parameters: [String: SqliteValue])
    /// A table's full contents (`SELECT rowid, * … ORDER BY rowid`) after a write or a savepoint.
    case tableContents(String, after: String)
    /// Opening, releasing or rolling back a savepoint.
    case savepoint
  }

  /// The case, as run.
  var fuzzCase: FuzzCase
  /// The position of the operation in the case (indices into nested savepoint bodies).
  var path: [Int]
  var step: Step
  var sqlite: Outcome
  var memory: Outcome
  /// SQLite's contents of every table just before the step, by table name.
  var contentsBefore: [String: [[SqliteValue]]]

  /// A coarse description used to keep a shrunk case failing in the same way.
  var signature: String {
    switch step {
    case .create: "create"
    case .statement(let statement, _):
      switch statement {
      case .select: "select"
      case .insert: "insert"
      case .update: "update"
      case .delete: "delete"
      }
    case .queryPlan: "plan"
    case .tableContents: "contents"
    case .savepoint: "savepoint"
    }
  }
}
