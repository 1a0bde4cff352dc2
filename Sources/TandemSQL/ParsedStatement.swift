import TandemCore

/// One statement of SQL text, parsed into the query model.
///
/// ```swift
/// var reader = SQLScriptReader("CREATE TABLE t(a INTEGER); SELECT a AS x FROM t")
/// let first = try reader.next(schema: { _ in nil })   // .createTable(…)
/// ```
public enum ParsedStatement: Sendable, Hashable {
  /// A SELECT, INSERT, UPDATE or DELETE. Parameters are `.parameter("?N")`, `N` being the
  /// 1-based index SQLite gives the parameter; `resultColumns` are the names SQLite gives the
  /// result columns of a SELECT (empty for other statements).
  case query(Statement, resultColumns: [String])
  /// `INSERT INTO table [(columns)] SELECT …`: the insert's `rows` are empty and its `columns`
  /// are those written (empty for all of the table's columns); the rows come from `select`.
  case insertSelect(InsertStatement, select: SelectStatement)
  /// `CREATE TABLE`.
  case createTable(TableSchema, ifNotExists: Bool)
  /// `CREATE [UNIQUE] INDEX name ON table (columns)`.
  case createIndex(table: String, IndexSchema, ifNotExists: Bool)
  /// `DROP TABLE`.
  case dropTable(String, ifExists: Bool)
  /// `DROP INDEX`.
  case dropIndex(String, ifExists: Bool)
  /// `CREATE [TEMP] VIEW [IF NOT EXISTS] name [(columns)] AS select`.
  case createView(ViewDefinition, ifNotExists: Bool)
  /// `DROP VIEW [IF EXISTS] name`.
  case dropView(String, ifExists: Bool)
  /// `REINDEX [name]`: a table, an index or a collation, or everything.
  case reindex(String?)
  /// `BEGIN`, `COMMIT`, `ROLLBACK`, `SAVEPOINT`, `RELEASE`.
  case transaction(TransactionControl)
}

/// A transaction statement of SQL text.
public enum TransactionControl: Sendable, Hashable {
  /// `BEGIN [DEFERRED | IMMEDIATE | EXCLUSIVE] [TRANSACTION]`.
  case begin
  /// `COMMIT` or `END`.
  case commit
  /// `ROLLBACK`.
  case rollback
  /// `SAVEPOINT name`.
  case savepoint(String)
  /// `RELEASE [SAVEPOINT] name`.
  case release(String)
  /// `ROLLBACK [TRANSACTION] TO [SAVEPOINT] name`.
  case rollbackTo(String)
}

/// A parsed statement with the text it was parsed from and its parameters.
///
/// ```swift
/// var reader = SQLScriptReader("SELECT * FROM t WHERE a = :a AND b = ?")
/// let parsed = try reader.next(schema: { _ in ["a", "b"] })
/// parsed?.parameterNames  // [":a", nil]
/// ```
public struct ParsedSQL: Sendable, Hashable {
  /// The statement.
  public var statement: ParsedStatement
  /// The statement's text as written, without the `;` that ends it.
  public var sql: String
  /// The name of each parameter by SQLite's index (element 0 is parameter 1), as
  /// `sqlite3_bind_parameter_name` gives it: `":id"`, `"@id"`, `"$id"`, `"?3"`, or `nil` for `?`.
  public var parameterNames: [String?]

  /// A parsed statement from its parts.
  public init(statement: ParsedStatement, sql: String, parameterNames: [String?]) {
    self.statement = statement
    self.sql = sql
    self.parameterNames = parameterNames
  }
}
