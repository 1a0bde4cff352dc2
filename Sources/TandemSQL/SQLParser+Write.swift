import TandemCore

extension SQLParser {
  /// `INSERT [OR …] INTO t [(columns)] VALUES … | SELECT … | DEFAULT VALUES [upsert]`, or
  /// `REPLACE INTO …`.
  mutating func parseInsert() throws -> ParsedStatement {
    var conflict = InsertStatement.ConflictResolution.abort
    if accept("REPLACE") {
      conflict = .replace
    } else {
      try expect("INSERT")
      if accept("OR") { conflict = try parseConflictResolution() }
    }
    try expect("INTO")
    let table = try parseTableName()
    if accept("AS") { throw Self.unsupported("INSERT with a table alias") }
    var columns: [String]?
    if acceptSymbol("(") {
      var names = [try parseName()]
      while acceptSymbol(",") { names.append(try parseName()) }
      try expectSymbol(")")
      columns = names
    }
    if accept("DEFAULT") {
      try expect("VALUES")
      if peek.isKeyword("RETURNING") { throw Self.unsupported("RETURNING") }
      return .query(
        .insert(InsertStatement(table: table, columns: [], rows: [[]], conflict: conflict)), resultColumns: [])
    }
    if !peek.isKeyword("VALUES") {
      // `INSERT … SELECT`: the rows come from the select; the columns are those written.
      guard startsSelect(peek) else { throw syntaxError() }
      let select = try parseSelectStatement()
      let width = select.statement.columns.count
      if let known = columnsOfTable(table) {
        if let columns, columns.count != width {
          deferError("\(width) values for \(columns.count) columns")
        } else if columns == nil, known.count != width {
          deferError("table \(table) has \(known.count) columns but \(width) values were supplied")
        }
      } else {
        deferError(missingWriteTarget(table))
      }
      if accept("ON") {
        conflict = try parseUpsert(table: table, columns: columnsOfTable(table) ?? [], resolution: conflict)
      }
      if peek.isKeyword("RETURNING") { throw Self.unsupported("RETURNING") }
      let insert = InsertStatement(table: table, columns: columns ?? [], rows: [], conflict: conflict)
      return .insertSelect(insert, select: select.statement)
    }
    try expect("VALUES")
    scopes.append(SelectScope())
    var rows: [[SQLExpression]] = []
    repeat {
      try expectSymbol("(")
      let row = try parseExpressionList()
      try expectSymbol(")")
      if let first = rows.first, first.count != row.count {
        deferError("all VALUES must have the same number of terms")
      }
      rows.append(row)
    } while acceptSymbol(",")
    scopes.removeLast()
    if peek.kind == .word, ["UNION", "INTERSECT", "EXCEPT", "ORDER", "LIMIT"].contains(peek.upper) {
      throw Self.unsupported("VALUES in a compound")
    }
    let known = columnsOfTable(table)
    if known == nil { deferError(missingWriteTarget(table)) }
    let tableColumns = known ?? []
    let names = columns ?? tableColumns
    let width = rows[0].count
    if let columns, columns.count != width {
      deferError("\(width) values for \(columns.count) columns")
    }
    if columns == nil, known != nil, tableColumns.count != width {
      deferError("table \(table) has \(tableColumns.count) columns but \(width) values were supplied")
    }
    if accept("ON") {
      conflict = try parseUpsert(table: table, columns: tableColumns, resolution: conflict)
    }
    if peek.isKeyword("RETURNING") { throw Self.unsupported("RETURNING") }
    return .query(
      .insert(InsertStatement(table: table, columns: names, rows: rows, conflict: conflict)), resultColumns: [])
  }

  /// `REPLACE | IGNORE | ABORT` after `OR`.
  private mutating func parseConflictResolution() throws -> InsertStatement.ConflictResolution {
    if accept("REPLACE") { return .replace }
    if accept("IGNORE") { return .ignore }
    if accept("ABORT") { return .abort }
    if peek.isKeyword("ROLLBACK") || peek.isKeyword("FAIL") { throw Self.unsupported("OR \(peek.upper)") }
    throw syntaxError()
  }

  /// `CONFLICT [(target)] DO NOTHING | DO UPDATE SET …` after `ON`.
  private mutating func parseUpsert(
    table: String, columns: [String], resolution: InsertStatement.ConflictResolution
  ) throws -> InsertStatement.ConflictResolution {
    try expect("CONFLICT")
    guard case .abort = resolution else { throw Self.unsupported("upsert after INSERT OR or REPLACE") }
    var target: [String] = []
    if acceptSymbol("(") {
      repeat {
        target.append(try parseName())
        if peek.isKeyword("COLLATE") { throw Self.unsupported("COLLATE in an upsert target") }
        if accept("DESC") { throw Self.unsupported("DESC in an upsert target") }
        _ = accept("ASC")
      } while acceptSymbol(",")
      try expectSymbol(")")
      if peek.isKeyword("WHERE") { throw Self.unsupported("WHERE in an upsert target") }
    }
    try expect("DO")
    if accept("NOTHING") {
      if peek.isKeyword("ON") { throw Self.unsupported("more than one ON CONFLICT clause") }
      return .nothing(target: target)
    }
    try expect("UPDATE")
    try expect("SET")
    scopes.append(
      SelectScope(sources: [
        SelectScope.Source(name: table, table: table, columns: columns),
        SelectScope.Source(name: "excluded", table: table, columns: columns),
      ]))
    defer { scopes.removeLast() }
    let assignments = try parseAssignments().map { assignment in
      Assignment(
        column: assignment.column,
        value: assignment.value.mapped { node in
          if case .qualifiedColumn(let source, let name) = node, source.lowercased() == "excluded" {
            return .excluded(name)
          }
          return node
        })
    }
    if peek.isKeyword("WHERE") { throw Self.unsupported("WHERE in an upsert's DO UPDATE") }
    if peek.isKeyword("ON") { throw Self.unsupported("more than one ON CONFLICT clause") }
    return .update(target: target, assignments: assignments)
  }

  /// `column = expr, …`.
  private mutating func parseAssignments() throws -> [Assignment] {
    var assignments: [Assignment] = []
    repeat {
      if peek.isSymbol("(") { throw Self.unsupported("row value assignment") }
      let column = try parseName()
      try expectSymbol("=")
      assignments.append(Assignment(column: column, value: try parseExpression()))
    } while acceptSymbol(",")
    return assignments
  }

  /// `UPDATE t SET … [WHERE …]`.
  mutating func parseUpdate() throws -> UpdateStatement {
    try expect("UPDATE")
    if accept("OR") {
      let keyword = peek.upper
      guard case .abort = try parseConflictResolution() else { throw Self.unsupported("UPDATE OR \(keyword)") }
    }
    let table = try parseTableName()
    if peek.isKeyword("AS") || isIdentifier(peek) { throw Self.unsupported("UPDATE with a table alias") }
    if peek.isKeyword("INDEXED") || peek.isKeyword("NOT") { throw Self.unsupported("INDEXED BY") }
    try expect("SET")
    let columns = columnsOfTable(table)
    if columns == nil { deferError(missingWriteTarget(table)) }
    scopes.append(SelectScope(sources: [SelectScope.Source(name: table, table: table, columns: columns)]))
    defer { scopes.removeLast() }
    let assignments = try parseAssignments()
    if peek.isKeyword("FROM") { throw Self.unsupported("UPDATE … FROM") }
    var filter: SQLExpression?
    if accept("WHERE") { filter = try parseExpression() }
    try refuseTrailingClauses()
    return UpdateStatement(table: table, assignments: assignments, filter: filter)
  }

  /// `DELETE FROM t [WHERE …]`.
  mutating func parseDelete() throws -> DeleteStatement {
    try expect("DELETE")
    try expect("FROM")
    let table = try parseTableName()
    if peek.isKeyword("AS") || isIdentifier(peek) { throw Self.unsupported("DELETE with a table alias") }
    if peek.isKeyword("INDEXED") || peek.isKeyword("NOT") { throw Self.unsupported("INDEXED BY") }
    let columns = columnsOfTable(table)
    if columns == nil { deferError(missingWriteTarget(table)) }
    scopes.append(SelectScope(sources: [SelectScope.Source(name: table, table: table, columns: columns)]))
    defer { scopes.removeLast() }
    var filter: SQLExpression?
    if accept("WHERE") { filter = try parseExpression() }
    try refuseTrailingClauses()
    return DeleteStatement(table: table, filter: filter)
  }

  /// RETURNING, ORDER BY and LIMIT after an UPDATE or DELETE.
  private func refuseTrailingClauses() throws {
    for keyword in ["RETURNING", "ORDER", "LIMIT"] where peek.isKeyword(keyword) {
      throw Self.unsupported(keyword == "RETURNING" ? "RETURNING" : "\(keyword) in UPDATE or DELETE")
    }
  }
}
