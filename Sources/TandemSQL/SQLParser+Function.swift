import TandemCore

extension SQLParser {
  /// The functions SQLite has that the query model does not.
  static let unsupportedFunctions: Set<String> = [
    "string_agg", "char", "glob", "hex", "quote", "random", "randomblob", "unicode", "unhex",
    "zeroblob",
    "printf", "format", "likely", "unlikely", "likelihood", "last_insert_rowid", "changes", "total_changes",
    "sqlite_version", "sqlite_source_id", "soundex", "load_extension", "date", "time", "datetime", "julianday",
    "strftime", "unixepoch", "iif", "like", "sign", "octet_length", "concat", "concat_ws", "json", "json_extract",
    "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value",
    "last_value", "nth_value",
  ]

  /// `name(…)` after the name: an aggregate or a scalar function of the model.
  mutating func parseFunctionCall(_ name: String) throws -> SQLExpression {
    try expectSymbol("(")
    var distinct = false
    var star = false
    var arguments: [SQLExpression] = []
    if accept("DISTINCT") {
      distinct = true
      arguments = try parseExpressionList()
    } else if acceptSymbol("*") {
      star = true
    } else {
      _ = accept("ALL")
      if !peek.isSymbol(")") { arguments = try parseExpressionList() }
    }
    if peek.isKeyword("ORDER") { throw Self.unsupported("ORDER BY in an aggregate call") }
    try expectSymbol(")")
    if peek.kind == .word, ["FILTER", "OVER"].contains(peek.upper) { throw Self.unsupported("window function") }
    let lower = name.lowercased()
    let wrongArguments = "wrong number of arguments to function \(name)()"
    if lower == "count" {
      if star || arguments.isEmpty { return .aggregate(.count, nil, distinct: false) }
      guard arguments.count == 1 else {
        deferError(wrongArguments)
        return .literal(.null)
      }
      return .aggregate(.count, arguments[0], distinct: distinct)
    }
    if lower == "group_concat" {
      guard !star, (1...2).contains(arguments.count) else {
        deferError(wrongArguments)
        return .literal(.null)
      }
      // `group_concat(DISTINCT x, y)` is SQLite's error once names are resolved: the engines report it.
      let separator = arguments.count == 2 ? arguments[1] : nil
      return .aggregate(.groupConcat, arguments[0], distinct: distinct, separator: separator)
    }
    let canonical = lower == "substring" ? "substr" : lower
    let isAggregate =
      ["sum", "total", "avg"].contains(lower) || (["min", "max"].contains(lower) && arguments.count <= 1)
    if star && (isAggregate || ScalarFunction(rawValue: canonical) != nil) {
      deferError(wrongArguments)
      return .literal(.null)
    }
    if isAggregate {
      guard arguments.count == 1, let function = AggregateFunction(rawValue: lower) else {
        deferError(wrongArguments)
        return .literal(.null)
      }
      return .aggregate(function, arguments[0], distinct: distinct)
    }
    if let function = ScalarFunction(rawValue: canonical) {
      guard function.arity.contains(arguments.count) else {
        deferError(wrongArguments)
        return .literal(.null)
      }
      return .function(function, arguments)
    }
    if Self.unsupportedFunctions.contains(lower) { throw Self.unsupported("function \(lower)") }
    throw Self.unsupported("function \(name)")
  }
}
