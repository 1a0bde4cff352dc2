/// Ports of SQLite's two text-to-number parsers, `sqlite3AtoF` and `sqlite3Atoi64`.
///
/// Both work on UTF-8 bytes (the whole buffer, embedded NULs included, like SQLite's `Mem.n`).
enum SqliteNumberParser {
  /// What `sqlite3AtoF` found in a text.
  struct RealParse {
    /// The value of the longest numeric prefix (0.0 when there is none).
    var value: Double
    /// SQLite's classification: `1` the whole text is an integer literal, `2`/`3` the whole text is a
    /// number with a `.` and/or an exponent, `-1` only a prefix is a number and it has a `.` or an
    /// exponent, `0` anything else (no number, or an integer prefix followed by other text).
    var kind: Int
  }

  /// What `sqlite3Atoi64` found in a text.
  struct IntegerParse {
    /// The integer prefix, saturated at the `Int64` bounds (0 when there are no digits).
    var value: Int64
    /// `-1` no digits, `0` a whole integer that fits, `1` extra text after the integer,
    /// `2` too large, `3` exactly 9223372036854775808.
    var status: Int
  }

  /// SQLite's whitespace: space, `\t`, `\n`, `\v`, `\f`, `\r`.
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
  }

  /// An ASCII decimal digit.
  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= 0x30 && byte <= 0x39
  }

  private static let significandLimit = (Int64.max - 9) / 10

  /// `sqlite3AtoF`: the value of the longest real-number prefix and how much of the text it covers.
  static func parseReal(_ z: UnsafeBufferPointer<UInt8>) -> RealParse {
    let end = z.count
    if end == 0 { return RealParse(value: 0, kind: 0) }
    var i = 0
    while i < end && isSpace(z[i]) { i += 1 }
    if i >= end { return RealParse(value: 0, kind: 0) }

    var negative = false
    var significand: Int64 = 0
    var shift = 0
    var exponentNegative = false
    var exponent = 0
    var exponentValid = true
    var digitCount = 0
    var type = 1

    if z[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    } else if z[i] == UInt8(ascii: "+") {
      i += 1
    }
    while i < end && isDigit(z[i]) {
      significand = significand * 10 + Int64(z[i] &- 0x30)
      i += 1
      digitCount += 1
      if significand >= significandLimit {
        while i < end && isDigit(z[i]) {
          i += 1
          shift += 1
        }
      }
    }
    scan: do {
      if i >= end { break scan }
      if z[i] == UInt8(ascii: ".") {
        i += 1
        type += 1
        while i < end && isDigit(z[i]) {
          if significand < significandLimit {
            significand = significand * 10 + Int64(z[i] &- 0x30)
            shift -= 1
            digitCount += 1
          }
          i += 1
        }
      }
      if i >= end { break scan }
      if z[i] == UInt8(ascii: "e") || z[i] == UInt8(ascii: "E") {
        i += 1
        exponentValid = false
        type += 1
        if i >= end { break scan }
        if z[i] == UInt8(ascii: "-") {
          exponentNegative = true
          i += 1
        } else if z[i] == UInt8(ascii: "+") {
          i += 1
        }
        while i < end && isDigit(z[i]) {
          exponent = exponent < 10000 ? exponent * 10 + Int(z[i] &- 0x30) : 10000
          i += 1
          exponentValid = true
        }
      }
      while i < end && isSpace(z[i]) { i += 1 }
    }

    let value = realValue(
      negative: negative, significand: significand,
      exponent: (exponentNegative ? -exponent : exponent) + shift)
    let kind: Int
    if i == end && digitCount > 0 && exponentValid && type > 0 {
      kind = type
    } else if type >= 2 && (type == 3 || exponentValid) && digitCount > 0 {
      kind = -1
    } else {
      kind = 0
    }
    return RealParse(value: value, kind: kind)
  }

  /// The `do_atof_calc` step of `sqlite3AtoF`: significand × 10^exponent, computed as SQLite does.
  private static func realValue(negative: Bool, significand: Int64, exponent: Int) -> Double {
    if significand == 0 { return negative ? -0.0 : 0.0 }
    var s = significand
    var e = exponent
    let down = e < 0
    if down { e = -e }
    while e > 0 {
      if !down {
        if s >= Int64.max / 10 { break }
        s *= 10
      } else {
        if s % 10 != 0 { break }
        s /= 10
      }
      e -= 1
    }
    if negative { s = -s }
    if e == 0 { return Double(s) }
    if e > 307 {
      if e < 342 {
        let scale = powerOfTen(e - 308)
        if down {
          return Double(LongDouble(s) / scale) / (1.0e308 as Double)
        }
        return Double(LongDouble(s) * scale) * (1.0e308 as Double)
      }
      return down ? 0.0 * Double(s) : Double.infinity * Double(s)
    }
    let scale = powerOfTen(e)
    return down ? Double(LongDouble(s) / scale) : Double(LongDouble(s) * scale)
  }

  /// `sqlite3Pow10`: 10^e in long double by binary exponentiation (not exact for large e, and
  /// SQLite's results depend on exactly this rounding).
  private static func powerOfTen(_ exponent: Int) -> LongDouble {
    var x = LongDouble(10.0 as Double)
    var result: LongDouble = 1
    var e = exponent
    while true {
      if e & 1 != 0 { result *= x }
      e >>= 1
      if e == 0 { break }
      x *= x
    }
    return result
  }

  /// `sqlite3Atoi64`: the integer prefix of a text (after whitespace and a sign), saturating.
  static func parseInteger(_ z: UnsafeBufferPointer<UInt8>) -> IntegerParse {
    let end = z.count
    var i = 0
    while i < end && isSpace(z[i]) { i += 1 }
    var negative = false
    if i < end {
      if z[i] == UInt8(ascii: "-") {
        negative = true
        i += 1
      } else if z[i] == UInt8(ascii: "+") {
        i += 1
      }
    }
    let start = i
    while i < end && z[i] == UInt8(ascii: "0") { i += 1 }
    let digitsStart = i
    var magnitude: UInt64 = 0
    var j = i
    while j < end && isDigit(z[j]) {
      magnitude = magnitude &* 10 &+ UInt64(z[j] &- 0x30)
      j += 1
    }
    let digitCount = j - digitsStart
    var value: Int64
    if magnitude > UInt64(Int64.max) {
      value = negative ? .min : .max
    } else {
      value = negative ? -Int64(magnitude) : Int64(magnitude)
    }
    var status = 0
    if digitCount == 0 && start == digitsStart {
      status = -1
    } else if j < end {
      var k = j
      while k < end {
        if !isSpace(z[k]) {
          status = 1
          break
        }
        k += 1
      }
    }
    if digitCount < 19 { return IntegerParse(value: value, status: status) }
    let order = digitCount > 19 ? 1 : compareWithTwoToThe63(z, from: digitsStart)
    if order < 0 { return IntegerParse(value: value, status: status) }
    value = negative ? .min : .max
    if order > 0 { return IntegerParse(value: value, status: 2) }
    return IntegerParse(value: value, status: negative ? status : 3)
  }

  /// Compares the 19 digits at `from` with 9223372036854775808.
  private static func compareWithTwoToThe63(_ z: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
    let limit = Array("9223372036854775808".utf8)
    for k in 0..<19 {
      let a = z[from + k]
      let b = limit[k]
      if a != b { return a < b ? -1 : 1 }
    }
    return 0
  }
}

extension SqliteNumberParser {
  /// `sqlite3AtoF` over a string's UTF-8.
  static func parseReal(_ text: String) -> RealParse {
    withUTF8Bytes(of: text) { parseReal($0) }
  }

  /// `sqlite3Atoi64` over a string's UTF-8.
  static func parseInteger(_ text: String) -> IntegerParse {
    withUTF8Bytes(of: text) { parseInteger($0) }
  }
}

/// Calls `body` with the UTF-8 bytes of `text` (no terminator).
func withUTF8Bytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
  if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBufferPointer(body)
}

/// Calls `body` with the bytes of a byte array.
func withBytes<Result>(of bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
  bytes.withUnsafeBufferPointer(body)
}
