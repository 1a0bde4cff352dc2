import TandemCore

/// The rewrites SQLite's parser makes before names are resolved, which change what an
/// expression means or whether its operands are ever read.
extension ExpressionCompiler {
  /// The expression without COLLATE wrappers (SQLite's `sqlite3ExprSkipCollate`).
  static func withoutCollate(_ expression: SQLExpression) -> SQLExpression {
    if case .collate(let inner, _) = expression { return withoutCollate(inner) }
    return expression
  }

  /// Whether SQLite's `sqlite3ExprCompare` can find two occurrences of `expression` equal. The
  /// SQLite backend binds every literal and parameter to its own `?` placeholder, and distinct
  /// placeholders never compare equal, so an expression holding one matches nothing but itself.
  static func isComparable(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .literal, .parameter: return false
    case .column, .rowid, .excluded: return true
    case .aggregate(_, let argument, _): return argument.map(isComparable) ?? true
    case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): return isComparable(e)
    case .binary(_, let a, let b): return isComparable(a) && isComparable(b)
    case .function(_, let arguments): return arguments.allSatisfy(isComparable)
    case .inList(let e, let list, _): return isComparable(e) && list.allSatisfy(isComparable)
    case .between(let a, let b, let c, _): return isComparable(a) && isComparable(b) && isComparable(c)
    case .like(let a, let b, let c, _): return isComparable(a) && isComparable(b) && (c.map(isComparable) ?? true)
    case .glob(let a, let b, _): return isComparable(a) && isComparable(b)
    case .caseWhen(let base, let branches, let otherwise):
      return (base.map(isComparable) ?? true) && branches.allSatisfy { isComparable($0.when) && isComparable($0.then) }
        && (otherwise.map(isComparable) ?? true)
    }
  }

  /// The TRUE or FALSE an `x IN ()` / `x NOT IN ()` (maybe under COLLATE) stands for, which makes
  /// `y IS (…)` SQLite's truth test `y IS TRUE` / `y IS FALSE`.
  static func truthConstant(_ expression: SQLExpression) -> Bool? {
    if case .inList(_, let list, let negated) = withoutCollate(expression), list.isEmpty { return negated }
    return nil
  }

  /// SQLite's parser turns `x IN (c)` with one constant element into `x = +c` (and NOT IN into
  /// its negation), which compares with the `=` rules, collation included.
  static func singleValueIn(_ operand: SQLExpression, _ list: [SQLExpression], negated: Bool) -> SQLExpression? {
    guard list.count == 1, isParseConstant(list[0]) else { return nil }
    let equal = SQLExpression.binary(.equal, operand, .unary(.plus, list[0]))
    return negated ? .unary(.not, equal) : equal
  }

  /// SQLite's parse-time `sqlite3ExprIsConstant`: no column, rowid, function or aggregate.
  private static func isParseConstant(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .literal, .parameter: return true
    case .column, .rowid, .excluded, .function, .aggregate: return false
    case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): return isParseConstant(e)
    case .binary(_, let a, let b): return isParseConstant(a) && isParseConstant(b)
    case .inList(let e, let list, _): return isParseConstant(e) && list.allSatisfy(isParseConstant)
    case .between(let a, let b, let c, _): return isParseConstant(a) && isParseConstant(b) && isParseConstant(c)
    // LIKE and GLOB are function calls.
    case .like, .glob: return false
    case .caseWhen(let base, let branches, let otherwise):
      return (base.map(isParseConstant) ?? true)
        && branches.allSatisfy { isParseConstant($0.when) && isParseConstant($0.then) }
        && (otherwise.map(isParseConstant) ?? true)
    }
  }

  /// Whether SQLite's parser folds the expression to the integer 0: an AND with an operand that
  /// is always false (`x IN ()`, or such a folded AND). Its operands are then never read.
  static func foldsToZero(_ expression: SQLExpression) -> Bool {
    guard case .binary(.and, let lhs, let rhs) = expression else { return false }
    return isAlwaysFalse(lhs) || isAlwaysFalse(rhs)
  }

  /// Whether SQLite reads the expression as an integer constant (`sqlite3ExprIsInteger`): a folded
  /// AND, possibly under unary `+` or `-`. As an ORDER BY or GROUP BY term it is then an ordinal.
  static func isFoldedInteger(_ expression: SQLExpression) -> Bool {
    if case .unary(let op, let inner) = expression, op == .plus || op == .negate { return isFoldedInteger(inner) }
    return foldsToZero(expression)
  }

  private static func isAlwaysFalse(_ expression: SQLExpression) -> Bool {
    if case .inList(_, let list, negated: false) = expression, list.isEmpty { return true }
    return foldsToZero(expression)
  }
}
