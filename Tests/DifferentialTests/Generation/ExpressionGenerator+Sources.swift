import Tandem

/// Leaves of relational statements: columns and rowids of several sources, named by alias, and
/// columns of the query levels around a subquery (correlated references).
extension ExpressionGenerator {
  /// Whether ``subquery`` may be called here (never in VALUES, which cannot hold one).
  var makesSubqueries: Bool {
    if case .constant = mode { return false }
    return subquery != nil
  }

  /// A column of the statement's table, or in a relational statement a column of one of its
  /// sources: usually qualified, sometimes of a level around it, sometimes by bare name (which
  /// SQLite resolves innermost level first, or finds ambiguous).
  mutating func columnLeaf() -> SQLExpression {
    guard !sources.isEmpty else { return .column(random.pick(table.columns).name) }
    let pool = !outerSources.isEmpty && random.chance(insideAggregate ? 0.03 : 0.25) ? outerSources : sources
    let source = random.pick(pool)
    let name = random.pick(source.table.columns).name
    return random.chance(0.06) ? .column(name) : .qualifiedColumn(source: source.alias, name: name)
  }

  /// The rowid of one of the sources (unqualified only where it is not ambiguous, mostly).
  mutating func relationalRowid() -> SQLExpression {
    if sources.count == 1 && random.chance(0.3) { return .rowid }
    let pool = !outerSources.isEmpty && random.chance(insideAggregate ? 0.03 : 0.2) ? outerSources : sources
    return .qualifiedRowid(source: random.pick(pool).alias)
  }
}
