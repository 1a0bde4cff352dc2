import Tandem

extension SQLExpression {
  /// Every node of the expression, this one first.
  var allNodes: [SQLExpression] { [self] + children.flatMap(\.allNodes) }

  /// Every node of the expression and of the subqueries it holds, at any depth.
  var deepNodes: [SQLExpression] {
    var nodes = [self]
    switch self {
    case .subquery(let query), .exists(let query, _), .inSubquery(_, let query, _):
      nodes += query.expressions.flatMap(\.deepNodes)
    default: break
    }
    return nodes + children.flatMap(\.deepNodes)
  }

  /// Smaller expressions to try in place of this one: a child (never an aggregate's argument,
  /// which would turn into a bare column), a shorter list, no ESCAPE/ELSE/base, then the same
  /// for each child in place.
  var simplifications: [SQLExpression] {
    var result: [SQLExpression] = []
    if case .aggregate(let function, let argument, let distinct, let separator) = self {
      if distinct { result.append(.aggregate(function, argument, distinct: false, separator: separator)) }
      if separator != nil { result.append(.aggregate(function, argument, distinct: distinct)) }
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
    case .subquery(let query):
      result += query.simplifications.map(SQLExpression.subquery)
    case .exists(let query, let negated):
      if negated { result.append(.exists(query, negated: false)) }
      result += query.simplifications.map { .exists($0, negated: negated) }
    case .inSubquery(let e, let query, let negated):
      if negated { result.append(.inSubquery(e, query, negated: false)) }
      result += query.simplifications.map { .inSubquery(e, $0, negated: negated) }
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
