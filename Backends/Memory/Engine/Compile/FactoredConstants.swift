import TandemCore

/// The constant parts of a statement SQLite may evaluate once, at the start of its program,
/// rather than where they are used — and the refusal of a statement where that could show.
///
/// SQLite's code generator moves a constant expression that calls no function out of the
/// loops, to run before anything else (`sqlite3ExprCodeRunJustOnce` with `okConstFactor`); one
/// that calls a function stays where it is, under `OP_Once`. It tells a call by a flag the parser
/// passes up to each node from its operands — except from a BETWEEN's bounds, which `parse.y`
/// attaches without passing their flags up. So, over an empty table or before an earlier row's
/// NOT NULL constraint fails,
///
/// ```sql
/// SELECT NOT (1 BETWEEN abs(-9223372036854775808) AND 2) FROM t  -- integer overflow, at the start
/// SELECT 1 + abs(-9223372036854775808) FROM t                    -- no error: never evaluated
/// ```
///
/// Whether such a BETWEEN moves depends on the code that reads it (an operator's operand does, a
/// result column's top does not), which the engine does not follow. It evaluates each one before
/// the statement runs instead: one that fails makes the statement refused (`.unsupported`); one
/// that does not has the same value wherever and whenever it is evaluated.
enum FactoredConstants {
  /// The BETWEENs of `statement`, at any depth, that SQLite may evaluate at its start: constant,
  /// with a function call in their bounds that the parser's flag does not show.
  static func candidates(in statement: Statement) -> [SQLExpression] {
    var found: [SQLExpression] = []
    func visit(_ expression: SQLExpression) {
      if case .between(let operand, let low, let high, _) = expression, !carriesCallFlag(operand),
        callsFunction(low) || callsFunction(high), isConstant(expression)
      {
        found.append(expression)
        return
      }
      switch expression {
      case .subquery(let query), .exists(let query, _):
        visit(query)
      case .inSubquery(let operand, let query, _):
        visit(operand)
        visit(query)
      default:
        expression.children.forEach(visit)
      }
    }
    func visit(_ query: SelectStatement) {
      query.expressionsWithCommonTables.forEach(visit)
    }
    switch statement {
    case .select(let select):
      visit(select)
    case .insert(let insert):
      insert.rows.joined().forEach(visit)
      if case .update(_, let assignments) = insert.conflict { assignments.map(\.value).forEach(visit) }
    case .update(let update):
      update.assignments.map(\.value).forEach(visit)
      update.filter.map(visit)
    case .delete(let delete):
      delete.filter.map(visit)
    }
    return found
  }

  /// Throws a refusal when one of `candidates` fails, its parameters taking `parameters`.
  static func refuseFailing(_ candidates: [SQLExpression], parameters: [String: SqliteValue]) throws {
    for candidate in candidates {
      let compiler = ExpressionCompiler(table: nil)
      // One that does not compile failed the statement's own compilation first.
      guard let compiled = try? compiler.compile(candidate) else { continue }
      var values: [SqliteValue] = []
      for name in compiler.parameterNames {
        guard let value = parameters[name] else { return }
        values.append(ValueOperations.bound(value))
      }
      do {
        try values.withUnsafeBufferPointer { bound in
          var context = EvaluationContext()
          context.parameters = bound.baseAddress
          _ = try compiled.evaluate(context)
        }
      } catch let error as TandemError where error.kind == .sqlite {
        throw EngineError.unsupported(
          "a constant BETWEEN whose bounds call a function that fails (SQLite evaluates it at the statement's start "
            + "or where it is used, as its code generator chooses)")
      }
    }
  }

  /// Whether SQLite's parser marks the expression as calling a function (`EP_HasFunc`): a call
  /// does, and every node takes the mark from its operands — a BETWEEN from its left one only.
  private static func carriesCallFlag(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .function, .aggregate, .like, .glob: true
    case .between(let operand, _, _, _): carriesCallFlag(operand)
    default: expression.children.contains(where: carriesCallFlag)
    }
  }

  /// Whether a function is called anywhere in the expression.
  private static func callsFunction(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .function, .aggregate, .like, .glob: true
    default: expression.children.contains(where: callsFunction)
    }
  }

  /// Whether the expression reads no column, row or subquery, and aggregates nothing: SQLite's
  /// `sqlite3ExprIsConstantNotJoin` (a parameter is constant for one run).
  private static func isConstant(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .column, .qualifiedColumn, .rowid, .qualifiedRowid, .excluded, .resultColumn, .subquery, .exists, .inSubquery,
      .aggregate:
      false
    default:
      expression.children.allSatisfy(isConstant)
    }
  }
}
