import TandemCore

extension SQLParser {
  /// `CREATE TABLE`, `CREATE [UNIQUE] INDEX` or `CREATE [TEMP] VIEW`; other CREATE statements
  /// are refused.
  mutating func parseCreate() throws -> ParsedStatement {
    try expect("CREATE")
    if peek.isKeyword("TEMP") || peek.isKeyword("TEMPORARY") {
      guard peek(1).isKeyword("VIEW") else { throw Self.unsupported("CREATE TEMP") }
      advance()
      advance()
      return try parseCreateView(isTemporary: true)
    }
    if accept("VIEW") { return try parseCreateView(isTemporary: false) }
    if accept("TABLE") { return try parseCreateTable() }
    if accept("UNIQUE") {
      try expect("INDEX")
      return try parseCreateIndex(unique: true)
    }
    if accept("INDEX") { return try parseCreateIndex(unique: false) }
    for keyword in ["TRIGGER", "VIRTUAL"] where peek.isKeyword(keyword) {
      throw Self.unsupported("CREATE \(keyword)")
    }
    throw syntaxError()
  }

  /// `DROP TABLE | INDEX | VIEW [IF EXISTS] name`.
  mutating func parseDrop() throws -> ParsedStatement {
    try expect("DROP")
    let kind: String
    if accept("TABLE") {
      kind = "TABLE"
    } else if accept("INDEX") {
      kind = "INDEX"
    } else if accept("VIEW") {
      kind = "VIEW"
    } else {
      if peek.isKeyword("TRIGGER") { throw Self.unsupported("DROP TRIGGER") }
      throw syntaxError()
    }
    var ifExists = false
    if accept("IF") {
      try expect("EXISTS")
      ifExists = true
    }
    let name = try parseTableName()
    switch kind {
    case "TABLE": return .dropTable(name, ifExists: ifExists)
    case "INDEX": return .dropIndex(name, ifExists: ifExists)
    default: return .dropView(name, ifExists: ifExists)
    }
  }

  /// The rest of `CREATE [TEMP] VIEW`: the SELECT is parsed for its syntax (SQLite resolves its
  /// names only when the view is read, so those errors wait until then) and kept as text.
  private mutating func parseCreateView(isTemporary: Bool) throws -> ParsedStatement {
    let ifNotExists = try parseIfNotExists()
    let name = try parseTableName()
    var columns: [String]?
    if acceptSymbol("(") {
      var listed: [String] = []
      repeat {
        listed.append(try parseName())
        if peek.isKeyword("COLLATE") || peek.isKeyword("ASC") || peek.isKeyword("DESC") {
          throw Self.unsupported("COLLATE or a sort order in a view's column list")
        }
      } while acceptSymbol(",")
      try expectSymbol(")")
      columns = listed
    }
    try expect("AS")
    let start = index
    guard startsSelect(peek) else { throw syntaxError() }
    _ = try parseSelectStatement()
    guard peek.kind == .semicolon || peek.kind == .end else { throw syntaxError() }
    if !parameters.names.isEmpty { throw Self.sqliteError("parameters are not allowed in views") }
    // Name resolution happens when the view is read; the parser's own errors come now.
    if !(deferredError?.message.hasSuffix(" not before") ?? false) { deferredError = nil }
    let view = ViewDefinition(name: name, columns: columns, select: text(from: start), isTemporary: isTemporary)
    return .createView(view, ifNotExists: ifNotExists)
  }

  private mutating func parseIfNotExists() throws -> Bool {
    guard accept("IF") else { return false }
    try expect("NOT")
    try expect("EXISTS")
    return true
  }

  /// The rest of `CREATE [UNIQUE] INDEX`.
  private mutating func parseCreateIndex(unique: Bool) throws -> ParsedStatement {
    let ifNotExists = try parseIfNotExists()
    let name = try parseTableName()
    try expect("ON")
    let table = try parseName()
    try expectSymbol("(")
    var columns: [String] = []
    var descending: Set<String> = []
    var ascending: Set<String> = []
    repeat {
      guard isName(peek), peek(1).isSymbol(",") || peek(1).isSymbol(")") || peek(1).kind == .word else {
        throw Self.unsupported("index on an expression")
      }
      let column = try parseName()
      columns.append(column)
      if peek.isKeyword("COLLATE") { throw Self.unsupported("COLLATE in an index") }
      if accept("DESC") { descending.insert(column) } else { _ = accept("ASC"); ascending.insert(column) }
    } while acceptSymbol(",")
    try expectSymbol(")")
    if peek.isKeyword("WHERE") { throw Self.unsupported("partial index") }
    // The model keeps one direction per column name.
    if !descending.isDisjoint(with: ascending) { throw Self.unsupported("a column indexed both ASC and DESC") }
    return .createIndex(
      table: table, IndexSchema(name: name, columns: columns, isUnique: unique, descendingColumns: descending),
      ifNotExists: ifNotExists)
  }

  /// The rest of `CREATE TABLE`.
  private mutating func parseCreateTable() throws -> ParsedStatement {
    let ifNotExists = try parseIfNotExists()
    let name = try parseTableName()
    if peek.isKeyword("AS") { throw Self.unsupported("CREATE TABLE … AS SELECT") }
    try expectSymbol("(")
    var columns: [ColumnSchema] = []
    var indexes: [IndexSchema] = []
    var declaredTypes: [DeclaredType] = []
    var hasPrimaryKey = false
    repeat {
      if isTableConstraintStart() { break }
      let (column, declared) = try parseColumnDefinition(table: name, hasPrimaryKey: &hasPrimaryKey)
      columns.append(column)
      declaredTypes.append(declared)
    } while acceptSymbol(",")
    if isTableConstraintStart() {
      repeat {
        try parseTableConstraint(
          table: name, columns: &columns, declaredTypes: declaredTypes, indexes: &indexes, hasPrimaryKey: &hasPrimaryKey
        )
      } while acceptSymbol(",") || isTableConstraintStart()
    }
    try expectSymbol(")")
    if peek.isKeyword("WITHOUT") { throw Self.unsupported("WITHOUT ROWID") }
    if isName(peek) {
      let option = advance().value
      throw option.uppercased() == "STRICT"
        ? Self.unsupported("STRICT table") : Self.sqliteError("unknown table option: \(option)")
    }
    return .createTable(TableSchema(name, columns: columns, indexes: indexes), ifNotExists: ifNotExists)
  }

  private func isTableConstraintStart() -> Bool {
    peek.kind == .word && ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains(peek.upper)
  }

  /// `name [type] [constraints]`.
  private mutating func parseColumnDefinition(
    table: String, hasPrimaryKey: inout Bool
  ) throws -> (ColumnSchema, DeclaredType) {
    let name = try parseName()
    var declared = ""
    if isName(peek) {
      declared = try parseTypeName()
    }
    let type = DeclaredType(declared)
    guard let storage = type.storage else { throw Self.unsupported("NUMERIC affinity column") }
    var column = ColumnSchema(name: name, type: .null(storage))
    while true {
      if accept("CONSTRAINT") { _ = try parseName() }
      if accept("PRIMARY") {
        try expect("KEY")
        if hasPrimaryKey { throw Self.sqliteError("table \"\(table)\" has more than one primary key") }
        hasPrimaryKey = true
        if accept("DESC") { throw Self.unsupported("PRIMARY KEY DESC") }
        _ = accept("ASC")
        try refuseConflictClause()
        column.primaryKey = .plain
        if accept("AUTOINCREMENT") {
          guard type.isRowidAlias else {
            throw Self.sqliteError("AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY")
          }
          column.primaryKey = .autoincrement
        }
        if storage == .integer, !type.isRowidAlias {
          throw Self.unsupported("integer PRIMARY KEY that is not a rowid alias")
        }
      } else if accept("NOT") {
        try expect("NULL")
        try refuseConflictClause()
        column.type = storage
      } else if accept("NULL") {
        try refuseConflictClause()
      } else if accept("UNIQUE") {
        try refuseConflictClause()
        column.isUnique = true
      } else if accept("DEFAULT") {
        column.defaultValue = try parseDefaultValue()
      } else if accept("REFERENCES") {
        column.references = try parseReferenceClause()
      } else if peek.kind == .word, ["CHECK", "COLLATE", "GENERATED", "AS"].contains(peek.upper) {
        throw Self.unsupported(peek.upper == "AS" ? "GENERATED" : peek.upper)
      } else {
        return (column, type)
      }
    }
  }

  /// `ON CONFLICT …` after a constraint: refused.
  private mutating func refuseConflictClause() throws {
    if peek.isKeyword("ON"), peek(1).isKeyword("CONFLICT") {
      throw Self.unsupported("ON CONFLICT clause in a constraint")
    }
  }

  /// The value after `DEFAULT`: a literal, a signed number, or one of those in parentheses.
  private mutating func parseDefaultValue() throws -> SqliteValue? {
    let token = peek
    if token.kind == .word, ["CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP"].contains(token.upper) {
      throw Self.unsupported("DEFAULT \(token.upper)")
    }
    if isIdentifier(token), token.kind == .word, !["TRUE", "FALSE"].contains(token.upper) {
      advance()
      return .text(token.value)
    }
    let expression: SQLExpression
    if token.isSymbol("(") {
      advance()
      expression = try parseExpression()
      try expectSymbol(")")
    } else if token.isSymbol("-") || token.isSymbol("+") {
      advance()
      guard peek.kind == .integer || peek.kind == .float else { throw syntaxError() }
      let number = try parseExpression(level: Level.unary)
      expression = token.isSymbol("-") ? Self.negatedLiteral(number) : number
    } else {
      guard
        [.integer, .float, .string, .blob].contains(token.kind) || token.isKeyword("NULL")
          || token.isKeyword("TRUE") || token.isKeyword("FALSE")
      else { throw syntaxError() }
      expression = try parseExpression(level: Level.unary)
    }
    switch expression {
    case .literal(.null): return nil
    case .literal(let value): return value
    case .unary(.negate, .literal(.integer(let value))) where value == Int64.min:
      return .real(9_223_372_036_854_775_808.0)
    default: throw Self.unsupported("DEFAULT expression")
    }
  }

  private static func negatedLiteral(_ number: SQLExpression) -> SQLExpression {
    switch number {
    case .literal(.integer(let value)) where value != Int64.min: .literal(.integer(-value))
    case .literal(.real(let value)): .literal(.real(-value))
    default: .unary(.negate, number)
    }
  }

  /// `table [(column)] [ON DELETE|UPDATE action] [MATCH name]` after `REFERENCES`.
  private mutating func parseReferenceClause() throws -> ForeignKey {
    let table = try parseName()
    guard acceptSymbol("(") else { throw Self.unsupported("REFERENCES without a column") }
    let column = try parseName()
    if peek.isSymbol(",") { throw Self.unsupported("foreign key of several columns") }
    try expectSymbol(")")
    var key = ForeignKey(table: table, column: column)
    while true {
      if accept("ON") {
        if accept("DELETE") {
          key.onDelete = try parseForeignKeyAction()
        } else {
          try expect("UPDATE")
          key.onUpdate = try parseForeignKeyAction()
        }
      } else if accept("MATCH") {
        _ = try parseName()
      } else if peek.isKeyword("DEFERRABLE") || (peek.isKeyword("NOT") && peek(1).isKeyword("DEFERRABLE")) {
        throw Self.unsupported("DEFERRABLE")
      } else {
        return key
      }
    }
  }

  private mutating func parseForeignKeyAction() throws -> ForeignKey.Action {
    if accept("CASCADE") { return .cascade }
    if accept("RESTRICT") { return .restrict }
    if accept("NO") {
      try expect("ACTION")
      return .noAction
    }
    try expect("SET")
    if accept("NULL") { return .setNull }
    try expect("DEFAULT")
    return .setDefault
  }

  /// A table constraint: `PRIMARY KEY (…)`, `UNIQUE (…)`, `FOREIGN KEY (a) REFERENCES …`.
  private mutating func parseTableConstraint(
    table: String, columns: inout [ColumnSchema], declaredTypes: [DeclaredType], indexes: inout [IndexSchema],
    hasPrimaryKey: inout Bool
  ) throws {
    if accept("CONSTRAINT") { _ = try parseName() }
    func position(of name: String) throws -> Int {
      guard let found = columns.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
        throw Self.sqliteError("no such column: \(name)")
      }
      return found
    }
    if accept("PRIMARY") {
      try expect("KEY")
      if hasPrimaryKey { throw Self.sqliteError("table \"\(table)\" has more than one primary key") }
      hasPrimaryKey = true
      let names = try parseIndexedColumns()
      try refuseConflictClause()
      let positions = try names.map(position(of:))
      guard positions == positions.sorted(), Set(positions).count == positions.count else {
        throw Self.unsupported("PRIMARY KEY columns out of table order")
      }
      for position in positions { columns[position].primaryKey = .plain }
      if positions.count == 1, columns[positions[0]].type.storage == .integer, !declaredTypes[positions[0]].isRowidAlias
      {
        throw Self.unsupported("integer PRIMARY KEY that is not a rowid alias")
      }
    } else if accept("UNIQUE") {
      let names = try parseIndexedColumns()
      try refuseConflictClause()
      let positions = try names.map(position(of:))
      if positions.count == 1 {
        columns[positions[0]].isUnique = true
      } else {
        indexes.append(IndexSchema(columns: positions.map { columns[$0].name }, isUnique: true))
      }
    } else if accept("FOREIGN") {
      try expect("KEY")
      let names = try parseIndexedColumns()
      guard names.count == 1 else { throw Self.unsupported("foreign key of several columns") }
      let position = try position(of: names[0])
      try expect("REFERENCES")
      columns[position].references = try parseReferenceClause()
    } else if peek.isKeyword("CHECK") {
      throw Self.unsupported("CHECK")
    } else {
      throw syntaxError()
    }
  }

  /// `(name [ASC], …)`.
  private mutating func parseIndexedColumns() throws -> [String] {
    try expectSymbol("(")
    var names: [String] = []
    repeat {
      names.append(try parseName())
      if peek.isKeyword("COLLATE") { throw Self.unsupported("COLLATE in a constraint") }
      if accept("DESC") { throw Self.unsupported("DESC in a constraint") }
      _ = accept("ASC")
    } while acceptSymbol(",")
    try expectSymbol(")")
    return names
  }
}
