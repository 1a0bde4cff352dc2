import TandemCore

extension SQLParser {
  /// Adds a subquery of FROM (or a view) to the select being parsed, as a common table of that
  /// select, and makes it a source of its scope. A view read twice under its own name (the two
  /// members of `SELECT … FROM v UNION SELECT … FROM v`) is one common table read twice.
  mutating func addDerivedTable(_ table: CommonTableExpression) throws {
    let key = table.name.lowercased()
    let known = derivedTables.joined().first { $0.name.lowercased() == key }
    if let known, known == table {
      scopes[scopes.count - 1].sources.append(SelectScope.Source(name: table.name, table: table.name, columns: table.columns))
      return
    }
    let tablesRead = Statement.select(table.select).tablesRead.map { $0.lowercased() }
    if isCommonTable(table.name) || known != nil || tablesRead.contains(key) {
      throw Self.unsupported("subquery or view in FROM named like a table it reads or a common table")
    }
    derivedTables[derivedTables.count - 1].append(table)
    scopes[scopes.count - 1].sources.append(SelectScope.Source(name: table.name, table: table.name, columns: table.columns))
  }

  /// The SELECT of a view read in FROM, parsed against the tables and views of now, and its
  /// column names; `nil` when SQLite would not read it, the reason deferred as SQLite reports it
  /// (`no such table: main.t` for a table the view reads, `view v is circularly defined`,
  /// `expected 2 columns for 'v' but got 1`).
  mutating func readView(_ view: ViewDefinition) throws -> (select: SelectStatement, columns: [String])? {
    let key = view.name.lowercased()
    if viewsBeingRead.contains(key) {
      deferError("view \(view.name) is circularly defined")
      return nil
    }
    let bytes = Array(view.select.utf8)
    var tokenizer = SQLTokenizer(bytes, position: 0)
    var tokens: [SQLToken] = []
    repeat { tokens.append(tokenizer.next()) } while tokens.last?.kind != .end
    var parser = SQLParser(tokens: tokens, bytes: bytes, schema: schema, views: views, rowidAlias: rowidAlias)
    parser.viewsBeingRead = viewsBeingRead + [key]
    let body = try parser.parseSelectStatement()
    if let error = parser.deferredError {
      deferError(error.message)
      return nil
    }
    if let listed = view.columns, listed.count != body.names.count {
      deferError("expected \(listed.count) columns for '\(view.name)' but got \(body.names.count)")
      return nil
    }
    return (body.statement, Self.uniqueNames(view.columns ?? body.names))
  }

  /// A missing table's name in `no such table`: inside a view, SQLite names it with its schema.
  func missingTableName(_ table: String) -> String {
    viewsBeingRead.isEmpty ? table : "main.\(table)"
  }

  /// Why a statement cannot change the table it names, which is not a table: a view cannot be
  /// changed; any other name is `no such table`.
  func missingWriteTarget(_ table: String) -> String {
    if let view = views(table) { return "cannot modify \(view.name) because it is a view" }
    return "no such table: \(table)"
  }
}
