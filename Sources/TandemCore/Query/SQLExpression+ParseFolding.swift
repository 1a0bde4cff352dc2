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
}
