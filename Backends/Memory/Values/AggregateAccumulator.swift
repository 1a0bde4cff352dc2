import TandemCore

/// The running state of one aggregate call (`count`, `sum`, `total`, `avg`, `min`, `max`,
/// `group_concat`).
///
/// ```swift
/// var sum = AggregateAccumulator(.sum, distinct: false, collation: .binary)
/// try sum.step(.integer(1))
/// try sum.step(.text("2"))
/// try sum.result() // .integer(3)
/// ```
struct AggregateAccumulator {
  private let function: AggregateFunction
  private let collation: Collation
  private var seen: Set<ValueEqualityKey>?

  private var count: Int64 = 0
  private var realSum: Double = 0
  private var integerSum: Int64 = 0
  private var approximate = false
  private var overflow = false
  private var best: SqliteValue = .null
  /// group_concat's bytes so far; `nil` until a non-NULL value arrives.
  private var concatenated: [UInt8]?

  /// A fresh accumulator. With `distinct`, repeated values (equal under `collation`, `1` = `1.0`)
  /// are stepped only once.
  init(_ function: AggregateFunction, distinct: Bool, collation: Collation) {
    self.function = function
    self.collation = collation
    self.seen = distinct ? [] : nil
  }

  /// Adds one input value (NULLs are ignored). `count(*)` is stepped with any non-NULL marker.
  /// Throws `integer overflow` as soon as `sum()`'s exact integer sum overflows. `separator` is
  /// group_concat's separator on this row, written before the value unless it is the first
  /// (a NULL separator writes nothing).
  mutating func step(_ value: SqliteValue, separator: SqliteValue = .text(",")) throws {
    if value.isNull { return }
    if seen != nil {
      guard seen?.insert(ValueEqualityKey(value, collation: collation)).inserted == true else { return }
    }
    switch function {
    case .count:
      count += 1
    case .sum, .total, .avg:
      count += 1
      switch Self.summand(value) {
      case .integer(let i):
        realSum += Double(i)
        if !approximate && !overflow {
          let (sum, overflowed) = integerSum.addingReportingOverflow(i)
          if overflowed {
            approximate = true
            overflow = true
          } else {
            integerSum = sum
          }
        }
      case let other:
        realSum += Conversion.realValue(of: other)
        approximate = true
      }
      if overflow && function == .sum {
        throw TandemError.sqlite(code: 1, message: "integer overflow", sql: nil)
      }
    case .groupConcat:
      // sqlite3_value_text(): numbers rendered as text, blob bytes as they are.
      if concatenated == nil {
        concatenated = []
      } else {
        concatenated?.append(contentsOf: Conversion.textBytes(of: separator) ?? [])
      }
      concatenated?.append(contentsOf: Conversion.textBytes(of: value) ?? [])
    case .min, .max:
      if best.isNull {
        best = value
      } else {
        let order = ValueOrder.compare(best, value, collation: collation)
        if function == .max ? order < 0 : order > 0 { best = value }
      }
    }
  }

  /// The aggregate's value for the rows stepped so far: `count` → INTEGER; `sum` → NULL, INTEGER or
  /// REAL; `total` → REAL (0.0 when empty); `avg` → REAL or NULL; `min`/`max` → the value or NULL;
  /// `group_concat` → TEXT or NULL (refused when its bytes are not UTF-8, see ``Conversion/text(_:)``).
  func result() throws -> SqliteValue {
    switch function {
    case .count:
      return .integer(count)
    case .sum:
      if count == 0 { return .null }
      return approximate ? Conversion.realResult(realSum) : .integer(integerSum)
    case .total:
      return Conversion.realResult(realSum)
    case .avg:
      if count == 0 { return .null }
      return Conversion.realResult(realSum / Double(count))
    case .min, .max:
      return best
    case .groupConcat:
      guard let concatenated else { return .null }
      return try Conversion.text(concatenated)
    }
  }

  /// `sqlite3_value_numeric_type`'s reading of an input: TEXT that is wholly an integer becomes
  /// INTEGER, wholly a real number REAL; everything else is left as is.
  private static func summand(_ value: SqliteValue) -> SqliteValue {
    guard case .text(let s) = value else { return value }
    return NumericAffinity.convert(s, preferInteger: false)
  }
}
