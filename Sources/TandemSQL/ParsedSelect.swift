import TandemCore

/// A SELECT as the parser reads it: the statement, the names of its result columns, and (for one
/// member of a compound) what its ORDER BY may refer to.
///
/// ```swift
/// // SELECT a AS x FROM t
/// ParsedSelect(statement: select, names: ["x"], aliases: ["x"])
/// ```
struct ParsedSelect: Sendable {
  /// The statement.
  var statement: SelectStatement
  /// The names SQLite gives its result columns.
  var names: [String]
  /// The `AS` alias of each result column, `nil` where there is none.
  var aliases: [String?] = []
  /// The names its expressions saw (its sources), for an ORDER BY resolved after it.
  var scope = SelectScope()
}

extension ParsedSelect {
  /// Appends every column of `source` as `*` or `source.*` expands it: unqualified when it is
  /// the only source of its select (`sourceCount`), qualified otherwise, named by the column.
  mutating func appendAllColumns(of source: SelectScope.Source, amongSources sourceCount: Int) {
    for column in source.columns ?? [] {
      statement.columns.append(sourceCount == 1 ? .column(column) : .qualifiedColumn(source: source.name, name: column))
      names.append(column)
      aliases.append(nil)
    }
  }
}
