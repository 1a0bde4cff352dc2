import TandemCore

/// A recursive-descent parser of one SQLite statement into the query model.
///
/// It follows SQLite 3.40's grammar (`parse.y`) and its name resolution (`resolve.c`) closely
/// enough to give the same answer and the same syntax errors; what the query model cannot hold
/// is refused with ``TandemError/unsupported(_:backend:)``.
///
/// ```swift
/// var parser = SQLParser(tokens: tokens, bytes: bytes, schema: { _ in ["a"] })
/// let statement = try parser.parseStatement()  // .query(.select(…), resultColumns: ["a"])
/// ```
struct SQLParser {
  /// The statement's tokens, ending with a `;` or the end token.
  let tokens: [SQLToken]
  /// The script's bytes (for the text of result columns as written).
  let bytes: [UInt8]
  /// The columns of a table by name.
  let schema: (String) -> [String]?
  /// The view of a name, if one has it.
  let views: (String) -> ViewDefinition?
  /// The INTEGER PRIMARY KEY column of a table by name, if it has one.
  let rowidAlias: (String) -> String?
  /// The views being read, outermost first, lower-cased (a view that reads itself is
  /// `circularly defined`); not empty while the SELECT of a view is parsed.
  var viewsBeingRead: [String] = []
  /// The position of the next token.
  var index = 0
  /// The statement's parameters.
  var parameters = ParameterList()
  /// The scopes of the SELECTs being parsed, innermost last.
  var scopes: [SelectScope] = []
  /// The common tables visible, innermost last: lower-cased name → columns (nil: not known yet).
  var commonTables: [[String: [String]?]] = []
  /// The subqueries of FROM clauses turned into common tables, per select being parsed.
  var derivedTables: [[CommonTableExpression]] = []
  /// When set, identifiers are kept as written (a compound's ORDER BY, matched later).
  var keepsNamesAsWritten = false
  /// The first error SQLite reports only after the whole statement has parsed (name resolution,
  /// argument counts, hex literals): a syntax error later in the text comes first.
  var deferredError: TandemError?
  /// How many expressions are being read inside one another (SQLite's parser stack holds 100
  /// symbols; deeper text is `parser stack overflow`, and the guard keeps recursion bounded).
  var nesting = 0
  /// A recursive common table without a column list whose body is about to be read: its columns
  /// are named by the body's first member.
  var recursiveTableAwaitingColumns: (name: String, level: Int)?

  static let backend = "memory"

  init(
    tokens: [SQLToken], bytes: [UInt8], schema: @escaping (String) -> [String]?,
    views: @escaping (String) -> ViewDefinition? = { _ in nil }, rowidAlias: @escaping (String) -> String? = { _ in nil }
  ) {
    self.tokens = tokens
    self.bytes = bytes
    self.schema = schema
    self.views = views
    self.rowidAlias = rowidAlias
  }

  // MARK: - Tokens

  var peek: SQLToken { tokens[min(index, tokens.count - 1)] }

  func peek(_ offset: Int) -> SQLToken { tokens[min(index + offset, tokens.count - 1)] }

  @discardableResult
  mutating func advance() -> SQLToken {
    let token = peek
    if index < tokens.count - 1 { index += 1 }
    return token
  }

  /// Consumes the keyword if it comes next.
  mutating func accept(_ keyword: String) -> Bool {
    guard peek.isKeyword(keyword) else { return false }
    advance()
    return true
  }

  /// Consumes the symbol if it comes next.
  mutating func acceptSymbol(_ symbol: String) -> Bool {
    guard peek.isSymbol(symbol) else { return false }
    advance()
    return true
  }

  mutating func expect(_ keyword: String) throws {
    guard accept(keyword) else { throw syntaxError() }
  }

  mutating func expectSymbol(_ symbol: String) throws {
    guard acceptSymbol(symbol) else { throw syntaxError() }
  }

  /// SQLite's error for the token where parsing stopped.
  func syntaxError(at token: SQLToken? = nil) -> TandemError {
    let token = token ?? peek
    switch token.kind {
    case .end: return Self.sqliteError("incomplete input")
    case .illegal: return Self.sqliteError("unrecognized token: \"\(token.text)\"")
    default: return Self.sqliteError("near \"\(token.text)\": syntax error")
    }
  }

  static func sqliteError(_ message: String) -> TandemError {
    TandemError.sqlite(code: 1, message: message, sql: nil)
  }

  /// Keeps the first error found while resolving names, to throw once the statement has parsed.
  mutating func deferError(_ message: String) {
    if deferredError == nil { deferredError = Self.sqliteError(message) }
  }

  static func unsupported(_ construct: String) -> TandemError {
    TandemError.unsupported(construct, backend: backend)
  }

  /// The source text from the start of token `first` to the end of the token before the current one.
  func text(from first: Int) -> String {
    guard first < index else { return "" }
    return String(decoding: bytes[tokens[first].start..<tokens[index - 1].end], as: UTF8.self)
  }

  /// The source text from the start of token `first` to the start of the current token, without
  /// trailing spaces: comments after an expression belong to its span, as in SQLite.
  func span(from first: Int) -> String {
    guard first < index else { return "" }
    var end = tokens[index].start
    while end > tokens[first].start, [0x20, 0x09, 0x0A, 0x0C, 0x0D].contains(bytes[end - 1]) { end -= 1 }
    return String(decoding: bytes[tokens[first].start..<end], as: UTF8.self)
  }

  // MARK: - Names

  /// Whether the token can be an identifier (`id`): a word that is not reserved, or quoted.
  func isIdentifier(_ token: SQLToken) -> Bool {
    switch token.kind {
    case .quotedIdentifier: true
    case .word: !SQLKeywords.isReserved(token.upper)
    default: false
    }
  }

  /// Whether the token can be a name (`nm`): an identifier, a string or a join keyword.
  func isName(_ token: SQLToken) -> Bool {
    isIdentifier(token) || token.kind == .string || (token.kind == .word && SQLKeywords.join.contains(token.upper))
  }

  /// A name (`nm`).
  mutating func parseName() throws -> String {
    guard isName(peek) else { throw syntaxError() }
    return advance().value
  }

  /// An identifier (`id`, or a string where SQLite's `ids` accepts one).
  mutating func parseIdentifier(allowString: Bool = false) throws -> String {
    guard isIdentifier(peek) || (allowString && peek.kind == .string) else { throw syntaxError() }
    return advance().value
  }

  /// `name [. name]`: refuses a schema-qualified name.
  mutating func parseTableName() throws -> String {
    let name = try parseName()
    if acceptSymbol(".") {
      _ = try parseName()
      throw Self.unsupported("schema-qualified table name")
    }
    return name
  }

  // MARK: - Statements

  /// Parses the statement and checks that it ends with `;` or the end of the text.
  mutating func parseStatement() throws -> ParsedStatement {
    let statement = try parseStatementBody()
    guard peek.kind == .semicolon || peek.kind == .end else { throw syntaxError() }
    if let deferredError { throw deferredError }
    return statement
  }

  private mutating func parseStatementBody() throws -> ParsedStatement {
    let first = peek
    guard first.kind == .word else { throw syntaxError() }
    switch first.upper {
    case "SELECT", "VALUES":
      let select = try parseSelectStatement()
      return .query(.select(select.statement), resultColumns: select.names)
    case "WITH":
      if let kind = statementAfterWith(), kind != "SELECT" {
        throw Self.unsupported("WITH before \(kind)")
      }
      let select = try parseSelectStatement()
      return .query(.select(select.statement), resultColumns: select.names)
    case "INSERT", "REPLACE": return try parseInsert()
    case "UPDATE": return .query(.update(try parseUpdate()), resultColumns: [])
    case "DELETE": return .query(.delete(try parseDelete()), resultColumns: [])
    case "CREATE": return try parseCreate()
    case "DROP": return try parseDrop()
    case "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE": return .transaction(try parseTransaction())
    case "REINDEX":
      _ = advance()
      if peek.kind == .semicolon || peek.kind == .end { return .reindex(nil) }
      return .reindex(try parseTableName())
    case "PRAGMA", "ATTACH", "DETACH", "ANALYZE", "VACUUM", "ALTER", "EXPLAIN":
      throw Self.unsupported(first.upper)
    default:
      throw syntaxError()
    }
  }

  /// The statement a `WITH` clause introduces (the first of SELECT, INSERT, REPLACE, UPDATE, DELETE
  /// at parenthesis depth 0).
  private func statementAfterWith() -> String? {
    var depth = 0
    for token in tokens[index...] {
      if token.isSymbol("(") { depth += 1 }
      if token.isSymbol(")") { depth -= 1 }
      if depth == 0, token.kind == .word,
        ["SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "VALUES"].contains(token.upper)
      {
        return token.upper
      }
    }
    return nil
  }

  /// `BEGIN`, `COMMIT`/`END`, `ROLLBACK [TO …]`, `SAVEPOINT`, `RELEASE`.
  private mutating func parseTransaction() throws -> TransactionControl {
    let keyword = advance().upper
    switch keyword {
    case "BEGIN":
      if peek.isKeyword("DEFERRED") || peek.isKeyword("IMMEDIATE") || peek.isKeyword("EXCLUSIVE") { advance() }
      _ = accept("TRANSACTION")
      return .begin
    case "COMMIT", "END":
      _ = accept("TRANSACTION")
      return .commit
    case "ROLLBACK":
      _ = accept("TRANSACTION")
      guard accept("TO") else { return .rollback }
      _ = accept("SAVEPOINT")
      return .rollbackTo(try parseName())
    case "SAVEPOINT":
      return .savepoint(try parseName())
    default:
      _ = accept("SAVEPOINT")
      return .release(try parseName())
    }
  }
}
