import CSQLite
import TandemCore

/// The table a failing statement writes, used to read table and column names out of SQLite's
/// constraint messages even when the names themselves contain `.` or `, `.
struct ConstraintContext {
  /// The statement's table.
  var table: String
  /// The table's column names.
  var columns: [String]
}

/// Builds the ``TandemError`` for a non-OK SQLite result code and throws it.
///
/// Every failing SQLite call goes through here (the error contract shared with the memory engine):
/// every constraint failure (primary code 19, whatever the extended code: an `ON DELETE RESTRICT`
/// key fails with the generic one) becomes ``TandemError/Kind/constraintViolation`` with the
/// constraint kind, table and columns read from the message (foreign key failures name neither:
/// the backend names them by ``FailedWrite``'s rule); every other code becomes a
/// ``TandemError/Kind/sqlite`` error with the primary result code. The message is
/// `sqlite3_errmsg`'s text exactly, and the SQL is kept in `statement`.
///
/// `extendedCode` is the result code as returned with extended result codes on (`2067` for a
/// UNIQUE failure); `context` helps read names out of constraint messages.
func raiseSQLiteError(
  _ extendedCode: Int32, connection: OpaquePointer?, sql: String?, context: ConstraintContext? = nil
) throws -> Never {
  let message = errorMessage(for: extendedCode, connection: connection)
  var error: TandemError
  switch extendedCode {
  case 2067:  // SQLITE_CONSTRAINT_UNIQUE: "UNIQUE constraint failed: t.a, t.b"
    let names = ConstraintMessage.qualifiedNames(after: "UNIQUE constraint failed: ", in: message, context: context)
    error = .constraintViolation(.unique, table: names.table, columns: names.columns, message: message)
  case 1555:  // SQLITE_CONSTRAINT_PRIMARYKEY: also "UNIQUE constraint failed: t.id"
    let names = ConstraintMessage.qualifiedNames(after: "UNIQUE constraint failed: ", in: message, context: context)
    error = .constraintViolation(.primaryKey, table: names.table, columns: names.columns, message: message)
  case 2579:  // SQLITE_CONSTRAINT_ROWID: a duplicate rowid in a table without a rowid alias
    let names = ConstraintMessage.qualifiedNames(after: "UNIQUE constraint failed: ", in: message, context: context)
    error = .constraintViolation(.primaryKey, table: names.table, columns: ["rowid"], message: message)
  case 1299:  // SQLITE_CONSTRAINT_NOTNULL: "NOT NULL constraint failed: t.a"
    let names = ConstraintMessage.qualifiedNames(after: "NOT NULL constraint failed: ", in: message, context: context)
    error = .constraintViolation(.notNull, table: names.table, columns: names.columns, message: message)
  case 275:  // SQLITE_CONSTRAINT_CHECK: "CHECK constraint failed: <name or expression>"
    error = .constraintViolation(.check, table: nil, columns: [], message: message)
  case 787:  // SQLITE_CONSTRAINT_FOREIGNKEY: "FOREIGN KEY constraint failed"
    error = .constraintViolation(.foreignKey, table: nil, columns: [], message: message)
  case 3091:  // SQLITE_CONSTRAINT_DATATYPE: "cannot store TEXT value in INTEGER column t.a"
    let names = ConstraintMessage.qualifiedNames(after: " column ", in: message, context: context)
    error = .constraintViolation(.datatype, table: names.table, columns: names.columns, message: message)
  default:
    guard extendedCode & 0xFF == SQLITE_CONSTRAINT else {
      throw TandemError.sqlite(code: extendedCode & 0xFF, message: message, sql: sql)
    }
    // SQLITE_CONSTRAINT_TRIGGER (a RESTRICT action's "FOREIGN KEY constraint failed") and the
    // rest: the message says which constraint, if anything does.
    let constraint = ConstraintMessage.constraint(in: message)
    error = .constraintViolation(constraint ?? .check, table: nil, columns: [], message: message)
    error.constraint = constraint
  }
  if let sql { error = error.with(statement: sql) }
  throw error
}

/// `sqlite3_errmsg` when the connection's last error is this one, else the code's generic text.
private func errorMessage(for resultCode: Int32, connection: OpaquePointer?) -> String {
  if let connection, sqlite3_extended_errcode(connection) == resultCode, let text = sqlite3_errmsg(connection) {
    return String(cString: text)
  }
  if let text = sqlite3_errstr(resultCode) { return String(cString: text) }
  return "SQLite error \(resultCode)"
}
