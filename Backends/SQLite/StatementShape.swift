import TandemCore

/// A statement with every literal value replaced by `NULL`: statements of the same shape render
/// to the same SQL text, since values are only ever bound, never written into it.
///
/// ```swift
/// // WHERE "id" = 1  and  WHERE "id" = 2  share one shape; their literals are [1] and [2].
/// let (shape, literals) = StatementShape.lifting(statement)
/// ```
struct StatementShape: Hashable {
  /// The statement with its literals nulled out.
  let statement: Statement

  /// Equal when the statements are equal: a statement of the same shape reuses its arrays, so
  /// the comparison mostly finds them identical without walking them.
  static func == (a: StatementShape, b: StatementShape) -> Bool { a.statement == b.statement }

  /// Hashes only the table and the statement's outline (kinds and counts), which is cheap and
  /// separates the shapes one table sees in practice; equality settles the rest.
  func hash(into hasher: inout Hasher) {
    switch statement {
    case .select(let select):
      hasher.combine(0)
      hasher.combine(select.table)
      hasher.combine(select.joins.count)
      hasher.combine(select.compound.count)
      hasher.combine(select.with?.tables.count ?? 0)
      hasher.combine(select.columns.count)
      hasher.combine(select.distinct)
      hasher.combine(select.filter == nil)
      hasher.combine(select.groupBy.count)
      hasher.combine(select.having == nil)
      hasher.combine(select.orderBy.count)
      hasher.combine(select.limit == nil)
      hasher.combine(select.offset == nil)
    case .insert(let insert):
      hasher.combine(1)
      hasher.combine(insert.table)
      hasher.combine(insert.columns.count)
      hasher.combine(insert.rows.count)
    case .update(let update):
      hasher.combine(2)
      hasher.combine(update.table)
      hasher.combine(update.assignments.count)
      hasher.combine(update.filter == nil)
    case .delete(let delete):
      hasher.combine(3)
      hasher.combine(delete.table)
      hasher.combine(delete.filter == nil)
    }
  }

  /// The shape of `statement` and its literal values in the order the renderer binds them.
  static func lifting(_ statement: Statement) -> (shape: StatementShape, literals: [SqliteValue]) {
    var lifter = LiteralLifter()
    let shaped: Statement
    switch statement {
    case .select(let select): shaped = .select(lifter.lift(select))
    case .insert(let insert): shaped = .insert(lifter.lift(insert))
    case .update(let update): shaped = .update(lifter.lift(update))
    case .delete(let delete): shaped = .delete(lifter.lift(delete))
    }
    return (StatementShape(statement: shaped), lifter.literals)
  }
}

/// Walks a statement in the renderer's order, collecting literal values and nulling them out.
///
/// Subtrees without literals are returned as they are, so a literal-free statement is not copied.
private struct LiteralLifter {
  var literals: [SqliteValue] = []
  /// One shared `NULL` literal, so that lifting allocates no expression box per literal.
  private static let nullLiteral = SQLExpression.literal(.null)

  mutating func lift(_ select: SelectStatement) -> SelectStatement {
    var select = select
    // A WITH clause is written first.
    if var clause = select.with {
      clause.tables = clause.tables.map { table in
        var table = table
        table.select = lift(table.select)
        return table
      }
      select.with = clause
    }
    select.columns = lift(select.columns)
    // Literals are collected in the order the renderer binds them: join conditions follow the
    // result columns.
    if select.joins.contains(where: { $0.condition?.containsLiteral == true }) {
      select.joins = select.joins.map { join in
        var join = join
        join.condition = lift(join.condition)
        return join
      }
    }
    select.filter = lift(select.filter)
    select.groupBy = lift(select.groupBy)
    select.having = lift(select.having)
    // A compound's members come before its ORDER BY and LIMIT.
    select.compound = select.compound.map { CompoundTerm($0.operator, lift($0.select)) }
    if select.orderBy.contains(where: { $0.expression.containsLiteral }) {
      select.orderBy = select.orderBy.map { term in
        var term = term
        term.expression = lift(term.expression)
        return term
      }
    }
    select.limit = lift(select.limit)
    select.offset = lift(select.offset)
    return select
  }

  mutating func lift(_ insert: InsertStatement) -> InsertStatement {
    var insert = insert
    if insert.rows.contains(where: { $0.contains(where: \.containsLiteral) }) {
      insert.rows = insert.rows.map { lift($0) }
    }
    if case .update(let target, let assignments) = insert.conflict {
      insert.conflict = .update(target: target, assignments: lift(assignments))
    }
    return insert
  }

  mutating func lift(_ update: UpdateStatement) -> UpdateStatement {
    var update = update
    update.assignments = lift(update.assignments)
    update.filter = lift(update.filter)
    return update
  }

  mutating func lift(_ delete: DeleteStatement) -> DeleteStatement {
    var delete = delete
    delete.filter = lift(delete.filter)
    return delete
  }

  private mutating func lift(_ assignments: [Assignment]) -> [Assignment] {
    guard assignments.contains(where: { $0.value.containsLiteral }) else { return assignments }
    return assignments.map { Assignment(column: $0.column, value: lift($0.value)) }
  }

  private mutating func lift(_ expressions: [SQLExpression]) -> [SQLExpression] {
    guard expressions.contains(where: \.containsLiteral) else { return expressions }
    return expressions.map { lift($0) }
  }

  private mutating func lift(_ expression: SQLExpression?) -> SQLExpression? {
    expression.map { lift($0) }
  }

  private mutating func lift(_ expression: SQLExpression) -> SQLExpression {
    switch expression {
    case .column, .rowid, .excluded, .parameter, .qualifiedColumn, .qualifiedRowid, .resultColumn:
      return expression
    case .literal(let value):
      literals.append(value)
      return Self.nullLiteral
    default:
      guard expression.containsLiteral else { return expression }
    }
    switch expression {
    case .column, .rowid, .excluded, .parameter, .literal, .qualifiedColumn, .qualifiedRowid, .resultColumn:
      return expression
    case .subquery(let query):
      return .subquery(lift(query))
    case .exists(let query, let negated):
      return .exists(lift(query), negated: negated)
    case .inSubquery(let operand, let query, let negated):
      let operand = lift(operand)
      return .inSubquery(operand, lift(query), negated: negated)
    case .unary(let op, let operand):
      return .unary(op, lift(operand))
    case .binary(let op, let left, let right):
      let left = lift(left)
      return .binary(op, left, lift(right))
    case .function(let function, let arguments):
      return .function(function, lift(arguments))
    case .aggregate(let function, let argument, let distinct, let separator):
      let argument = lift(argument)
      return .aggregate(function, argument, distinct: distinct, separator: lift(separator))
    case .cast(let operand, let type):
      return .cast(lift(operand), as: type)
    case .inList(let operand, let list, let negated):
      let operand = lift(operand)
      return .inList(operand, lift(list), negated: negated)
    case .between(let operand, let low, let high, let negated):
      let operand = lift(operand)
      let low = lift(low)
      return .between(operand, low, lift(high), negated: negated)
    case .like(let operand, let pattern, let escape, let negated):
      let operand = lift(operand)
      let pattern = lift(pattern)
      return .like(operand, pattern: pattern, escape: lift(escape), negated: negated)
    case .glob(let operand, let pattern, let negated):
      let operand = lift(operand)
      return .glob(operand, pattern: lift(pattern), negated: negated)
    case .isNull(let operand, let negated):
      return .isNull(lift(operand), negated: negated)
    case .caseWhen(let base, let branches, let otherwise):
      let base = lift(base)
      let branches = branches.map { branch in
        let when = lift(branch.when)
        return CaseBranch(when: when, then: lift(branch.then))
      }
      return .caseWhen(base: base, branches: branches, else: lift(otherwise))
    case .collate(let operand, let collation):
      return .collate(lift(operand), collation)
    }
  }
}

extension SQLExpression {
  /// Whether a literal appears anywhere in the expression.
  var containsLiteral: Bool {
    switch self {
    case .literal: true
    case .column, .rowid, .excluded, .parameter, .qualifiedColumn, .qualifiedRowid, .resultColumn: false
    case .subquery(let query), .exists(let query, _): query.containsLiteral
    case .inSubquery(let e, let query, _): e.containsLiteral || query.containsLiteral
    case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): e.containsLiteral
    case .aggregate(_, let e, _, let separator): (e?.containsLiteral ?? false) || (separator?.containsLiteral ?? false)
    case .binary(_, let a, let b), .glob(let a, let b, _): a.containsLiteral || b.containsLiteral
    case .function(_, let args): args.contains(where: \.containsLiteral)
    case .inList(let e, let list, _): e.containsLiteral || list.contains(where: \.containsLiteral)
    case .between(let a, let b, let c, _): a.containsLiteral || b.containsLiteral || c.containsLiteral
    case .like(let a, let b, let c, _): a.containsLiteral || b.containsLiteral || (c?.containsLiteral ?? false)
    case .caseWhen(let base, let branches, let otherwise):
      (base?.containsLiteral ?? false)
        || branches.contains { $0.when.containsLiteral || $0.then.containsLiteral }
        || (otherwise?.containsLiteral ?? false)
    }
  }
}

extension SelectStatement {
  /// Whether a literal appears anywhere in the select, its compound members included.
  var containsLiteral: Bool {
    expressions.contains(where: \.containsLiteral) || compound.contains { $0.select.containsLiteral }
      || (with?.tables.contains { $0.select.containsLiteral } ?? false)
  }
}
