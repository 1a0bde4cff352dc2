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
    let affinity = combined(lhsAffinity, rhsAffinity)
    return (operand(lhs, under: affinity), operand(rhs, under: affinity))
  }

  /// The affinity a comparison applies to both operands, from each side's affinity
  /// (`sqlite3CompareAffinity`).
  static func combined(_ lhsAffinity: Affinity, _ rhsAffinity: Affinity) -> Affinity {
    if lhsAffinity != .none && rhsAffinity != .none {
      return lhsAffinity.isNumeric || rhsAffinity.isNumeric ? .numeric : .blob
    }
    return lhsAffinity == .none ? rhsAffinity : lhsAffinity
  }

  /// One operand after the conversion of a comparison whose ``combined(_:_:)`` affinity is `affinity`.
  static func operand(_ value: SqliteValue, under affinity: Affinity) -> SqliteValue {
    switch affinity {
    case .integer, .real, .numeric: numericOperand(value)
    case .text: textOperand(value)
    case .blob, .none: value
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
