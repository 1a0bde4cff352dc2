/// One walk of the expression tree, for every rule that looks at or rebuilds subexpressions.
extension SQLExpression {
  /// The AND-ed terms of a condition, in order.
  ///
  /// ```swift
  /// // (a = 1) AND ((b = 2) AND c) → [a = 1, b = 2, c]
  /// ```
  package var conjuncts: [SQLExpression] {
    if case .binary(.and, let lhs, let rhs) = self { return lhs.conjuncts + rhs.conjuncts }
    return [self]
  }

  /// The expression without the COLLATE clauses around it (SQLite's `sqlite3ExprSkipCollate`).
  ///
  /// ```swift
  /// // "a" COLLATE NOCASE COLLATE RTRIM → "a"
  /// ```
  package var withoutCollate: SQLExpression {
    if case .collate(let inner, _) = self { return inner.withoutCollate }
    return self
  }

  /// The direct subexpressions, in a fixed order that ``replacingChild(at:with:)`` follows.
  ///
  /// ```swift
  /// SQLExpression.binary(.add, .column("a"), .literal(1)).children  // [.column("a"), .literal(1)]
  /// ```
  public var children: [SQLExpression] {
    switch self {
    case .column, .rowid, .excluded, .literal, .parameter, .qualifiedColumn, .qualifiedRowid, .resultColumn: []
    // A subquery's own expressions belong to another query level: walks that must see them
    // descend through ``subqueries`` on purpose.
    case .subquery, .exists: []
    case .inSubquery(let e, _, _): [e]
    case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): [e]
    case .binary(_, let a, let b): [a, b]
    case .function(_, let arguments): arguments
    case .aggregate(_, let argument, _, let separator): [argument, separator].compactMap { $0 }
    case .inList(let e, let list, _): [e] + list
    case .between(let a, let b, let c, _): [a, b, c]
    case .like(let a, let b, let c, _): [a, b] + (c.map { [$0] } ?? [])
    case .glob(let a, let b, _): [a, b]
    case .caseWhen(let base, let branches, let otherwise):
      (base.map { [$0] } ?? []) + branches.flatMap { [$0.when, $0.then] } + (otherwise.map { [$0] } ?? [])
    }
  }

  /// The expression with its `index`-th child (in ``children`` order) replaced.
  ///
  /// ```swift
  /// SQLExpression.unary(.negate, .column("a")).replacingChild(at: 0, with: .column("b"))  // -b
  /// ```
  public func replacingChild(at index: Int, with new: SQLExpression) -> SQLExpression {
    var parts = children
    guard parts.indices.contains(index) else { return self }
    parts[index] = new
    switch self {
    case .column, .rowid, .excluded, .literal, .parameter, .qualifiedColumn, .qualifiedRowid, .subquery, .exists,
      .resultColumn:
      return self
    case .inSubquery(_, let query, let negated): return .inSubquery(parts[0], query, negated: negated)
    case .unary(let op, _): return .unary(op, parts[0])
    case .cast(_, let type): return .cast(parts[0], as: type)
    case .isNull(_, let negated): return .isNull(parts[0], negated: negated)
    case .collate(_, let collation): return .collate(parts[0], collation)
    case .binary(let op, _, _): return .binary(op, parts[0], parts[1])
    case .function(let function, _): return .function(function, parts)
    case .aggregate(let function, let argument, let distinct, let separator):
      let newArgument: SQLExpression? = argument == nil ? nil : parts[0]
      let newSeparator: SQLExpression? = separator == nil ? nil : parts[argument == nil ? 0 : 1]
      return .aggregate(function, newArgument, distinct: distinct, separator: newSeparator)
    case .inList(_, _, let negated): return .inList(parts[0], Array(parts.dropFirst()), negated: negated)
    case .between(_, _, _, let negated): return .between(parts[0], parts[1], parts[2], negated: negated)
    case .like(_, _, let escape, let negated):
      return .like(parts[0], pattern: parts[1], escape: escape == nil ? nil : parts[2], negated: negated)
    case .glob(_, _, let negated): return .glob(parts[0], pattern: parts[1], negated: negated)
    case .caseWhen(let base, let branches, let otherwise):
      var cursor = 0
      let newBase: SQLExpression? = base == nil ? nil : parts[0]
      if base != nil { cursor = 1 }
      var newBranches: [CaseBranch] = []
      for _ in branches {
        newBranches.append(CaseBranch(when: parts[cursor], then: parts[cursor + 1]))
        cursor += 2
      }
      let newElse: SQLExpression? = otherwise == nil ? nil : parts[cursor]
      return .caseWhen(base: newBase, branches: newBranches, else: newElse)
    }
  }

  /// The subqueries this expression holds directly (not those nested inside them).
  ///
  /// ```swift
  /// SQLExpression.exists(inner, negated: false).directSubqueries  // [inner]
  /// ```
  public var directSubqueries: [SelectStatement] {
    var result: [SelectStatement] = []
    func walk(_ expression: SQLExpression) {
      switch expression {
      case .subquery(let query), .exists(let query, _): result.append(query)
      case .inSubquery(_, let query, _): result.append(query)
      default: break
      }
      expression.children.forEach(walk)
    }
    walk(self)
    return result
  }

  /// Whether a subquery appears anywhere in the expression.
  public var containsSubquery: Bool {
    switch self {
    case .subquery, .exists, .inSubquery: true
    default: children.contains(where: \.containsSubquery)
    }
  }

  /// The expression with `transform` applied bottom-up to every node of this query level
  /// (subqueries are left as they are).
  ///
  /// ```swift
  /// SQLExpression.binary(.add, .column("a"), .literal(1)).mapped { $0 == .column("a") ? .column("b") : $0 }
  /// ```
  public func mapped(_ transform: (SQLExpression) -> SQLExpression) -> SQLExpression {
    var result = self
    for (index, child) in children.enumerated() {
      result = result.replacingChild(at: index, with: child.mapped(transform))
    }
    return transform(result)
  }

  /// The expression with the columns and rowid of the source `isSource` accepts written plain
  /// (`"t"."a"` as `"a"`, `"t".rowid` as the rowid), at this query level (subqueries keep theirs).
  ///
  /// ```swift
  /// SQLExpression.qualifiedColumn(source: "t", name: "a").unqualifyingColumns { $0 == "t" }  // .column("a")
  /// ```
  public func unqualifyingColumns(of isSource: (String) -> Bool) -> SQLExpression {
    mapped { node in
      switch node {
      case .qualifiedColumn(let source, let name) where isSource(source): .column(name)
      case .qualifiedRowid(let source) where isSource(source): .rowid
      default: node
      }
    }
  }
}
