import TandemCore

/// The errors the memory engine throws, worded exactly as SQLite 3.40's `sqlite3_errmsg`.
enum EngineError {
  /// The backend name used in ``TandemError/unsupported(_:backend:)``.
  static let backendName = "memory"

  /// A plain SQLite error with its primary result code.
  static func sqlite(_ code: Int32, _ message: String) -> TandemError {
    .sqlite(code: code, message: message, sql: nil)
  }

  /// `no such table: t` (code 1).
  static func noSuchTable(_ name: String) -> TandemError { sqlite(1, "no such table: \(name)") }

  /// `no such column: c` (code 1).
  static func noSuchColumn(_ name: String) -> TandemError { sqlite(1, "no such column: \(name)") }

  /// `datatype mismatch` (code 20): a non-integer rowid, LIMIT or OFFSET. ``MemoryBackend`` makes
  /// a write's a datatype constraint violation, as the SQLite backend does (see ``FailedWrite``).
  static let datatypeMismatch = sqlite(20, "datatype mismatch")

  /// `database or disk is full` (code 13): AUTOINCREMENT ran out of rowids.
  static let databaseFull = sqlite(13, "database or disk is full")

  /// `FOREIGN KEY constraint failed`; ``MemoryBackend`` names its table and columns.
  static let foreignKey = TandemError.constraintViolation(
    .foreignKey, table: nil, columns: [], message: "FOREIGN KEY constraint failed")

  /// The error of an ON DELETE RESTRICT action. SQLite raises it from a trigger program, with
  /// extended code SQLITE_CONSTRAINT_TRIGGER (1811) rather than SQLITE_CONSTRAINT_FOREIGNKEY (787);
  /// by the error contract every constraint code is a constraint violation, so it is the same.
  static let restrictViolation = foreignKey

  /// `too many levels of trigger recursion`: foreign key actions nested 1000 deep.
  static let triggerRecursion = sqlite(1, "too many levels of trigger recursion")

  /// `NOT NULL constraint failed: t.c`.
  static func notNull(table: String, column: String) -> TandemError {
    .constraintViolation(
      .notNull, table: table, columns: [column], message: "NOT NULL constraint failed: \(table).\(column)")
  }

  /// `UNIQUE constraint failed: t.a, t.b`, as a unique or primary key violation.
  static func unique(table: String, columns: [String], primaryKey: Bool) -> TandemError {
    let list = columns.map { "\(table).\($0)" }.joined(separator: ", ")
    return .constraintViolation(
      primaryKey ? .primaryKey : .unique, table: table, columns: columns,
      message: "UNIQUE constraint failed: \(list)")
  }

  /// `misuse of aggregate function f()` (code 1).
  static func aggregateMisuse(_ function: AggregateFunction) -> TandemError {
    sqlite(1, "misuse of aggregate function \(function.rawValue)()")
  }

  /// `wrong number of arguments to function f()` (code 1).
  static func wrongArgumentCount(_ name: String) -> TandemError {
    sqlite(1, "wrong number of arguments to function \(name)()")
  }

  /// Something the engine cannot reproduce exactly.
  static func unsupported(_ feature: String) -> TandemError {
    .unsupported(feature, backend: backendName)
  }
}
