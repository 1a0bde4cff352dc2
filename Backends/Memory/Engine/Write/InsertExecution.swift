import TandemCore

extension InsertPlan {
  /// What every row of one execution shares, looked up once per statement.
  struct Execution {
    let table: TableStorage
    let definition: TableDefinition
    let session: WriteSession
    /// Whether the statement may write several rows (see ``WriteSession/insertRow(_:_:_:incoming:)``).
    let multiWrite: Bool
    let upsertParameters: [SqliteValue]
    /// The foreign keys referencing the table when `multiWrite` (a new parent key may then
    /// resolve violations counted earlier in the statement); otherwise empty.
    let incoming: [IncomingForeignKey]
  }

  /// Runs an INSERT with this plan's shape on `table`. (Its shape — row widths, parameters — was
  /// checked by ``StatementValidation``.)
  func run(
    _ statement: InsertStatement, _ parameters: [String: SqliteValue], table: TableStorage, session: WriteSession
  ) throws {
    let definition = table.definition
    let rows = statement.rows
    // Expressions other than literals and parameters are compiled before any row is written.
    var computed: [[ValueEvaluator?]]?
    var compiler: ExpressionCompiler?
    if rows.contains(where: { $0.contains(where: Self.needsCompiling) }) {
      let rowCompiler = ExpressionCompiler(table: nil)
      rowCompiler.expandsSubqueriesFirst = false
      computed = try rows.map { row in
        try row.map { Self.needsCompiling($0) ? try rowCompiler.compile($0).evaluate : nil }
      }
      compiler = rowCompiler
    }
    let callsFunction = computed != nil && rows.contains { $0.contains(where: StatementJournal.callsFunction) }
    let execution = try prepare(
      table: table, rowCount: rows.count, callsFunction: callsFunction, parameters: parameters, session: session)
    let bound = try compiler?.bind(parameters) ?? []
    var rowDefaults = defaults
    let defaulted = defaultedColumns(width: rows.first?.count ?? 0)
    try bound.withUnsafeBufferPointer { buffer in
      var context = EvaluationContext()
      context.parameters = buffer.baseAddress
      for (rowIndex, row) in rows.enumerated() {
        var values = rowDefaults
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
        let registers = try insert(&values, rowidValue: rowidValue, width: row.count, execution)
        Self.keepDefaults(&rowDefaults, of: defaulted, from: registers)
      }
    }
  }

  /// SQLite computes a constant default once per statement, into a register every row reads;
  /// a scan for a written row's children may convert it there in place (see
  /// ``WriteSession/keyAfterIndexSeek(_:_:parent:column:)``), and later rows read the converted
  /// value.
  private static func keepDefaults(_ rowDefaults: inout [SqliteValue], of defaulted: [Int], from registers: [SqliteValue]?) {
    guard let registers else { return }
    for column in defaulted where registers[column] != rowDefaults[column] {
      rowDefaults[column] = registers[column]
    }
  }

  /// Runs an INSERT of plain values with this plan's shape on `table`: exactly what ``run(_:_:table:session:)``
  /// does for the same rows written as literals. (Their widths were checked by ``StatementValidation``.)
  func run(values rows: [[SqliteValue]], table: TableStorage, session: WriteSession) throws {
    let execution = try prepare(table: table, rowCount: rows.count, callsFunction: false, parameters: [:], session: session)
    let alias = execution.definition.rowidColumn
    var rowDefaults = defaults
    let defaulted = targetsAreColumns ? [] : defaultedColumns(width: rows.first?.count ?? 0)
    for row in rows {
      var values: [SqliteValue]
      var rowidValue = SqliteValue.null
      if targetsAreColumns {
        // Shared with the caller until something has to change (rarely: a NaN, an affinity).
        values = row
        var column = 0
        while column < values.count {
          if case .real(let number) = values[column], number.isNaN { values[column] = .null }
          column += 1
        }
        if let alias { rowidValue = values[alias] }
      } else {
        values = rowDefaults
        for (position, value) in row.enumerated() {
          switch targets?[position] ?? (position == alias ? .rowid : .column(position)) {
          case .column(let column): values[column] = ValueOperations.bound(value)
          case .rowid: rowidValue = ValueOperations.bound(value)
          case .ignored: break
          }
        }
      }
      let registers = try insert(&values, rowidValue: rowidValue, width: row.count, execution)
      if !defaulted.isEmpty { Self.keepDefaults(&rowDefaults, of: defaulted, from: registers) }
    }
  }

  /// The statement-wide decisions SQLite makes before the first row: the statement journal, the
  /// foreign keys' prepare-time errors, the upsert's parameters.
  private func prepare(
    table: TableStorage, rowCount: Int, callsFunction: Bool, parameters: [String: SqliteValue], session: WriteSession
  ) throws -> Execution {
    let definition = table.definition
    let multiWrite = rowCount > 1 || mayChangeOtherRows
    session.usesStatementJournal = multiWrite && (mayAbort || callsFunction)
    session.defaultsTookAffinity = false
    if multiWrite || !definition.foreignKeys.isEmpty {
      try ForeignKeyValidation.forInsert(table, multiWrite: multiWrite, catalog: session.catalog)
    }
    let upsertParameters =
      upsertParameterNames.isEmpty ? [] : try ExpressionCompiler.bind(upsertParameterNames, parameters)
    return Execution(
      table: table, definition: definition, session: session, multiWrite: multiWrite,
      upsertParameters: upsertParameters,
      incoming: multiWrite ? session.catalog.incomingForeignKeys(of: table) : [])
  }

  /// Whether applying `affinity` certainly leaves `value` as it is (NULL and BLOB always; an
  /// INTEGER under INTEGER or NUMERIC, TEXT under TEXT, a non-zero REAL under REAL, anything but
  /// a NaN under BLOB). Checked without copying the value, which costs more than the check.
  @inline(__always)
  static func hasStorageClass(_ value: SqliteValue, of affinity: Affinity) -> Bool {
    // Switches rather than `==` on the enums: this runs for every value written, in the debug
    // builds unit tests run in too.
    switch (value, affinity) {
    case (.null, _), (.blob, _): return true
    case (.integer, .blob), (.integer, .none), (.integer, .integer), (.integer, .numeric): return true
    case (.text, .blob), (.text, .none), (.text, .text): return true
    case (.real(let number), .blob), (.real(let number), .none): return !number.isNaN
    case (.real(let number), .real): return !number.isNaN && number != 0
    default: return false
    }
  }

  /// Whether a value is an expression to compile (not a literal or a parameter).
  static func needsCompiling(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .literal, .parameter: false
    default: true
    }
  }

  /// Inserts one row whose first `width` values were given (the other columns hold defaults).
  /// Returns the registers of the row written (`nil` when none was).
  @discardableResult
  private func insert(
    _ values: inout [SqliteValue], rowidValue: SqliteValue, width: Int, _ execution: Execution
  ) throws -> [SqliteValue]? {
    let table = execution.table
    let definition = execution.definition
    let session = execution.session
    let rowid: Int64
    let isNewRowid = rowidValue.isNull
    // Past the largest rowid SQLite picks a random one. Which does not matter while the row
    // fails or is ignored, so the engine goes on with a stand-in and refuses only when the row
    // would be written (or its `excluded` values read).
    var isRandomRowid = false
    if isNewRowid {
      (rowid, isRandomRowid) = try newRowid(table)
    } else {
      guard let integer = ValueOperations.mustBeInteger(rowidValue) else { throw EngineError.datatypeMismatch }
      rowid = integer
    }
    if definition.isAutoincrement && rowid > table.data.sequence { session.storeSequence(table, rowid) }
    let affinities = definition.affinities
    // SQLite checks the rowid before it applies the columns' affinities, so a DO UPDATE for a
    // rowid conflict reads `excluded` values as written — but with REAL columns' integers made
    // REAL (`sqlite3UpsertDoUpdate`'s OP_RealAffinity), and defaults as an earlier row of the
    // statement left them (see ``WriteSession/defaultsTookAffinity``).
    var written: [SqliteValue]?
    if upsertsOnRowid && !isNewRowid {
      var raw = values
      if session.defaultsTookAffinity {
        for column in defaultedColumns(width: width) {
          raw[column] = raw[column].applyingStorageAffinity(affinities[column])
        }
      }
      for column in raw.indices where affinities[column] == .real {
        if case .integer(let number) = raw[column] { raw[column] = .real(Double(number)) }
      }
      if let alias = definition.rowidColumn { raw[alias] = .integer(rowid) }
      written = raw
    }
    var column = 0
    while column < values.count {
      if !Self.hasStorageClass(values[column], of: affinities[column]) {
        values[column] = values[column].applyingStorageAffinity(affinities[column])
      }
      column += 1
    }
    if let alias = definition.rowidColumn {
      // Written only when it differs, so a row that needs no change is stored without a copy.
      if case .integer(rowid) = values[alias] {} else { values[alias] = .integer(rowid) }
    }

    if hasNotNull, let column = ConstraintCheck.firstNullViolation(definition, values) {
      switch notNull {
      case .abort:
        throw EngineError.notNull(table: definition.name, column: definition.columnNames[column])
      case .ignore:
        return nil
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
      // Past the rowid check, SQLite applies the affinities (to the default's register too).
      if target != .rowid { session.defaultsTookAffinity = true }
      if isRandomRowid, case .constraint(let index) = target, let alias = definition.rowidColumn,
        definition.uniqueConstraints[index].columns.contains(alias)
      {
        throw Self.randomRowid
      }
      guard let other = ConstraintCheck.conflict(target, in: table, rowid: rowid, values: values, selfRowid: nil)
      else { continue }
      switch resolution {
      case .abort:
        throw conflictError(target, definition)
      case .ignore:
        return nil
      case .replace:
        try session.deleteRow(table, other, depth: 0)
        replaced = true
      case .update:
        if isRandomRowid { throw Self.randomRowid }
        let excluded = target == .rowid ? written ?? values : values
        try upsertUpdate(other, proposed: excluded, codedFirst: target == firstCodedUpsert, execution)
        return nil
      }
    }
    if replaced && mayChangeOtherRows {
      // Foreign key actions ran: SQLite checks uniqueness once more, aborting on a conflict. A
      // new rowid is still free (SQLite's random one too, whose stand-in may not be).
      for (target, _) in checks
      where !(isNewRowid && target == .rowid)
        && ConstraintCheck.conflict(target, in: table, rowid: rowid, values: values, selfRowid: nil) != nil
      {
        throw conflictError(target, definition)
      }
    }
    session.defaultsTookAffinity = true
    if isRandomRowid { throw Self.randomRowid }
    let registers = try session.insertRow(
      table, rowid, values, incoming: execution.incoming, omitting: omittedParentCheck)
    session.lastInsertRowid = rowid
    session.changes += 1
    return registers
  }

  /// The columns a row of `width` values leaves to their defaults.
  private func defaultedColumns(width: Int) -> [Int] {
    guard let targets else { return Array(width..<defaults.count) }
    var given = Set<Int>()
    for case .column(let column) in targets.prefix(width) { given.insert(column) }
    return defaults.indices.filter { !given.contains($0) }
  }

  private func conflictError(_ target: ConstraintCheck.Target, _ definition: TableDefinition) -> TandemError {
    switch target {
    case .rowid: ConstraintCheck.rowidConflict(definition)
    case .constraint(let index): ConstraintCheck.uniqueConflict(definition, index)
    }
  }

  /// SQLite's new rowid: one more than the largest (with AUTOINCREMENT, than the largest ever);
  /// after 9223372036854775807, a stand-in for SQLite's random choice, flagged `random`.
  private func newRowid(_ table: TableStorage) throws -> (rowid: Int64, random: Bool) {
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
  /// `codedFirst`: whether SQLite coded this DO UPDATE first (see ``firstCodedUpsert``).
  private func upsertUpdate(
    _ rowid: Int64, proposed: [SqliteValue], codedFirst: Bool, _ execution: Execution
  ) throws {
    let table = execution.table
    guard let assignments = upsertAssignments, let old = table.data.row(rowid) else { return }
    let definition = execution.definition
    let update = try old.withUnsafeBufferPointer { row in
      try proposed.withUnsafeBufferPointer { excluded in
        try execution.upsertParameters.withUnsafeBufferPointer { bound in
          var context = EvaluationContext()
          context.row = row.baseAddress
          context.rowid = rowid
          context.excluded = excluded.baseAddress
          context.parameters = bound.baseAddress
          return try assignments.apply(to: old, rowid: rowid, table: definition, context)
        }
      }
    }
    try execution.session.updateRow(
      table, rowid, newRowid: update.rowid, values: update.values, changed: update.changed,
      assignsRowid: assignments.rowid != nil, setNullKey: codedFirst ? nil : omittedParentCheck)
    execution.session.changes += 1
  }
}
