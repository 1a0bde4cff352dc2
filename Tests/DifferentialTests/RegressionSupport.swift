import Tandem
import Testing

/// Helpers for the regression tests: a minimized fuzzer case, run on both engines.
enum RegressionCase {
  /// Runs the operations on SQLite in memory and on the memory engine, comparing every answer
  /// and the tables after every write; records an issue with the full report on a mismatch.
  static func expectAgreement(
    _ schemas: [TableSchema], _ operations: [FuzzOperation], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var runner = PairRunner()
    let fuzzCase = FuzzCase(seed: 0, index: 0, schemas: schemas, operations: operations)
    switch runner.run(fuzzCase) {
    case .agreed:
      break
    case .abandoned(let feature):
      Issue.record(Comment(rawValue: "the memory engine refused: \(feature)"), sourceLocation: sourceLocation)
    case .mismatch(let mismatch):
      Issue.record(Comment(rawValue: MismatchReport.body(mismatch)), sourceLocation: sourceLocation)
    }
  }

  /// SQLite's own answer to the last operation, to pin what the regression is about.
  static func sqliteAnswer(_ schemas: [TableSchema], _ operations: [FuzzOperation]) throws -> Outcome {
    try answer(.sqliteInMemory, schemas, operations)
  }

  /// The memory engine's answer to the last operation (for cases it must refuse).
  static func memoryAnswer(_ schemas: [TableSchema], _ operations: [FuzzOperation]) throws -> Outcome {
    try answer(.memory, schemas, operations)
  }

  private static func answer(
    _ storage: Database.Storage, _ schemas: [TableSchema], _ operations: [FuzzOperation]
  ) throws -> Outcome {
    let db = try Database(storage)
    for schema in schemas { try db.create(schema) }
    var last = Outcome.result(StatementResult())
    for case .statement(let statement, let parameters) in operations {
      last = Outcome.of { try db.execute(statement, parameters: parameters) }
    }
    return last
  }
}

/// Shorthands for writing operations by hand.
extension FuzzOperation {
  static func insert(
    _ table: String, _ columns: [String], _ rows: [[SqliteValue]],
    _ conflict: InsertStatement.ConflictResolution = .abort
  ) -> FuzzOperation {
    .statement(
      .insert(
        InsertStatement(
          table: table, columns: columns, rows: rows.map { $0.map(SQLExpression.literal) }, conflict: conflict)),
      parameters: [:])
  }

  static func select(_ statement: SelectStatement, _ parameters: [String: SqliteValue] = [:]) -> FuzzOperation {
    .statement(.select(statement), parameters: parameters)
  }
}
