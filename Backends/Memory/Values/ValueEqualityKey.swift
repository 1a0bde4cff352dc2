import TandemCore

/// A hashable stand-in for a value such that two keys are equal exactly when
/// `ValueOrder.compare(a, b, collation:) == 0` (DISTINCT, GROUP BY, DISTINCT aggregates).
///
/// `1` and `1.0` share a key, `1` and `'1'` do not; under NOCASE `'a'` and `'A'` do.
///
/// ```swift
/// ValueEqualityKey(.integer(1), collation: .binary) == ValueEqualityKey(.real(1), collation: .binary) // true
/// ```
struct ValueEqualityKey: Hashable, Sendable {
  private enum Storage: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(UInt64)
    case text([UInt8], length: Int)
    case blob([UInt8])
  }

  private let storage: Storage

  /// The key of `value` under `collation`.
  init(_ value: SqliteValue, collation: Collation) {
    switch value {
    case .null:
      storage = .null
    case .integer(let i):
      storage = .integer(i)
    case .real(let r):
      if r >= -9223372036854775808.0 && r < 9223372036854775808.0 && r == r.rounded(.towardZero) {
        storage = .integer(Int64(r))
      } else {
        storage = .real(r.bitPattern)
      }
    case .text(let s):
      var bytes = Array(s.utf8)
      switch collation {
      case .binary:
        storage = .text(bytes, length: bytes.count)
      case .rtrim:
        while bytes.last == 0x20 { bytes.removeLast() }
        storage = .text(bytes, length: bytes.count)
      case .nocase:
        // NOCASE equality: same length, same ASCII-folded bytes up to and including the first NUL.
        let length = bytes.count
        if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange((nul + 1)...) }
        for index in bytes.indices { bytes[index] = ValueOrder.foldASCII(bytes[index]) }
        storage = .text(bytes, length: length)
      }
    case .blob(let data):
      storage = .blob([UInt8](data))
    }
  }
}
