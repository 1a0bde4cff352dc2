import Foundation
import TandemCore

/// SQLite's total order over values (`sqlite3MemCompare`).
///
/// ```swift
/// ValueOrder.compare(.integer(1), .text("a"), collation: .binary)    // < 0: numbers sort before text
/// ValueOrder.compare(.text("a"), .text("A"), collation: .nocase)     // 0
/// ```
enum ValueOrder {
  /// Compares two values: NULL < INTEGER/REAL (by exact numeric value) < TEXT (by `collation`) < BLOB
  /// (memcmp, then length). Returns a negative number, 0 or a positive number.
  static func compare(_ a: SqliteValue, _ b: SqliteValue, collation: Collation) -> Int {
    switch (a, b) {
    case (.null, .null): return 0
    case (.null, _): return -1
    case (_, .null): return 1
    case (.integer(let x), .integer(let y)): return x < y ? -1 : (x > y ? 1 : 0)
    case (.real(let x), .real(let y)): return x < y ? -1 : (x > y ? 1 : 0)
    case (.integer(let i), .real(let r)): return compareExactly(i, r)
    case (.real(let r), .integer(let i)): return -compareExactly(i, r)
    case (.integer, _), (.real, _): return -1
    case (_, .integer), (_, .real): return 1
    case (.text(let x), .text(let y)): return compareText(x, y, collation: collation)
    case (.text, .blob): return -1
    case (.blob, .text): return 1
    case (.blob(let x), .blob(let y)): return compareBytes(x, y)
    }
  }

  /// Compares an INTEGER with a REAL by exact mathematical value (`sqlite3IntFloatCompare`); NaN
  /// compares equal to everything, as in SQLite.
  static func compareExactly(_ i: Int64, _ r: Double) -> Int {
    if r.isNaN { return 0 }
    if r >= 9223372036854775808.0 { return -1 }
    if r < -9223372036854775808.0 { return 1 }
    let whole = Int64(r)
    if i < whole { return -1 }
    if i > whole { return 1 }
    let fraction = r - Double(whole)
    return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
  }

  /// Compares two texts under a collation by their UTF-8 bytes: BINARY (memcmp, then length),
  /// NOCASE (ASCII letters folded), RTRIM (trailing spaces ignored).
  static func compareText(_ a: String, _ b: String, collation: Collation) -> Int {
    withUTF8Bytes(of: a) { x in
      withUTF8Bytes(of: b) { y in
        compareTextBytes(x, y, collation: collation)
      }
    }
  }

  /// ``compareText(_:_:collation:)`` over raw bytes.
  static func compareTextBytes(
    _ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, collation: Collation
  ) -> Int {
    switch collation {
    case .binary:
      return compareBinary(x, x.count, y, y.count)
    case .rtrim:
      var n1 = x.count
      var n2 = y.count
      while n1 > 0 && x[n1 - 1] == 0x20 { n1 -= 1 }
      while n2 > 0 && y[n2 - 1] == 0x20 { n2 -= 1 }
      return compareBinary(x, n1, y, n2)
    case .nocase:
      let n = min(x.count, y.count)
      var i = 0
      var remaining = n
      // sqlite3StrNICmp: stops at the first NUL of the left string.
      while true {
        if remaining <= 0 { return x.count - y.count }
        remaining -= 1
        let a = foldASCII(x[i])
        let b = foldASCII(y[i])
        if x[i] == 0 || a != b {
          let difference = Int(a) - Int(b)
          return difference != 0 ? difference : x.count - y.count
        }
        i += 1
      }
    }
  }

  /// ASCII `A`–`Z` to lowercase; every other byte unchanged.
  @inline(__always)
  static func foldASCII(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }

  private static func compareBinary(
    _ x: UnsafeBufferPointer<UInt8>, _ n1: Int, _ y: UnsafeBufferPointer<UInt8>, _ n2: Int
  ) -> Int {
    let n = min(n1, n2)
    if n > 0, let px = x.baseAddress, let py = y.baseAddress {
      let r = memcmp(px, py, n)
      if r != 0 { return Int(r) }
    }
    return n1 - n2
  }

  /// Compares two blobs: memcmp over the common length, then the shorter is smaller.
  static func compareBytes(_ a: Data, _ b: Data) -> Int {
    a.withUnsafeBytes { x in
      b.withUnsafeBytes { y in
        compareBinary(x.bindMemory(to: UInt8.self), x.count, y.bindMemory(to: UInt8.self), y.count)
      }
    }
  }
}
