import Tandem

/// One generated test case: tables, then operations run in order on every engine.
///
/// A case is a pure function of `(seed, index)`: ``CaseGenerator`` regenerates it bit for bit.
struct FuzzCase: Sendable, Hashable {
  /// The campaign seed.
  var seed: UInt64
  /// The case's index within the campaign.
  var index: UInt64
  /// The tables, created in order (a referenced table comes before the one referencing it).
  var schemas: [TableSchema]
  /// What runs after the tables exist.
  var operations: [FuzzOperation]
}

/// One step of a case.
indirect enum FuzzOperation: Sendable, Hashable {
  /// A statement of the query model with values for its named parameters.
  case statement(Statement, parameters: [String: SqliteValue])
  /// A transaction (a savepoint when nested) around `body`, rolled back at its end when `rollback` is set.
  case savepoint([FuzzOperation], rollback: Bool)

  /// The number of statements, counting those inside savepoints.
  var statementCount: Int {
    switch self {
    case .statement: 1
    case .savepoint(let body, _): body.reduce(0) { $0 + $1.statementCount }
    }
  }
}

extension Statement {
  /// Whether the statement may change the database.
  var isWrite: Bool {
    if case .select = self { return false }
    return true
  }
}
