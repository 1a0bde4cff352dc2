import TandemCore

/// A WHERE clause split into terms and analyzed as SQLite's planner analyzes it
/// (`whereexpr.c`): each conjunct is classified by how an index could serve it, and virtual
/// terms are added — commuted copies, the two bounds of a BETWEEN, `x > NULL` for
/// `x IS NOT NULL`, the IN list an OR of equalities stands for, and the range bounds of a
/// GLOB or LIKE prefix.
///
/// ```swift
/// let clause = WhereClause(splitting: filter, context: context)
/// clause.terms.map(\.op)   // [.eq, .gt] for `a = ? AND b > ?`
/// ```
final class WhereClause: @unchecked Sendable {
  // @unchecked: built and analyzed once by the planner; the plan that keeps it never changes it.

  /// How the clause's terms are joined.
  enum Connective { case and, or }

  let connective: Connective
  let context: WhereContext
  /// The enclosing clause of an AND subterm of an OR term, whose terms its scans also see.
  private(set) weak var outer: WhereClause?
  private(set) var terms: [WhereTerm] = []
  /// The number of terms before the first virtual one (SQLite's `nBase`).
  private(set) var baseCount = 0
  /// Whether some term is an OR an index could serve.
  private(set) var hasOr = false

  /// Splits `expression` at `connective` and analyzes every term.
  init(splitting expression: SQLExpression?, by connective: Connective = .and, context: WhereContext, outer: WhereClause? = nil) {
    self.connective = connective
    self.context = context
    self.outer = outer
    if let expression { split(expression) }
    // Analyzed last to first, so that virtual terms added on the way are not analyzed again.
    for index in terms.indices.reversed() { analyze(index) }
  }

  /// A clause holding one term of another clause, whose scans also see `outer`'s terms (the
  /// clause SQLite builds for one subterm of an OR).
  init(single term: WhereTerm, context: WhereContext, outer: WhereClause) {
    connective = .and
    self.context = context
    self.outer = outer
    terms = [term]
    baseCount = 1
  }

  subscript(index: Int) -> WhereTerm {
    get { terms[index] }
    set { terms[index] = newValue }
  }

  private func split(_ expression: SQLExpression) {
    let inner = expression.withoutCollate
    switch (connective, inner) {
    case (.and, .binary(.and, let lhs, let rhs)) where !ExpressionCompiler.foldsToZero(inner),
      (.or, .binary(.or, let lhs, let rhs)):
      split(lhs)
      split(rhs)
    default:
      insert(WhereTerm(expression: expression, flags: []))
    }
  }

  @discardableResult
  private func insert(_ term: WhereTerm) -> Int {
    terms.append(term)
    if !term.flags.contains(.virtual) { baseCount = terms.count }
    return terms.count - 1
  }

  private func markChild(_ child: Int, of parent: Int) {
    terms[child].parent = parent
    terms[parent].children += 1
  }

  // MARK: - Analysis (exprAnalyze)

  private func analyze(_ index: Int) {
    let expression = terms[index].expression
    var term = terms[index]
    term.op = []
    term.column = nil
    switch expression {
    case .inList(let operand, let list, false) where !list.isEmpty:
      term.valueReadsTable = list.contains(where: context.readsTable)
      term.readsTable = context.readsTable(operand) || term.valueReadsTable
    case .binary(_, let lhs, let rhs):
      term.valueReadsTable = context.readsTable(rhs)
      term.readsTable = context.readsTable(lhs) || term.valueReadsTable
    default:
      term.valueReadsTable = false
      term.readsTable = context.readsTable(expression)
    }
    terms[index] = term

    switch expression {
    case .binary(let op, let lhs, let rhs) where Self.isIndexableOperator(op, rhs):
      analyzeComparison(index, op, lhs, rhs)
    case .inList(let operand, let list, false) where !list.isEmpty:
      let leftReadsTable = context.readsTable(operand)
      let usable = !(leftReadsTable && terms[index].valueReadsTable)
      if let column = context.column(operand) {
        terms[index].column = column
        terms[index].op = usable ? .in : []
      }
    case .isNull(let operand, let negated) where resolverKnowsNotNull(operand):
      // The resolver has replaced `x IS [NOT] NULL` on a column that cannot be NULL (under `+`
      // or `-`, not under a COLLATE) by FALSE (TRUE): a constant, tested once before the loop,
      // that reads no column.
      terms[index].readsTable = false
      terms[index].source = .literal(.integer(negated ? 1 : 0))
    case .isNull(let operand, false):
      if let column = context.column(operand) {
        terms[index].column = column
        terms[index].op = .isNull
      }
      if !context.canBeNull(operand.withoutCollate) {
        // SQLite's analysis turns `x IS NULL` into FALSE when x, COLLATE aside, cannot be
        // NULL: a constant term, tested once before the loop.
        terms[index].readsTable = false
        terms[index].op = []
        terms[index].source = ExpressionCompiler.foldedFalse
      }
    case .between(let operand, let low, let high, false) where connective == .and:
      for (op, bound) in [(BinaryOperator.greaterOrEqual, low), (.lessOrEqual, high)] {
        let child = insert(WhereTerm(expression: .binary(op, operand, bound), flags: .virtual))
        analyze(child)
        markChild(child, of: index)
      }
    case .binary(.or, _, _) where connective == .and:
      analyzeOr(index)
    case .isNull(let operand, true):
      // SQLite adds `x > NULL` only when x is a column as written (`pLeft->op==TK_COLUMN`),
      // not under a COLLATE.
      if case .column = operand, let column = context.column(operand), column >= 0 {
        var bound = WhereTerm(expression: .binary(.greater, operand, .literal(.null)), flags: [.virtual, .vnull])
        bound.column = column
        bound.op = .gt
        bound.readsTable = terms[index].readsTable
        let child = insert(bound)
        markChild(child, of: index)
        terms[index].flags.insert(.copied)
      }
    case .like, .glob:
      if connective == .and { analyzePattern(index) }
    default:
      break
    }
  }

  /// Whether `op` is one an index may serve (`allowedOp`): `=`, `<`, `<=`, `>`, `>=`, `IS`. An
  /// `IS` against an empty IN list is SQLite's `IS TRUE`/`IS FALSE`, which is not.
  private static func isIndexableOperator(_ op: BinaryOperator, _ rhs: SQLExpression) -> Bool {
    switch op {
    case .equal, .less, .lessOrEqual, .greater, .greaterOrEqual: return true
    case .is: return ExpressionCompiler.truthConstant(rhs) == nil
    default: return false
    }
  }

  private func analyzeComparison(_ index: Int, _ op: BinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) {
    let leftReadsTable = context.readsTable(lhs)
    // Both sides read the table: usable only through equivalences (SQLite's WO_EQUIV mask).
    let opMask: TermOperator = leftReadsTable && terms[index].valueReadsTable ? .equivalence : .all
    if op == .is { terms[index].flags.insert(.isOperator) }
    if let column = context.column(lhs) {
      terms[index].column = column
      terms[index].op = TermOperator(op).intersection(opMask)
    }
    guard let rightColumn = context.rightColumn(rhs) else { return }
    let commutedOp = Self.commuted(op)
    if terms[index].column != nil {
      // Both sides are columns: a commuted copy is added and analyzed as its own term.
      var copy = WhereTerm(expression: .binary(commutedOp, rhs, lhs), flags: .virtual)
      copy.isCommuted = true
      if op == .is { copy.flags.insert(.isOperator) }
      var extra: TermOperator = []
      if isEquivalence(op, lhs, rhs) {
        terms[index].op.insert(.equivalence)
        extra = .equivalence
      }
      copy.column = rightColumn
      copy.valueReadsTable = leftReadsTable
      copy.readsTable = terms[index].readsTable
      copy.op = TermOperator(commutedOp).union(extra).intersection(opMask)
      let child = insert(copy)
      markChild(child, of: index)
      terms[index].flags.insert(.copied)
    } else {
      // The column is on the right: the term itself is commuted.
      terms[index].expression = .binary(commutedOp, rhs, lhs)
      terms[index].isCommuted.toggle()
      terms[index].column = rightColumn
      terms[index].valueReadsTable = leftReadsTable
      terms[index].op = TermOperator(commutedOp).intersection(opMask)
    }
  }

  /// The operator of the comparison with its operands swapped.
  static func commuted(_ op: BinaryOperator) -> BinaryOperator {
    switch op {
    case .less: .greater
    case .greater: .less
    case .lessOrEqual: .greaterOrEqual
    case .greaterOrEqual: .lessOrEqual
    default: op
    }
  }

  /// SQLite's `termIsEquivalence`: `=` or `IS` between operands of compatible affinities whose
  /// comparison is BINARY or whose collations match.
  private func isEquivalence(_ op: BinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) -> Bool {
    guard op == .equal || op == .is else { return false }
    let a = context.affinity(lhs)
    let b = context.affinity(rhs)
    if a != b && !(a.isNumeric && b.isNumeric) { return false }
    if context.comparisonCollation(lhs, rhs) == .binary { return true }
    return context.collation(lhs) == context.collation(rhs)
  }

  /// `sqlite3ExprCanBeNull` is false for the operand as the resolver sees it, before any WHERE
  /// rewrite: a NOT NULL column or the rowid (a column fixed by constant propagation still its
  /// column), under any `+`/`-`, not under a COLLATE.
  private func resolverKnowsNotNull(_ operand: SQLExpression) -> Bool {
    var inner = operand
    while case .unary(let op, let nested) = inner, op == .plus || op == .negate { inner = nested }
    if let fixed = FixedColumn(inner) { inner = fixed.column }
    switch inner {
    case .rowid, .column: return !context.canBeNull(inner)
    default: return false
    }
  }

  // MARK: - OR terms (exprAnalyzeOrTerm)

  private func analyzeOr(_ index: Int) {
    let orClause = WhereClause(splitting: terms[index].expression, by: .or, context: context)
    let info = OrInfo(clause: orClause)
    terms[index].orInfo = info
    var indexable = true
    var changeToIn = true
    for position in orClause.terms.indices {
      guard indexable else { break }
      let subterm = orClause.terms[position]
      if subterm.op.intersection(.single).isEmpty {
        changeToIn = false
        let conjuncts = WhereClause(splitting: subterm.expression, by: .and, context: context, outer: self)
        orClause.terms[position].andClause = conjuncts
        orClause.terms[position].op = .and
        orClause.terms[position].column = nil
        indexable = indexable && conjuncts.terms.contains { Self.allowsIndex($0) && $0.column != nil }
      } else if subterm.flags.contains(.copied) {
        continue
      } else {
        if !subterm.op.contains(.eq) { changeToIn = false }
      }
    }
    info.isIndexable = indexable
    terms[index].op = .or
    terms[index].column = nil
    if indexable { hasOr = true }

    if indexable && orClause.terms.count == 2 {
      for one in Self.conjuncts(of: orClause.terms[0]) {
        for two in Self.conjuncts(of: orClause.terms[1]) { combineDisjuncts(one, two) }
      }
    }
    if changeToIn { convertToIn(index, orClause) }
  }

  /// Whether a term's operator is one `allowedOp` accepts (regardless of its sides).
  private static func allowsIndex(_ term: WhereTerm) -> Bool {
    switch term.expression {
    case .binary(let op, _, let rhs): isIndexableOperator(op, rhs)
    case .inList(_, let list, false): !list.isEmpty
    case .isNull(_, false): true
    default: false
    }
  }

  /// The AND-connected subterms of an OR subterm, or the subterm itself.
  private static func conjuncts(of term: WhereTerm) -> [WhereTerm] {
    term.andClause?.terms ?? [term]
  }

  /// `whereCombineDisjuncts`: `x < y OR x = y` adds the virtual term `x <= y`.
  private func combineDisjuncts(_ one: WhereTerm, _ two: WhereTerm) {
    let comparisons: TermOperator = [.eq, .lt, .le, .gt, .ge]
    if one.flags.contains(.vnull) || two.flags.contains(.vnull) { return }
    if one.op.intersection(comparisons).isEmpty || two.op.intersection(comparisons).isEmpty { return }
    var combined = one.op.union(two.op)
    if combined.intersection([.eq, .lt, .le]) != combined && combined.intersection([.eq, .gt, .ge]) != combined {
      return
    }
    guard let leftOne = one.left, let leftTwo = two.left, let rightOne = one.right, let rightTwo = two.right,
      sameExpression(leftOne, leftTwo), sameExpression(rightOne, rightTwo) || samePatternBound(one, two)
    else { return }
    if combined.rawValue & (combined.rawValue - 1) != 0 {
      combined = combined.intersection([.lt, .le]).isEmpty ? .ge : .le
    }
    let op: BinaryOperator =
      switch combined {
      case .eq: .equal
      case .lt: .less
      case .le: .lessOrEqual
      case .gt: .greater
      default: .greaterOrEqual
      }
    var term = WhereTerm(expression: .binary(op, leftOne, rightOne), flags: .virtual)
    term.isCommuted = one.isCommuted
    analyze(insert(term))
  }

  /// Whether two bounds the LIKE/GLOB optimization made are the same string: SQLite writes each
  /// as a string literal, which `sqlite3ExprCompare` compares byte for byte (so two patterns
  /// with the same prefix, even bound to different placeholders, give equal bounds).
  private func samePatternBound(_ one: WhereTerm, _ two: WhereTerm) -> Bool {
    guard one.flags.contains(.likeOptimized), two.flags.contains(.likeOptimized),
      case .text(let a)? = one.rightConstant, case .text(let b)? = two.rightConstant
    else { return false }
    return Array(a.utf8) == Array(b.utf8)
  }

  /// Whether SQLite's `sqlite3ExprCompare` finds two expressions equal (a bound `?` equals no other).
  private func sameExpression(_ a: SQLExpression, _ b: SQLExpression) -> Bool {
    let compiler = ExpressionCompiler(table: context.table)
    guard let x = compiler.comparisonKey(a), let y = compiler.comparisonKey(b) else { return false }
    return x == y
  }

  /// Case 1 of the OR analysis: `x = a OR x = b OR …` on one column adds `x IN (a, b, …)`,
  /// unless a value's own affinity differs from the column's.
  private func convertToIn(_ index: Int, _ orClause: WhereClause) {
    guard let column = orClause.terms.first?.column else { return }
    var values: [SQLExpression] = []
    var left: SQLExpression?
    for position in orClause.terms.indices {
      let subterm = orClause.terms[position]
      guard subterm.column == column, let operand = subterm.left, let right = subterm.right else { return }
      let rightAffinity = context.affinity(right)
      if rightAffinity != .none && rightAffinity != context.affinity(operand) { return }
      orClause.terms[position].flags.insert(.ok)
      values.append(right)
      left = operand
    }
    guard let left else { return }
    let child = insert(WhereTerm(expression: .inList(left, values, negated: false), flags: .virtual))
    analyze(child)
    markChild(child, of: index)
  }

  // MARK: - LIKE and GLOB prefixes (isLikeOrGlob)

  private func analyzePattern(_ index: Int) {
    let operand: SQLExpression
    let pattern: SQLExpression
    let noCase: Bool
    let wildcards: [UInt8]
    var escape: UInt8 = 0
    switch terms[index].expression {
    case .like(let subject, let likePattern, let escapeExpression, false):
      operand = subject
      pattern = likePattern
      noCase = true
      wildcards = [UInt8(ascii: "%"), UInt8(ascii: "_"), 0]
      // A bound ESCAPE is not a string literal: SQLite does not optimize such a LIKE.
      if escapeExpression != nil { return }
    case .glob(let subject, let globPattern, false):
      operand = subject
      pattern = globPattern
      noCase = false
      wildcards = [UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "[")]
    default:
      return
    }
    guard case .text(let text)? = context.patternValue(pattern.withoutCollate) else { return }
    let bytes = Array(text.utf8)
    var count = 0
    var c: UInt8 = 0
    while count < bytes.count {
      c = bytes[count]
      if c == 0 || c == wildcards[0] || c == wildcards[1] || c == wildcards[2] { break }
      count += 1
      if c == escape && escape != 0 && count < bytes.count { count += 1 }
    }
    let terminator: UInt8 = count < bytes.count ? bytes[count] : 0
    guard count != 0, bytes[count - 1] != 255, count > 1 || bytes[0] != escape || escape == 0 else { return }
    let isComplete = terminator == wildcards[0] && count + 1 == bytes.count
    var prefix = Array(bytes[0..<count])
    if escape != 0 {
      var unescaped: [UInt8] = []
      var position = 0
      while position < prefix.count {
        if prefix[position] == escape { position += 1 }
        if position < prefix.count { unescaped.append(prefix[position]) }
        position += 1
      }
      prefix = unescaped
    }
    // Only a bare column of TEXT affinity (not one under COLLATE or `+`: SQLite asks for a
    // TK_COLUMN node) lets the bounds look like numbers; otherwise affinity would make the range
    // wrong.
    let isBareColumn: Bool
    if case .column = operand { isBareColumn = context.column(operand) != nil } else { isBareColumn = false }
    if !isBareColumn || context.affinity(operand) != .text {
      if Self.looksNumeric(prefix) { return }
    }
    escape = 0
    var lower = prefix
    var upper = prefix
    if noCase {
      terms[index].flags.insert(.like)
      lower = prefix.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
      upper = prefix.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    }
    var last = upper[upper.count - 1]
    var complete = isComplete
    if noCase {
      if last == UInt8(ascii: "A") - 1 { complete = false }
      last = last >= 0x41 && last <= 0x5A ? last + 0x20 : last
    }
    upper[upper.count - 1] = last &+ 1
    let collation: Collation = noCase ? .nocase : .binary
    var children: [Int] = []
    for (op, bound) in [(BinaryOperator.greaterOrEqual, lower), (.less, upper)] {
      let value = SqliteValue.text(String(decoding: bound, as: UTF8.self))
      var term = WhereTerm(expression: .binary(op, .collate(operand, collation), .literal(value)), flags: [.virtual, .likeOptimized])
      term.rightConstant = value
      let child = insert(term)
      analyze(child)
      children.append(child)
    }
    if complete { for child in children { markChild(child, of: index) } }
  }

  /// Whether a pattern prefix, or the prefix with its last byte incremented, reads as a number.
  private static func looksNumeric(_ prefix: [UInt8]) -> Bool {
    func isNumber(_ bytes: [UInt8]) -> Bool {
      bytes.withUnsafeBufferPointer { SqliteNumberParser.parseReal($0).kind > 0 }
    }
    if isNumber(prefix) { return true }
    if prefix == [UInt8(ascii: "-")] { return true }
    var bumped = prefix
    bumped[bumped.count - 1] &+= 1
    return isNumber(bumped)
  }

  // MARK: - Queries

  /// The terms on `column` (-1: the rowid) whose operator is in `ops`, as SQLite's
  /// `whereScanInit`/`whereScanNext` find them: in this clause then the enclosing ones, then the
  /// same for each column an `x = y` term makes equivalent. `index` adds the checks for a column
  /// of an index: the comparison's affinity and collation must suit it.
  func scan(
    column: Int, ops: TermOperator, index: (affinity: Affinity, collation: Collation)? = nil
  ) -> [(clause: WhereClause, index: Int)] {
    var equivalents = [column]
    var result: [(WhereClause, Int)] = []
    var position = 0
    while position < equivalents.count {
      let target = equivalents[position]
      var clause: WhereClause? = self
      while let current = clause {
        for termIndex in current.terms.indices {
          let term = current.terms[termIndex]
          guard term.column == target else { continue }
          if term.op.contains(.equivalence), equivalents.count < 11, let right = term.right,
            let other = context.rightColumn(right), !equivalents.contains(other)
          {
            equivalents.append(other)
          }
          guard !term.op.intersection(ops).isEmpty else { continue }
          if let index, column >= 0, !term.op.contains(.isNull) {
            if !context.indexAffinityOk(term, index.affinity) { continue }
            if context.collation(of: term) != index.collation { continue }
          }
          if !term.op.intersection([.eq, .is]).isEmpty, let right = term.right, context.rightSideColumn(right) == column {
            continue
          }
          result.append((current, termIndex))
        }
        clause = current.outer
      }
      position += 1
    }
    return result
  }
}
