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
    try withBoundParameters(parameters) { bound in try stream(bound, table: table, eachRow: body) }
  }

  /// How a run gets its parameter values: by name, or by position for a plan that
  /// ``bindsBySlot`` (see ``PlanCache/PreparedPlan``).
  enum ParameterBinding {
    case byName([String: SqliteValue])
    case bySlot([SqliteValue], [Int])
  }

  /// Runs the query with its parameters bound either way, handing each row to `body`.
  func run(_ binding: ParameterBinding, table: TableStorage, eachRow body: ([SqliteValue]) throws -> Void) throws {
    switch binding {
    case .byName(let parameters): try run(parameters, table: table, eachRow: body)
    case .bySlot(let values, let slots): try run(values: values, slots: slots, table: table, eachRow: body)
    }
  }

  /// Whether a prepared query can bind its values by position (``run(values:slots:table:eachRow:)``):
  /// the plan streams and reads every placeholder of its statement.
  var bindsBySlot: Bool { streams && !hasUnreadPlaceholders }

  /// Streams the query with parameter values given by position: slot `i` (the parameter named
  /// `parameterNames[i]`) takes `values[slots[i]]`. Only for a plan that ``bindsBySlot``, with
  /// `slots` as long as ``parameterNames`` and every index within `values`.
  func run(
    values: [SqliteValue], slots: [Int], table: TableStorage, eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
    let count = slots.count
    if count == 0 { return try stream(nil, table: table, eachRow: body) }
    try withUnsafeTemporaryAllocation(of: SqliteValue.self, capacity: count) { buffer in
      for slot in 0..<count { buffer.initializeElement(at: slot, to: ValueOperations.bound(values[slots[slot]])) }
      defer { buffer.deinitialize() }
      try stream(UnsafePointer(buffer.baseAddress), table: table, eachRow: body)
    }
  }

  /// The streaming scan with its parameters bound.
  private func stream(
    _ bound: UnsafePointer<SqliteValue>?, table: TableStorage, eachRow body: ([SqliteValue]) throws -> Void
  ) throws {
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
