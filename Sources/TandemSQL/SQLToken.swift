/// One token of SQL text, as SQLite's tokenizer (`tokenize.c`) splits it.
///
/// ```swift
/// // SELECT a FROM "t"
/// // .word "SELECT", .word "a", .word "FROM", .quotedIdentifier "t"
/// ```
struct SQLToken: Sendable, Hashable {
  /// What kind of token this is.
  enum Kind: Sendable, Hashable {
    /// A bare word: a keyword or an identifier.
    case word
    /// An identifier in `"…"`, `[…]` or `` `…` ``.
    case quotedIdentifier
    /// A string literal `'…'`.
    case string
    /// A blob literal `X'…'`.
    case blob
    /// An integer literal (decimal or hexadecimal).
    case integer
    /// A real literal.
    case float
    /// A parameter: `?`, `?NNN`, `:name`, `@name`, `$name`.
    case variable
    /// An operator or punctuation: `(`, `)`, `,`, `.`, `=`, `==`, `<>`, `||`, `->>`…
    case symbol
    /// `;`.
    case semicolon
    /// Text SQLite does not recognize (`unrecognized token`).
    case illegal
    /// The end of the text.
    case end
  }

  var kind: Kind
  /// The token's text as written.
  var text: String
  /// The decoded value: the identifier's name without quotes, the string's contents.
  var value: String
  /// The token's byte range in the script.
  var start: Int
  var end: Int

  /// The keyword this token spells (upper-cased), when it is a bare word.
  var upper: String { kind == .word ? text.uppercased() : "" }

  /// Whether the token is the bare keyword `keyword` (given upper-case).
  func isKeyword(_ keyword: String) -> Bool {
    kind == .word && text.count == keyword.count && text.uppercased() == keyword
  }

  /// Whether the token is the symbol `symbol`.
  func isSymbol(_ symbol: String) -> Bool { kind == .symbol && text == symbol }
}
