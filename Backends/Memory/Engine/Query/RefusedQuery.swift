import TandemCore

/// Stands for a subquery the memory engine refused while the rest of its statement compiles
/// (see ``ExpressionCompiler/pendingRefusal``): the statement is refused once compiled, and
/// running this query would throw the refusal.
final class RefusedQuery: RowSource, @unchecked Sendable {
  private let refusal: TandemError
  let parameterNames: [String]
  let columnCount: Int
  let firstColumn = CompiledExpression(
    evaluate: { _ in .null }, affinity: .none, collation: nil, hasExplicitCollation: false, isConstant: false)

  init(_ query: SelectStatement, refusal: TandemError, parameterNames: [String]) {
    self.refusal = refusal
    self.parameterNames = parameterNames
    columnCount = query.columns.count
  }

  var isCorrelated: Bool { true }
  var mayComeInPlanOrder: Bool { false }
  var holdsCorrelatedSubquery: Bool { true }
  var resultAffinities: [Affinity] { Array(repeating: .none, count: columnCount) }
  var resultCollations: [Collation?] { Array(repeating: nil, count: columnCount) }

  func forEachRow(_ outer: EvaluationContext, _ body: ([SqliteValue]) throws -> Bool) throws { throw refusal }
}
