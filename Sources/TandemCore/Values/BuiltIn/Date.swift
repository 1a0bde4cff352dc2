import Foundation

/// `Date` is stored by default as ISO-8601 `TEXT` in UTC with milliseconds,
/// `"2024-03-01T09:30:00.250Z"`, which sorts chronologically and matches SQLite's date functions.
///
/// Other columns may choose another representation with `@Column(as:)`:
/// ``Date/UnixTimeRepresentation`` (integer seconds), ``Date/UnixTimeIntervalRepresentation``
/// (real seconds) or ``Date/JulianDayRepresentation`` (real days).
///
/// ```swift
/// Date(timeIntervalSince1970: 0.25).sqliteValue      // .text("1970-01-01T00:00:00.250Z")
/// Date.decode(sqliteValue: .text("yesterday"))       // nil
/// ```
extension Date: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .text }
  public var sqliteValue: SqliteValue { .text(ISO8601DateText.format(self)) }
  public static func decode(sqliteValue: SqliteValue) -> Date? {
    guard case .text(let text) = sqliteValue else { return nil }
    return ISO8601DateText.parse(text)
  }
}

extension Date {
  /// Stores a date as ISO-8601 text in UTC with milliseconds (the default, spelled out).
  ///
  /// ```swift
  /// @Column(as: Date.ISO8601Representation.self) var createdAt: Date
  /// ```
  public struct ISO8601Representation: ColumnRepresentation, Hashable {
    public var represented: Date
    public init(_ represented: Date) { self.represented = represented }
    public static var sqliteTypeName: SqliteTypeName { .text }
    public var sqliteValue: SqliteValue { represented.sqliteValue }
    public static func decode(sqliteValue: SqliteValue) -> Self? {
      Date.decode(sqliteValue: sqliteValue).map(Self.init)
    }
  }

  /// Stores a date as whole seconds since 1970 (`INTEGER`); fractions of a second are rounded
  /// down when stored.
  ///
  /// ```swift
  /// @Column(as: Date.UnixTimeRepresentation.self) var createdAt: Date
  /// Date.UnixTimeRepresentation(Date(timeIntervalSince1970: 60.9)).sqliteValue // .integer(60)
  /// ```
  public struct UnixTimeRepresentation: ColumnRepresentation, Hashable {
    public var represented: Date
    public init(_ represented: Date) { self.represented = represented }
    public static var sqliteTypeName: SqliteTypeName { .integer }
    public var sqliteValue: SqliteValue {
      let seconds = represented.timeIntervalSince1970.rounded(.down)
      guard let exact = Int64(exactly: seconds) else { return .null }
      return .integer(exact)
    }
    public static func decode(sqliteValue: SqliteValue) -> Self? {
      guard case .integer(let seconds) = sqliteValue else { return nil }
      return Self(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
  }

  /// Stores a date as seconds since 1970 with fractions (`REAL`), exactly as `timeIntervalSince1970`.
  ///
  /// ```swift
  /// @Column(as: Date.UnixTimeIntervalRepresentation.self) var updatedAt: Date
  /// ```
  public struct UnixTimeIntervalRepresentation: ColumnRepresentation, Hashable {
    public var represented: Date
    public init(_ represented: Date) { self.represented = represented }
    public static var sqliteTypeName: SqliteTypeName { .real }
    public var sqliteValue: SqliteValue { .real(represented.timeIntervalSince1970) }
    public static func decode(sqliteValue: SqliteValue) -> Self? {
      guard case .real(let seconds) = sqliteValue, seconds.isFinite else { return nil }
      return Self(Date(timeIntervalSince1970: seconds))
    }
  }

  /// Stores a date as a Julian day number (`REAL`), the form SQLite's `julianday()` returns.
  ///
  /// ```swift
  /// @Column(as: Date.JulianDayRepresentation.self) var observedAt: Date
  /// Date.JulianDayRepresentation(Date(timeIntervalSince1970: 0)).sqliteValue // .real(2440587.5)
  /// ```
  public struct JulianDayRepresentation: ColumnRepresentation, Hashable {
    public var represented: Date
    public init(_ represented: Date) { self.represented = represented }
    public static var sqliteTypeName: SqliteTypeName { .real }
    static let unixEpochJulianDay = 2_440_587.5
    public var sqliteValue: SqliteValue {
      .real(represented.timeIntervalSince1970 / 86_400 + Self.unixEpochJulianDay)
    }
    public static func decode(sqliteValue: SqliteValue) -> Self? {
      guard case .real(let days) = sqliteValue, days.isFinite else { return nil }
      return Self(Date(timeIntervalSince1970: (days - unixEpochJulianDay) * 86_400))
    }
  }
}

/// ISO-8601 text with millisecond precision in UTC, computed with integer calendar arithmetic so
/// that it is exact for dates before 1970 and needs no formatter state.
enum ISO8601DateText {
  static func format(_ date: Date) -> String {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    guard let total = Int64(exactly: milliseconds) else { return "" }
    let (days, msOfDay) = floorDivide(total, 86_400_000)
    let (year, month, day) = civilDate(fromDays: days)
    let hour = msOfDay / 3_600_000
    let minute = msOfDay / 60_000 % 60
    let second = msOfDay / 1000 % 60
    let ms = msOfDay % 1000
    let yearText = (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "-" : "+") + pad(abs(year), 6)
    return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(ms, 3))Z"
  }

  /// Accepts `YYYY-MM-DD[T| ]HH:MM[:SS[.fff…]][Z]`; anything else is `nil`.
  static func parse(_ text: String) -> Date? {
    var scanner = ASCIIScanner(text)
    var sign: Int64 = 1
    var yearDigits = 4
    if scanner.take("-") { sign = -1; yearDigits = 6 } else if scanner.take("+") { yearDigits = 6 }
    guard let year = scanner.number(digits: yearDigits), scanner.take("-"),
      let month = scanner.number(digits: 2), scanner.take("-"),
      let day = scanner.number(digits: 2),
      scanner.take("T") || scanner.take(" "),
      let hour = scanner.number(digits: 2), scanner.take(":"),
      let minute = scanner.number(digits: 2)
    else { return nil }
    var second: Int64 = 0
    var milliseconds: Int64 = 0
    if scanner.take(":") {
      guard let s = scanner.number(digits: 2) else { return nil }
      second = s
      if scanner.take(".") {
        guard let fraction = scanner.fraction() else { return nil }
        milliseconds = fraction
      }
    }
    _ = scanner.take("Z")
    guard scanner.isAtEnd, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
      second < 60
    else { return nil }
    let signedYear = sign * year
    guard day <= daysInMonth(year: signedYear, month: month) else { return nil }
    let days = daysFromCivil(year: signedYear, month: month, day: day)
    let total = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milliseconds
    return Date(timeIntervalSince1970: Double(total) / 1000)
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

  private static func isLeap(_ y: Int64) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

  private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  // Howard Hinnant's days-from-civil algorithm (proleptic Gregorian calendar).
  private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
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

/// A forward-only reader of ASCII digits and punctuation.
private struct ASCIIScanner {
  private var bytes: Substring.UTF8View

  init(_ text: String) { bytes = text[...].utf8 }

  var isAtEnd: Bool { bytes.isEmpty }

  mutating func take(_ character: Unicode.Scalar) -> Bool {
    guard bytes.first == UInt8(ascii: character) else { return false }
    bytes = bytes.dropFirst()
    return true
  }

  mutating func number(digits count: Int) -> Int64? {
    var value: Int64 = 0
    for _ in 0..<count {
      guard let byte = bytes.first, (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int64(byte - 0x30)
      bytes = bytes.dropFirst()
    }
    return value
  }

  /// Milliseconds from a fraction of at least one digit; digits past the third are dropped.
  mutating func fraction() -> Int64? {
    var value: Int64 = 0
    var count = 0
    while let byte = bytes.first, (0x30...0x39).contains(byte) {
      if count < 3 { value = value * 10 + Int64(byte - 0x30) }
      count += 1
      bytes = bytes.dropFirst()
    }
    guard count > 0 else { return nil }
    for _ in count..<max(count, 3) { value *= 10 }
    return value
  }
}
