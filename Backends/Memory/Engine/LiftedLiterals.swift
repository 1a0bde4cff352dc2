import TandemCore

/// A relational select with the values its WHERE and ON clauses compare columns with lifted out
/// as parameters, so that one compiled plan (``PlanCache/RelationalPlan``) serves every value:
/// the typed API writes a Swift value into the query as a literal, and a loop over names or ids
/// builds the same join with another literal on every call.
///
/// It changes nothing SQLite sees: the SQLite backend binds every literal of a typed statement
/// as a `?` parameter, so SQLite compares the column with a bound value either way. Only a
/// non-NULL literal compared (`=`, `<>`, `<`, `<=`, `>`, `>=`, `IS`, `IS NOT`) with a column is
/// lifted, where the comparison is a term of the condition (under AND, OR and NOT): the literals
/// the engine reads while it compiles (ORDER BY and GROUP BY ordinals, LIKE patterns, `abs()`
/// arguments, LIMIT) stay where they are.
///
/// ```swift
/// // WHERE "lists"."name" = 'Work'  →  WHERE "lists"."name" = :<lifted 0>, with <lifted 0> = 'Work'
/// let lifted = LiftedLiterals(statement)
/// ```
struct LiftedLiterals {
  /// The statement with the lifted literals replaced by parameters.
  private(set) var statement: SelectStatement
  /// The lifted values, by the names of the parameters that replaced them.
  private(set) var values: [(name: String, value: SqliteValue)] = []

  /// Lifts the compared literals of `statement`; one whose own parameter names could be taken
  /// for a lifted one is left as it is.
  init(_ statement: SelectStatement) {
    self.statement = statement
    guard !Self.namesParameterLikeALiftedOne(statement) else { return }
    if let filter = statement.filter { self.statement.filter = lift(filter) }
    for index in statement.joins.indices {
      if let condition = statement.joins[index].condition { self.statement.joins[index].condition = lift(condition) }
    }
  }

  /// The name of the `index`th lifted value: it starts with a NUL character, which a statement's
  /// own parameter names are checked not to (``namesParameterLikeALiftedOne(_:)``).
  private static func name(_ index: Int) -> String {
    index < names.count ? names[index] : "\u{0}\(index)"
  }

  private static let names = (0..<16).map { "\u{0}\($0)" }

  private mutating func lift(_ condition: SQLExpression) -> SQLExpression {
    switch condition {
    case .binary(let op, let lhs, let rhs) where op == .and || op == .or:
      return .binary(op, lift(lhs), lift(rhs))
    case .unary(.not, let operand):
      return .unary(.not, lift(operand))
    case .binary(let op, let lhs, let rhs) where ComparisonOperator(op) != nil:
      if Self.isColumn(lhs), case .literal(let value) = rhs, !value.isNull { return .binary(op, lhs, lifting(value)) }
      if Self.isColumn(rhs), case .literal(let value) = lhs, !value.isNull { return .binary(op, lifting(value), rhs) }
      return condition
    default:
      return condition
    }
  }

  private mutating func lifting(_ value: SqliteValue) -> SQLExpression {
    let name = Self.name(values.count)
    values.append((name, value))
    return .parameter(name)
  }

  private static func isColumn(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .column, .qualifiedColumn: true
    default: false
    }
  }

  private static func namesParameterLikeALiftedOne(_ statement: SelectStatement) -> Bool {
    func names(_ expression: SQLExpression) -> Bool {
      if case .parameter(let name) = expression { return name.utf8.first == 0 }
      return expression.children.contains(where: names)
    }
    return statement.expressions.contains(where: names)
  }
}
