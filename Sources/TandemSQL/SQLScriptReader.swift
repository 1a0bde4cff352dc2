import TandemCore

/// Reads the statements of a SQL script one at a time, parsed into the query model.
///
/// Each call parses one statement, so a table created earlier in the script can be looked up
/// by the `schema` closure when the statements after it are read.
///
/// ```swift
/// var reader = SQLScriptReader("CREATE TABLE t(a INTEGER); SELECT a + 1 AS b FROM t;")
/// while let parsed = try reader.next(schema: { name in name == "t" ? ["a"] : nil }) {
///   print(parsed.statement)  // .createTable(…), then .query(.select(…), resultColumns: ["b"])
/// }
/// ```
public struct SQLScriptReader {
  /// The script's UTF-8 bytes.
  private let bytes: [UInt8]
  /// Where the next statement starts.
  private var position = 0

  /// A reader of the statements of `sql`.
  ///
  /// ```swift
  /// var reader = SQLScriptReader("BEGIN; COMMIT")
  /// ```
  public init(_ sql: String) {
    bytes = Array(sql.utf8)
  }

  /// The next statement of the script, or nil when only whitespace, comments and `;` remain.
  /// `schema` gives the column names of a table by name (nil when there is no such table); it is
  /// used to expand `*` / `t.*` and to tell a column from a result alias. `views` gives the view
  /// of a name: a view read in FROM becomes a common table holding its SELECT.
  ///
  /// Errors are SQLite's (`TandemError.sqlite`, code 1: `near "FROM": syntax error`,
  /// `incomplete input`, `unrecognized token: "…"`) or ``TandemError/unsupported(_:backend:)``
  /// for what the query model cannot hold. After an error the reader moves on to the next statement.
  ///
  /// `rowidAlias` names a table's INTEGER PRIMARY KEY column, if it has one: SQLite names a
  /// result column reading the table's rowid after it.
  ///
  /// ```swift
  /// var reader = SQLScriptReader("SELECT 1 AS one")
  /// try reader.next(schema: { _ in nil })?.statement  // .query(.select(…), resultColumns: ["one"])
  /// ```
  public mutating func next(
    schema: (String) -> [String]?, views: (String) -> ViewDefinition? = { _ in nil },
    rowidAlias: (String) -> String? = { _ in nil }
  ) throws -> ParsedSQL? {
    var tokenizer = SQLTokenizer(bytes, position: position)
    var tokens: [SQLToken] = []
    while true {
      let token = tokenizer.next()
      if token.kind == .semicolon, tokens.isEmpty { continue }
      tokens.append(token)
      if token.kind == .end { break }
      // A trigger's body holds statements: its own `;` comes after END (`sqlite3_complete`).
      if token.kind == .semicolon, !Self.isInsideTrigger(tokens) { break }
    }
    position = tokenizer.position
    guard tokens.count > 1 else { return nil }
    let text = String(decoding: bytes[tokens[0].start..<tokens[tokens.count - 2].end], as: UTF8.self)
    return try withoutActuallyEscaping(schema) { schema in
      try withoutActuallyEscaping(views) { views in
        try withoutActuallyEscaping(rowidAlias) { rowidAlias in
          var parser = SQLParser(tokens: tokens, bytes: bytes, schema: schema, views: views, rowidAlias: rowidAlias)
          do {
            let statement = try parser.parseStatement()
            return ParsedSQL(statement: statement, sql: text, parameterNames: parser.parameters.names)
          } catch let error as TandemError {
            throw error.kind == .sqlite ? TandemError.sqlite(code: 1, message: error.message, sql: text) : error
          }
        }
      }
    }
  }

  /// Whether the tokens so far (ending with `;`) are a CREATE TRIGGER whose body has not ended.
  private static func isInsideTrigger(_ tokens: [SQLToken]) -> Bool {
    let words = tokens.prefix(4).map(\.upper)
    guard words.first == "CREATE", words.dropFirst().prefix(2).contains("TRIGGER") else { return false }
    return tokens.count < 2 || !tokens[tokens.count - 2].isKeyword("END")
  }
}
