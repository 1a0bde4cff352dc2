import TandemCore

/// The comparison operators, as one enum so a compiled comparison switches once.
enum ComparisonOperator {
  case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual, `is`, isNot

  init?(_ op: BinaryOperator) {
    switch op {
    case .equal: self = .equal
    case .notEqual: self = .notEqual
    case .less: self = .less
    case .lessOrEqual: self = .lessOrEqual
    case .greater: self = .greater
    case .greaterOrEqual: self = .greaterOrEqual
    case .is: self = .is
    case .isNot: self = .isNot
    default: return nil
    }
  }
}

/// SQLite's operators on already-evaluated values, built on the value layer.
enum ValueOperations {
  static let one = SqliteValue.integer(1)
  static let zero = SqliteValue.integer(0)

  /// `a op b` with the affinity conversions (Docs/SQLiteSemantics.md §3.3) and a collation (Docs/SQLiteSemantics.md §3.2): 0/1, or NULL when an
  /// operand is NULL (except for IS / IS NOT).
  @inline(__always)
  static func compare(
    _ op: ComparisonOperator, _ a: SqliteValue, _ aAffinity: Affinity, _ b: SqliteValue,
    _ bAffinity: Affinity, _ collation: Collation
  ) -> SqliteValue {
    switch op {
    case .is, .isNot:
      let aNull = a.isNull
      let bNull = b.isNull
      if aNull || bNull { return (aNull == bNull) == (op == .is) ? one : zero }
    default:
      if a.isNull || b.isNull { return .null }
    }
    let order = ordering(a, aAffinity, b, bAffinity, collation)
    let result: Bool
    switch op {
    case .equal, .is: result = order == 0
    case .notEqual, .isNot: result = order != 0
    case .less: result = order < 0
    case .lessOrEqual: result = order <= 0
    case .greater: result = order > 0
    case .greaterOrEqual: result = order >= 0
    }
    return result ? one : zero
  }

  /// The truth of `a op b`: `nil` when it is NULL.
  @inline(__always)
  static func truth(
    _ op: ComparisonOperator, _ a: SqliteValue, _ aAffinity: Affinity, _ b: SqliteValue,
    _ bAffinity: Affinity, _ collation: Collation
  ) -> Bool? {
    switch op {
    case .is, .isNot:
      let aNull = a.isNull
      let bNull = b.isNull
      if aNull || bNull { return (aNull == bNull) == (op == .is) }
    default:
      if a.isNull || b.isNull { return nil }
    }
    let order = ordering(a, aAffinity, b, bAffinity, collation)
    switch op {
    case .equal, .is: return order == 0
    case .notEqual, .isNot: return order != 0
    case .less: return order < 0
    case .lessOrEqual: return order <= 0
    case .greater: return order > 0
    case .greaterOrEqual: return order >= 0
    }
  }

  /// The order of two non-NULL operands after the comparison's affinity conversions.
  @inline(__always)
  static func ordering(
    _ a: SqliteValue, _ aAffinity: Affinity, _ b: SqliteValue, _ bAffinity: Affinity, _ collation: Collation
  ) -> Int {
    if case .integer(let x) = a, case .integer(let y) = b { return x < y ? -1 : (x == y ? 0 : 1) }
    let (left, right) = ComparisonOperands.prepare(a, aAffinity, b, bAffinity)
    return ValueOrder.compare(left, right, collation: collation)
  }

  /// `NOT v`: NULL stays NULL.
  static func not(_ value: SqliteValue) -> SqliteValue {
    switch Truth.isTrue(value) {
    case nil: .null
    case true?: zero
    case false?: one
    }
  }

  /// `a AND b` in three-valued logic.
  static func and(_ a: SqliteValue, _ b: SqliteValue) -> SqliteValue {
    let x = Truth.isTrue(a)
    let y = Truth.isTrue(b)
    if x == false || y == false { return zero }
    if x == nil || y == nil { return .null }
    return one
  }

  /// `a OR b` in three-valued logic.
  static func or(_ a: SqliteValue, _ b: SqliteValue) -> SqliteValue {
    let x = Truth.isTrue(a)
    let y = Truth.isTrue(b)
    if x == true || y == true { return one }
    if x == nil || y == nil { return .null }
    return zero
  }

  /// A bound or literal value as SQLite holds it: a NaN double binds as NULL.
  static func bound(_ value: SqliteValue) -> SqliteValue {
    if case .real(let number) = value, number.isNaN { return .null }
    return value
  }

  /// SQLite's `MustBeInt`: the value as an integer if it converts losslessly, else `nil`.
  static func mustBeInteger(_ value: SqliteValue) -> Int64? {
    if case .integer(let number) = value { return number }
    if case .integer(let number) = value.applyingStorageAffinity(.integer) { return number }
    return nil
  }
}
