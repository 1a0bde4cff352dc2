import TandemCore

extension SelectStatement {
  /// Whether `SELECT count(*) FROM table WHERE filter` counts exactly the rows this statement
  /// returns, and fails exactly when it fails.
  ///
  /// That holds for a plain filtered select: no DISTINCT, GROUP BY, HAVING, aggregate, LIMIT or
  /// OFFSET, and result columns, ordering terms and filter that cannot fail on any row (see
  /// ``SQLExpression/cannotFail(parameters:)``) — an expression that may fail would fail in the
  /// full statement, or on other rows under another query plan, but not in the count. (A result
  /// column that names no column of the table is the one failure the count does not see.)
  ///
  /// ```swift
  /// Reminder.where { $0.title == "Milk" }.statement.countsAsCountStar(parameters: [:])    // true
  /// Reminder.all.select { $0.id.abs() }.statement.countsAsCountStar(parameters: [:])      // false
  /// ```
  func countsAsCountStar(parameters: [String: SqliteValue]) -> Bool {
    guard !distinct, joins.isEmpty, compound.isEmpty, groupBy.isEmpty, having == nil, !isAggregate, limit == nil, offset == nil else {
      return false
    }
    return columns.allSatisfy { $0.cannotFail(parameters: parameters) }
      && orderBy.allSatisfy { $0.expression.cannotFail(parameters: parameters) }
      && (filter?.cannotFail(parameters: parameters) ?? true)
  }
}

extension SQLExpression {
  /// Whether evaluating the expression can raise no error on any row, on any engine: columns,
  /// literals, parameters that have a value, comparisons, logic, arithmetic (SQLite turns an
  /// overflow into a REAL and a division by zero into NULL), IN, BETWEEN, IS NULL, CASE and
  /// COLLATE over such operands, and LIKE / GLOB with a literal pattern too short to be "too
  /// complex". Functions, casts, aggregates and `||` may fail, and are not counted as safe.
  func cannotFail(parameters: [String: SqliteValue]) -> Bool {
    func safe(_ expression: SQLExpression) -> Bool { expression.cannotFail(parameters: parameters) }
    switch self {
    case .column, .rowid, .literal, .qualifiedColumn, .qualifiedRowid:
      return true
    case .subquery, .exists, .inSubquery, .resultColumn:
      return false
    case .parameter(let name):
      return parameters[name] != nil
    case .unary(_, let operand):
      return safe(operand)
    case .binary(let op, let left, let right):
      return op != .concatenate && safe(left) && safe(right)
    case .inList(let operand, let list, _):
      return safe(operand) && list.allSatisfy(safe)
    case .between(let operand, let low, let high, _):
      return safe(operand) && safe(low) && safe(high)
    case .isNull(let operand, _), .collate(let operand, _):
      return safe(operand)
    case .caseWhen(let base, let branches, let otherwise):
      return (base.map(safe) ?? true) && branches.allSatisfy { safe($0.when) && safe($0.then) }
        && (otherwise.map(safe) ?? true)
    case .like(let operand, let pattern, let escape, _):
      return safe(operand) && Self.isShortTextLiteral(pattern, parameters)
        && (escape.map { Self.isSingleCharacterLiteral($0, parameters) } ?? true)
    case .glob(let operand, let pattern, _):
      return safe(operand) && Self.isShortTextLiteral(pattern, parameters)
    case .function, .aggregate, .cast, .excluded:
      return false
    }
  }

  /// The value of a literal, or of a parameter that has one.
  private static func value(_ expression: SQLExpression, _ parameters: [String: SqliteValue]) -> SqliteValue? {
    switch expression {
    case .literal(let value): value
    case .parameter(let name): parameters[name]
    default: nil
    }
  }

  /// A text pattern SQLite accepts on every row (at most 50,000 bytes, its LIKE/GLOB limit).
  private static func isShortTextLiteral(_ expression: SQLExpression, _ parameters: [String: SqliteValue]) -> Bool {
    guard case .text(let text)? = value(expression, parameters) else { return false }
    return text.utf8.count <= 50_000
  }

  /// An ESCAPE of exactly one character.
  private static func isSingleCharacterLiteral(_ expression: SQLExpression, _ parameters: [String: SqliteValue]) -> Bool {
    guard case .text(let text)? = value(expression, parameters) else { return false }
    // SQLite counts characters up to the first NUL: "\0" has none.
    return text.unicodeScalars.count == 1 && text.unicodeScalars.first != "\0"
  }
}
