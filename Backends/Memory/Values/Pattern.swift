import TandemCore

/// SQLite's LIKE and GLOB (this build: LIKE_DOESNT_MATCH_BLOBS, no ICU).
///
/// ```swift
/// try Pattern.like(.text("ABC"), pattern: .text("a%"), escape: nil) // .integer(1)
/// Pattern.glob(.text("abc"), pattern: .text("A*"))                   // .integer(0)
/// ```
enum Pattern {
  /// The longest pattern SQLite accepts (`SQLITE_MAX_LIKE_PATTERN_LENGTH`).
  static let maximumPatternLength = 50_000

  private struct Rules {
    var matchAll: UInt32
    var matchOne: UInt32
    var matchSet: UInt32
    var noCase: Bool
  }

  private enum Outcome { case match, noMatch, noWildcardMatch }

  /// `value LIKE pattern [ESCAPE escape]`: `.integer(1)`/`.integer(0)`, or NULL when an operand is NULL.
  /// A BLOB value or pattern never matches. Throws when the escape is not a single character or the
  /// pattern is too long.
  static func like(_ value: SqliteValue, pattern: SqliteValue, escape: SqliteValue?) throws -> SqliteValue {
    if case .blob = value { return .integer(0) }
    if case .blob = pattern { return .integer(0) }
    try checkLength(pattern)
    var rules = Rules(matchAll: 0x25, matchOne: 0x5F, matchSet: 0, noCase: true)
    var escapeCharacter: UInt32 = 0
    if let escape {
      guard let escapeBytes = Conversion.textBytes(of: escape) else { return .null }
      let terminated = escapeBytes + [0]
      let (count, first) = terminated.withUnsafeBufferPointer { bytes in
        var index = 0
        return (characterCount(bytes), readCharacter(bytes, &index))
      }
      if count != 1 {
        throw TandemError.sqlite(code: 1, message: "ESCAPE expression must be a single character", sql: nil)
      }
      escapeCharacter = first
      if escapeCharacter == rules.matchAll { rules.matchAll = 0 }
      if escapeCharacter == rules.matchOne { rules.matchOne = 0 }
    }
    let outcome = withTerminatedBytes(of: pattern) { patternBytes in
      withTerminatedBytes(of: value) { valueBytes in compare(patternBytes, 0, valueBytes, 0, rules, escapeCharacter) }
    }
    guard let outcome = outcome ?? nil else { return .null }
    return .integer(outcome == .match ? 1 : 0)
  }

  /// `value GLOB pattern`: case-sensitive `*`, `?`, `[...]`; NULL when an operand is NULL; a BLOB
  /// value or pattern never matches. Throws when the pattern is too long, as LIKE does.
  static func glob(_ value: SqliteValue, pattern: SqliteValue) throws -> SqliteValue {
    if case .blob = value { return .integer(0) }
    if case .blob = pattern { return .integer(0) }
    try checkLength(pattern)
    let rules = Rules(matchAll: 0x2A, matchOne: 0x3F, matchSet: 0x5B, noCase: false)
    let outcome = withTerminatedBytes(of: pattern) { patternBytes in
      withTerminatedBytes(of: value) { valueBytes in compare(patternBytes, 0, valueBytes, 0, rules, 0x5B) }
    }
    guard let outcome = outcome ?? nil else { return .null }
    return .integer(outcome == .match ? 1 : 0)
  }

  /// Calls `body` with a value's text bytes followed by a NUL (TEXT is copied to a temporary
  /// buffer, usually on the stack); `nil` for NULL.
  private static func withTerminatedBytes<Result>(
    of value: SqliteValue, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    guard case .text(var text) = value else {
      guard let bytes = Conversion.textBytes(of: value) else { return nil }
      return (bytes + [0]).withUnsafeBufferPointer(body)
    }
    return text.withUTF8 { utf8 in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count + 1) { buffer in
        for index in utf8.indices { buffer.initializeElement(at: index, to: utf8[index]) }
        buffer.initializeElement(at: utf8.count, to: 0)
        return body(UnsafeBufferPointer(buffer))
      }
    }
  }

  /// Throws SQLite's error for a pattern longer than ``maximumPatternLength`` bytes (GLOB included).
  static func checkLength(_ pattern: SqliteValue) throws {
    let length: Int
    switch pattern {
    case .text(let s): length = s.utf8.count
    case .null, .blob: return
    default: length = Conversion.textBytes(of: pattern)?.count ?? 0
    }
    if length > maximumPatternLength {
      throw TandemError.sqlite(code: 1, message: "LIKE or GLOB pattern too complex", sql: nil)
    }
  }

  /// `sqlite3Utf8CharLen(z, -1)`: characters before the first NUL.
  private static func characterCount(_ z: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    var i = 0
    while z[i] != 0 {
      skipCharacter(z, &i)
      count += 1
    }
    return count
  }

  /// `SQLITE_SKIP_UTF8`.
  @inline(__always)
  private static func skipCharacter(_ z: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
    let c = z[i]
    i += 1
    if c >= 0xC0 {
      while z[i] & 0xC0 == 0x80 { i += 1 }
    }
  }

  /// `sqlite3Utf8Read` over a NUL-terminated buffer.
  @inline(__always)
  private static func readCharacter(_ z: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt32 {
    var c = UInt32(z[i])
    i += 1
    if c >= 0xC0 {
      c = leadValue(c)
      while z[i] & 0xC0 == 0x80 {
        c = (c << 6) &+ UInt32(z[i] & 0x3F)
        i += 1
      }
      if c < 0x80 || c & 0xFFFF_F800 == 0xD800 || c & 0xFFFF_FFFE == 0xFFFE { c = 0xFFFD }
    }
    return c
  }

  /// `sqlite3Utf8Trans1`: the payload bits of a UTF-8 lead byte ≥ 0xC0.
  @inline(__always)
  private static func leadValue(_ c: UInt32) -> UInt32 {
    switch c {
    case 0xC0...0xDF: c - 0xC0
    case 0xE0...0xEF: c - 0xE0
    case 0xF0...0xF7: c - 0xF0
    case 0xF8...0xFB: c - 0xF8
    default: c - 0xFC
    }
  }

  @inline(__always)
  private static func lowerASCII(_ c: UInt32) -> UInt32 {
    c >= 0x41 && c <= 0x5A ? c + 0x20 : c
  }

  @inline(__always)
  private static func upperASCII(_ c: UInt32) -> UInt32 {
    c >= 0x61 && c <= 0x7A ? c - 0x20 : c
  }

  /// A port of SQLite's `patternCompare` over NUL-terminated byte buffers.
  private static func compare(
    _ pattern: UnsafeBufferPointer<UInt8>, _ patternStart: Int, _ string: UnsafeBufferPointer<UInt8>, _ stringStart: Int,
    _ rules: Rules, _ matchOther: UInt32
  ) -> Outcome {
    var p = patternStart
    var s = stringStart
    var escapedEnd = -1
    while true {
      var c = readCharacter(pattern, &p)
      if c == 0 { break }
      if c == rules.matchAll {
        while true {
          c = readCharacter(pattern, &p)
          if c == rules.matchAll { continue }
          if c == rules.matchOne && rules.matchOne != 0 {
            if readCharacter(string, &s) == 0 { return .noWildcardMatch }
            continue
          }
          break
        }
        if c == 0 { return .match }
        if c == matchOther {
          if rules.matchSet == 0 {
            c = readCharacter(pattern, &p)
            if c == 0 { return .noWildcardMatch }
          } else {
            while string[s] != 0 {
              let outcome = compare(pattern, p - 1, string, s, rules, matchOther)
              if outcome != .noMatch { return outcome }
              skipCharacter(string, &s)
            }
            return .noWildcardMatch
          }
        }
        if c < 0x80 {
          let stop1 = UInt8(rules.noCase ? upperASCII(c) : c)
          let stop2 = UInt8(rules.noCase ? lowerASCII(c) : c)
          while true {
            while string[s] != 0 && string[s] != stop1 && string[s] != stop2 { s += 1 }
            if string[s] == 0 { break }
            s += 1
            let outcome = compare(pattern, p, string, s, rules, matchOther)
            if outcome != .noMatch { return outcome }
          }
        } else {
          while true {
            let c2 = readCharacter(string, &s)
            if c2 == 0 { break }
            if c2 != c { continue }
            let outcome = compare(pattern, p, string, s, rules, matchOther)
            if outcome != .noMatch { return outcome }
          }
        }
        return .noWildcardMatch
      }
      if c == matchOther {
        if rules.matchSet == 0 {
          c = readCharacter(pattern, &p)
          if c == 0 { return .noMatch }
          escapedEnd = p
        } else {
          var prior: UInt32 = 0
          var seen = false
          var invert = false
          c = readCharacter(string, &s)
          if c == 0 { return .noMatch }
          var c2 = readCharacter(pattern, &p)
          if c2 == 0x5E {
            invert = true
            c2 = readCharacter(pattern, &p)
          }
          if c2 == 0x5D {
            if c == 0x5D { seen = true }
            c2 = readCharacter(pattern, &p)
          }
          while c2 != 0 && c2 != 0x5D {
            if c2 == 0x2D && pattern[p] != 0x5D && pattern[p] != 0 && prior > 0 {
              c2 = readCharacter(pattern, &p)
              if c >= prior && c <= c2 { seen = true }
              prior = 0
            } else {
              if c == c2 { seen = true }
              prior = c2
            }
            c2 = readCharacter(pattern, &p)
          }
          if c2 == 0 || seen == invert { return .noMatch }
          continue
        }
      }
      let c2 = readCharacter(string, &s)
      if c == c2 { continue }
      if rules.noCase && c < 0x80 && c2 < 0x80 && lowerASCII(c) == lowerASCII(c2) { continue }
      if c == rules.matchOne && p != escapedEnd && c2 != 0 { continue }
      return .noMatch
    }
    return string[s] == 0 ? .match : .noMatch
  }
}
