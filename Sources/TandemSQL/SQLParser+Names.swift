import TandemCore

extension SQLParser {
  /// Whether a name is one of SQLite's spellings of the rowid.
  static func isRowidName(_ name: String) -> Bool {
    ["rowid", "_rowid_", "oid"].contains(name.lowercased())
  }

  /// The columns of a table or visible common table, by name (`nil` when there is none).
  func columnsOfTable(_ name: String) -> [String]? {
    let lower = name.lowercased()
    for level in commonTables.reversed() {
      if let columns = level[lower] { return columns ?? [] }
    }
    return schema(name)
  }

  /// Whether a common table of this name is visible.
  func isCommonTable(_ name: String) -> Bool {
    let lower = name.lowercased()
    return commonTables.contains { $0[lower] != nil }
  }

  /// An unqualified name in an expression, resolved as `resolve.c`'s `lookupName` does: a column
  /// of a source in scope (innermost SELECT first), else a result alias of that SELECT where
  /// aliases are visible, else `TRUE`/`FALSE` when not quoted, else a column that names nothing
  /// (the engine reports `no such column`).
  ///
  /// A double-quoted name is never a string: the SQLite backend turns SQLite's legacy
  /// double-quoted strings off, so `SELECT "titel" FROM t` is an error on both engines.
  func resolveColumn(_ name: String, isQuoted: Bool) -> SQLExpression {
    if keepsNamesAsWritten { return .column(name) }
    // The sources passed so far (SQLite's `cntTab`): a rowid name is the rowid only while it
    // counts one, so inside a join it is no source's, and a column of a level around may take it.
    var sourcesPassed = 0
    for (depth, scope) in scopes.reversed().enumerated() {
      if scope.column(named: name) != nil { return .column(name) }
      sourcesPassed += scope.sources.count
      if Self.isRowidName(name), sourcesPassed == 1, let first = scope.sources.first {
        return depth == 0 ? .rowid : .qualifiedRowid(source: first.name)
      }
      if scope.aliasesVisible, let alias = scope.aliases.first(where: { $0.name.lowercased() == name.lowercased() }) {
        return alias.expression
      }
    }
    switch isQuoted ? "" : name.lowercased() {
    case "true": return .literal(.integer(1))
    case "false": return .literal(.integer(0))
    default: return .column(name)
    }
  }

  /// `source.name`: a column of the source, or its rowid.
  func qualifiedColumn(source: String, name: String) -> SQLExpression {
    if !keepsNamesAsWritten, Self.isRowidName(name) {
      for scope in scopes.reversed() {
        if let found = scope.source(named: source) {
          if found.column(named: name) == nil { return .qualifiedRowid(source: source) }
          break
        }
      }
    }
    return .qualifiedColumn(source: source, name: name)
  }

  /// The name SQLite gives a result column without an alias: the declared name of a column
  /// reference; for a rowid, the name of the INTEGER PRIMARY KEY column of its table, or
  /// `rowid` when it has none (`generateColumnNames`); else the expression's text as written.
  ///
  /// ```sql
  /// CREATE TABLE t (x TEXT, id INTEGER PRIMARY KEY);
  /// SELECT rowid, t.oid, x + 1 FROM t   -- named id, id, x + 1
  /// ```
  func resultName(of expression: SQLExpression, text: String) -> String {
    switch expression {
    case .column(let name):
      for scope in scopes.reversed() {
        if let declared = scope.column(named: name) { return declared }
      }
      return text
    case .qualifiedColumn(let source, let name):
      for scope in scopes.reversed() {
        if let found = scope.source(named: source) { return found.column(named: name) ?? text }
      }
      return text
    case .rowid:
      // The rowid of the innermost level with sources; with several, no table's in particular.
      guard let sources = scopes.last(where: { !$0.sources.isEmpty })?.sources, sources.count == 1 else { return "rowid" }
      return sources[0].rowidAlias ?? "rowid"
    case .qualifiedRowid(let source):
      for scope in scopes.reversed() {
        if let found = scope.source(named: source) { return found.rowidAlias ?? "rowid" }
      }
      return "rowid"
    default:
      return text
    }
  }
}
