/// SQLite's logarithmic estimates (`LogEst`): ten times the base-2 logarithm of a number, as
/// the query planner uses them for row counts and costs (`util.c`).
///
/// ```swift
/// LogEst(1_048_576)         // 200
/// LogEst.add(200, 200)      // 210: the sum of two equal costs
/// ```
typealias LogEst = Int16

extension LogEst {
  /// `sqlite3LogEst`: the estimate of an integer.
  init(_ x: UInt64) {
    let table: [Int16] = [0, 2, 3, 5, 6, 7, 8, 9]
    var value = x
    var y: Int16 = 40
    if value < 8 {
      if value < 2 {
        self = 0
        return
      }
      while value < 8 {
        y -= 10
        value <<= 1
      }
    } else {
      let shift = 60 - value.leadingZeroBitCount
      y += Int16(shift * 10)
      value >>= UInt64(shift)
    }
    self = table[Int(value & 7)] + y - 10
  }

  /// `sqlite3LogEst` of an `Int` count (0 or less counts as 0).
  init(count: Int) { self.init(UInt64(Swift.max(count, 0))) }

  /// `sqlite3LogEstAdd`: the estimate of the sum of two estimated numbers.
  static func add(_ a: LogEst, _ b: LogEst) -> LogEst {
    let table: [Int16] = [
      10, 10, 9, 9, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2,
    ]
    if a >= b {
      if a > b + 49 { return a }
      if a > b + 31 { return a + 1 }
      return a + table[Int(a - b)]
    }
    if b > a + 49 { return b }
    if b > a + 31 { return b + 1 }
    return b + table[Int(b - a)]
  }

  /// `estLog`: the estimated base-2 logarithm of an estimated number.
  static func logarithm(_ n: LogEst) -> LogEst {
    n <= 10 ? 0 : LogEst(UInt64(n)) - 33
  }
}
