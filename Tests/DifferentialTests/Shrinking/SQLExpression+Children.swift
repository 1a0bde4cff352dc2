import Tandem

extension SQLExpression {
  /// The direct subexpressions, in a fixed order that ``replacingChild(at:with:)`` follows.
  var children: [SQLExpression] {
    switch self {
    case .column, .rowid, .excluded, .literal, .parameter: []
    case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): [e]
    case .binary(_, let a, let b): [a, b]
    case .function(_, let arguments): arguments
    case .aggregate(_, let argument, _): argument.map { [$0] } ?? []
    case .inList(let e, let list, _): [e] + list
    case .between(let a, let b, let c, _): [a, b, c]
    case .like(let a, let b, let c, _): [a, b] + (c.map { [$0] } ?? [])
    case .glob(let a, let b, _): [a, b]
    case .caseWhen(let base, let branches, let otherwise):
      (base.map { [$0] } ?? []) + branches.flatMap { [$0.when, $0.then] } + (otherwise.map { [$0] } ?? [])
    }
  }

  /// The expression with its `index`-th child (in ``children`` order) replaced.
  func replacingChild(at index: Int, with new: SQLExpression) -> SQLExpression {
    var parts = children
    guard parts.indices.contains(index) else { return self }
    parts[index] = new
    switch self {
    case .column, .rowid, .excluded, .literal, .parameter: return self
    case .unary(let op, _): return .unary(op, parts[0])
    case .cast(_, let type): return .cast(parts[0], as: type)
    case .isNull(_, let negated): return .isNull(parts[0], negated: negated)
    case .collate(_, let collation): return .collate(parts[0], collation)
    case .binary(let op, _, _): return .binary(op, parts[0], parts[1])
    case .function(let function, _): return .function(function, parts)
    case .aggregate(let function, _, let distinct): return .aggregate(function, parts[0], distinct: distinct)
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

  /// Every node of the expression, this one first.
  var allNodes: [SQLExpression] { [self] + children.flatMap(\.allNodes) }

  /// Smaller expressions to try in place of this one: a child (never an aggregate's argument,
  /// which would turn into a bare column), a shorter list, no ESCAPE/ELSE/base, then the same
  /// for each child in place.
  var simplifications: [SQLExpression] {
    var result: [SQLExpression] = []
    if case .aggregate(let function, let argument, let distinct) = self {
      if distinct { result.append(.aggregate(function, argument, distinct: false)) }
      if function == .count, argument != nil { result.append(.aggregate(.count, nil, distinct: false)) }
    } else {
      result += children
    }
    switch self {
    case .inList(let e, let list, let negated):
      for index in list.indices {
        var shorter = list
        shorter.remove(at: index)
        result.append(.inList(e, shorter, negated: negated))
      }
      if negated { result.append(.inList(e, list, negated: false)) }
    case .like(let a, let b, let escape, let negated):
      if escape != nil { result.append(.like(a, pattern: b, escape: nil, negated: negated)) }
      if negated { result.append(.like(a, pattern: b, escape: escape, negated: false)) }
    case .caseWhen(let base, let branches, let otherwise):
      if base != nil { result.append(.caseWhen(base: nil, branches: branches, else: otherwise)) }
      if otherwise != nil { result.append(.caseWhen(base: base, branches: branches, else: nil)) }
      if branches.count > 1 {
        for index in branches.indices {
          var fewer = branches
          fewer.remove(at: index)
          result.append(.caseWhen(base: base, branches: fewer, else: otherwise))
        }
      }
    case .function(let function, let arguments) where arguments.count > function.arity.lowerBound:
      result.append(.function(function, Array(arguments.dropLast())))
    case .between(let a, let b, let c, true): result.append(.between(a, b, c, negated: false))
    case .glob(let a, let b, true): result.append(.glob(a, pattern: b, negated: false))
    default: break
    }
    for (index, child) in children.enumerated() {
      for smaller in child.simplifications {
        result.append(replacingChild(at: index, with: smaller))
      }
    }
    return result
  }
}
