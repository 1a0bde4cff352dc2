import Foundation
import TandemCore
import TandemSQL
import TandemSQLite
import SQLiteReference

/// Real SQLite in memory, with double-quoted strings off as the SQLite backend has them: what
/// every parser test compares against.
final class ReferenceSQLite {
  private let sqlite: SQLiteHandle

  init() throws {
    sqlite = try SQLiteHandle(doubleQuotedStrings: false)
  }

  /// Runs a script; fails the caller on error.
  func exec(_ sql: String) throws {
    do { try sqlite.execute(sql) } catch let failure as SQLiteHandle.Failure { throw Self.error(failure) }
  }

  /// The message `sqlite3_prepare_v2` reports for the text, or nil when it prepares.
  func prepareError(_ sql: String) -> String? { sqlite.prepareError(sql) }

  /// The result column names SQLite gives a query.
  func columnNames(_ sql: String) throws -> [String] {
    do { return try sqlite.columnNames(sql) } catch let failure as SQLiteHandle.Failure { throw Self.error(failure) }
  }

  /// The rows of a query (values printed as SQLite's `quote()` would), or its error message.
  func rows(_ sql: String, _ bindings: [SqliteValue] = []) -> Result<[[String]], TandemError> {
    do {
      return .success(try sqlite.rows(sql, bindings: bindings).map { $0.map(Self.quoted) })
    } catch let failure as SQLiteHandle.Failure {
      return .failure(Self.error(failure))
    } catch {
      return .failure(TandemError.sqlite(code: 1, message: "\(error)", sql: sql))
    }
  }

  private static func error(_ failure: SQLiteHandle.Failure) -> TandemError {
    TandemError.sqlite(code: failure.code, message: failure.message, sql: failure.sql)
  }

  private static func quoted(_ value: SqliteValue) -> String {
    switch value {
    case .null: "NULL"
    case .integer(let number): "\(number)"
    case .real(let number): "\(number)"
    case .text(let text): "'" + text + "'"
    case .blob(let data): "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
    }
  }

  /// The columns of a table, as the schema closure of ``SQLScriptReader/next(schema:)`` wants them.
  func columns(of table: String) -> [String]? {
    guard case .success(let rows) = self.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]), !rows.isEmpty
    else { return nil }
    return rows.map { String($0[0].dropFirst().dropLast()) }
  }

  /// Parses one statement of `sql` against this database's tables.
  func parse(_ sql: String) throws -> ParsedSQL? {
    var reader = SQLScriptReader(sql)
    return try reader.next(schema: columns(of:))
  }

  /// Renders a parsed query with the SQLite renderer, knowing this database's tables.
  func render(_ statement: Statement) throws -> RenderedSQL {
    var others: [String: [String]] = [:]
    for name in statement.tablesRead { others[name] = columns(of: name) ?? [] }
    return try SQLRenderer(tableColumns: columns(of: statement.table) ?? [], otherTables: others).render(statement)
  }
}
