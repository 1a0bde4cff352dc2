import TandemCore

/// What kind of comparison a WHERE term is, as an index could use it (SQLite's `WO_*` bits,
/// with SQLite's values so that its masks read the same).
struct TermOperator: OptionSet, Sendable {
  let rawValue: UInt16
  init(rawValue: UInt16) { self.rawValue = rawValue }
  static let `in` = TermOperator(rawValue: 0x0001)
  static let eq = TermOperator(rawValue: 0x0002)
  static let gt = TermOperator(rawValue: 0x0004)
  static let le = TermOperator(rawValue: 0x0008)
  static let lt = TermOperator(rawValue: 0x0010)
  static let ge = TermOperator(rawValue: 0x0020)
  static let aux = TermOperator(rawValue: 0x0040)
  static let `is` = TermOperator(rawValue: 0x0080)
  static let isNull = TermOperator(rawValue: 0x0100)
  static let or = TermOperator(rawValue: 0x0200)
  static let and = TermOperator(rawValue: 0x0400)
  static let equivalence = TermOperator(rawValue: 0x0800)
  /// Every operator bit.
  static let all = TermOperator(rawValue: 0x3FFF)
  /// A single comparison an index could serve (not OR/AND).
  static let single = TermOperator(rawValue: 0x01FF)
  /// `=`, `<`, `<=`, `>`, `>=` and IN (SQLite's `0x3f` test).
  static let comparisons = TermOperator(rawValue: 0x003F)
  /// The range operators.
  static let range: TermOperator = [.lt, .le, .gt, .ge]

  /// The operator of a comparison (`sqlite3 operatorMask`).
  init(_ op: BinaryOperator) {
    switch op {
    case .equal: self = .eq
    case .less: self = .lt
    case .lessOrEqual: self = .le
    case .greater: self = .gt
    case .greaterOrEqual: self = .ge
    case .is: self = .is
    default: self = []
    }
  }
}

/// Facts SQLite records about a WHERE term while analyzing and coding it (`TERM_*`).
struct TermFlags: OptionSet, Sendable {
  let rawValue: UInt16
  /// Added by the analysis (a commuted copy, a BETWEEN bound…); never evaluated itself.
  static let virtual = TermFlags(rawValue: 0x0002)
  /// Already tested (or made redundant by the index): not evaluated in the loop.
  static let coded = TermFlags(rawValue: 0x0004)
  /// Has a commuted virtual copy.
  static let copied = TermFlags(rawValue: 0x0008)
  /// Used by the OR-to-IN conversion.
  static let ok = TermFlags(rawValue: 0x0040)
  /// `x > NULL` made from `x IS NOT NULL`.
  static let vnull = TermFlags(rawValue: 0x0080)
  /// A bound made by the LIKE/GLOB optimization.
  static let likeOptimized = TermFlags(rawValue: 0x0100)
  /// A LIKE whose range bounds make its test redundant for text.
  static let likeCondition = TermFlags(rawValue: 0x0200)
  /// A case-insensitive LIKE that gave rise to range bounds.
  static let like = TermFlags(rawValue: 0x0400)
  /// An `IS` comparison.
  static let isOperator = TermFlags(rawValue: 0x0800)
}

/// One conjunct of a WHERE clause, or a term SQLite derives from one (`WhereTerm`).
struct WhereTerm: Sendable {
  /// The term's expression, without a COLLATE at its top; commuted (`x = ?` for `? = x`) when
  /// the column was on the right.
  var expression: SQLExpression
  /// The expression as written (without a top-level COLLATE): what a test of the term evaluates
  /// (FALSE once the analysis found `x IS NULL` on an `x` that cannot be NULL).
  var source: SQLExpression
  /// Whether the two sides of the comparison were swapped (SQLite's `EP_Commuted`): the
  /// comparison's collation is then found from the original order.
  var isCommuted = false
  var flags: TermFlags = []
  /// How an index could use the term; empty when it cannot.
  var op: TermOperator = []
  /// The column on the left of an indexable term: a column position, or -1 for the rowid.
  var column: Int?
  /// Whether the right side (the value an index would look up) reads the table.
  var valueReadsTable = false
  /// Whether the term reads the table at all (SQLite's `prereqAll != 0`).
  var readsTable = false
  /// The term this one was derived from.
  var parent: Int?
  /// The number of derived terms that must all be used before the parent is redundant.
  var children = 0
  /// The subterms of an OR term.
  var orInfo: OrInfo?
  /// The conjuncts of an OR subterm that is itself an AND.
  var andClause: WhereClause?
  /// The value of the right side when SQLite codes it as a constant rather than a bound value
  /// (the string bounds of the LIKE optimization): never NULL, and not converted by affinity.
  var rightConstant: SqliteValue?

  init(expression: SQLExpression, flags: TermFlags) {
    self.expression = expression.withoutCollate
    source = self.expression
    self.flags = flags
  }

  /// The left operand of a comparison, IN, IS NULL or BETWEEN term.
  var left: SQLExpression? {
    switch expression {
    case .binary(_, let lhs, _): lhs
    case .inList(let operand, _, _): operand
    case .isNull(let operand, _): operand
    case .between(let operand, _, _, _): operand
    default: nil
    }
  }

  /// The right operand of a comparison term.
  var right: SQLExpression? {
    if case .binary(_, _, let rhs) = expression { return rhs }
    return nil
  }
}

/// The subterms of an OR term and whether each could be served by an index.
final class OrInfo: @unchecked Sendable {
  // @unchecked: built once by the analysis and never changed after the plan is made.
  let clause: WhereClause
  /// Whether every subterm could use an index of the table (SQLite's `indexable` mask).
  var isIndexable = false

  init(clause: WhereClause) { self.clause = clause }
}
