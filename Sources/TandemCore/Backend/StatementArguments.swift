/// The values bound to the parameters of SQL text: by position (`?`, `?NNN`, and named
/// parameters by their index) or by name (`:name`, `@name`, `$name`).
///
/// ```swift
/// try db.execute(sql: "INSERT INTO t(a, b) VALUES (?, ?)", arguments: [1, "x"])
/// try db.fetchAll(sql: "SELECT * FROM t WHERE a = :a", arguments: ["a": 1])
/// ```
///
/// Values are always bound, never spliced into the SQL text.
public struct StatementArguments: Sendable, Hashable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
  /// Values by position: the first goes to parameter 1.
  public var positional: [SqliteValue]
  /// Values by parameter name, without its `:`, `@` or `$`.
  public var named: [String: SqliteValue]

  /// Arguments by position.
  ///
  /// ```swift
  /// StatementArguments([1, "x"])
  /// ```
  public init(_ values: [SqliteValue] = []) {
    positional = values
    named = [:]
  }

  /// Arguments by name.
  ///
  /// ```swift
  /// StatementArguments(named: ["id": 1])
  /// ```
  public init(named values: [String: SqliteValue]) {
    positional = []
    named = values
  }

  /// `[1, "x"]`: arguments by position.
  public init(arrayLiteral elements: SqliteValue...) { self.init(elements) }

  /// `["id": 1]`: arguments by name.
  public init(dictionaryLiteral elements: (String, SqliteValue)...) {
    self.init(named: Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }

  /// Whether no value is given.
  public var isEmpty: Bool { positional.isEmpty && named.isEmpty }

  /// The values for one statement's parameters, in SQLite's parameter order, taking positional
  /// values from `cursor` on (a script's statements take them in turn) and moving it past them.
  ///
  /// `names` holds each parameter's name as `sqlite3_bind_parameter_name` gives it (`":id"`,
  /// `"?2"`, `nil` for `?`). Throws ``TandemError/misuse(_:)`` when a value is missing, or when a
  /// named parameter meets positional values only.
  ///
  /// ```swift
  /// var cursor = 0
  /// try StatementArguments(["a", "b"]).values(for: [nil, nil], cursor: &cursor)  // ["a", "b"]
  /// ```
  public func values(for names: [String?], cursor: inout Int) throws -> [SqliteValue] {
    if names.isEmpty { return [] }
    if !named.isEmpty {
      return try names.enumerated().map { index, name in
        guard let name, let first = name.first, first != "?" else {
          throw TandemError.misuse("parameter \(index + 1) has no name, and the arguments are given by name")
        }
        guard let value = named[String(name.dropFirst())] else {
          throw TandemError.misuse("missing value for parameter \(name)")
        }
        return value
      }
    }
    guard cursor + names.count <= positional.count else {
      throw TandemError.misuse(
        "\(positional.count) arguments for \(cursor + names.count) parameters; give one value per parameter")
    }
    defer { cursor += names.count }
    return Array(positional[cursor..<cursor + names.count])
  }

  /// Throws ``TandemError/misuse(_:)`` when positional values remain after the last statement
  /// took its own (`cursor` is how many were taken).
  ///
  /// ```swift
  /// try StatementArguments([1, 2]).checkAllUsed(cursor: 1)  // throws: 2 arguments for 1 parameter
  /// ```
  public func checkAllUsed(cursor: Int) throws {
    guard named.isEmpty, cursor != positional.count else { return }
    throw TandemError.misuse("\(positional.count) arguments for \(cursor) parameters; give one value per parameter")
  }
}
