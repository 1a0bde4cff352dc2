import TandemCore

/// The conversions SQLite applies to the operands of a comparison (`=`, `<>`, `<`, `<=`, `>`, `>=`,
/// `IS`, `IS NOT`, `BETWEEN`, `IN (list)`, `CASE x WHEN`).
///
/// ```swift
/// // An INTEGER column compared with the literal '10': the text becomes a number.
/// ComparisonOperands.prepare(.integer(10), .integer, .text("10"), .none) // (.integer(10), .integer(10))
/// ```
enum ComparisonOperands {
  /// The two operands after the affinity conversions of a comparison, given each side's affinity.
  ///
  /// - Both sides have an affinity: if either is INTEGER/REAL/NUMERIC, numeric text on both sides
  ///   becomes a number; otherwise nothing changes.
  /// - One side has an affinity: INTEGER/REAL/NUMERIC converts numeric text, TEXT renders numbers,
  ///   BLOB changes nothing.
  /// - Neither side has an affinity: nothing changes.
  static func prepare(
    _ lhs: SqliteValue, _ lhsAffinity: Affinity, _ rhs: SqliteValue, _ rhsAffinity: Affinity
  ) -> (SqliteValue, SqliteValue) {
    let affinity: Affinity
    if lhsAffinity != .none && rhsAffinity != .none {
      affinity = lhsAffinity.isNumeric || rhsAffinity.isNumeric ? .numeric : .blob
    } else {
      affinity = lhsAffinity == .none ? rhsAffinity : lhsAffinity
    }
    switch affinity {
    case .integer, .real, .numeric:
      return (numericOperand(lhs), numericOperand(rhs))
    case .text:
      return (textOperand(lhs), textOperand(rhs))
    case .blob, .none:
      return (lhs, rhs)
    }
  }

  private static func numericOperand(_ value: SqliteValue) -> SqliteValue {
    guard case .text(let s) = value else { return value }
    return NumericAffinity.convert(s, preferInteger: false)
  }

  private static func textOperand(_ value: SqliteValue) -> SqliteValue {
    switch value {
    case .integer(let i): .text(String(i))
    case .real(let r): .text(Conversion.realToText(r))
    case .text, .blob, .null: value
    }
  }
}
