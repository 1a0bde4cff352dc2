import TandemCore

extension SelectPlan {
  /// Runs the query on `table` and hands each result row to `body`, in order: the rows
  /// ``run(_:table:)`` returns. A streaming plan (``streams``) hands over each row as the scan
  /// meets it, in one array it overwrites for the next row (a row `body` keeps is copied first,
  /// as arrays are values); any other plan runs to the end first. An error thrown by `body`
  /// stops the scan and is rethrown.
  func run(
    _ parameters: [String: SqliteValue], table: TableStorage, eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    guard streams else {
      for row in try run(parameters, table: table) { try body(row) }
      return
    }
    try withBoundParameters(parameters) { bound in
      var context = EvaluationContext()
      context.parameters = bound
      guard let window = try self.window.evaluate(context), try filter.constantsHold(context) else { return }
      var values: [SqliteValue] = []
      values.reserveCapacity(projection.count)
      var skipped = 0
      var delivered = 0
      try filter.forEachRow(in: table, context, descending: rowidOrder == true) { row, _ in
        // As the output collector does without ORDER BY: OFFSET skips rows, LIMIT stops the scan.
        if skipped < window.offset {
          skipped += 1
          return true
        }
        guard let stored = row.row else { return true }
        let fresh = values.isEmpty
        for (position, column) in projection.enumerated() {
          let value: SqliteValue =
            switch column {
            case .column(let index): stored[index]
            case .rowid: .integer(row.rowid)
            // Never: a streaming plan reads every result column straight from the row.
            case .computed: .null
            }
          if fresh { values.append(value) } else { values[position] = value }
        }
        try body(values)
        delivered += 1
        if let limit = window.limit, delivered >= limit { return false }
        return true
      }
    }
  }
}
