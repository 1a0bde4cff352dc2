import TandemCore

/// The rewrites SQLite's parser makes before names are resolved, which change what an
/// expression means or whether its operands are ever read.
extension ExpressionCompiler {
  /// Whether SQLite's `sqlite3ExprCompare` can find two occurrences of `expression` equal. The
  /// SQLite backend binds every literal and parameter to its own `?` placeholder, and distinct
  /// placeholders never compare equal, so an expression holding one matches nothing but itself.
  static func isComparable(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .literal, .parameter: return false
    case .column, .rowid, .excluded, .qualifiedColumn, .qualifiedRowid: return true
    // SQLite compares subqueries by identity: two occurrences never match.
    case .subquery, .exists, .inSubquery, .resultColumn: return false
    case .aggregate(_, let argument, _, let separator):
      return (argument.map(isComparable) ?? true) && (separator.map(isComparable) ?? true)
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

  /// The form in which `sqlite3ExprCompare` sees an expression of this compiler's table: column
  /// references by position (the rowid alias and the rowid's names as the rowid), or `nil` when
  /// it holds a placeholder and so equals no other occurrence (see ``isComparable(_:)``).
  func comparisonKey(_ expression: SQLExpression) -> SQLExpression? {
    guard Self.isComparable(expression) else { return nil }
    return canonical(expression)
  }

  /// `expression` with column references resolved: by position, the alias and the rowid's names
  /// as the rowid. In a query of several sources (or levels), a reference is the source and
  /// column it resolves to, however it is spelled (`"t"."n"` and `"n"` alike), as SQLite compares
  /// resolved columns (`sqlite3ExprCompare`: cursor and column).
  func canonical(_ expression: SQLExpression) -> SQLExpression {
    switch expression {
    case .column, .qualifiedColumn, .rowid, .qualifiedRowid:
      if let scope, let reference = scope.reference(to: expression) {
        let column = reference.isRowid ? "rowid" : reference.column.map(String.init) ?? "rowid"
        return .column("#\(reference.depth).\(reference.source).\(column)")
      }
      guard case .column(let name) = expression, let table else { return expression }
      if let index = table.columnIndex(name) { return index == table.rowidColumn ? .rowid : .column("#\(index)") }
      return NameKey(name).isRowidName ? .rowid : expression
    case .excluded, .literal, .parameter, .subquery, .exists, .inSubquery, .resultColumn:
      return expression
    case .aggregate(let function, let argument, let distinct, let separator):
      return .aggregate(function, argument.map(canonical), distinct: distinct, separator: separator.map(canonical))
    case .unary(let op, let e): return .unary(op, canonical(e))
    case .cast(let e, let type): return .cast(canonical(e), as: type)
    case .isNull(let e, let negated): return .isNull(canonical(e), negated: negated)
    case .collate(let e, let collation): return .collate(canonical(e), collation)
    case .binary(let op, let a, let b): return .binary(op, canonical(a), canonical(b))
    case .function(let function, let arguments): return .function(function, arguments.map(canonical))
    case .inList(let e, let list, let negated): return .inList(canonical(e), list.map(canonical), negated: negated)
    case .between(let a, let b, let c, let negated): return .between(canonical(a), canonical(b), canonical(c), negated: negated)
    case .like(let a, let b, let c, let negated): return .like(canonical(a), pattern: canonical(b), escape: c.map(canonical), negated: negated)
    case .glob(let a, let b, let negated): return .glob(canonical(a), pattern: canonical(b), negated: negated)
    case .caseWhen(let base, let branches, let otherwise):
      return .caseWhen(
        base: base.map(canonical), branches: branches.map { CaseBranch(when: canonical($0.when), then: canonical($0.then)) },
        else: otherwise.map(canonical))
    }
  }

  /// The TRUE or FALSE an `x IN ()` / `x NOT IN ()` (maybe under COLLATE) stands for, which makes
  /// `y IS (…)` SQLite's truth test `y IS TRUE` / `y IS FALSE`.
  static func truthConstant(_ expression: SQLExpression) -> Bool? {
    if case .inList(_, let list, let negated) = expression.withoutCollate, list.isEmpty { return negated }
    return nil
  }

  /// The constant false a folded expression stands for, written as the parser's `x IN ()` with
  /// nothing to read.
  static let foldedFalse = SQLExpression.inList(.literal(.null), [], negated: false)

  /// Whether the expression is ``foldedFalse``.
  static func isFoldedFalse(_ expression: SQLExpression) -> Bool { expression == foldedFalse }

  /// Whether SQLite's parser folds the expression to the integer 0 (``SQLExpression/foldsToZero``).
  static func foldsToZero(_ expression: SQLExpression) -> Bool { expression.foldsToZero }

  /// Whether SQLite reads the expression as an integer constant (`sqlite3ExprIsInteger`): a folded
  /// AND, possibly under unary `+` or `-`. As an ORDER BY or GROUP BY term it is then an ordinal.
  static func isFoldedInteger(_ expression: SQLExpression) -> Bool {
    if case .unary(let op, let inner) = expression, op == .plus || op == .negate { return isFoldedInteger(inner) }
    return foldsToZero(expression)
  }

  /// Whether SQLite marks the expression always false once names are resolved: the parser's
  /// (``isAlwaysFalse(_:)``), and `x IS NULL` where x cannot be NULL (a NOT NULL column or the
  /// rowid, under any `+`/`-`), which the resolver replaces by 0.
  func isResolvedAlwaysFalse(_ expression: SQLExpression) -> Bool {
    if Self.isAlwaysFalse(expression) { return true }
    if case .isNull(let operand, negated: false) = expression { return cannotBeNull(operand) }
    return false
  }

  /// Whether SQLite marks the expression always false (``SQLExpression/isAlwaysFalse``).
  static func isAlwaysFalse(_ expression: SQLExpression) -> Bool { expression.isAlwaysFalse }

  /// Whether SQLite's parser folds the select's WHERE clause, or an inner join's ON clause, to
  /// false: appending each ON clause to the WHERE with `sqlite3ExprAnd` then drops the WHERE and
  /// every inner join's ON clause unresolved, and no row comes out.
  static func foldsWhereToFalse(_ select: SelectStatement) -> Bool {
    (select.filter.map(isAlwaysFalse) ?? false)
      || select.joins.contains { $0.kind != .left && ($0.condition.map(isAlwaysFalse) ?? false) }
  }
}
