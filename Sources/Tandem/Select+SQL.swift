import TandemCore
import TandemSQLite

extension Select {
  /// The SQL this query runs on SQLite, with its bindings (values are never part of the text).
  ///
  /// ```swift
  /// let rendered = try Reminder.where { $0.title == "Milk" }.renderedSQL()
  /// rendered.sql       // SELECT "id", "title", … FROM "reminders" WHERE ("title" = ?) ORDER BY rowid
  /// rendered.bindings  // [.value(.text("Milk"))]
  /// ```
  public func renderedSQL() throws -> RenderedSQL {
    try SQLRenderer(schema: Root.schema, others: joinedSchemas).render(.select(statement))
  }
}

extension Statement {
  /// The SQL this statement runs on SQLite, with its bindings.
  ///
  /// ```swift
  /// try Statement.delete(Reminder.all.deleteStatement).renderedSQL().sql  // DELETE FROM "reminders"
  /// ```
  public func renderedSQL(schema: TableSchema? = nil) throws -> RenderedSQL {
    try (schema.map(SQLRenderer.init(schema:)) ?? SQLRenderer()).render(self)
  }
}
