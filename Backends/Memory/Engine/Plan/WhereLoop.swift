/// How a loop finds rows (SQLite's `WHERE_*` loop flags, with SQLite's values).
struct LoopFlags: OptionSet, Sendable {
  let rawValue: UInt32
  static let columnEq = LoopFlags(rawValue: 0x0000_0001)
  static let columnRange = LoopFlags(rawValue: 0x0000_0002)
  static let columnIn = LoopFlags(rawValue: 0x0000_0004)
  static let columnNull = LoopFlags(rawValue: 0x0000_0008)
  static let constraint = LoopFlags(rawValue: 0x0000_000F)
  static let topLimit = LoopFlags(rawValue: 0x0000_0010)
  static let bottomLimit = LoopFlags(rawValue: 0x0000_0020)
  static let bothLimits = LoopFlags(rawValue: 0x0000_0030)
  /// The index holds every column the statement reads (a covering index).
  static let indexOnly = LoopFlags(rawValue: 0x0000_0040)
  /// The rowid b-tree itself (SQLite's "integer primary key" loops).
  static let rowid = LoopFlags(rawValue: 0x0000_0100)
  /// An index.
  static let indexed = LoopFlags(rawValue: 0x0000_0200)
  static let oneRow = LoopFlags(rawValue: 0x0000_1000)
  static let multiOr = LoopFlags(rawValue: 0x0000_2000)
  /// A transient index SQLite would build for the statement (for one table it is never chosen:
  /// see ``WhereLoopBuilder``).
  static let automaticIndex = LoopFlags(rawValue: 0x0000_4000)
  static let uniqueWanted = LoopFlags(rawValue: 0x0001_0000)
  static let bigNullSort = LoopFlags(rawValue: 0x0008_0000)
  static let transitive = LoopFlags(rawValue: 0x0020_0000)
  static let selfCulling = LoopFlags(rawValue: 0x0080_0000)
}

/// A WHERE term as a loop refers to it: its clause (a loop made for one branch of an OR may
/// use the terms of that branch's own clause) and its position there.
struct TermReference: Sendable, Equatable {
  let clause: WhereClause
  let index: Int

  var term: WhereTerm { clause[index] }

  static func == (a: TermReference, b: TermReference) -> Bool { a.clause === b.clause && a.index == b.index }
}

/// One way to visit the rows of the table, with its estimated cost (SQLite's `WhereLoop`).
struct WhereLoop: Sendable {
  var flags: LoopFlags = []
  /// The index walked, by position in the table's index list; `nil` for the rowid b-tree and
  /// for a multi-index OR.
  var index: Int?
  /// The terms the loop uses, in order: equalities (one per index column), then the range bounds.
  var terms: [TermReference] = []
  /// The number of leading index columns constrained by `=`, `IN`, `IS` or `IS NULL`.
  var equalities = 0
  /// How many columns the lower and upper range bounds cover (0 or 1).
  var bottomCount = 0
  var topCount = 0
  /// The one-time cost, the cost per run and the estimated output rows (all LogEst).
  var setupCost: LogEst = 0
  var runCost: LogEst = 0
  var outputRows: LogEst = 0
  /// Non-zero when the loop is considered for producing ORDER BY's order (a full scan of an index
  /// that might deliver it): then it is not merged with loops that are not.
  var sortIndex = 0
}
