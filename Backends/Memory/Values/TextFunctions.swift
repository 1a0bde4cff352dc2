import Foundation
import TandemCore

/// The text scalar functions (`length`, `lower`/`upper`, `substr`, `trim`, `instr`, `replace`), ported
/// from SQLite to work on the same bytes it sees.
enum TextFunctions {
  /// `length(X)`: characters before the first NUL for TEXT, bytes for BLOB, the length of the
  /// rendered text for numbers; NULL for NULL.
  static func length(_ value: SqliteValue) -> SqliteValue {
    switch value {
    case .null:
      return .null
    case .blob(let data):
      return .integer(Int64(data.count))
    case .integer, .real:
      return .integer(Int64(Conversion.textBytes(of: value)?.count ?? 0))
    case .text(let s):
      var count: Int64 = 0
      var continuation = false
      for byte in s.utf8 {
        if byte == 0 { break }
        if continuation && byte & 0xC0 == 0x80 { continue }
        continuation = byte >= 0xC0
        count += 1
      }
      return .integer(count)
    }
  }

  /// `lower`/`upper`: maps every byte of the text reading of the value; result TEXT.
  static func mapASCII(_ value: SqliteValue, _ transform: (UInt8) -> UInt8) throws -> SqliteValue {
    guard let bytes = Conversion.textBytes(of: value) else { return .null }
    return try Conversion.text(bytes.map(transform))
  }

  /// `substr(X, Y [, Z])`: characters of text (stopping at a NUL), bytes of a BLOB.
  static func substr(_ value: SqliteValue, _ start: SqliteValue, _ length: SqliteValue?) throws -> SqliteValue {
    if start.isNull || length?.isNull == true { return .null }
    var p1 = Int64(Int32(truncatingIfNeeded: Conversion.integerValue(of: start)))
    var p2: Int64
    var negativeLength = false
    if let length {
      p2 = Int64(Int32(truncatingIfNeeded: Conversion.integerValue(of: length)))
      if p2 < 0 {
        p2 = -p2
        negativeLength = true
      }
    } else {
      p2 = ScalarFunctions.maximumLength
    }
    if case .blob(let data) = value {
      // sqlite3_value_blob() gives no pointer for an empty blob, and substr() then returns NULL.
      if data.isEmpty { return .null }
      let count = Int64(data.count)
      clip(&p1, &p2, count: count, negativeLength: negativeLength)
      if p1 + p2 > count {
        p2 = Swift.max(count - p1, 0)
      }
      let bytes = [UInt8](data)
      let lower = Int(Swift.min(p1, count))
      let upper = Int(Swift.min(p1 + p2, count))
      return .blob(Data(bytes[lower..<Swift.max(lower, upper)]))
    }
    guard var z = Conversion.textBytes(of: value) else { return .null }
    z.append(0)
    var characterCount: Int64 = 0
    if p1 < 0 {
      var i = 0
      while z[i] != 0 {
        skip(z, &i)
        characterCount += 1
      }
    }
    clip(&p1, &p2, count: characterCount, negativeLength: negativeLength)
    var from = 0
    while z[from] != 0 && p1 > 0 {
      skip(z, &from)
      p1 -= 1
    }
    var to = from
    while z[to] != 0 && p2 > 0 {
      skip(z, &to)
      p2 -= 1
    }
    return try Conversion.text(z[from..<to])
  }

  /// The start/length arithmetic of SQLite's `substrFunc`.
  private static func clip(_ p1: inout Int64, _ p2: inout Int64, count: Int64, negativeLength: Bool) {
    if p1 < 0 {
      p1 += count
      if p1 < 0 {
        p2 += p1
        if p2 < 0 { p2 = 0 }
        p1 = 0
      }
    } else if p1 > 0 {
      p1 -= 1
    } else if p2 > 0 {
      p2 -= 1
    }
    if negativeLength {
      p1 -= p2
      if p1 < 0 {
        p2 += p1
        p1 = 0
      }
    }
  }

  /// `SQLITE_SKIP_UTF8` over a NUL-terminated buffer.
  @inline(__always)
  static func skip(_ z: [UInt8], _ i: inout Int) {
    let c = z[i]
    i += 1
    if c >= 0xC0 {
      while z[i] & 0xC0 == 0x80 { i += 1 }
    }
  }

  /// `trim`/`ltrim`/`rtrim(X [, Y])`: removes characters of Y (default a space) from the ends of X's text.
  static func trim(_ value: SqliteValue, _ characters: SqliteValue?, left: Bool, right: Bool) throws -> SqliteValue {
    guard let input = Conversion.textBytes(of: value) else { return .null }
    var set: [[UInt8]]
    if let characters {
      guard var z = Conversion.textBytes(of: characters) else { return .null }
      z.append(0)
      set = []
      var i = 0
      while z[i] != 0 {
        let start = i
        skip(z, &i)
        set.append(Array(z[start..<i]))
      }
    } else {
      set = [[0x20]]
    }
    var lower = 0
    var upper = input.count
    if !set.isEmpty {
      if left {
        while upper > lower {
          guard let match = set.first(where: { $0.count <= upper - lower && input[lower..<(lower + $0.count)].elementsEqual($0) })
          else { break }
          lower += match.count
        }
      }
      if right {
        while upper > lower {
          guard let match = set.first(where: { $0.count <= upper - lower && input[(upper - $0.count)..<upper].elementsEqual($0) })
          else { break }
          upper -= match.count
        }
      }
    }
    return try Conversion.text(input[lower..<upper])
  }

  /// `instr(X, Y)`: 1-based position of Y in X (characters for text, bytes when both are BLOBs);
  /// 1 for an empty Y; 0 when absent; NULL if either is NULL.
  static func instr(_ haystack: SqliteValue, _ needle: SqliteValue) -> SqliteValue {
    if haystack.isNull || needle.isNull { return .null }
    var isText = true
    if case .blob = haystack, case .blob = needle { isText = false }
    guard let h = Conversion.textBytes(of: haystack), let n = Conversion.textBytes(of: needle) else { return .null }
    if n.isEmpty { return .integer(1) }
    var position: Int64 = 1
    var offset = 0
    while n.count <= h.count - offset && !h[offset..<(offset + n.count)].elementsEqual(n) {
      position += 1
      repeat {
        offset += 1
      } while isText && offset < h.count && h[offset] & 0xC0 == 0x80
    }
    if n.count > h.count - offset { position = 0 }
    return .integer(position)
  }

  /// `replace(X, Y, Z)`: every non-overlapping Y in X replaced by Z, scanning bytes left to right.
  /// An empty Y returns X unchanged (as TEXT if it was a BLOB); any other NULL gives NULL.
  static func replace(_ value: SqliteValue, _ pattern: SqliteValue, _ replacement: SqliteValue) throws -> SqliteValue {
    guard let input = Conversion.textBytes(of: value), let find = Conversion.textBytes(of: pattern) else {
      return .null
    }
    if find.first ?? 0 == 0 {
      if case .blob = value { return try Conversion.text(input) }
      return value
    }
    guard let with = Conversion.textBytes(of: replacement) else { return .null }
    var out: [UInt8] = []
    out.reserveCapacity(input.count)
    var i = 0
    let last = input.count - find.count
    while i <= last {
      if input[i] != find[0] || !input[i..<(i + find.count)].elementsEqual(find) {
        out.append(input[i])
      } else {
        out.append(contentsOf: with)
        i += find.count - 1
      }
      i += 1
    }
    if i < input.count { out.append(contentsOf: input[i...]) }
    return try Conversion.text(out)
  }
}
