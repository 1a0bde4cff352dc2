import TandemCore

extension TandemBackend: QueryPlanDescribing {
  /// The reference engine's plan, once the memory engine's plan for the same statement reads the
  /// table the same way (``Statement/comparablePlanLines(_:)``); a
  /// ``TandemError/Kind/divergence`` error otherwise.
  func queryPlan(for statement: Statement, parameters: [String: SqliteValue]) throws -> [String] {
    guard let reference = reference as? QueryPlanDescribing, let candidate = candidate as? QueryPlanDescribing else {
      throw TandemError.unsupported("describing a query plan", backend: name)
    }
    let expected = try reference.queryPlan(for: statement, parameters: parameters)
    let actual = try candidate.queryPlan(for: statement, parameters: parameters)
    guard statement.comparablePlanLines(expected) == statement.comparablePlanLines(actual) else {
      throw TandemError.divergence(
        statement: StatementDescriptionForPlans.describe(statement),
        message: "query plans differ: \(self.reference.name) \(expected), \(self.candidate.name) \(actual)")
    }
    return expected
  }
}

/// The kind and table of a statement, for a plan divergence (no values).
enum StatementDescriptionForPlans {
  static func describe(_ statement: Statement) -> String {
    switch statement {
    case .select: "SELECT from \(statement.table)"
    case .insert: "INSERT into \(statement.table)"
    case .update: "UPDATE of \(statement.table)"
    case .delete: "DELETE from \(statement.table)"
    }
  }
}
