extension TableSchema {
  /// Checks that the schema can be created the way SQLite creates it — its `CREATE TABLE`, then
  /// each `CREATE INDEX` — and throws the first error SQLite would report, with SQLite's code
  /// and message, in SQLite's order. Engines that do not run SQLite create tables through this
  /// one check, so they refuse exactly the names SQLite refuses.
  ///
  /// A name holding a NUL character is refused first, as a ``TandemError/Kind/misuse``: SQL text
  /// cannot hold one (SQLite would read the statement only up to it). Then, as SQLite:
  ///
  /// - the table: a name starting with `sqlite_` (any case) is reserved; a table of that name
  ///   exists (unless `ifNotExists`); an index has that name; the columns: none, more than
  ///   2,000, or two with the same name (ASCII letters compared without case);
  /// - each index: no columns; a reserved name; a table of that name (the new one included); an
  ///   index of that name, in the database or earlier in this schema (`ifNotExists` skips the
  ///   index instead); more than 2,000 columns; a column the table does not have.
  ///
  /// Returns the indexes to create (those `ifNotExists` did not skip), or `nil` when the table
  /// exists and `ifNotExists` leaves it as it is.
  ///
  /// ```swift
  /// try TableSchema("sqlite_notes", columns: [.column("a", .text)])
  ///   .checkCreation(ifNotExists: false, tableExists: { _ in false }, indexExists: { _ in false })
  /// // SQLite error 1: object name reserved for internal use: sqlite_notes
  /// ```
  package func checkCreation(
    ifNotExists: Bool, tableExists: (String) -> Bool, indexExists: (String) -> Bool
  ) throws -> [IndexSchema]? {
    try checkIdentifiers()
    try Self.checkNotReserved(name)
    var createsTable = true
    if tableExists(name) {
      guard ifNotExists else { throw Self.error("table \(SQLQuoting.identifier(name)) already exists") }
      createsTable = false
    }
    if createsTable && indexExists(name) { throw Self.error("there is already an index named \(name)") }
    if columns.isEmpty { throw Self.syntaxError }
    guard createsTable else { return nil }
    var columnKeys = Set<[UInt8]>()
    for (position, column) in columns.enumerated() {
      if position >= Self.columnLimit { throw Self.error("too many columns on \(name)") }
      guard columnKeys.insert(SQLName.key(column.name)).inserted else {
        throw Self.error("duplicate column name: \(column.name)")
      }
    }

    var created: [IndexSchema] = []
    var createdKeys = Set<[UInt8]>()
    for index in indexes {
      let indexName = index.name(in: name)
      if index.columns.isEmpty { throw Self.syntaxError }
      try Self.checkNotReserved(indexName)
      if SQLName.key(indexName) == SQLName.key(name) || tableExists(indexName) {
        throw Self.error("there is already a table named \(indexName)")
      }
      if createdKeys.contains(SQLName.key(indexName)) || indexExists(indexName) {
        guard ifNotExists else { throw Self.error("index \(indexName) already exists") }
        continue
      }
      if index.columns.count > Self.columnLimit { throw Self.error("too many columns in index") }
      for column in index.columns where !columnKeys.contains(SQLName.key(column)) {
        throw Self.error("no such column: \(column)")
      }
      createdKeys.insert(SQLName.key(indexName))
      created.append(index)
    }
    return created
  }

  /// Throws ``TandemError/Kind/misuse`` when a name the schema's DDL would write — the table's,
  /// a column's, an index's or its columns', a referenced table's or column's — holds a NUL
  /// character, when a foreign key names no referenced column (its parent's primary key was
  /// not one column), or when an index's descending column is not one of its columns.
  package func checkIdentifiers() throws {
    try SQLName.check(name)
    for column in columns {
      try SQLName.check(column.name)
      if let key = column.references {
        try SQLName.check(key.table)
        try SQLName.check(key.column)
        if key.column.isEmpty {
          throw TandemError.misuse(
            "foreign key \(name).\(column.name) names no column of \(key.table), whose primary key is not one "
              + "column; name the referenced column")
        }
      }
    }
    for index in indexes {
      try SQLName.check(index.name(in: name))
      for column in index.columns { try SQLName.check(column) }
      for column in index.descendingColumns.sorted() where !index.columns.contains(column) {
        throw TandemError.misuse(
          "index \(index.name(in: name)) lists \(column) among its descending columns, but not among its columns")
      }
    }
  }

  /// SQLite's `SQLITE_MAX_COLUMN` (its default, and Tandem's SQLite's): columns of a table or an index.
  static let columnLimit = 2_000

  /// `near ")": syntax error`: an empty column list.
  private static var syntaxError: TandemError { error(#"near ")": syntax error"#) }

  private static func checkNotReserved(_ name: String) throws {
    if SQLName.key(name).starts(with: Array("sqlite_".utf8)) {
      throw error("object name reserved for internal use: \(name)")
    }
  }

  private static func error(_ message: String) -> TandemError {
    .sqlite(code: 1, message: message, sql: nil)
  }
}
