import Foundation
import TandemCore

extension SQLParser {
  /// The binding strengths of `parse.y`, loosest first.
  enum Level {
    static let or = 1
    static let and = 2
    static let not = 3
    static let equality = 4
    static let comparison = 5
    static let escape = 6
    static let bitwise = 7
    static let additive = 8
    static let multiplicative = 9
    static let concatenation = 10
    static let collate = 11
    static let unary = 12
  }

  /// An expression (`expr`).
  mutating func parseExpression() throws -> SQLExpression {
    try parseExpression(level: Level.or)
  }

  /// An expression whose infix operators all bind at least as tightly as `minLevel`.
  mutating func parseExpression(level minLevel: Int) throws -> SQLExpression {
    nesting += 1
    defer { nesting -= 1 }
    // An approximation of parse.y's stack: each nested expression holds about one symbol.
    if nesting > 95 { throw Self.sqliteError("parser stack overflow") }
    var left = try parsePrefix()
    var operators = 0
    while true {
      let token = peek
      guard let level = infixLevel(token), level >= minLevel else { return left }
      left = try parseInfix(left, level: level)
      // A chain of operators is a tree as high as it is long (`sqlite3ExprCheckHeight`).
      operators += 1
      if operators + nesting > 1000 {
        throw Self.sqliteError("Expression tree is too large (maximum depth 1000)")
      }
    }
  }

  /// The binding strength of the infix or postfix operator starting at `token`, if it starts one.
  private func infixLevel(_ token: SQLToken) -> Int? {
    switch token.kind {
    case .symbol:
      switch token.text {
      case "=", "==", "!=", "<>": return Level.equality
      case "<", "<=", ">", ">=": return Level.comparison
      case "&", "|", "<<", ">>": return Level.bitwise
      case "+", "-": return Level.additive
      case "*", "/", "%": return Level.multiplicative
      case "||", "->", "->>": return Level.concatenation
      default: return nil
      }
    case .word:
      switch token.upper {
      case "OR": return Level.or
      case "AND": return Level.and
      case "IS", "ISNULL", "NOTNULL", "LIKE", "GLOB", "MATCH", "REGEXP", "BETWEEN", "IN": return Level.equality
      case "NOT": return Level.equality
      case "COLLATE": return Level.collate
      default: return nil
      }
    default:
      return nil
    }
  }

  private mutating func parseInfix(_ left: SQLExpression, level: Int) throws -> SQLExpression {
    let token = advance()
    let next = level + 1
    if token.kind == .symbol {
      switch token.text {
      case "=", "==": return .binary(.equal, left, try parseExpression(level: next))
      case "!=", "<>": return .binary(.notEqual, left, try parseExpression(level: next))
      case "<": return .binary(.less, left, try parseExpression(level: next))
      case "<=": return .binary(.lessOrEqual, left, try parseExpression(level: next))
      case ">": return .binary(.greater, left, try parseExpression(level: next))
      case ">=": return .binary(.greaterOrEqual, left, try parseExpression(level: next))
      case "+": return .binary(.add, left, try parseExpression(level: next))
      case "-": return .binary(.subtract, left, try parseExpression(level: next))
      case "*": return .binary(.multiply, left, try parseExpression(level: next))
      case "/": return .binary(.divide, left, try parseExpression(level: next))
      case "%": return .binary(.remainder, left, try parseExpression(level: next))
      case "||": return .binary(.concatenate, left, try parseExpression(level: next))
      default:
        let right = try parseExpression(level: next)
        // The model has no bitwise operators; between integer constants they are constants.
        if let folded = BitwiseConstant.fold(token.text, left, right) { return folded }
        throw Self.unsupported("\(token.text) operator")
      }
    }
    switch token.upper {
    case "OR": return .binary(.or, left, try parseExpression(level: next))
    case "AND": return .binary(.and, left, try parseExpression(level: next))
    case "ISNULL": return .isNull(left, negated: false)
    case "NOTNULL": return .isNull(left, negated: true)
    case "IS":
      var negated = accept("NOT")
      if accept("DISTINCT") {
        try expect("FROM")
        negated.toggle()
      }
      let right = try parseExpression(level: next)
      if right == .literal(.null) { return .isNull(left, negated: negated) }
      return .binary(negated ? .isNot : .is, left, right)
    case "COLLATE":
      let name = try parseIdentifier(allowString: true)
      guard let collation = Collation(rawValue: name.uppercased()) else {
        throw Self.unsupported("COLLATE \(name)")
      }
      return .collate(left, collation)
    case "NOT":
      guard ["LIKE", "GLOB", "MATCH", "REGEXP", "BETWEEN", "IN", "NULL"].contains(peek.upper) else {
        throw syntaxError()
      }
      return try parseNegatable(left, negated: true, keyword: advance().upper)
    default:
      return try parseNegatable(left, negated: false, keyword: token.upper)
    }
  }

  /// The rest of `[NOT] LIKE | GLOB | BETWEEN | IN | NULL` after the keyword.
  private mutating func parseNegatable(_ left: SQLExpression, negated: Bool, keyword: String) throws -> SQLExpression {
    switch keyword {
    case "NULL":
      return .isNull(left, negated: true)
    case "LIKE", "GLOB", "MATCH", "REGEXP":
      let written = tokens[index - 1].text
      let pattern = try parseExpression(level: Level.comparison)
      var escape: SQLExpression?
      if accept("ESCAPE") { escape = try parseExpression(level: Level.bitwise) }
      switch keyword {
      case "LIKE": return .like(left, pattern: pattern, escape: escape, negated: negated)
      case "GLOB" where escape == nil: return .glob(left, pattern: pattern, negated: negated)
      case "GLOB":
        deferError("wrong number of arguments to function \(written)()")
        return .glob(left, pattern: pattern, negated: negated)
      default: throw Self.unsupported(keyword)
      }
    case "BETWEEN":
      // Inside `BETWEEN … AND` every operator but AND extends the low bound, as parse.y's LALR
      // table shifts them: an OR takes an ordinary right operand, ANDs included
      // (`x BETWEEN 1 OR 0 AND 3` lacks its AND). After the AND, operators of BETWEEN's own
      // level end the high bound.
      var low = try parseExpression(level: Level.equality)
      while accept("OR") { low = .binary(.or, low, try parseExpression(level: Level.and)) }
      try expect("AND")
      let high = try parseExpression(level: Level.comparison)
      return .between(left, low, high, negated: negated)
    default:
      return try parseIn(left, negated: negated)
    }
  }

  /// The rest of `[NOT] IN` after the keyword: `(list)`, `(SELECT …)` or a table name.
  private mutating func parseIn(_ left: SQLExpression, negated: Bool) throws -> SQLExpression {
    if acceptSymbol("(") {
      if startsSelect(peek) {
        let select = try parseSelectStatement()
        try expectSymbol(")")
        return .inSubquery(left, select.statement, negated: negated)
      }
      var list: [SQLExpression] = []
      if !peek.isSymbol(")") { list = try parseExpressionList() }
      try expectSymbol(")")
      return .inList(left, list, negated: negated)
    }
    let table = try parseTableName()
    if peek.isSymbol("(") { throw Self.unsupported("table-valued function") }
    let columns = columnsOfTable(table) ?? []
    if columnsOfTable(table) == nil { deferError("no such table: \(missingTableName(table))") }
    let select = SelectStatement(table: table, columns: columns.map { .column($0) })
    return .inSubquery(left, select, negated: negated)
  }

  /// Whether the token starts a SELECT statement (inside parentheses).
  func startsSelect(_ token: SQLToken) -> Bool {
    token.isKeyword("SELECT") || token.isKeyword("WITH") || token.isKeyword("VALUES")
  }

  /// `expr, expr, …`.
  mutating func parseExpressionList() throws -> [SQLExpression] {
    var list = [try parseExpression()]
    while acceptSymbol(",") { list.append(try parseExpression()) }
    return list
  }

  // MARK: - Prefix operators and terms

  private mutating func parsePrefix() throws -> SQLExpression {
    let token = peek
    if token.isKeyword("NOT") {
      advance()
      return .unary(.not, try parseExpression(level: Level.not))
    }
    if token.isSymbol("-") {
      advance()
      let start = index
      let pending = deferredError
      let operand = try parseExpression(level: Level.unary)
      let written = text(from: start)
      if pending == nil, let error = deferredError, error.message.hasPrefix("hex literal too big: "),
        written.filter({ $0 != "(" && $0 != ")" && !$0.isWhitespace }) == error.message.dropFirst(21)
      {
        deferredError = Self.sqliteError("hex literal too big: -" + error.message.dropFirst(21))
      }
      return negated(operand, text: written)
    }
    if token.isSymbol("+") {
      advance()
      let operand = try parseExpression(level: Level.unary)
      // `+` changes nothing but a column's affinity: on a literal it is the literal.
      if case .literal = operand { return operand }
      return .unary(.plus, operand)
    }
    if token.isSymbol("~") {
      advance()
      let operand = try parseExpression(level: Level.unary)
      if let folded = BitwiseConstant.fold("~", operand, nil) { return folded }
      throw Self.unsupported("~ operator")
    }
    return try parseTerm()
  }

  /// `-operand`: a numeric literal negated in place, as the typed API writes negative numbers
  /// (`-9223372036854775808` is the smallest integer, as in SQLite).
  private func negated(_ operand: SQLExpression, text: String) -> SQLExpression {
    switch operand {
    case .literal(.integer(let value)) where value != Int64.min:
      return .literal(.integer(-value))
    case .literal(.real(let value)):
      let digits = text.filter { $0 != "(" && $0 != ")" && !$0.isWhitespace }
      if digits == "9223372036854775808" { return .literal(.integer(Int64.min)) }
      return .literal(.real(-value))
    default:
      return .unary(.negate, operand)
    }
  }

  /// A term: a literal, parameter, column, function call, CAST, CASE, EXISTS or parenthesized expression.
  private mutating func parseTerm() throws -> SQLExpression {
    let token = peek
    switch token.kind {
    case .integer:
      advance()
      return .literal(integerValue(token))
    case .float:
      advance()
      return .literal(.real(Self.realValue(token.text)))
    case .string:
      advance()
      return .literal(.text(token.value))
    case .blob:
      advance()
      return .literal(.blob(Self.blobValue(token.value)))
    case .variable:
      advance()
      return .parameter("?\(try parameters.index(of: token.text))")
    case .symbol where token.text == "(":
      advance()
      if startsSelect(peek) {
        let select = try parseSelectStatement()
        try expectSymbol(")")
        return .subquery(select.statement)
      }
      let list = try parseExpressionList()
      try expectSymbol(")")
      guard list.count == 1 else { throw Self.unsupported("row value") }
      return list[0]
    case .word, .quotedIdentifier:
      return try parseWordTerm()
    default:
      throw syntaxError()
    }
  }

  private mutating func parseWordTerm() throws -> SQLExpression {
    let token = peek
    switch token.upper {
    case "NULL":
      advance()
      return .literal(.null)
    case "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP":
      advance()
      throw Self.unsupported(token.upper)
    case "CAST" where peek(1).isSymbol("("):
      advance()
      advance()
      let operand = try parseExpression()
      try expect("AS")
      let type = peek.isSymbol(")") ? "" : try parseTypeName()
      try expectSymbol(")")
      return .cast(operand, as: DeclaredType(type).castType)
    case "CASE":
      advance()
      return try parseCase()
    case "EXISTS":
      advance()
      try expectSymbol("(")
      let select = try parseSelectStatement()
      try expectSymbol(")")
      return .exists(select.statement, negated: false)
    case "RAISE":
      throw Self.unsupported("RAISE")
    default:
      break
    }
    let isName =
      isIdentifier(token)
      || (token.kind == .word && (SQLKeywords.join.contains(token.upper) || token.upper == "INDEXED"))
    guard isName else { throw syntaxError() }
    advance()
    if peek.isSymbol("(") { return try parseFunctionCall(token.value) }
    if acceptSymbol(".") {
      let column = try parseName()
      if acceptSymbol(".") {
        _ = try parseName()
        throw Self.unsupported("schema-qualified column")
      }
      return qualifiedColumn(source: token.value, name: column)
    }
    return resolveColumn(token.value, isQuoted: token.text.first.map { "\"[`".contains($0) } ?? false)
  }

  /// A type name: one or more names, then an optional `(size)` or `(size, size)`.
  mutating func parseTypeName() throws -> String {
    var words: [String] = []
    // A type name is `ids+`; reserved words end it, and so does GENERATED after the first word.
    while isName(peek), words.isEmpty || !peek.isKeyword("GENERATED") {
      words.append(advance().value)
    }
    guard !words.isEmpty else { throw syntaxError() }
    if acceptSymbol("(") {
      try parseSignedNumber()
      if acceptSymbol(",") { try parseSignedNumber() }
      try expectSymbol(")")
    }
    return words.joined(separator: " ")
  }

  private mutating func parseSignedNumber() throws {
    if peek.isSymbol("+") || peek.isSymbol("-") { advance() }
    guard peek.kind == .integer || peek.kind == .float else { throw syntaxError() }
    advance()
  }

  /// The rest of a CASE expression after `CASE`.
  private mutating func parseCase() throws -> SQLExpression {
    var base: SQLExpression?
    if !peek.isKeyword("WHEN") { base = try parseExpression() }
    var branches: [CaseBranch] = []
    while accept("WHEN") {
      let condition = try parseExpression()
      try expect("THEN")
      branches.append(CaseBranch(when: condition, then: try parseExpression()))
    }
    guard !branches.isEmpty else { throw syntaxError() }
    var otherwise: SQLExpression?
    if accept("ELSE") { otherwise = try parseExpression() }
    try expect("END")
    return .caseWhen(base: base, branches: branches, else: otherwise)
  }

  // MARK: - Literals

  /// An integer token's value: too large a decimal becomes REAL, too large a hex is an error.
  private mutating func integerValue(_ token: SQLToken) -> SqliteValue {
    let text = token.text
    if text.count > 2, text.hasPrefix("0x") || text.hasPrefix("0X") {
      let digits = text.dropFirst(2).drop { $0 == "0" }
      guard digits.count <= 16, let bits = UInt64(digits.isEmpty ? "0" : String(digits), radix: 16) else {
        deferError("hex literal too big: \(text)")
        return .integer(0)
      }
      return .integer(Int64(bitPattern: bits))
    }
    if let value = Int64(text) { return .integer(value) }
    return .real(Self.realValue(text))
  }

  /// A real token's value (`1.5e3`, `.5`, `1.`).
  static func realValue(_ text: String) -> Double {
    var normalized = text
    if normalized.hasPrefix(".") { normalized = "0" + normalized }
    if let dot = normalized.firstIndex(of: "."),
      normalized.index(after: dot) == normalized.endIndex
        || !normalized[normalized.index(after: dot)].isNumber
    {
      normalized.insert("0", at: normalized.index(after: dot))
    }
    return Double(normalized) ?? .infinity
  }

  /// The bytes of a blob literal's hex digits.
  static func blobValue(_ hex: String) -> Data {
    var data = Data()
    let digits = Array(hex.utf8)
    var position = 0
    while position + 1 < digits.count {
      let pair = String(decoding: digits[position...position + 1], as: UTF8.self)
      data.append(UInt8(pair, radix: 16) ?? 0)
      position += 2
    }
    return data
  }
}
