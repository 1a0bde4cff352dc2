import Tandem

/// The fields of a ``TandemError`` that must be identical on every backend (the ones tandem mode
/// compares): everything but the statement text, which each engine writes its own way.
struct ErrorSummary: Equatable, CustomStringConvertible {
  var kind: TandemError.Kind
  var constraint: TandemError.Constraint?
  var table: String?
  var columns: [String]
  var message: String
  var sqliteCode: Int32?

  /// A constraint violation as both engines must report it.
  static func constraint(
    _ constraint: TandemError.Constraint, table: String?, columns: [String], message: String
  ) -> ErrorSummary {
    ErrorSummary(
      kind: .constraintViolation, constraint: constraint, table: table, columns: columns, message: message,
      sqliteCode: nil)
  }

  /// An encoding failure: a value with no stored form, refused before anything ran.
  static func encoding(table: String?, column: String?, swiftType: String, reason: String) -> ErrorSummary {
    let place = column.map { " in column \(table.map { "\($0)." } ?? "")\($0)" } ?? ""
    return ErrorSummary(
      kind: .encodingFailure, constraint: nil, table: table, columns: column.map { [$0] } ?? [],
      message: "cannot store \(swiftType)\(place): \(reason)", sqliteCode: nil)
  }

  /// A misuse of the API, refused before anything ran.
  static func misuse(_ message: String) -> ErrorSummary {
    ErrorSummary(kind: .misuse, constraint: nil, table: nil, columns: [], message: message, sqliteCode: nil)
  }

  /// An error SQLite reports with a result code and no more specific kind.
  static func sqlite(code: Int32, message: String) -> ErrorSummary {
    ErrorSummary(kind: .sqlite, constraint: nil, table: nil, columns: [], message: message, sqliteCode: code)
  }

  var description: String {
    "\(kind) constraint: \(constraint.map { "\($0)" } ?? "nil") table: \(table ?? "nil") columns: \(columns) "
      + "message: \"\(message)\" code: \(sqliteCode.map { "\($0)" } ?? "nil")"
  }
}

extension TandemError {
  /// The backend-independent part of the error.
  var summary: ErrorSummary {
    ErrorSummary(
      kind: kind, constraint: constraint, table: table, columns: columns, message: message, sqliteCode: sqliteCode)
  }
}
