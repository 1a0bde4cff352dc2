import Tandem

/// The constructors the tests write expected errors with: the fields of a ``TandemError`` that
/// must be identical on every backend (``TandemError/Signature``).
extension TandemError.Signature {
  /// A constraint violation as both engines must report it.
  static func constraint(
    _ constraint: TandemError.Constraint, table: String?, columns: [String], message: String
  ) -> TandemError.Signature {
    TandemError.Signature(kind: .constraintViolation, constraint: constraint, table: table, columns: columns, message: message)
  }

  /// An encoding failure: a value with no stored form, refused before anything ran.
  static func encoding(table: String?, column: String?, swiftType: String, reason: String) -> TandemError.Signature {
    let place = column.map { " in column \(table.map { "\($0)." } ?? "")\($0)" } ?? ""
    return TandemError.Signature(
      kind: .encodingFailure, table: table, columns: column.map { [$0] } ?? [],
      message: "cannot store \(swiftType)\(place): \(reason)")
  }

  /// A misuse of the API, refused before anything ran.
  static func misuse(_ message: String) -> TandemError.Signature {
    TandemError.Signature(kind: .misuse, message: message)
  }

  /// An error SQLite reports with a result code and no more specific kind.
  static func sqlite(code: Int32, message: String) -> TandemError.Signature {
    TandemError.Signature(kind: .sqlite, message: message, sqliteCode: code)
  }
}
