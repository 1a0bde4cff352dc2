import TandemCore

extension InsertPlan {
  /// Runs an INSERT with this plan's shape. (Its shape — row widths, parameters — was checked by
  /// ``StatementShape``.)
  func run(_ statement: InsertStatement, _ parameters: [String: SqliteValue], session: WriteSession) throws {
    let definition = table.definition
    let rows = statement.rows
    // Expressions other than literals and parameters are compiled before any row is written.
    var computed: [[ValueEvaluator?]]?
    var compiler: ExpressionCompiler?
    if rows.contains(where: { $0.contains(where: Self.needsCompiling) }) {
      let rowCompiler = ExpressionCompiler(table: nil)
      computed = try rows.map { row in
        try row.map { Self.needsCompiling($0) ? try rowCompiler.compile($0).evaluate : nil }
      }
      compiler = rowCompiler
    }
    let multiWrite = rows.count > 1 || mayChangeOtherRows
    let callsFunction = computed != nil && rows.contains { $0.contains(where: StatementJournal.callsFunction) }
    session.usesStatementJournal = multiWrite && (mayAbort || callsFunction)
    if multiWrite || !definition.foreignKeys.isEmpty {
      try ForeignKeyValidation.forInsert(table, multiWrite: multiWrite, catalog: session.catalog)
    }
    let bound = try compiler?.bind(parameters) ?? []
    let upsertBound =
      upsertParameterNames.isEmpty ? [] : try ExpressionCompiler.bind(upsertParameterNames, parameters)
    try bound.withUnsafeBufferPointer { buffer in
      var context = EvaluationContext()
      context.parameters = buffer.baseAddress
      for (rowIndex, row) in rows.enumerated() {
        var values = defaults
        var rowidValue = SqliteValue.null
        for (position, expression) in row.enumerated() {
          let value: SqliteValue
          switch expression {
          case .literal(let literal): value = ValueOperations.bound(literal)
          case .parameter(let name): value = ValueOperations.bound(parameters[name] ?? .null)
          default:
            guard let evaluate = computed?[rowIndex][position] else { continue }
            value = try evaluate(context)
          }
          let target: Target =
            targets?[position] ?? (position == definition.rowidColumn ? .rowid : .column(position))
          switch target {
          case .column(let column): values[column] = value
          case .rowid: rowidValue = value
          case .ignored: break
          }
        }
        try insert(&values, rowidValue: rowidValue, multiWrite: multiWrite, upsertParameters: upsertBound, session: session)
      }
    }
  }

  /// Whether a value is an expression to compile (not a literal or a parameter).
  static func needsCompiling(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .literal, .parameter: false
    default: true
    }
  }

  private func insert(
    _ values: inout [SqliteValue], rowidValue: SqliteValue, multiWrite: Bool, upsertParameters: [SqliteValue],
    session: WriteSession
  ) throws {
    let definition = table.definition
    let rowid: Int64
    let isNewRowid = rowidValue.isNull
    // Past the largest rowid SQLite picks a random one. Which does not matter while the row
    // fails or is ignored, so the engine goes on with a stand-in and refuses only when the row
    // would be written (or its `excluded` values read).
    var isRandomRowid = false
    if isNewRowid {
      (rowid, isRandomRowid) = try newRowid()
    } else {
      guard let integer = ValueOperations.mustBeInteger(rowidValue) else { throw EngineError.datatypeMismatch }
      rowid = integer
    }
    if definition.isAutoincrement && rowid > table.data.sequence { session.storeSequence(table, rowid) }
    let affinities = definition.affinities
    // SQLite checks the rowid before it applies the columns' affinities, so a DO UPDATE for a
    // rowid conflict reads `excluded` values as written — but with REAL columns' integers made
    // REAL (`sqlite3UpsertDoUpdate`'s OP_RealAffinity).
    var written: [SqliteValue]?
    if upsertsOnRowid && !isNewRowid {
      var raw = values
      for column in raw.indices where affinities[column] == .real {
        if case .integer(let number) = raw[column] { raw[column] = .real(Double(number)) }
      }
      if let alias = definition.rowidColumn { raw[alias] = .integer(rowid) }
      written = raw
    }
    for column in values.indices { values[column] = values[column].applyingStorageAffinity(affinities[column]) }
    if let alias = definition.rowidColumn { values[alias] = .integer(rowid) }

    if let column = ConstraintCheck.firstNullViolation(definition, values) {
      switch notNull {
      case .abort:
        throw EngineError.notNull(table: definition.name, column: definition.columnNames[column])
      case .ignore:
        return
      case .replace:
        for index in 0..<definition.columnCount where definition.notNull[index] && values[index].isNull {
          guard let fallback = definition.defaults[index] else {
            throw EngineError.notNull(table: definition.name, column: definition.columnNames[index])
          }
          values[index] = fallback.applyingStorageAffinity(affinities[index])
        }
        if let still = ConstraintCheck.firstNullViolation(definition, values) {
          throw EngineError.notNull(table: definition.name, column: definition.columnNames[still])
        }
      }
    }

    var replaced = false
    for (target, resolution) in checks {
      // A new rowid is larger than any in the table: it cannot conflict.
      if isNewRowid && target == .rowid { continue }
      if isRandomRowid, case .constraint(let index) = target, let alias = definition.rowidColumn,
        definition.uniqueConstraints[index].columns.contains(alias)
      {
        throw Self.randomRowid
      }
      guard let other = ConstraintCheck.conflict(target, in: table, rowid: rowid, values: values, selfRowid: nil)
      else { continue }
      switch resolution {
      case .abort:
        throw conflictError(target)
      case .ignore:
        return
      case .replace:
        try session.deleteRow(table, other, depth: 0)
        replaced = true
      case .update:
        if isRandomRowid { throw Self.randomRowid }
        let excluded = target == .rowid ? written ?? values : values
        try upsertUpdate(other, proposed: excluded, parameters: upsertParameters, session: session)
        return
      }
    }
    if replaced && mayChangeOtherRows {
      // Foreign key actions ran: SQLite checks uniqueness once more, aborting on a conflict.
      for (target, _) in checks
      where ConstraintCheck.conflict(target, in: table, rowid: rowid, values: values, selfRowid: nil) != nil {
        throw conflictError(target)
      }
    }
    if isRandomRowid { throw Self.randomRowid }
    try session.insertRow(table, rowid, values, multiWrite: multiWrite)
    session.lastInsertRowid = rowid
    session.changes += 1
  }

  private func conflictError(_ target: ConstraintCheck.Target) -> TandemError {
    switch target {
    case .rowid: ConstraintCheck.rowidConflict(table.definition)
    case .constraint(let index): ConstraintCheck.uniqueConflict(table.definition, index)
    }
  }

  /// SQLite's new rowid: one more than the largest (with AUTOINCREMENT, than the largest ever);
  /// after 9223372036854775807, a stand-in for SQLite's random choice, flagged `random`.
  private func newRowid() throws -> (rowid: Int64, random: Bool) {
    let largest = table.data.maxRowid ?? 0
    if table.definition.isAutoincrement {
      let sequence = table.data.sequence
      if sequence == Int64.max || largest == Int64.max { throw EngineError.databaseFull }
      return (max(sequence, largest) + 1, false)
    }
    if largest == Int64.max { return (Int64.min, true) }
    return (largest + 1, false)
  }

  /// The refusal of a row that would get SQLite's random rowid.
  private static let randomRowid = EngineError.unsupported(
    "a new rowid after 9223372036854775807 (SQLite picks a random one)")

  /// An upsert's DO UPDATE of the conflicting row.
  private func upsertUpdate(
    _ rowid: Int64, proposed: [SqliteValue], parameters: [SqliteValue], session: WriteSession
  ) throws {
    guard let assignments = upsertAssignments, let old = table.data.row(rowid) else { return }
    let definition = table.definition
    let update = try old.withUnsafeBufferPointer { row in
      try proposed.withUnsafeBufferPointer { excluded in
        try parameters.withUnsafeBufferPointer { bound in
          var context = EvaluationContext()
          context.row = row.baseAddress
          context.rowid = rowid
          context.excluded = excluded.baseAddress
          context.parameters = bound.baseAddress
          return try assignments.apply(to: old, rowid: rowid, table: definition, context)
        }
      }
    }
    try session.updateRow(table, rowid, newRowid: update.rowid, values: update.values, changed: update.changed)
    session.changes += 1
  }
}
