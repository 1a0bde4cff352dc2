import TandemCore

extension SQLParser {
  /// A whole SELECT: `[WITH …] core [compound-operator core]… [ORDER BY …] [LIMIT …]`.
  mutating func parseSelectStatement() throws -> ParsedSelect {
    var with: WithClause?
    let hasWith = peek.isKeyword("WITH")
    defer { if hasWith { commonTables.removeLast() } }
    if accept("WITH") {
      with = try parseWith()
    }
    derivedTables.append([])
    defer { derivedTables.removeLast() }

    let awaitingColumns = recursiveTableAwaitingColumns
    recursiveTableAwaitingColumns = nil
    var first = try parseSelectCore()
    if let awaitingColumns, awaitingColumns.level < commonTables.count {
      commonTables[awaitingColumns.level][awaitingColumns.name.lowercased()] = .some(Self.uniqueNames(first.names))
    }
    var members: [(CompoundTerm.Operator, ParsedSelect)] = []
    var statement = first.statement
    while true {
      // parse.y reads ORDER BY and LIMIT with every member, and refuses them once it knows a
      // member follows.
      let tail = try parseOrderAndLimit(first, members: members.map(\.1))
      guard let op = try parseCompoundOperator() else {
        statement.orderBy = tail.orderBy
        statement.limit = tail.limit
        statement.offset = tail.offset
        break
      }
      // An error of the parser's own actions: it comes before any error of name resolution.
      let clause = !tail.orderBy.isEmpty ? "ORDER BY" : tail.limit != nil ? "LIMIT" : nil
      if let clause, !(deferredError?.message.hasSuffix(" not before") ?? false) {
        deferredError = Self.sqliteError("\(clause) clause should come after \(op.rawValue) not before")
      }
      let member = try parseSelectCore()
      if member.statement.columns.count != first.statement.columns.count {
        deferError("SELECTs to the left and right of \(op.rawValue) do not have the same number of result columns")
      }
      members.append((op, member))
    }
    statement.compound = members.map { CompoundTerm($0.0, $0.1.statement) }
    let derived = derivedTables[derivedTables.count - 1]
    if !derived.isEmpty {
      if with == nil { with = WithClause(recursive: false, tables: []) }
      with?.tables += derived
    }
    statement.with = with
    first.statement = statement
    return first
  }

  /// `[ORDER BY …] [LIMIT …]` after a member of a select: resolved against it alone, or against
  /// every member of the compound so far.
  private mutating func parseOrderAndLimit(
    _ first: ParsedSelect, members: [ParsedSelect]
  ) throws -> (orderBy: [OrderingTerm], limit: SQLExpression?, offset: SQLExpression?) {
    var orderBy: [OrderingTerm] = []
    var limit: SQLExpression?
    var offset: SQLExpression?
    if accept("ORDER") {
      try expect("BY")
      if members.isEmpty {
        scopes.append(first.scope)
        scopes[scopes.count - 1].aliasesVisible = true
        defer { scopes.removeLast() }
        orderBy = try parseOrderingTerms { parser, term, start, number in
          try parser.resolveOrderTerm(term, start: start, number: number, in: first)
        }
      } else {
        orderBy = try parseCompoundOrderBy([first] + members)
      }
    }
    if accept("LIMIT") {
      limit = try parseExpression()
      if accept("OFFSET") {
        offset = try parseExpression()
      } else if acceptSymbol(",") {
        offset = limit
        limit = try parseExpression()
      }
    }
    return (orderBy, limit, offset)
  }

  /// `WITH [RECURSIVE] name [(columns)] AS ([NOT] MATERIALIZED] (select)), …`; leaves the common
  /// tables visible (the caller removes them).
  private mutating func parseWith() throws -> WithClause {
    commonTables.append([:])
    let recursive = accept("RECURSIVE")
    var tables: [CommonTableExpression] = []
    repeat {
      let name = try parseName()
      var declared: [String]?
      if acceptSymbol("(") {
        var columns = [try parseName()]
        while acceptSymbol(",") { columns.append(try parseName()) }
        try expectSymbol(")")
        declared = columns
      }
      try expect("AS")
      if accept("NOT") {
        try expect("MATERIALIZED")
      } else {
        _ = accept("MATERIALIZED")
      }
      try expectSymbol("(")
      if recursive {
        commonTables[commonTables.count - 1][name.lowercased()] = .some(declared)
        if declared == nil { recursiveTableAwaitingColumns = (name, commonTables.count - 1) }
      }
      let body = try parseSelectStatement()
      try expectSymbol(")")
      let columns = declared ?? Self.uniqueNames(body.names)
      if let declared, declared.count != body.names.count {
        deferError("table \(name) has \(body.names.count) values for \(declared.count) columns")
      }
      commonTables[commonTables.count - 1][name.lowercased()] = .some(columns)
      tables.append(CommonTableExpression(name: name, columns: columns, select: body.statement))
    } while acceptSymbol(",")
    return WithClause(recursive: recursive, tables: tables)
  }

  /// Names made unique as SQLite makes a subquery's column names unique (`a`, `a:1`, …).
  static func uniqueNames(_ names: [String]) -> [String] {
    var seen = Set<String>()
    return names.map { name in
      var candidate = name
      var counter = 0
      while seen.contains(candidate.lowercased()) {
        counter += 1
        candidate = "\(name):\(counter)"
      }
      seen.insert(candidate.lowercased())
      return candidate
    }
  }

  private mutating func parseCompoundOperator() throws -> CompoundTerm.Operator? {
    if accept("UNION") { return accept("ALL") ? .unionAll : .union }
    if accept("INTERSECT") { return .intersect }
    if accept("EXCEPT") { return .except }
    return nil
  }

  // MARK: - One SELECT

  /// `SELECT [DISTINCT|ALL] columns [FROM …] [WHERE …] [GROUP BY … [HAVING …]]`.
  ///
  /// The FROM clause is read first, so that the result columns and every clause after them can
  /// be resolved against its sources as they are read.
  mutating func parseSelectCore() throws -> ParsedSelect {
    if peek.isKeyword("VALUES") { throw Self.unsupported("VALUES") }
    try expect("SELECT")
    var statement = SelectStatement(table: "", columns: [])
    statement.hasFromClause = false
    if accept("DISTINCT") {
      statement.distinct = true
    } else {
      _ = accept("ALL")
    }
    let resultStart = index
    scopes.append(SelectScope())
    defer { scopes.removeLast() }
    var afterFrom: Int?
    if let from = fromPosition() {
      index = from + 1
      do {
        try parseFrom(into: &statement)
      } catch {
        // SQLite reports the first syntax error in text order: one in the result columns first.
        let fromError = error
        index = resultStart
        do {
          _ = try parseResultColumns()
        } catch let resultError as TandemError where resultError.kind == .sqlite && Self.isSyntaxError(resultError) {
          throw resultError
        } catch {}
        throw fromError
      }
      afterFrom = index
      index = resultStart
    }
    var result = try parseResultColumns()
    if let afterFrom {
      guard peek.isKeyword("FROM") else { throw syntaxError() }
      index = afterFrom
    }
    statement.columns = result.statement.columns
    scopes[scopes.count - 1].aliases = zip(result.aliases, statement.columns).compactMap { alias, expression in
      alias.map { ($0, expression) }
    }
    scopes[scopes.count - 1].aliasesVisible = true
    if accept("WHERE") { statement.filter = try parseExpression() }
    if accept("GROUP") {
      try expect("BY")
      repeat {
        let term = try parseExpression()
        let ordinal = statement.groupBy.count + 1
        statement.groupBy.append(
          try resolvePosition(term, columns: statement.columns, clause: "GROUP BY", ordinal: ordinal) ?? term)
      } while acceptSymbol(",")
      if accept("HAVING") { statement.having = try parseExpression() }
    } else if accept("HAVING") {
      statement.having = try parseExpression()
    }
    if peek.isKeyword("WINDOW") { throw Self.unsupported("WINDOW clause") }
    result.statement = statement
    result.scope = scopes[scopes.count - 1]
    return result
  }

  /// Whether the error is one the parser reports before resolving names.
  static func isSyntaxError(_ error: TandemError) -> Bool {
    error.message.hasSuffix(": syntax error") || error.message == "incomplete input"
      || error.message.hasPrefix("unrecognized token")
  }

  /// The position of this SELECT's `FROM`, if it has one (at parenthesis depth 0, before any
  /// clause that ends the result columns).
  private func fromPosition() -> Int? {
    var depth = 0
    var position = index
    while position < tokens.count {
      let token = tokens[position]
      switch token.kind {
      case .end, .semicolon: return nil
      case .symbol where token.text == "(": depth += 1
      case .symbol where token.text == ")":
        depth -= 1
        if depth < 0 { return nil }
      case .word where depth == 0:
        switch token.upper {
        case "FROM":
          let isDistinctFrom =
            position >= 2 && tokens[position - 1].isKeyword("DISTINCT")
            && (tokens[position - 2].isKeyword("IS") || tokens[position - 2].isKeyword("NOT"))
          if !isDistinctFrom { return position }
        case "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION", "INTERSECT", "EXCEPT", "WINDOW":
          return nil
        default: break
        }
      default: break
      }
      position += 1
    }
    return nil
  }

  /// The result columns, `*` and `t.*` expanded.
  private mutating func parseResultColumns() throws -> ParsedSelect {
    var result = ParsedSelect(statement: SelectStatement(table: "", columns: []), names: [])
    let scope = scopes[scopes.count - 1]
    repeat {
      if acceptSymbol("*") {
        if scope.sources.isEmpty { deferError("no tables specified") }
        for source in scope.sources { result.appendAllColumns(of: source, amongSources: scope.sources.count) }
        continue
      }
      if isName(peek), peek(1).isSymbol("."), peek(2).isSymbol("*") {
        let name = advance().value
        advance()
        advance()
        guard let source = scope.source(named: name) else {
          deferError("no such table: \(name)")
          continue
        }
        result.appendAllColumns(of: source, amongSources: scope.sources.count)
        continue
      }
      let start = index
      let expression = try parseExpression()
      let written = span(from: start)
      var alias: String?
      if accept("AS") {
        alias = try parseName()
      } else if isIdentifier(peek) || peek.kind == .string {
        alias = advance().value
      }
      result.statement.columns.append(expression)
      result.names.append(alias ?? resultName(of: expression, text: written))
      result.aliases.append(alias)
    } while acceptSymbol(",")
    return result
  }

  // MARK: - FROM

  /// The sources and joins after `FROM`, added to the innermost scope as they are read (an ON
  /// condition sees the sources before it and its own).
  private mutating func parseFrom(into statement: inout SelectStatement) throws {
    let items = try parseJoinList()
    statement.table = items[0].table
    statement.hasFromClause = true
    statement.alias = items[0].alias
    statement.notIndexed = items[0].notIndexed
    statement.joins = Array(items.dropFirst())
  }

  /// Sources joined left to right; the first one's kind means nothing. A parenthesized join is
  /// flattened where that keeps its meaning: first in its list, or inner-joined and holding no
  /// LEFT JOIN.
  private mutating func parseJoinList() throws -> [JoinClause] {
    var items: [JoinClause] = []
    var kind: JoinClause.Kind?
    while true {
      if peek.isSymbol("("), !startsSelect(peek(1)) {
        advance()
        let group = try parseJoinList()
        try expectSymbol(")")
        if peek.isKeyword("AS") || isIdentifier(peek) { throw Self.unsupported("alias of a parenthesized join") }
        if let kind {
          guard kind != .left, !group.dropFirst().contains(where: { $0.kind == .left }) else {
            throw Self.unsupported("parenthesized join")
          }
          var first = group[0]
          first.kind = kind
          items.append(first)
          items += group.dropFirst()
        } else {
          items += group
        }
      } else {
        let (table, alias, notIndexed) = try parseSource()
        var item = JoinClause(kind ?? .inner, table: table, alias: alias)
        item.notIndexed = notIndexed
        items.append(item)
      }
      if accept("ON") {
        let condition = try parseExpression()
        if kind == nil { deferError("a JOIN clause is required before ON") }
        let last = items.count - 1
        items[last].condition = items[last].condition.map { .binary(.and, $0, condition) } ?? condition
      } else if peek.isKeyword("USING") {
        throw Self.unsupported("USING")
      }
      if acceptSymbol(",") {
        kind = .inner
      } else if let next = try parseJoinOperator() {
        kind = next
      } else {
        return items
      }
    }
  }

  /// A join operator (`[INNER] JOIN`, `LEFT [OUTER] JOIN`, `CROSS JOIN`), or nil.
  private mutating func parseJoinOperator() throws -> JoinClause.Kind? {
    if accept("JOIN") { return .inner }
    var words: [String] = []
    while peek.kind == .word, SQLKeywords.join.contains(peek.upper), words.count < 3 {
      words.append(advance().upper)
    }
    guard !words.isEmpty else { return nil }
    try expect("JOIN")
    if words.contains("NATURAL") { throw Self.unsupported("NATURAL JOIN") }
    if words.contains("RIGHT") { throw Self.unsupported("RIGHT JOIN") }
    if words.contains("FULL") { throw Self.unsupported("FULL JOIN") }
    switch words {
    case ["INNER"]: return .inner
    case ["CROSS"]: return .cross
    case ["LEFT"], ["LEFT", "OUTER"]: return .left
    default:
      throw Self.sqliteError("unknown join type: \(words.joined(separator: " "))")
    }
  }

  /// One source: a table (or common table) with an optional alias, or a parenthesized subquery,
  /// which becomes a common table named by its alias.
  private mutating func parseSource() throws -> (table: String, alias: String?, notIndexed: Bool) {
    if acceptSymbol("(") {
      let current = scopes.removeLast()
      let body = try parseSelectStatement()
      scopes.append(current)
      try expectSymbol(")")
      let alias = try parseAlias()
      let taken = derivedTables.flatMap { $0.map { $0.name.lowercased() } }
      let name = alias ?? "(subquery-\(taken.count + 1))"
      try addDerivedTable(
        CommonTableExpression(
          name: name, columns: Self.uniqueNames(body.names), select: body.statement, isDerivedTable: true))
      return (name, nil, false)
    }
    let table = try parseTableName()
    if peek.isSymbol("(") { throw Self.unsupported("table-valued function") }
    if !isCommonTable(table), let view = views(table) {
      // A view is read as a subquery named like it (or its alias).
      let alias = try parseAlias()
      if peek.isKeyword("NOT") || peek.isKeyword("INDEXED") { throw Self.unsupported("NOT INDEXED or INDEXED BY on a view") }
      guard let read = try readView(view) else {
        scopes[scopes.count - 1].sources.append(SelectScope.Source(name: alias ?? table, table: table, columns: nil))
        return (table, alias == table ? nil : alias, false)
      }
      let name = alias ?? view.name
      try addDerivedTable(CommonTableExpression(name: name, columns: read.columns, select: read.select, isDerivedTable: true))
      return (name, nil, false)
    }
    let alias = try parseAlias()
    var notIndexed = false
    if peek.isKeyword("NOT") && peek(1).isKeyword("INDEXED") {
      advance()
      advance()
      notIndexed = true
    } else if peek.isKeyword("INDEXED") {
      throw Self.unsupported("INDEXED BY")
    }
    let columns = columnsOfTable(table)
    if columns == nil { deferError("no such table: \(missingTableName(table))") }
    scopes[scopes.count - 1].sources.append(
      SelectScope.Source(
        name: alias ?? table, table: table, columns: columns, rowidAlias: isCommonTable(table) ? nil : rowidAlias(table)))
    return (table, alias == table ? nil : alias, notIndexed)
  }

  /// `[AS] name` after a source.
  private mutating func parseAlias() throws -> String? {
    if accept("AS") { return try parseName() }
    if isIdentifier(peek) || peek.kind == .string { return advance().value }
    return nil
  }

  // MARK: - ORDER BY and GROUP BY

  /// `term [ASC|DESC] [NULLS FIRST|LAST], …`, each term passed through `resolve`.
  private mutating func parseOrderingTerms(
    _ resolve: (inout SQLParser, SQLExpression, Int, Int) throws -> SQLExpression
  ) throws -> [OrderingTerm] {
    var terms: [OrderingTerm] = []
    repeat {
      let start = index
      let parsed = try parseExpression()
      let expression = try resolve(&self, parsed, start, terms.count + 1)
      var descending = false
      if accept("DESC") {
        descending = true
      } else {
        _ = accept("ASC")
      }
      var nulls: OrderingTerm.NullsOrder?
      if accept("NULLS") {
        if accept("FIRST") {
          nulls = .first
        } else {
          try expect("LAST")
          nulls = .last
        }
      }
      terms.append(OrderingTerm(expression, descending: descending, nulls: nulls))
    } while acceptSymbol(",")
    return terms
  }

  /// The expression under any COLLATE, and a function that puts the COLLATEs back.
  static func strippingCollate(
    _ expression: SQLExpression, layers: Int = .max
  ) -> (SQLExpression, (SQLExpression) -> SQLExpression) {
    if layers > 0, case .collate(let inner, let collation) = expression {
      let (core, wrap) = strippingCollate(inner, layers: layers - 1)
      return (core, { .collate(wrap($0), collation) })
    }
    return (expression, { $0 })
  }

  /// The integer a term is, as `sqlite3ExprIsInteger` sees it.
  static func integerTerm(_ expression: SQLExpression) -> Int64? {
    switch expression {
    case .literal(.integer(let value)): value
    case .unary(.plus, let inner): integerTerm(inner)
    case .unary(.negate, let inner): integerTerm(inner).flatMap { $0 == Int64.min ? nil : -$0 }
    default: nil
    }
  }

  /// SQLite's ordinal: 1st, 2nd, 3rd, 4th, 11th…
  static func ordinal(_ number: Int) -> String {
    let suffixes = ["th", "st", "nd", "rd"]
    let lastTwo = number % 100
    let last = number % 10
    let suffix = (11...13).contains(lastTwo) || last > 3 ? "th" : suffixes[last]
    return "\(number)\(suffix)"
  }

  /// An ORDER BY or GROUP BY term that is an integer K: a copy of the K-th result column.
  mutating func resolvePosition(
    _ term: SQLExpression, columns: [SQLExpression], clause: String, ordinal: Int
  ) throws -> SQLExpression? {
    let (core, wrap) = Self.strippingCollate(term)
    guard let position = Self.integerTerm(core) else { return nil }
    guard position >= 1, position <= columns.count else {
      deferError("\(Self.ordinal(ordinal)) \(clause) term out of range - should be between 1 and \(columns.count)")
      return term
    }
    return wrap(columns[Int(position) - 1])
  }

  /// Whether the tokens from `start` to the current one are one identifier (with COLLATEs).
  func isBareIdentifier(from start: Int) -> String? {
    guard start < index, isIdentifier(tokens[start]) || tokens[start].kind == .quotedIdentifier else { return nil }
    var position = start + 1
    while position + 1 < index, tokens[position].isKeyword("COLLATE") { position += 2 }
    return position == index ? tokens[start].value : nil
  }

  /// A simple SELECT's ORDER BY term: an alias, a position, or an expression.
  mutating func resolveOrderTerm(_ term: SQLExpression, start: Int, number: Int, in select: ParsedSelect) throws
    -> SQLExpression
  {
    // The term was read with aliases visible: strip only the COLLATEs written after the name.
    let (_, wrap) = Self.strippingCollate(term, layers: (index - start - 1) / 2)
    if let name = isBareIdentifier(from: start),
      let position = select.aliases.firstIndex(where: { $0?.lowercased() == name.lowercased() })
    {
      return wrap(select.statement.columns[position])
    }
    return try resolvePosition(term, columns: select.statement.columns, clause: "ORDER BY", ordinal: number) ?? term
  }

  /// A compound's ORDER BY: each term names a result column of the first member by position,
  /// by alias, or as an expression equal to a result column of some member.
  private mutating func parseCompoundOrderBy(_ members: [ParsedSelect]) throws -> [OrderingTerm] {
    keepsNamesAsWritten = true
    defer { keepsNamesAsWritten = false }
    let count = members[0].statement.columns.count
    return try parseOrderingTerms { parser, term, start, number in
      if case .collate = term { throw Self.unsupported("COLLATE in the ORDER BY of a compound select") }
      if let position = Self.integerTerm(term) {
        guard position >= 1, position <= count else {
          parser.deferError("\(Self.ordinal(number)) ORDER BY term out of range - should be between 1 and \(count)")
          return .resultColumn(1)
        }
        return .resultColumn(Int(position))
      }
      let name = parser.isBareIdentifier(from: start)
      for member in members {
        if let name, let position = member.aliases.firstIndex(where: { $0?.lowercased() == name.lowercased() }) {
          return .resultColumn(position + 1)
        }
        if let position = member.statement.columns.firstIndex(where: { Self.sameTerm($0, term) }) {
          return .resultColumn(position + 1)
        }
      }
      parser.deferError("\(Self.ordinal(number)) ORDER BY term does not match any column in the result set")
      return .resultColumn(1)
    }
  }

  /// Whether a result column and a term written in a compound's ORDER BY are the same
  /// expression (column names compared case-insensitively, a qualified name equal to a plain one).
  static func sameTerm(_ column: SQLExpression, _ term: SQLExpression) -> Bool {
    func normalized(_ expression: SQLExpression) -> SQLExpression {
      expression.mapped { node in
        switch node {
        case .column(let name): .column(name.lowercased())
        case .qualifiedColumn(_, let name): .column(name.lowercased())
        default: node
        }
      }
    }
    return normalized(column) == normalized(term)
  }
}
