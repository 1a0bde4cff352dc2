import Foundation
import Tandem
import Testing

/// Issue 9, item 7: dates read every text SQLite's date functions read, are written only in a
/// form Tandem reads back, and round-trip exactly through the representation made for it.
@Suite struct DateTests {
  static let columns = ["id", "iso", "exact", "unix", "unixInterval", "julian"]

  /// A UTC calendar time (Foundation's calendar, so years after 1582 only).
  static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0, ms: Int = 0)
    -> Date
  {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    let whole = calendar.date(from: components)?.timeIntervalSince1970 ?? .nan
    return Date(timeIntervalSince1970: (whole * 1000 + Double(ms)) / 1000)
  }

  /// 0000-01-01T00:00:00.000Z, the first instant ISO-8601 text stores.
  static let firstISOInstant = Date(timeIntervalSince1970: -62_167_219_200)

  /// Every form of time value SQLite's date functions read in text, with the instant it names
  /// (each checked against `julianday()` in ISO8601DateTextTests).
  static let accepted: [(String, Date)] = [
    ("1969-03-01", utc(1969, 3, 1)),
    ("1969-03-01 10:20", utc(1969, 3, 1, 10, 20)),
    ("1969-03-01T10:20", utc(1969, 3, 1, 10, 20)),
    ("1969-03-01 10:20:30", utc(1969, 3, 1, 10, 20, 30)),
    ("1969-03-01T10:20:30.5", utc(1969, 3, 1, 10, 20, 30, ms: 500)),
    ("1969-03-01 10:20:30.123", utc(1969, 3, 1, 10, 20, 30, ms: 123)),
    ("1969-03-01T10:20:30.123456789", utc(1969, 3, 1, 10, 20, 30, ms: 123)),
    ("1969-03-01T10:20:30.9996", utc(1969, 3, 1, 10, 20, 31)),
    ("1969-03-01T10:20:30.123Z", utc(1969, 3, 1, 10, 20, 30, ms: 123)),
    ("1969-03-01T10:20:30.123z", utc(1969, 3, 1, 10, 20, 30, ms: 123)),
    ("1969-03-01T10:20:30+02:00", utc(1969, 3, 1, 8, 20, 30)),
    ("1969-03-01 10:20:30 -02:30", utc(1969, 3, 1, 12, 50, 30)),
    ("1969-03-01T23:20+14:59", utc(1969, 3, 1, 8, 21)),
    ("1969-03-01T10:20Z", utc(1969, 3, 1, 10, 20)),
    ("1969-03-01T", utc(1969, 3, 1)),
    ("1969-03-01  T 10:20", utc(1969, 3, 1, 10, 20)),
    ("1969-03-01 ", utc(1969, 3, 1)),
    ("1969-03-01T10:20:30.123Z ", utc(1969, 3, 1, 10, 20, 30, ms: 123)),
    ("10:20", utc(2000, 1, 1, 10, 20)),
    ("10:20:30.25", utc(2000, 1, 1, 10, 20, 30, ms: 250)),
    ("00:30+01:00", utc(1999, 12, 31, 23, 30)),
    ("2024-02-29T12:00:00.000Z", utc(2024, 2, 29, 12)),
    ("0000-01-01T00:00:00.000Z", firstISOInstant),
    ("-0001-03-01", Date(timeIntervalSince1970: -62_167_219_200 - 306 * 86_400)),
    ("9999-12-31T23:59:59.999Z", utc(9999, 12, 31, 23, 59, 59, ms: 999)),
  ]

  /// Text SQLite rejects, and text it reads but would silently change (February 30, 24:00),
  /// which Tandem refuses to guess about.
  static let rejected = [
    "1969-3-01", "69-03-01", "01969-03-01", "+1969-03-01", " 1969-03-01", "1969-03-01Z", "1969-03-01x",
    "1969-03-01 1:00", "1969-03-01 10:20:3", "1969-03-01 10:20:30.", "1969-03-01T10:20+2:00", "1969-03-01T10:20+0200",
    "1969-03-01T10:20+15:00", "1969-03-01T10:20ZZ", "1969-13-01", "1969-00-01", "1969-01-00", "1969-02-32",
    "1969-03-01 23:60", "1969-03-01 23:59:60", "10000-01-01", "now", "2460000.5", "", "yesterday",
    "1969-02-30", "2023-02-29", "1969-03-01 24:00", "24:00",
  ]

  /// Regression test for issue 9 item 7: `'1969-03-01'`, written by another tool, failed to
  /// decode; so did every form but `YYYY-MM-DD[T ]HH:MM…`.
  @Test(arguments: BackendKind.allCases)
  func issue9Item7EveryTextSQLiteReadsDecodes(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Moment.self)
    for (index, (text, _)) in Self.accepted.enumerated() {
      try db.insertRaw(into: "moments", columns: ["id", "iso"], values: [.integer(Int64(index + 1)), .text(text)])
    }
    let decoded = try db.fetchAll(Moment.all.select { $0.iso })
    for ((text, expected), date) in zip(Self.accepted, decoded) {
      #expect(date == expected, "\(text)")
    }
  }

  @Test(arguments: BackendKind.allCases)
  func textSQLiteRejectsOrWouldChangeDoesNotDecode(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Moment.self)
    for text in Self.rejected {
      try db.execute(.delete(DeleteStatement(table: "moments")))
      try db.insertRaw(into: "moments", columns: ["id", "iso"], values: [1, .text(text)])
      let error = try #require(throws: TandemError.self, "\(text)") { try db.fetchAll(Moment.all) }
      #expect(error.kind == .decodingFailure, "\(text)")
      #expect(error.columns == ["iso"])
      #expect(error.swiftType == "Optional<Date>")
    }
  }

  /// Regression test for issue 9 item 7: a date far in the future was written as text Tandem
  /// could not read back (and a Unix-time date past Int64 as NULL).
  @Test(arguments: BackendKind.allCases)
  func issue9Item7DatesTandemCannotReadBackAreNotWritten(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Moment.self)
    let kept = Moment(id: 1, iso: Date(timeIntervalSince1970: 0))
    try db.insert(kept)
    let before = try db.storedRows(of: "moments", columns: Self.columns)

    let isoReason = "it is outside years 0000-9999, which ISO-8601 text stores"
    let farFuture = Date(timeIntervalSince1970: 1e12)  // year 33658
    let afterLast = Date(timeIntervalSince1970: 253_402_300_799.9996)  // rounds to year 10000
    let beforeFirst = Self.firstISOInstant.addingTimeInterval(-0.001)
    for date in [farFuture, afterLast, beforeFirst] {
      let error = try #require(throws: TandemError.self) { try db.insert(Moment(id: 2, iso: date)) }
      #expect(error.signature == .encoding(table: "moments", column: "iso", swiftType: "Date", reason: isoReason))
      let query = try #require(throws: TandemError.self) { try db.fetchAll(Moment.where { $0.iso > date }) }
      #expect(query.signature == .encoding(table: "moments", column: "iso", swiftType: "Date", reason: isoReason))
    }
    let update = try #require(throws: TandemError.self) {
      try db.update(Moment.where { $0.id == 1 }) { $0.set(\.iso, to: farFuture) }
    }
    #expect(update.signature == .encoding(table: "moments", column: "iso", swiftType: "Date", reason: isoReason))

    let huge = Date(timeIntervalSinceReferenceDate: 1e300)
    let unix = try #require(throws: TandemError.self) { try db.insert(Moment(id: 2, unix: huge)) }
    #expect(
      unix.signature
        == .encoding(
          table: "moments", column: "unix", swiftType: "Date", reason: "its whole seconds since 1970 do not read back exactly"))
    let infinite = Date(timeIntervalSinceReferenceDate: .infinity)
    for (moment, column, reason) in [
      (Moment(id: 2, exact: infinite), "exact", "its time interval since 2001 is not a finite number"),
      (Moment(id: 2, unixInterval: infinite), "unixInterval", "its time interval since 1970 is not a finite number"),
      (Moment(id: 2, julian: infinite), "julian", "its Julian day number is not a finite number"),
      (Moment(id: 2, exact: Date(timeIntervalSinceReferenceDate: .nan)), "exact", "its time interval since 2001 is not a finite number"),
    ] {
      let error = try #require(throws: TandemError.self) { try db.upsert(moment) }
      #expect(error.signature == .encoding(table: "moments", column: column, swiftType: "Date", reason: reason))
    }
    #expect(try db.storedRows(of: "moments", columns: Self.columns) == before)

    // The first and last instants of years 0000-9999 are written, and read back.
    let edges = [Self.firstISOInstant, Self.utc(9999, 12, 31, 23, 59, 59, ms: 999)]
    try db.insert(edges.enumerated().map { Moment(id: $0.offset + 10, iso: $0.element) })
    #expect(try db.fetchAll(Moment.where { $0.id >= 10 }.select { $0.iso }) == edges)
    #expect(
      try db.storedRows(of: "moments", columns: ["iso"]).dropFirst().map { $0[0] }
        == ["0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"])
    // The largest whole second a Date holds exactly is written as Unix time.
    let largest = Date(timeIntervalSince1970: 4_503_599_627_370_496)  // 2^52
    try db.insert(Moment(id: 20, unix: largest))
    #expect(try db.fetchOne(Moment.where { $0.id == 20 })?.unix == largest)
  }

  /// The default keeps milliseconds, so `Date()` read back is not `==` to the one written;
  /// `ReferenceTimeIntervalRepresentation` stores the Date's own number and reads back bit for bit.
  @Test(arguments: BackendKind.allCases)
  func referenceTimeIntervalRoundTripsExactly(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Moment.self)
    var generator = SystemRandomNumberGenerator()
    var dates = (0..<300).map { _ in Date(timeIntervalSinceReferenceDate: .random(in: -6e10...2.5e11, using: &generator)) }
    dates += (0..<100).map { _ in Date().addingTimeInterval(.random(in: -1...1, using: &generator)) }
    dates += [0, -0.0, 1e-300, .leastNonzeroMagnitude, -978_307_200.000_000_1, 0.000_1, 1e15 + 0.5].map(
      Date.init(timeIntervalSinceReferenceDate:))
    let isoRange = Self.firstISOInstant...Self.utc(9999, 12, 31, 23, 59, 59, ms: 999)
    try db.insert(
      dates.enumerated().map { Moment(id: $0.offset + 1, iso: isoRange.contains($0.element) ? $0.element : nil, exact: $0.element) })
    let back = try db.fetchAll(Moment.all.select { ($0.exact, $0.iso) })
    #expect(back.map { $0.0?.represented } == dates)
    #expect(
      back.map { $0.0?.represented.timeIntervalSinceReferenceDate.bitPattern }
        == dates.map { Optional($0.timeIntervalSinceReferenceDate == 0 ? 0 : $0.timeIntervalSinceReferenceDate.bitPattern) })

    // The default representation keeps the millisecond nearest the date.
    for (date, iso) in zip(dates, back.map(\.1)) where isoRange.contains(date) {
      let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
      #expect(iso == Date(timeIntervalSince1970: milliseconds / 1000))
    }
    let subMillisecond = Date(timeIntervalSince1970: 1_700_000_000.000_4)
    try db.insert(Moment(id: 1000, iso: subMillisecond, exact: subMillisecond))
    let stored = try #require(try db.fetchOne(Moment.where { $0.id == 1000 }))
    #expect(stored.iso != subMillisecond)
    #expect(stored.iso == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(stored.exact == subMillisecond)
    #expect(try db.fetchAll(Moment.where { $0.exact == subMillisecond }).map(\.id) == [1000])
  }

  /// Unix seconds with fractions and Julian days round: a date read back may differ from the one
  /// written by a few units in the last place (under a microsecond, or 20 µs for Julian days).
  @Test(arguments: BackendKind.allCases)
  func realRepresentationsRoundWithinTheirPrecision(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Moment.self)
    var generator = SystemRandomNumberGenerator()
    let dates = (0..<200).map { _ in Date(timeIntervalSinceReferenceDate: .random(in: 6e8...9e8, using: &generator)) }
    try db.insert(dates.enumerated().map { Moment(id: $0.offset + 1, unixInterval: $0.element, julian: $0.element) })
    for (date, moment) in zip(dates, try db.fetchAll(Moment.all)) {
      let unixError = abs((moment.unixInterval ?? .distantPast).timeIntervalSince(date))
      let julianError = abs((moment.julian ?? .distantPast).timeIntervalSince(date))
      #expect(unixError < 1e-6)
      #expect(julianError < 50e-6)
    }
  }

  /// Every representation stores dates in chronological order, before and after 1970.
  @Test(arguments: BackendKind.allCases)
  func everyRepresentationOrdersChronologically(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Moment.self)
    let seconds: [Double] = [1_700_000_000, -86_400 * 365 * 300, 0, 253_402_300_799, -1, 86_400, -62_167_219_200]
    try db.insert(
      seconds.enumerated().map { index, seconds in
        let date = Date(timeIntervalSince1970: seconds)
        return Moment(id: index + 1, iso: date, exact: date, unix: date, unixInterval: date, julian: date)
      })
    let chronological = seconds.enumerated().sorted { $0.element < $1.element }.map { $0.offset + 1 }
    #expect(try db.fetchAll(Moment.order { $0.iso }).map(\.id) == chronological)
    #expect(try db.fetchAll(Moment.order { $0.exact }).map(\.id) == chronological)
    #expect(try db.fetchAll(Moment.order { $0.unix }).map(\.id) == chronological)
    #expect(try db.fetchAll(Moment.order { $0.unixInterval }).map(\.id) == chronological)
    #expect(try db.fetchAll(Moment.order { $0.julian.desc() }).map(\.id) == chronological.reversed())

    let epoch = Date(timeIntervalSince1970: 0)
    let later = seconds.enumerated().filter { $0.element > 0 }.map { $0.offset + 1 }
    #expect(try db.fetchAll(Moment.where { $0.iso > epoch }).map(\.id) == later)
    #expect(try db.fetchAll(Moment.where { $0.exact > epoch }).map(\.id) == later)
    #expect(try db.fetchAll(Moment.where { $0.unix > epoch }).map(\.id) == later)
    #expect(try db.fetchAll(Moment.where { $0.julian.between(Date(timeIntervalSince1970: 1), and: Date(timeIntervalSince1970: 1e12)) }).map(\.id) == later)
    let (first, last) = try db.fetchSingle(Moment.all.select { ($0.unix.min(), $0.iso.max()) })
    #expect(first?.represented == Self.firstISOInstant)
    #expect(last == Date(timeIntervalSince1970: 253_402_300_799))
  }
}
