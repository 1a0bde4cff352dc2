import Foundation

/// ISO-8601 text in UTC with milliseconds, `2024-03-01T09:30:00.250Z`, computed with integer
/// calendar arithmetic (proleptic Gregorian) so that it is exact before 1970 and needs no
/// formatter state.
///
/// It writes only years 0000-9999, where the text sorts chronologically, and reads every time
/// value SQLite's date functions read in text, except what SQLite would silently normalize:
///
/// ```swift
/// ISO8601DateText.parse("1969-03-01")                    // 1969-03-01T00:00:00.000Z
/// ISO8601DateText.parse("1969-03-01 10:20:30.5+02:00")   // 1969-03-01T08:20:30.500Z
/// ISO8601DateText.parse("10:20")                         // 2000-01-01T10:20:00.000Z
/// ISO8601DateText.parse("1969-02-30")                    // nil: SQLite would make it March 2
/// ```
enum ISO8601DateText {
  /// Milliseconds since 1970 of the first instant it writes, 0000-01-01T00:00:00.000Z.
  static let earliestMilliseconds: Int64 = daysFromCivil(year: 0, month: 1, day: 1) * 86_400_000
  /// Milliseconds since 1970 of the last instant it writes, 9999-12-31T23:59:59.999Z.
  static let latestMilliseconds: Int64 = daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400_000 - 1

  /// The date rounded to the millisecond, when its text is in years 0000-9999; `nil` otherwise.
  static func milliseconds(of date: Date) -> Int64? {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    guard let total = Int64(exactly: milliseconds), (earliestMilliseconds...latestMilliseconds).contains(total)
    else { return nil }
    return total
  }

  /// `YYYY-MM-DDTHH:MM:SS.SSSZ` for milliseconds since 1970 in years 0000-9999.
  static func format(milliseconds total: Int64) -> String {
    let (days, msOfDay) = floorDivide(total, 86_400_000)
    let (year, month, day) = civilDate(fromDays: days)
    let hour = msOfDay / 3_600_000
    let minute = msOfDay / 60_000 % 60
    let second = msOfDay / 1000 % 60
    let ms = msOfDay % 1000
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(ms, 3))Z"
  }

  /// The instant a text names, as SQLite's date functions read it, rounded to the millisecond;
  /// `nil` for anything else.
  ///
  /// Accepted, exactly as SQLite 3.40 accepts them: `YYYY-MM-DD` (a leading `-` for years before
  /// 0000), then optionally a run of spaces or `T`s and a time; a time alone (`HH:MM`, on
  /// 2000-01-01); a time is `HH:MM`, `HH:MM:SS` or `HH:MM:SS.F…` (any number of fraction
  /// digits), then optionally spaces and a zone, `Z`, `z` or `±HH:MM` (up to ±14:59), and
  /// trailing spaces; the instant, in UTC, between Julian day 0 (-4713-11-24T12:00Z) and
  /// 9999-12-31T23:59:59.999Z. Rejected although SQLite reads them, because SQLite would change them
  /// silently: a day past the end of its month (`1969-02-30`), hour 24, and the words and numbers
  /// its functions also take (`now`, a Julian day number).
  static func parse(_ text: String) -> Date? {
    var scanner = ASCIIScanner(text)
    let days: Int64
    var time: Int64 = 0
    if let date = scanner.date() {
      days = date
      scanner.skip { $0 == UInt8(ascii: "T") || isSpace($0) }
      if !scanner.isAtEnd {
        guard let timeOfDay = scanner.timeOfDay() else { return nil }
        time = timeOfDay
      }
    } else {
      scanner = ASCIIScanner(text)
      days = daysFromCivil(year: 2000, month: 1, day: 1)
      guard let timeOfDay = scanner.timeOfDay() else { return nil }
      time = timeOfDay
    }
    let milliseconds = days * 86_400_000 + time
    guard (earliestReadableMilliseconds...latestMilliseconds).contains(milliseconds) else { return nil }
    return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Milliseconds since 1970 of Julian day 0, -4713-11-24T12:00:00.000Z: SQLite reads no instant
  /// before it (nor after 9999-12-31T23:59:59.999Z).
  static let earliestReadableMilliseconds: Int64 = -210_866_760_000_000

  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

  static func isLeap(_ y: Int64) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

  static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }

  private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
    let q = a / b
    let r = a % b
    return r < 0 ? (q - 1, r + b) : (q, r)
  }

  // Howard Hinnant's days-from-civil algorithm (proleptic Gregorian calendar).
  static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  private static func civilDate(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

/// A forward-only reader of the ASCII digits and punctuation of a date text.
private struct ASCIIScanner {
  private var bytes: Substring.UTF8View

  init(_ text: String) { bytes = text[...].utf8 }

  var isAtEnd: Bool { bytes.isEmpty }

  mutating func take(_ character: Unicode.Scalar) -> Bool {
    guard bytes.first == UInt8(ascii: character) else { return false }
    bytes = bytes.dropFirst()
    return true
  }

  mutating func skip(while predicate: (UInt8) -> Bool) {
    while let byte = bytes.first, predicate(byte) { bytes = bytes.dropFirst() }
  }

  /// Exactly `count` digits, as a number in `range`.
  mutating func number(digits count: Int, in range: ClosedRange<Int64>) -> Int64? {
    var value: Int64 = 0
    var rest = bytes
    for _ in 0..<count {
      guard let byte = rest.first, (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int64(byte - 0x30)
      rest = rest.dropFirst()
    }
    guard range.contains(value) else { return nil }
    bytes = rest
    return value
  }

  /// `[-]YYYY-MM-DD` as days since 1970, or `nil` (and nothing consumed).
  mutating func date() -> Int64? {
    let start = bytes
    let sign: Int64 = take("-") ? -1 : 1
    guard let year = number(digits: 4, in: 0...9999), take("-"),
      let month = number(digits: 2, in: 1...12), take("-"),
      let day = number(digits: 2, in: 1...31),
      day <= ISO8601DateText.daysInMonth(year: sign * year, month: month)
    else {
      bytes = start
      return nil
    }
    return ISO8601DateText.daysFromCivil(year: sign * year, month: month, day: day)
  }

  /// `HH:MM[:SS[.F…]]`, an optional zone and trailing spaces, up to the end: milliseconds since
  /// midnight UTC (negative or past a day when the zone moves it).
  mutating func timeOfDay() -> Int64? {
    guard let hour = number(digits: 2, in: 0...23), take(":"), let minute = number(digits: 2, in: 0...59)
    else { return nil }
    var milliseconds = (hour * 60 + minute) * 60_000
    if take(":") {
      guard let second = number(digits: 2, in: 0...59) else { return nil }
      milliseconds += second * 1000
      // A point counts only when a digit follows it, as in SQLite.
      if bytes.first == UInt8(ascii: "."), let digit = bytes.dropFirst().first, (0x30...0x39).contains(digit) {
        bytes = bytes.dropFirst()
        milliseconds += fractionInMilliseconds()
      }
    }
    skip(while: ISO8601DateText.isSpace)
    let sign: Int64? = take("+") ? 1 : (take("-") ? -1 : nil)
    if let sign {
      guard let hours = number(digits: 2, in: 0...14), take(":"), let minutes = number(digits: 2, in: 0...59)
      else { return nil }
      // Local time minus its offset east of UTC is UTC.
      milliseconds -= sign * (hours * 60 + minutes) * 60_000
    } else {
      _ = take("Z") || take("z")
    }
    skip(while: ISO8601DateText.isSpace)
    return isAtEnd ? milliseconds : nil
  }

  /// The digits of a fraction of a second, rounded half up to milliseconds (0...1000).
  mutating func fractionInMilliseconds() -> Int64 {
    var value: Int64 = 0
    var count = 0
    var roundsUp = false
    while let byte = bytes.first, (0x30...0x39).contains(byte) {
      if count < 3 {
        value = value * 10 + Int64(byte - 0x30)
      } else if count == 3 {
        roundsUp = byte >= 0x35
      }
      count += 1
      bytes = bytes.dropFirst()
    }
    for _ in count..<max(count, 3) { value *= 10 }
    return value + (roundsUp ? 1 : 0)
  }
}
