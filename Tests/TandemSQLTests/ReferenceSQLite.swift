import CSQLite
import Foundation
import TandemCore
import TandemSQL
import TandemSQLite

/// Real SQLite in memory with its default settings (double-quoted strings on, as the `sqlite3`
/// CLI has them): what every parser test compares against.
final class ReferenceSQLite {
  private var db: OpaquePointer?

  init() {
    sqlite3_open(":memory:", &db)
  }

  deinit { sqlite3_close(db) }

  /// Runs a script; fails the caller on error.
  func exec(_ sql: String) throws {
    let rc = sqlite3_exec(db, sql, nil, nil, nil)
    if rc != SQLITE_OK { throw TandemError.sqlite(code: rc, message: message, sql: sql) }
  }

  private var message: String { String(cString: sqlite3_errmsg(db)) }

  /// The message `sqlite3_prepare_v2` reports for the text, or nil when it prepares.
  func prepareError(_ sql: String) -> String? {
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    return rc == SQLITE_OK ? nil : message
  }

  /// The result column names SQLite gives a query.
  func columnNames(_ sql: String) throws -> [String] {
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    guard rc == SQLITE_OK, let statement else { throw TandemError.sqlite(code: rc, message: message, sql: sql) }
    return (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
  }

  /// The rows of a query (values printed as SQLite's `quote()` would), or its error message.
  func rows(_ sql: String, _ bindings: [SqliteValue] = []) -> Result<[[String]], TandemError> {
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    guard rc == SQLITE_OK, let statement else {
      return .failure(TandemError.sqlite(code: rc, message: message, sql: sql))
    }
    for (offset, value) in bindings.enumerated() {
      let position = Int32(offset + 1)
      switch value {
      case .null: sqlite3_bind_null(statement, position)
      case .integer(let number): sqlite3_bind_int64(statement, position, number)
      case .real(let number): sqlite3_bind_double(statement, position, number)
      case .text(let text): sqlite3_bind_text(statement, position, text, -1, tandem_sqlite_transient())
      case .blob(let data):
        _ = data.withUnsafeBytes {
          sqlite3_bind_blob(statement, position, $0.baseAddress, Int32(data.count), tandem_sqlite_transient())
        }
      }
    }
    var rows: [[String]] = []
    while true {
      let step = sqlite3_step(statement)
      if step == SQLITE_DONE { return .success(rows) }
      guard step == SQLITE_ROW else { return .failure(TandemError.sqlite(code: step, message: message, sql: sql)) }
      rows.append(
        (0..<sqlite3_column_count(statement)).map { column in
          switch sqlite3_column_type(statement, column) {
          case SQLITE_NULL: "NULL"
          case SQLITE_INTEGER: "\(sqlite3_column_int64(statement, column))"
          case SQLITE_FLOAT: "\(sqlite3_column_double(statement, column))"
          case SQLITE_TEXT: "'" + String(cString: sqlite3_column_text(statement, column)) + "'"
          default:
            "x'"
              + Data(bytes: sqlite3_column_blob(statement, column), count: Int(sqlite3_column_bytes(statement, column)))
              .map { String(format: "%02x", $0) }.joined() + "'"
          }
        })
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
