/// What SQLite's parser makes of a condition before it resolves any name: `x IN ()` is the
/// integer 0, and an AND with an operand that is always false is folded to 0 too, its other
/// operand dropped unread.
///
/// Both engines need the rule: the memory engine to follow SQLite (a WHERE, or an inner join's ON,
/// that folds to false drops every condition of the query unresolved), the SQLite renderer not to
/// change a query into one SQLite folds differently.
extension SQLExpression {
  /// Whether SQLite marks the expression always false (`ExprAlwaysFalse`): `x IN ()`, or an AND
  /// the parser folded to 0.
  ///
  /// ```swift
  /// SQLExpression.binary(.and, .column("a"), .inList(.column("b"), [], negated: false)).isAlwaysFalse  // true
  /// ```
  package var isAlwaysFalse: Bool {
    if case .inList(_, let list, negated: false) = self, list.isEmpty { return true }
    return foldsToZero
  }

  /// Whether SQLite's parser folds the expression to the integer 0: an AND with an operand that
  /// is always false (`x IN ()`, or such a folded AND). Its operands are then never read.
  package var foldsToZero: Bool {
    guard case .binary(.and, let lhs, let rhs) = self else { return false }
    return lhs.isAlwaysFalse || rhs.isAlwaysFalse
  }

  /// What SQLite's parser makes of `x IN (c)` with one constant element: `x = +c` (and of
  /// `x NOT IN (c)` its negation), which compares with the `=` rules, collation included; `nil`
  /// for any other list.
  ///
  /// ```swift
  /// SQLExpression.singleValueIn(.column("a"), [.literal(1)], negated: false)  // a = +1
  /// ```
  package static func singleValueIn(_ operand: SQLExpression, _ list: [SQLExpression], negated: Bool) -> SQLExpression? {
    guard list.count == 1, list[0].isParseConstant else { return nil }
    let equal = SQLExpression.binary(.equal, operand, .unary(.plus, list[0]))
    return negated ? .unary(.not, equal) : equal
  }

  /// SQLite's parse-time `sqlite3ExprIsConstant`: no column, rowid, function or aggregate (parts
  /// the parser already folded hold none).
  package var isParseConstant: Bool {
    // `x IN ()` and an AND holding it were already folded to a constant.
    if foldsToZero { return true }
    if case .inList(_, let list, _) = self, list.isEmpty { return true }
    switch self {
    case .literal, .parameter: return true
    case .column, .rowid, .excluded, .function, .aggregate, .qualifiedColumn, .qualifiedRowid: return false
    case .subquery, .exists, .inSubquery, .resultColumn: return false
    case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): return e.isParseConstant
    case .binary(_, let a, let b): return a.isParseConstant && b.isParseConstant
    case .inList(let e, let list, _): return e.isParseConstant && list.allSatisfy(\.isParseConstant)
    case .between(let a, let b, let c, _): return a.isParseConstant && b.isParseConstant && c.isParseConstant
    // LIKE and GLOB are function calls.
    case .like, .glob: return false
    case .caseWhen(let base, let branches, let otherwise):
      return (base?.isParseConstant ?? true)
        && branches.allSatisfy { $0.when.isParseConstant && $0.then.isParseConstant }
        && (otherwise?.isParseConstant ?? true)
    }
  }
}
