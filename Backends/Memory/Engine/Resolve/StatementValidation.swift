import TandemCore

/// The checks the SQLite backend makes while rendering a statement, before SQLite sees it:
/// shapes SQL cannot express and names holding a NUL character are ``TandemError/misuse(_:)``
/// errors, and named parameters without a value are reported in the order their placeholders
/// appear. The memory engine makes the same checks in the same order (the order the renderer
/// writes the SQL in) so both engines fail alike.
enum StatementValidation {
  /// Throws the first shape error, then the first missing parameter.
  static func check(
    _ statement: Statement, parameters: [String: SqliteValue], rowidAvailable: () -> Bool
  ) throws {
    try check(parameters: parameters, rowidAvailable: rowidAvailable) { try $0.statement(statement) }
  }

  /// The checks of an INSERT of plain values, made exactly as ``check(_:parameters:rowidAvailable:)``
  /// makes them for the same rows written as literals (without parameters).
  static func checkInsert(
    into table: String, columns: [String], values: [[SqliteValue]], conflict: InsertStatement.ConflictResolution,
    rowidAvailable: () -> Bool
  ) throws {
    try check(parameters: [:], rowidAvailable: rowidAvailable) { walker in
      // Literal values need no walk.
      try walker.insert(
        table: table, columns: columns, rowCount: values.count, width: { values[$0].count }, conflict: conflict,
        walkValues: { _, _ in })
    }
  }

  /// The checks of ``checkInsert(into:columns:values:conflict:rowidAvailable:)`` that depend on
  /// the rows, for an insert whose shape (table, columns, conflict clause) passed them before.
  static func checkInsertRows(_ values: [[SqliteValue]], columnCount: Int) throws {
    try checkRowCount(values.count, columnCount: columnCount) { values[$0].count }
    var index = 0
    while index < values.count {
      try checkWidth(of: index, values[index].count, columnCount: columnCount)
      index += 1
    }
  }

  /// An insert has rows; one without columns has exactly one, empty.
  fileprivate static func checkRowCount(_ rowCount: Int, columnCount: Int, width: (Int) -> Int) throws {
    if columnCount == 0 {
      guard rowCount == 1, width(0) == 0 else {
        throw TandemError.misuse("an insert without columns inserts exactly one row of default values")
      }
    } else {
      guard rowCount > 0 else { throw TandemError.misuse("an insert needs at least one row") }
    }
  }

  /// Each row of an insert has one value per column.
  fileprivate static func checkWidth(of row: Int, _ count: Int, columnCount: Int) throws {
    guard count == columnCount || columnCount == 0 else {
      throw TandemError.misuse("insert row \(row + 1) has \(count) values for \(columnCount) columns")
    }
  }

  private static func check(
    parameters: [String: SqliteValue], rowidAvailable: () -> Bool, _ walk: (inout Walker) throws -> Void
  ) throws {
    var walker = Walker(parameters: parameters)
    do {
      try walk(&walker)
    } catch {
      // A rowid met before the failing node would have failed first.
      if walker.sawRowid && !rowidAvailable() { throw rowidError }
      throw error
    }
    if walker.sawRowid && !rowidAvailable() { throw rowidError }
    if walker.deepestNesting > nestingBudget && SQLTextMode.current == nil {
      throw EngineError.unsupported(
        "an expression nested too deeply to be sure SQLite's parser accepts it (its stack holds 100 entries)")
    }
    if let name = walker.firstMissing { throw TandemError.misuse("missing value for parameter :\(name)") }
  }

  /// How much of SQLite's parser stack (100 entries) an expression may use before the engine
  /// refuses it. The SQL the SQLite backend renders needs up to about 20 entries around an
  /// expression, and the per-operand costs in `Walker` were measured on SQLite 3.40's parser
  /// (e.g. 31 nested `abs(` fit, 32 overflow) and rounded up, so anything within budget certainly
  /// parses; deeper expressions might not, and are refused rather than guessed at.
  static let nestingBudget = 60

  /// Every parameter name in placeholder order (for a statement whose shape is known to be valid).
  static func placeholderNames(_ statement: Statement) -> [String] {
    var walker = Walker(parameters: [:])
    walker.collectsNames = true
    try? walker.statement(statement)
    return walker.names
  }

  /// Throws the misuse error for the first name (in placeholder order) without a value.
  static func checkParameters(_ names: [String], _ parameters: [String: SqliteValue]) throws {
    for name in names where parameters[name] == nil {
      throw TandemError.misuse("missing value for parameter :\(name)")
    }
  }

  private static var rowidError: TandemError {
    EngineError.unsupported("the rowid of a table whose columns are named rowid, _rowid_ and oid")
  }

  private struct Walker {
    let parameters: [String: SqliteValue]
    /// The first parameter, in placeholder order, without a value.
    var firstMissing: String?
    var sawRowid = false
    var collectsNames = false
    var names: [String] = []
    /// The largest parser-stack cost along any path from an expression's root to a leaf.
    var deepestNesting = 0
    private var nesting = 0

    init(parameters: [String: SqliteValue]) { self.parameters = parameters }

    mutating func statement(_ statement: Statement) throws {
      switch statement {
      case .select(let s):
        guard !s.columns.isEmpty else { throw TandemError.misuse("a select needs at least one result column") }
        for table in s.with?.tables ?? [] {
          try SQLName.check(table.name)
          try table.columns.forEach(SQLName.check)
          try self.statement(.select(table.select))
        }
        try s.columns.forEach { try expression($0) }
        try SQLName.check(s.table)
        try s.alias.map(SQLName.check)
        for join in s.joins {
          try SQLName.check(join.table)
          try join.alias.map(SQLName.check)
          try join.condition.map { try expression($0) }
        }
        try s.filter.map { try expression($0) }
        for term in s.compound { try self.statement(.select(term.select)) }
        try s.groupBy.forEach { try expression($0) }
        try s.having.map { try expression($0) }
        try s.orderBy.forEach { try expression($0.expression) }
        try s.limit.map { try expression($0) }
        try s.offset.map { try expression($0) }
      case .insert(let s):
        try insert(
          table: s.table, columns: s.columns, rowCount: s.rows.count, width: { s.rows[$0].count }, conflict: s.conflict
        ) { walker, index in
          for value in s.rows[index] {
            switch value {
            case .literal: continue
            default: try walker.expression(value)
            }
          }
        }
      case .update(let s):
        try SQLName.check(s.table)
        try assignments(s.assignments)
        try s.filter.map { try expression($0) }
      case .delete(let s):
        try SQLName.check(s.table)
        try s.filter.map { try expression($0) }
      }
    }

    /// An INSERT's table, row count, columns, row widths (`width(i)` of row i), values (walked by
    /// `walkValues` right after their row's width is checked) and conflict clause.
    mutating func insert(
      table: String, columns: [String], rowCount: Int, width: (Int) -> Int,
      conflict: InsertStatement.ConflictResolution, walkValues: (inout Walker, Int) throws -> Void
    ) throws {
      try SQLName.check(table)
      let columnCount = columns.count
      if columnCount == 0 {
        try StatementValidation.checkRowCount(rowCount, columnCount: 0, width: width)
        switch conflict {
        case .update, .nothing:
          throw TandemError.misuse("an insert without columns cannot have an ON CONFLICT clause")
        case .abort, .replace, .ignore:
          return
        }
      }
      try StatementValidation.checkRowCount(rowCount, columnCount: columnCount, width: width)
      try columns.forEach(SQLName.check)
      for index in 0..<rowCount {
        try StatementValidation.checkWidth(of: index, width(index), columnCount: columnCount)
        try walkValues(&self, index)
      }
      switch conflict {
      case .abort, .replace, .ignore:
        break
      case .nothing(let target):
        try target.forEach(SQLName.check)
      case .update(let target, let assignments):
        try target.forEach(SQLName.check)
        try self.assignments(assignments)
      }
    }

    private mutating func assignments(_ assignments: [Assignment]) throws {
      guard !assignments.isEmpty else { throw TandemError.misuse("an update needs at least one assignment") }
      for assignment in assignments {
        try SQLName.check(assignment.column)
        try expression(assignment.value)
      }
    }

    /// Walks `e` as an operand costing `cost` parser-stack entries in its parent.
    private mutating func operand(_ e: SQLExpression, cost: Int) throws {
      nesting += cost
      defer { nesting -= cost }
      try expression(e)
    }

    fileprivate mutating func expression(_ e: SQLExpression) throws {
      let leafCost: Int
      switch e {
      case .excluded: leafCost = 3
      default: leafCost = 1
      }
      deepestNesting = max(deepestNesting, nesting + leafCost)
      switch e {
      case .column(let name), .excluded(let name):
        try SQLName.check(name)
      case .qualifiedColumn(let source, let name):
        try SQLName.check(source)
        try SQLName.check(name)
      case .qualifiedRowid(let source):
        try SQLName.check(source)
      case .resultColumn:
        break
      case .subquery(let query), .exists(let query, _):
        nesting += 1
        defer { nesting -= 1 }
        try statement(.select(query))
      case .inSubquery(let value, let query, _):
        try operand(value, cost: 1)
        nesting += 1
        defer { nesting -= 1 }
        try statement(.select(query))
      case .literal:
        break
      case .rowid:
        sawRowid = true
      case .parameter(let name):
        if collectsNames { names.append(name) }
        if firstMissing == nil && parameters[name] == nil { firstMissing = name }
      case .unary(_, let operand), .cast(let operand, _):
        try self.operand(operand, cost: 2)
      case .isNull(let operand, _), .collate(let operand, _):
        try self.operand(operand, cost: 1)
      case .binary(_, let a, let b):
        try operand(a, cost: 1)
        try operand(b, cost: 5)
      case .function(let function, let arguments):
        guard function.arity.contains(arguments.count) else {
          throw TandemError.misuse(
            "function \(function.rawValue) does not take \(arguments.count) argument\(arguments.count == 1 ? "" : "s")")
        }
        for (index, argument) in arguments.enumerated() { try operand(argument, cost: index == 0 ? 3 : 6) }
      case .aggregate(let function, let argument, let distinct, let separator):
        if separator != nil, function != .groupConcat || argument == nil {
          throw TandemError.misuse("only group_concat takes a separator")
        }
        if let argument {
          try operand(argument, cost: 3)
          try separator.map { try operand($0, cost: 6) }
        } else if function != .count || distinct {
          throw TandemError.misuse(
            distinct ? "\(function.rawValue)(DISTINCT *) is not an aggregate" : "aggregate \(function.rawValue) needs an argument")
        }
      case .inList(let value, let list, _):
        try operand(value, cost: 1)
        for (index, item) in list.enumerated() { try operand(item, cost: index == 0 ? 5 : 7) }
      case .between(let value, let low, let high, _):
        try operand(value, cost: 1)
        try operand(low, cost: 5)
        try operand(high, cost: 6)
      case .like(let value, let pattern, let escape, _):
        try operand(value, cost: 1)
        try operand(pattern, cost: 5)
        try escape.map { try operand($0, cost: 6) }
      case .glob(let value, let pattern, _):
        try operand(value, cost: 1)
        try operand(pattern, cost: 5)
      case .caseWhen(let base, let branches, let otherwise):
        guard !branches.isEmpty else { throw TandemError.misuse("a CASE expression needs at least one WHEN branch") }
        try base.map { try operand($0, cost: 1) }
        for (index, branch) in branches.enumerated() {
          try operand(branch.when, cost: index == 0 ? 4 : 5)
          try operand(branch.then, cost: 7)
        }
        try otherwise.map { try operand($0, cost: 5) }
      }
    }
  }
}
