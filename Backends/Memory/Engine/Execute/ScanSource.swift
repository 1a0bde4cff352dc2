import TandemCore

/// Where a statement's ``TableScan`` comes from: planned once when it is compiled, or — when
/// SQLite's plan depends on the value bound to a LIKE or GLOB pattern, which SQLite reads and
/// prepares the statement again for — planned for each run with the values bound then.
///
/// ```swift
/// let source = try ScanSource(filter: statement.filter, table: definition, request: request, compiler: compiler)
/// let scan = try source.scan(context)
/// ```
struct ScanSource: Sendable {
  /// The scan, when the plan does not depend on bound values.
  let fixed: TableScan?
  private let filter: SQLExpression?
  private let table: TableDefinition
  private let request: WherePlan.Request
  private let parameterNames: [String]
  private let readsFixedColumns: Bool
  private let rowWidth: Int?
  private let skipsDuplicates: Bool
  private let tracksChanges: Bool

  /// Plans `filter` and compiles its scan with the statement's compiler.
  init(
    filter: SQLExpression?, table: TableDefinition, request: WherePlan.Request, compiler: ExpressionCompiler,
    skipsDuplicates: Bool = true, tracksChanges: Bool = false, rowWidth: Int? = nil
  ) throws {
    var request = request
    // Literal patterns are known now; a parameter's value only when the statement runs.
    request.patternValue = { expression in
      if case .literal(let value) = expression { return value }
      return nil
    }
    let plan = WherePlan(filter: filter, table: table, request: request)
    let scan = try TableScan(
      plan, compiler: compiler, skipsDuplicates: skipsDuplicates, tracksChanges: tracksChanges, rowWidth: rowWidth)
    self.rowWidth = rowWidth
    self.filter = filter
    self.table = table
    self.request = request
    self.skipsDuplicates = skipsDuplicates
    self.tracksChanges = tracksChanges
    parameterNames = compiler.parameterNames
    readsFixedColumns = compiler.readsFixedColumns
    fixed = filter.map(Self.hasParameterPattern) == true ? nil : scan
  }

  /// Whether a LIKE or GLOB in the expression takes its pattern from a named parameter.
  private static func hasParameterPattern(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .like(_, let pattern, _, _), .glob(_, let pattern, _):
      if case .parameter = pattern.withoutCollate { return true }
    default:
      break
    }
    return expression.children.contains(where: hasParameterPattern)
  }

  /// The scan for one run: the fixed one, or one planned with the parameter values of `context`.
  func scan(_ context: EvaluationContext) throws -> TableScan {
    if let fixed { return fixed }
    var bound: [String: SqliteValue] = [:]
    if let parameters = context.parameters {
      for (slot, name) in parameterNames.enumerated() { bound[name] = parameters[slot] }
    }
    let values = bound
    var request = self.request
    request.patternValue = { expression in
      switch expression {
      case .literal(let value): return value
      case .parameter(let name): return values[name]
      default: return nil
      }
    }
    let plan = WherePlan(filter: filter, table: table, request: request)
    let compiler = ExpressionCompiler(table: table, parameterNames: parameterNames)
    compiler.readsFixedColumns = readsFixedColumns
    return try TableScan(
      plan, compiler: compiler, skipsDuplicates: skipsDuplicates, tracksChanges: tracksChanges, rowWidth: rowWidth)
  }
}
