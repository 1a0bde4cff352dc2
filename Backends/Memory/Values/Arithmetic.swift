import TandemCore

/// SQLite's arithmetic operators and `||`.
///
/// ```swift
/// Arithmetic.add(.integer(.max), .integer(1))  // .real(9.223372036854775808e18), no error
/// Arithmetic.divide(.integer(7), .integer(2))  // .integer(3)
/// Arithmetic.remainder(.real(7.5), .integer(2)) // .real(1.0)
/// Arithmetic.divide(.integer(1), .integer(0))  // .null
/// ```
enum Arithmetic {
  private enum Operator { case add, subtract, multiply, divide, remainder }

  /// `a + b`.
  static func add(_ a: SqliteValue, _ b: SqliteValue) -> SqliteValue { apply(.add, a, b) }
  /// `a - b`.
  static func subtract(_ a: SqliteValue, _ b: SqliteValue) -> SqliteValue { apply(.subtract, a, b) }
  /// `a * b`.
  static func multiply(_ a: SqliteValue, _ b: SqliteValue) -> SqliteValue { apply(.multiply, a, b) }
  /// `a / b`.
  static func divide(_ a: SqliteValue, _ b: SqliteValue) -> SqliteValue { apply(.divide, a, b) }
  /// `a % b`.
  static func remainder(_ a: SqliteValue, _ b: SqliteValue) -> SqliteValue { apply(.remainder, a, b) }
  /// `-a`, which SQLite computes as `0 - a`.
  static func negate(_ a: SqliteValue) -> SqliteValue { apply(.subtract, .integer(0), a) }

  /// `a || b`: both sides as text (numbers rendered, blob bytes as they are); NULL if either is NULL.
  static func concatenate(_ a: SqliteValue, _ b: SqliteValue) throws -> SqliteValue {
    switch (a, b) {
    case (.null, _), (_, .null): return .null
    case (.text(let x), .text(let y)): return .text(x + y)
    default:
      let bytes = (Conversion.textBytes(of: a) ?? []) + (Conversion.textBytes(of: b) ?? [])
      return try Conversion.text(bytes)
    }
  }

  /// The numeric reading of an operand (`numericType`): INTEGER if it is, or its text is, an integer
  /// that fits; otherwise nil (the operation then runs in floating point).
  private static func integerOperand(_ value: SqliteValue) -> Int64? {
    switch value {
    case .integer(let i): return i
    case .real, .null: return nil
    case .text(let s): return withUTF8Bytes(of: s) { textIntegerOperand($0) }
    case .blob(let data): return data.withUnsafeBytes { textIntegerOperand($0.bindMemory(to: UInt8.self)) }
    }
  }

  private static func textIntegerOperand(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    let real = SqliteNumberParser.parseReal(bytes)
    if real.kind == 0 {
      let integer = SqliteNumberParser.parseInteger(bytes)
      return integer.status <= 1 ? integer.value : nil
    }
    if real.kind == 1 {
      let integer = SqliteNumberParser.parseInteger(bytes)
      return integer.status == 0 ? integer.value : nil
    }
    return nil
  }

  private static func apply(_ op: Operator, _ a: SqliteValue, _ b: SqliteValue) -> SqliteValue {
    if a.isNull || b.isNull { return .null }
    if let x = integerOperand(a), let y = integerOperand(b) {
      switch op {
      case .add:
        let (r, overflow) = x.addingReportingOverflow(y)
        if !overflow { return .integer(r) }
      case .subtract:
        let (r, overflow) = x.subtractingReportingOverflow(y)
        if !overflow { return .integer(r) }
      case .multiply:
        let (r, overflow) = x.multipliedReportingOverflow(by: y)
        if !overflow { return .integer(r) }
      case .divide:
        if y == 0 { return .null }
        if !(y == -1 && x == .min) { return .integer(x / y) }
      case .remainder:
        if y == 0 { return .null }
        return .integer(y == -1 ? 0 : x % y)
      }
    }
    let x = Conversion.realValue(of: a)
    let y = Conversion.realValue(of: b)
    let result: Double
    switch op {
    case .add: result = x + y
    case .subtract: result = x - y
    case .multiply: result = x * y
    case .divide:
      if y == 0 { return .null }
      result = x / y
    case .remainder:
      let ix = Conversion.integerValue(of: a)
      let iy = Conversion.integerValue(of: b)
      if iy == 0 { return .null }
      result = Double(iy == -1 ? 0 : ix % iy)
    }
    return Conversion.realResult(result)
  }
}
