import TandemCore

/// SQLite's truthiness (WHERE, HAVING, CASE WHEN, the operands of AND/OR/NOT).
///
/// ```swift
/// Truth.isTrue(.text("1x"))  // true
/// Truth.isTrue(.text("abc")) // false
/// Truth.isTrue(.null)        // nil
/// ```
enum Truth {
  /// Whether a value counts as true: its numeric value (text and blobs by their real-number
  /// prefix) is non-zero. Nil for NULL.
  static func isTrue(_ value: SqliteValue) -> Bool? {
    switch value {
    case .null: nil
    case .integer(let i): i != 0
    case .real(let r): r != 0
    case .text, .blob: Conversion.realValue(of: value) != 0
    }
  }
}
