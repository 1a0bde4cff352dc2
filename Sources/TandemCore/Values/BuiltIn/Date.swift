import Foundation

/// `Date` is stored by default as ISO-8601 `TEXT` in UTC with milliseconds,
/// `"2024-03-01T09:30:00.250Z"`, which sorts chronologically and matches SQLite's date functions.
///
/// The text keeps milliseconds, so `Date()` read back is not `==` the `Date()` written; choose
/// ``Date/ReferenceTimeIntervalRepresentation`` with `@Column(as:)` for dates that must come back
/// bit for bit. Only years 0000-9999 are written (other dates are an encoding failure); any time
/// value SQLite's date functions read in text is decoded (`1969-03-01`, `1969-03-01 10:20`,
/// a `T` or a space, a `Z` or `±HH:MM` zone, a time alone).
///
/// Other columns may choose another representation with `@Column(as:)`:
/// ``Date/UnixTimeRepresentation`` (integer seconds), ``Date/UnixTimeIntervalRepresentation``
/// (real seconds since 1970), ``Date/ReferenceTimeIntervalRepresentation`` (real seconds since
/// 2001, exact) or ``Date/JulianDayRepresentation`` (real days).
///
/// ```swift
/// Date(timeIntervalSince1970: 0.25).sqliteValue      // .text("1970-01-01T00:00:00.250Z")
/// Date.decode(sqliteValue: .text("1969-03-01"))      // 1969-03-01 00:00:00 UTC
/// Date.decode(sqliteValue: .text("yesterday"))       // nil
/// ```
extension Date: ColumnType {
  public static var sqliteTypeName: SqliteTypeName { .text }
  /// The canonical text, or `NULL` for a date outside years 0000-9999 (which
  /// ``validateForStorage()`` rejects, so Tandem never writes it).
  public var sqliteValue: SqliteValue {
    guard let milliseconds = ISO8601DateText.milliseconds(of: self) else { return .null }
    return .text(ISO8601DateText.format(milliseconds: milliseconds))
  }
  public static func decode(sqliteValue: SqliteValue) -> Date? {
    guard case .text(let text) = sqliteValue else { return nil }
    return ISO8601DateText.parse(text)
  }
  /// Throws for a date whose text would fall outside years 0000-9999, where text order is
  /// chronological order and SQLite's date functions read it.
  public func validateForStorage() throws {
    guard ISO8601DateText.milliseconds(of: self) == nil else { return }
    throw TandemError.encodingFailure(
      table: nil, column: nil, swiftType: "Date", reason: "it is outside years 0000-9999, which ISO-8601 text stores")
  }
}

extension Date: QueryComparable {}

extension Date {
  /// Stores a date as ISO-8601 text in UTC with milliseconds (the default, spelled out).
  ///
  /// ```swift
  /// @Column(as: Date.ISO8601Representation.self) var createdAt: Date
  /// ```
  public struct ISO8601Representation: ColumnRepresentation, QueryComparable, Hashable {
    public var represented: Date
    public init(_ represented: Date) { self.represented = represented }
    public static var sqliteTypeName: SqliteTypeName { .text }
    public var sqliteValue: SqliteValue { represented.sqliteValue }
    public static func decode(sqliteValue: SqliteValue) -> Self? {
      Date.decode(sqliteValue: sqliteValue).map(Self.init)
    }
    public func validateForStorage() throws { try represented.validateForStorage() }
  }

  /// Stores a date as whole seconds since 1970 (`INTEGER`); fractions of a second are rounded
  /// down when stored.
  ///
  /// A date is written only when the integer reads back as that whole second (within about
  /// ±142 million years); a stored integer that no `Date` holds exactly fails to decode.
  ///
  /// ```swift
  /// @Column(as: Date.UnixTimeRepresentation.self) var createdAt: Date
  /// Date.UnixTimeRepresentation(Date(timeIntervalSince1970: 60.9)).sqliteValue // .integer(60)
  /// ```
  public struct UnixTimeRepresentation: ColumnRepresentation, QueryComparable, Hashable {
    public var represented: Date
    public init(_ represented: Date) { self.represented = represented }
    public static var sqliteTypeName: SqliteTypeName { .integer }
    /// The whole seconds, or `NULL` when they do not fit (rejected by ``validateForStorage()``).
    public var sqliteValue: SqliteValue {
      guard let seconds = Int64(exactly: represented.timeIntervalSince1970.rounded(.down)) else { return .null }
      return .integer(seconds)
    }
    public static func decode(sqliteValue: SqliteValue) -> Self? {
      guard case .integer(let seconds) = sqliteValue, let exact = Double(exactly: seconds) else { return nil }
      let date = Date(timeIntervalSince1970: exact)
      // Far from 1970 a Date's double cannot hold every whole second.
      guard date.timeIntervalSince1970 == exact else { return nil }
      return Self(date)
    }
    /// Throws unless the whole seconds read back as the same second.
    public func validateForStorage() throws {
      guard Self.decode(sqliteValue: sqliteValue) == nil else { return }
      throw TandemError.encodingFailure(
        table: nil, column: nil, swiftType: "Date", reason: "its whole seconds since 1970 do not read back exactly")
    }
  }

  /// Stores a date as seconds since 1970 with fractions (`REAL`), `timeIntervalSince1970`.
  ///
  /// Not exact: a `Date` holds seconds since 2001, and moving them to 1970 rounds, so a date read
  /// back may differ from the one written by a fraction of a microsecond. Use
  /// ``ReferenceTimeIntervalRepresentation`` when dates must come back `==`.
  ///
  /// ```swift
  /// @Column(as: Date.UnixTimeIntervalRepresentation.self) var updatedAt: Date
  /// ```
  public struct UnixTimeIntervalRepresentation: ColumnRepresentation, QueryComparable, Hashable {
    public var represented: Date
    public init(_ represented: Date) { self.represented = represented }
    public static var sqliteTypeName: SqliteTypeName { .real }
    public var sqliteValue: SqliteValue { .real(represented.timeIntervalSince1970) }
    public static func decode(sqliteValue: SqliteValue) -> Self? {
      guard case .real(let seconds) = sqliteValue, seconds.isFinite else { return nil }
      return Self(Date(timeIntervalSince1970: seconds))
    }
    /// Throws for a date whose seconds are not finite (NaN is stored as NULL, infinity does not decode).
    public func validateForStorage() throws {
      try Date.validateFinite(represented.timeIntervalSince1970, "its time interval since 1970")
    }
  }

  /// Stores a date as seconds since 2001-01-01 (`REAL`), `timeIntervalSinceReferenceDate`: the
  /// number a `Date` is made of, so every date reads back `==`, bit for bit.
  ///
  /// ```swift
  /// @Column(as: Date.ReferenceTimeIntervalRepresentation.self) var loggedAt: Date
  /// Date.ReferenceTimeIntervalRepresentation(Date(timeIntervalSinceReferenceDate: 0.5)).sqliteValue // .real(0.5)
  /// ```
  public struct ReferenceTimeIntervalRepresentation: ColumnRepresentation, QueryComparable, Hashable {
    public var represented: Date
    public init(_ represented: Date) { self.represented = represented }
    public static var sqliteTypeName: SqliteTypeName { .real }
    public var sqliteValue: SqliteValue { .real(represented.timeIntervalSinceReferenceDate) }
    public static func decode(sqliteValue: SqliteValue) -> Self? {
      guard case .real(let seconds) = sqliteValue, seconds.isFinite else { return nil }
      return Self(Date(timeIntervalSinceReferenceDate: seconds))
    }
    /// Throws for a date whose seconds are not finite (NaN is stored as NULL, infinity does not decode).
    public func validateForStorage() throws {
      try Date.validateFinite(represented.timeIntervalSinceReferenceDate, "its time interval since 2001")
    }
  }

  /// Stores a date as a Julian day number (`REAL`), the form SQLite's `julianday()` returns.
  ///
  /// Not exact: days are fractions with rounding, so a date read back may differ from the one
  /// written by a few microseconds.
  ///
  /// ```swift
  /// @Column(as: Date.JulianDayRepresentation.self) var observedAt: Date
  /// Date.JulianDayRepresentation(Date(timeIntervalSince1970: 0)).sqliteValue // .real(2440587.5)
  /// ```
  public struct JulianDayRepresentation: ColumnRepresentation, QueryComparable, Hashable {
    public var represented: Date
    public init(_ represented: Date) { self.represented = represented }
    public static var sqliteTypeName: SqliteTypeName { .real }
    static let unixEpochJulianDay = 2_440_587.5
    public var sqliteValue: SqliteValue { .real(julianDay) }
    public static func decode(sqliteValue: SqliteValue) -> Self? {
      guard case .real(let days) = sqliteValue, days.isFinite else { return nil }
      return Self(Date(timeIntervalSince1970: (days - unixEpochJulianDay) * 86_400))
    }
    /// Throws for a date whose day number is not finite (NaN is stored as NULL, infinity does not decode).
    public func validateForStorage() throws { try Date.validateFinite(julianDay, "its Julian day number") }

    private var julianDay: Double { represented.timeIntervalSince1970 / 86_400 + Self.unixEpochJulianDay }
  }

  /// Throws the encoding failure of a date whose stored number is NaN or infinite.
  static func validateFinite(_ number: Double, _ name: String) throws {
    guard !number.isFinite else { return }
    throw TandemError.encodingFailure(
      table: nil, column: nil, swiftType: "Date", reason: "\(name) is not a finite number")
  }
}
