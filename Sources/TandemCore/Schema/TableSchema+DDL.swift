import Foundation

extension TableSchema {
  /// The `CREATE TABLE` statement for this schema.
  ///
  /// Every identifier is double-quoted, defaults are SQL literals, and nullability comes only from
  /// the column's type name. A single integer primary key is the rowid alias `INTEGER PRIMARY KEY`.
  ///
  /// ```swift
  /// schema.createTableSQL()
  /// // CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '')
  /// schema.createTableSQL(ifNotExists: true, strict: true)
  /// // CREATE TABLE IF NOT EXISTS "reminders" (…) STRICT
  /// ```
  public func createTableSQL(ifNotExists: Bool = false, strict: Bool = false) -> String {
    var definitions = columns.map(columnDefinition)
    let keys = primaryKeyColumns
    if keys.count > 1 {
      definitions.append(
        "PRIMARY KEY (" + keys.map { SQLQuoting.identifier($0.name) }.joined(separator: ", ") + ")")
    }
    var sql = "CREATE TABLE "
    if ifNotExists { sql += "IF NOT EXISTS " }
    sql += SQLQuoting.identifier(name) + " (" + definitions.joined(separator: ", ") + ")"
    if strict { sql += " STRICT" }
    return sql
  }

  /// The `CREATE INDEX` statements for this schema's indexes, in order.
  ///
  /// ```swift
  /// schema.createIndexSQL()
  /// // ["CREATE UNIQUE INDEX \"reminders_on_title\" ON \"reminders\" (\"title\")"]
  /// ```
  public func createIndexSQL(ifNotExists: Bool = false) -> [String] {
    indexes.map { index in
      var sql = index.isUnique ? "CREATE UNIQUE INDEX " : "CREATE INDEX "
      if ifNotExists { sql += "IF NOT EXISTS " }
      sql += SQLQuoting.identifier(index.name(in: name)) + " ON " + SQLQuoting.identifier(name) + " ("
      let columns = index.columns.indices.map { position in
        SQLQuoting.identifier(index.columns[position]) + (index.isDescending(at: position) ? " DESC" : "")
      }
      sql += columns.joined(separator: ", ") + ")"
      return sql
    }
  }

  /// The table statement followed by its index statements.
  ///
  /// ```swift
  /// for sql in schema.createStatements() { print(sql) }
  /// ```
  public func createStatements(ifNotExists: Bool = false, strict: Bool = false) -> [String] {
    [createTableSQL(ifNotExists: ifNotExists, strict: strict)] + createIndexSQL(ifNotExists: ifNotExists)
  }

  private func columnDefinition(_ column: ColumnSchema) -> String {
    var parts = [SQLQuoting.identifier(column.name), column.type.declaredName]
    let isSingleKey = column.primaryKey != nil && primaryKeyColumns.count == 1
    if isSingleKey {
      parts.append("PRIMARY KEY")
      if column.primaryKey == .autoincrement && column.type.storage == .integer {
        parts.append("AUTOINCREMENT")
      }
    }
    // The rowid alias can never hold NULL; SQLite assigns a key instead, so NOT NULL would only
    // misreport the column in `PRAGMA table_info`.
    let isRowidAlias = isSingleKey && column.type.storage == .integer
    if !column.type.isNullable && !isRowidAlias { parts.append("NOT NULL") }
    if column.isUnique && !isSingleKey { parts.append("UNIQUE") }
    if let value = column.defaultValue {
      parts.append("DEFAULT " + Self.defaultLiteral(value))
    }
    if let reference = column.references {
      parts.append(
        "REFERENCES " + SQLQuoting.identifier(reference.table) + " ("
          + SQLQuoting.identifier(reference.column) + ")")
      if reference.onDelete != .noAction { parts.append("ON DELETE " + reference.onDelete.rawValue) }
      if reference.onUpdate != .noAction { parts.append("ON UPDATE " + reference.onUpdate.rawValue) }
    }
    return parts.joined(separator: " ")
  }

  /// A DEFAULT clause takes a literal or a parenthesized expression; negative numbers are wrapped
  /// so that `-9223372036854775808` and `-9e999` read as single values.
  static func defaultLiteral(_ value: SqliteValue) -> String {
    // SQL text cannot hold a NUL character; spell such text as the cast of its UTF-8 bytes.
    if case .text(let text) = value, text.utf8.contains(0) {
      return "(CAST(" + SqliteValue.blob(Data(text.utf8)).sqlLiteral + " AS TEXT))"
    }
    let literal = value.sqlLiteral
    return literal.hasPrefix("-") ? "(" + literal + ")" : literal
  }
}
