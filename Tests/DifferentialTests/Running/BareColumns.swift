import Tandem

extension SelectStatement {
  /// Whether an aggregate query shows a column outside any aggregate and any group key: a
  /// "bare column", whose row SQLite leaves unspecified (its choice follows the query plan,
  /// e.g. the order of a covering index it decides to scan).
  var hasBareColumn: Bool {
    guard isAggregate else { return false }
    let keys = Set(groupBy)
    func bare(_ expression: SQLExpression) -> Bool {
      if keys.contains(expression) { return false }
      switch expression {
      case .aggregate: return false
      case .column, .rowid: return true
      default: return expression.children.contains(where: bare)
      }
    }
    return (columns + [having].compactMap { $0 } + orderBy.map(\.expression)).contains(where: bare)
  }
}
