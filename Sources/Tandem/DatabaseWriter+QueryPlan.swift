import TandemCore

extension DatabaseWriter {
  /// How the engine runs a query, in the words of SQLite's `EXPLAIN QUERY PLAN`: one line per
  /// step, indented two spaces per level. The memory engine describes the plan SQLite would
  /// choose (it follows that plan); tandem mode checks that both engines describe the same one.
  ///
  /// ```swift
  /// try db.queryPlan(for: Item.where { $0.id > 1 })
  /// // ["SEARCH items USING INTEGER PRIMARY KEY (rowid>?)"]
  /// ```
  public func queryPlan<Root, Output>(
    for query: Select<Root, Output>, parameters: [String: SqliteValue] = [:]
  ) throws -> [String] {
    try queryPlan(for: .select(query.statement), parameters: parameters)
  }

  /// The plan of a statement of the query model (see ``queryPlan(for:parameters:)-(Select<Root,Output>,_)``).
  public func queryPlan(for statement: Statement, parameters: [String: SqliteValue] = [:]) throws -> [String] {
    try withConnection { connection in
      guard let describing = connection.describingBackend else {
        throw TandemError.unsupported("describing a query plan", backend: connection.backend.name)
      }
      return try describing.queryPlan(for: statement, parameters: parameters)
    }
  }
}

extension Connection {
  /// The engine behind the connection's transaction guard, when it can describe its plans.
  var describingBackend: QueryPlanDescribing? {
    ((backend as? TransactionGuard)?.base ?? backend) as? QueryPlanDescribing
  }
}
