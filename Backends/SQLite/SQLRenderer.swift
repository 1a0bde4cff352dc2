import TandemCore

/// Renders statements of the query model to SQLite SQL with `?` placeholders.
///
/// Every value — literals included — becomes a placeholder with its binding; every identifier is
/// double-quoted with ``SQLQuoting/identifier(_:)``; every compound expression is parenthesized,
/// so operator precedence never matters. No value is ever spliced into the SQL text.
///
/// The renderer knows the column names of the statement's table so that it can name the rowid
/// with a spelling no column shadows (`rowid`, else `_rowid_`, else `oid`).
///
/// ```swift
/// let renderer = SQLRenderer(tableColumns: ["a"])
/// let rendered = try renderer.render(.select(SelectStatement(
///   table: "t", columns: [.column("a")], filter: .binary(.equal, .column("a"), .literal(1)))))
/// rendered.sql       // SELECT "a" FROM "t" WHERE ("a" = ?)
/// rendered.bindings  // [.value(.integer(1))]
/// ```
///
/// The statement is rendered as given: the query builder (`Select.statement`) has already
/// appended the deterministic tie-breakers (the rowid, group keys or result columns) to ORDER BY.
public struct SQLRenderer: Sendable, Hashable {
  /// How the rowid is spelled for this table, or `nil` when columns shadow every spelling.
  let rowidName: String?
  /// How the rowid of each other table a statement may read is spelled, by table name.
  let otherRowidNames: [String: String?]
  /// The traits of the columns of the tables a statement may read, by table and column name
  /// (see ``SelectStatement/answerDependsOnVisitOrder(_:)``).
  let columnTraits: [String: [String: ColumnTraits]]

  /// A renderer for statements over a table with these column names.
  ///
  /// ```swift
  /// SQLRenderer(tableColumns: ["rowid", "v"])  // renders the rowid as _rowid_
  /// ```
  public init(tableColumns: [String] = []) {
    self.init(tableColumns: tableColumns, otherTables: [:])
  }

  /// A renderer for statements over a table with these column names that also read (join, or
  /// query in a subquery) the tables of `otherTables`, whose column names are given by table.
  ///
  /// ```swift
  /// SQLRenderer(tableColumns: ["id", "listID"], otherTables: ["lists": ["id", "name"]])
  /// ```
  public init(
    tableColumns: [String], otherTables: [String: [String]], columnTraits: [String: [String: ColumnTraits]] = [:]
  ) {
    rowidName = Self.rowidSpelling(tableColumns)
    otherRowidNames = otherTables.mapValues(Self.rowidSpelling)
    // SQLite matches table and column names case-insensitively (ASCII letters only).
    var folded: [String: [String: ColumnTraits]] = [:]
    for (table, columns) in columnTraits {
      for (column, traits) in columns {
        folded[Self.asciiLowercased(table), default: [:]][Self.asciiLowercased(column)] = traits
      }
    }
    self.columnTraits = folded
  }

  /// A renderer for statements over `schema`'s table that also read the tables of `others`.
  ///
  /// ```swift
  /// SQLRenderer(schema: Reminder.schema, others: [RemindersList.schema])
  /// ```
  public init(schema: TableSchema, others: [TableSchema]) {
    var columns: [String: [String]] = [:]
    var traits: [String: [String: ColumnTraits]] = [:]
    for table in [schema] + others {
      columns[table.name] = table.columns.map(\.name)
      traits[table.name] = table.columnTraits
    }
    self.init(tableColumns: schema.columns.map(\.name), otherTables: columns, columnTraits: traits)
  }

  /// The first of SQLite's rowid spellings that no column takes.
  static func rowidSpelling(_ columns: [String]) -> String? {
    // SQLite folds identifier case for ASCII letters only.
    let taken = Set(columns.map(Self.asciiLowercased))
    return ["rowid", "_rowid_", "oid"].first { !taken.contains($0) }
  }

  /// A renderer for statements over the table `schema` describes.
  public init(schema: TableSchema) {
    self.init(tableColumns: schema.columns.map(\.name))
  }

  /// The SQL and bindings of one statement.
  ///
  /// Throws ``TandemError`` (`misuse`) for statements SQL cannot express: a select without
  /// result columns, an update without assignments, insert rows whose length differs from the
  /// column list, a function called with the wrong number of arguments, an identifier holding a
  /// NUL character.
  public func render(_ statement: Statement) throws -> RenderedSQL {
    try render(statement, writingOrderedSubqueries: true)
  }

  /// The SQL and bindings of one statement, a join's select written as it is even where
  /// ``render(_:)`` writes it over a subquery that fixes the order of its rows. SQLite resolves
  /// a FROM subquery before the query around it, so that form may fail with another of the
  /// statement's errors than the one SQLite reports for the statement as written.
  ///
  /// With `leavingRowidOrderToCaller`, a join ordered by its sources' rowids alone is written
  /// without its ORDER BY, the rowids last among its result columns: the caller sorts the rows
  /// by those ``RenderedSQL/rowidSortKeyCount`` columns and drops them (as the backend does).
  func render(
    _ statement: Statement, writingOrderedSubqueries: Bool, leavingRowidOrderToCaller: Bool = false
  ) throws -> RenderedSQL {
    var writer = SQLTextWriter(rowidName: rowidName, otherRowidNames: otherRowidNames, columnTraits: columnTraits)
    writer.writesOrderedSubqueries = writingOrderedSubqueries
    writer.leavesRowidOrderToCaller = leavingRowidOrderToCaller
    switch statement {
    case .select(let select): try writeSelect(select, to: &writer)
    case .insert(let insert): try writeInsert(insert, to: &writer)
    case .update(let update): try writeUpdate(update, to: &writer)
    case .delete(let delete): try writeDelete(delete, to: &writer)
    }
    var rendered = RenderedSQL(sql: writer.sql, bindings: writer.bindings)
    rendered.rowidSortKeyCount = writer.rowidSortKeyCount
    return rendered
  }

  /// The SQL and bindings of one expression on its own (useful for logging and tests).
  ///
  /// ```swift
  /// try SQLRenderer().render(.isNull(.column("a"), negated: true)).sql  // ("a" IS NOT NULL)
  /// ```
  public func render(_ expression: SQLExpression) throws -> RenderedSQL {
    var writer = SQLTextWriter(rowidName: rowidName, otherRowidNames: otherRowidNames, columnTraits: columnTraits)
    try writer.write(expression)
    return RenderedSQL(sql: writer.sql, bindings: writer.bindings)
  }

  // MARK: - Statements

  private func writeSelect(_ select: SelectStatement, to writer: inout SQLTextWriter) throws {
    try writer.writeSelect(select, isStatement: true)
  }

  private func writeInsert(_ insert: InsertStatement, to writer: inout SQLTextWriter) throws {
    writer += "INSERT "
    switch insert.conflict {
    case .replace: writer += "OR REPLACE "
    case .ignore: writer += "OR IGNORE "
    case .abort, .update, .nothing: break
    }
    writer += "INTO "
    try writer.writeIdentifier(insert.table)
    if insert.columns.isEmpty {
      // SQLite 3.40 accepts no ON CONFLICT clause after DEFAULT VALUES, and inserts one row.
      guard insert.rows.count == 1, insert.rows[0].isEmpty else {
        throw TandemError.misuse("an insert without columns inserts exactly one row of default values")
      }
      switch insert.conflict {
      case .update, .nothing:
        throw TandemError.misuse("an insert without columns cannot have an ON CONFLICT clause")
      case .abort, .replace, .ignore:
        break
      }
      writer += " DEFAULT VALUES"
      return
    }
    guard !insert.rows.isEmpty else {
      throw TandemError.misuse("an insert needs at least one row")
    }
    writer += " ("
    try writer.writeList(insert.columns) { try $0.writeIdentifier($1) }
    writer += ") VALUES "
    // Rows of plain values (the usual case) share one "(?, ?, …)" text, copied whole.
    let placeholderRow = "(" + String(repeating: "?, ", count: insert.columns.count - 1) + "?)"
    writer.reserveBindings(insert.rows.count * insert.columns.count)
    for (index, row) in insert.rows.enumerated() {
      guard row.count == insert.columns.count else {
        throw TandemError.misuse(
          "insert row \(index + 1) has \(row.count) values for \(insert.columns.count) columns")
      }
      if index > 0 { writer += ", " }
      if !writer.writePlaceholderRow(row, text: placeholderRow) {
        writer += "("
        try writer.writeList(row) { try $0.write($1) }
        writer += ")"
      }
    }
    switch insert.conflict {
    case .abort, .replace, .ignore:
      break
    case .nothing(let target):
      try writeConflictTarget(target, to: &writer)
      writer += " DO NOTHING"
    case .update(let target, let assignments):
      try writeConflictTarget(target, to: &writer)
      writer += " DO UPDATE SET "
      try writeAssignments(assignments, to: &writer)
    }
  }

  private func writeConflictTarget(_ target: [String], to writer: inout SQLTextWriter) throws {
    writer += " ON CONFLICT"
    guard !target.isEmpty else { return }
    writer += " ("
    try writer.writeList(target) { try $0.writeIdentifier($1) }
    writer += ")"
  }

  private func writeAssignments(_ assignments: [Assignment], to writer: inout SQLTextWriter) throws {
    guard !assignments.isEmpty else {
      throw TandemError.misuse("an update needs at least one assignment")
    }
    try writer.writeList(assignments) { writer, assignment in
      try writer.writeIdentifier(assignment.column)
      writer += " = "
      try writer.write(assignment.value)
    }
  }

  private func writeUpdate(_ update: UpdateStatement, to writer: inout SQLTextWriter) throws {
    writer += "UPDATE "
    try writer.writeIdentifier(update.table)
    writer += " SET "
    try writeAssignments(update.assignments, to: &writer)
    if let filter = update.filter {
      writer += " WHERE "
      try writer.write(filter)
    }
  }

  private func writeDelete(_ delete: DeleteStatement, to writer: inout SQLTextWriter) throws {
    writer += "DELETE FROM "
    try writer.writeIdentifier(delete.table)
    if let filter = delete.filter {
      writer += " WHERE "
      try writer.write(filter)
    }
  }

  static func asciiLowercased(_ name: String) -> String {
    String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
  }
}
