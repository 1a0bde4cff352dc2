import Foundation
import Tandem

/// Conditions whose answer depends on SQLite's plan: a term SQLite can answer through the rowid
/// or an index (`=`, IN, an OR of `=`, ranges, a GLOB or LIKE prefix, IS NULL) beside an
/// expression that fails on some rows (`abs()` of the smallest integer). A seek never evaluates
/// the failing expression on the rows it skips, a scan does, and the order rows are visited in
/// decides which error comes first: the memory engine must do what SQLite's plan does.
extension ExpressionGenerator {
  /// The smallest integer, whose `abs()` is an integer overflow.
  static let overflowing = SQLExpression.literal(.integer(.min))

  /// The columns SQLite can seek: the rowid (through its alias, if any) and the table's
  /// ``TableSchema/seekableKeys``.
  var seekableColumns: [SQLExpression] {
    [table.rowidColumn.map { .column($0.name) } ?? .rowid] + table.seekableKeys.map { .column($0.name) }
  }

  /// A filter whose answer depends on the plan: a seekable term (or an OR of two, which SQLite
  /// may run as a MULTI-INDEX OR) and a condition that fails on some rows, joined by AND in
  /// either order, sometimes with a third, random condition.
  mutating func plannedFilter() -> SQLExpression {
    var terms: [SQLExpression] = [
      random.chance(0.15)
        ? .binary(.or, seekableTerm(), seekableTerm()) : seekableTerm(),
      hazardCondition(),
    ]
    if random.chance(0.2) { terms.append(predicate(depth: random.int(0...1))) }
    terms.shuffle(using: &random)
    return terms.dropFirst().reduce(terms[0]) { .binary(.and, $0, $1) }
  }

  /// A condition SQLite can answer through the rowid or an index.
  mutating func seekableTerm() -> SQLExpression {
    let key = random.pick(seekableColumns)
    switch random.weighted([(5, 0), (3, 1), (2, 2), (4, 3), (2, 4), (1, 5), (2, 6), (1, 7), (2, 8), (1, 9)]) {
    case 0:
      let value = seekValue(for: key)
      return random.chance(0.2) ? .binary(.equal, value, key) : .binary(.equal, key, value)
    case 1:
      return .inList(key, (0..<random.int(1...3)).map { _ in seekValue(for: key) }, negated: false)
    case 2:
      return .binary(.or, .binary(.equal, key, seekValue(for: key)), .binary(.equal, key, seekValue(for: key)))
    case 3:
      let op = random.pick([BinaryOperator.less, .lessOrEqual, .greater, .greaterOrEqual])
      return .binary(op, key, seekValue(for: key))
    case 4:
      let lower = BinaryOperator.greater, upper = random.pick([BinaryOperator.less, .lessOrEqual])
      return .binary(.and, .binary(lower, key, seekValue(for: key)), .binary(upper, key, seekValue(for: key)))
    case 5:
      return .between(key, seekValue(for: key), seekValue(for: key), negated: false)
    case 6:
      return .glob(key, pattern: prefixPattern(for: key, wildcard: "*"), negated: false)
    case 7:
      return .like(key, pattern: prefixPattern(for: key, wildcard: "%"), escape: nil, negated: false)
    case 8:
      return .isNull(key, negated: random.chance(0.2))
    default:
      return .binary(.is, key, seekValue(for: key))
    }
  }

  /// A condition that fails with "integer overflow" on some rows.
  mutating func hazardCondition() -> SQLExpression {
    let hazard = overflowHazard()
    switch random.weighted([(3, 0), (2, 1), (1, 2), (1, 3)]) {
    case 0: return .binary(.greater, hazard, .literal(0))
    case 1: return .isNull(hazard, negated: true)
    case 2: return .binary(.notEqual, hazard, .literal(-1))
    default: return .binary(.greaterOrEqual, hazard, .literal(.text("0")))
    }
  }

  /// An expression that fails with "integer overflow" on some rows: `abs()` of a column (which
  /// may hold the smallest integer), or `abs()` of the smallest integer on exactly the rows where
  /// a column holds a value the table is known to hold.
  mutating func overflowHazard() -> SQLExpression {
    let column = random.pick(table.columns)
    if random.chance(0.4) {
      let integers = table.columns.filter { $0.type.storage == .integer }
      return .function(.abs, [.column(random.pick(integers.isEmpty ? table.columns : integers).name)])
    }
    let value = seekValue(for: .column(column.name))
    let branch = CaseBranch(when: .binary(.equal, .column(column.name), value), then: Self.overflowing)
    return .function(.abs, [.caseWhen(base: nil, branches: [branch], else: random.chance(0.5) ? .literal(0) : nil)])
  }

  /// A constant for a term on `key`: usually a value the table is known to hold in that column
  /// (the rowid: a small integer), sometimes a nasty one, sometimes bound as a parameter.
  mutating func seekValue(for key: SQLExpression) -> SQLExpression {
    let value: SqliteValue
    let known = knownValues(of: key)
    if !known.isEmpty && random.chance(0.7) {
      value = random.pick(known)
    } else if case .rowid = key {
      value = .integer(Int64(random.int(-1...6)))
    } else {
      value = NastyValues.any(&random, preferring: declaredType(of: key))
    }
    return random.chance(0.15) ? parameter(value) : .literal(value)
  }

  /// A GLOB or LIKE pattern made of a known value's first characters and a trailing wildcard,
  /// the shape SQLite turns into a range on an index.
  private mutating func prefixPattern(for key: SQLExpression, wildcard: String) -> SQLExpression {
    let texts = knownValues(of: key).compactMap { value -> String? in
      if case .text(let text) = value { return text }
      return nil
    }
    let source = texts.isEmpty || random.chance(0.2) ? random.pick(NastyValues.texts) : random.pick(texts)
    let pattern = String(source.prefix(random.int(0...2))) + wildcard
    return random.chance(0.15) ? parameter(.text(pattern)) : .literal(.text(pattern))
  }

  /// The values the table is known to hold in `key`'s column (the rowid alias's, for the rowid).
  private func knownValues(of key: SQLExpression) -> [SqliteValue] {
    switch key {
    case .column(let name): knownValues[name] ?? []
    case .rowid: table.rowidColumn.flatMap { knownValues[$0.name] } ?? []
    default: []
    }
  }

  /// The declared type of `key`'s column (INTEGER for the rowid).
  private func declaredType(of key: SQLExpression) -> SqliteTypeName? {
    guard case .column(let name) = key else { return .integer }
    return table.columns.first { $0.name == name }?.type
  }
}
