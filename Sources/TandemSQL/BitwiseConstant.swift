import TandemCore

/// SQLite's bitwise operators (`&`, `|`, `<<`, `>>`, `~`) computed on integer constants, which the
/// query model cannot express as operators (`OP_BitAnd`, `OP_ShiftLeft`, `OP_BitNot` in `vdbe.c`).
///
/// ```swift
/// BitwiseConstant.fold("<<", .literal(.integer(1)), .literal(.integer(63)))  // .literal(.integer(Int64.min))
/// BitwiseConstant.fold("&", .column("a"), .literal(.integer(1)))             // nil: not a constant
/// ```
enum BitwiseConstant {
  /// The value of `left op right` (or `~left` when `right` is nil) when every operand is an
  /// integer or NULL literal; `nil` otherwise.
  static func fold(_ op: String, _ left: SQLExpression, _ right: SQLExpression?) -> SQLExpression? {
    guard let a = operand(left) else { return nil }
    let b: Int64??
    if let right {
      guard let value = operand(right) else { return nil }
      b = .some(value)
    } else {
      b = .none
    }
    // NULL in, NULL out.
    guard let a else { return .literal(.null) }
    guard let b else { return op == "~" ? .literal(.integer(~a)) : nil }
    guard let b else { return .literal(.null) }
    switch op {
    case "&": return .literal(.integer(a & b))
    case "|": return .literal(.integer(a | b))
    case "<<": return .literal(.integer(shift(a, by: b, left: true)))
    case ">>": return .literal(.integer(shift(a, by: b, left: false)))
    default: return nil
    }
  }

  /// An integer literal's value, `.some(nil)` for NULL, `nil` for anything else.
  private static func operand(_ expression: SQLExpression) -> Int64?? {
    switch expression {
    case .literal(.integer(let value)): .some(value)
    case .literal(.null): .some(nil)
    default: nil
    }
  }

  /// `OP_ShiftLeft` / `OP_ShiftRight`: a negative count shifts the other way; 64 or more gives
  /// 0, or -1 for a negative value shifted right.
  private static func shift(_ value: Int64, by count: Int64, left: Bool) -> Int64 {
    var left = left
    var count = count
    if count < 0 {
      left.toggle()
      count = count > -64 ? -count : 64
    }
    if count >= 64 { return !left && value < 0 ? -1 : 0 }
    if left { return Int64(bitPattern: UInt64(bitPattern: value) << UInt64(count)) }
    return value >> count
  }
}
