import Foundation
import TandemCore
import Testing

/// Encodes then decodes, expecting the original value back.
func roundTrip<T: ColumnType & Equatable>(_ value: T) -> T? {
  T.decode(sqliteValue: value.sqliteValue)
}

enum Priority: Int, ColumnType { case low = 1, medium, high }
enum Mood: String, ColumnType { case happy, grumpy }

@Suite struct ColumnTypeRoundTripTests {
  @Test(arguments: [Int.min, -1, 0, 1, Int.max])
  func int(_ value: Int) { #expect(roundTrip(value) == value) }

  @Test(arguments: [Int64.min, -1, 0, Int64.max])
  func int64(_ value: Int64) {
    #expect(value.sqliteValue == .integer(value))
    #expect(roundTrip(value) == value)
  }

  @Test func smallIntegers() {
    for v in [Int8.min, 0, Int8.max] { #expect(roundTrip(v) == v) }
    for v in [Int16.min, 0, Int16.max] { #expect(roundTrip(v) == v) }
    for v in [Int32.min, 0, Int32.max] { #expect(roundTrip(v) == v) }
    for v in [UInt8.min, UInt8.max] { #expect(roundTrip(v) == v) }
    for v in [UInt16.min, UInt16.max] { #expect(roundTrip(v) == v) }
    for v in [UInt32.min, UInt32.max] { #expect(roundTrip(v) == v) }
  }

  @Test func bool() {
    #expect(true.sqliteValue == .integer(1))
    #expect(false.sqliteValue == .integer(0))
    #expect(roundTrip(true) == true)
    #expect(roundTrip(false) == false)
  }

  @Test(arguments: [0.0, -0.0, 1.5, -1e300, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1 + 0.2])
  func double(_ value: Double) {
    let decoded = roundTrip(value)
    #expect(decoded?.bitPattern == value.bitPattern)
  }

  @Test func float() {
    for v: Float in [0, -0.0, 1.5, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1] {
      #expect(roundTrip(v)?.bitPattern == v.bitPattern)
    }
  }

  @Test(arguments: ["", "hello", "héllo wörld", "🧑‍🚀 emoji", "e\u{301}", "a\u{0}b", "'); DROP TABLE reminders; --"])
  func string(_ value: String) {
    let decoded = roundTrip(value)
    #expect(decoded.map { Array($0.utf8) } == Array(value.utf8))
  }

  @Test func blobs() {
    for bytes: [UInt8] in [[], [0], [0, 255, 1, 2], Array(repeating: 7, count: 4096)] {
      #expect(roundTrip(Data(bytes)) == Data(bytes))
      #expect(roundTrip(bytes) == bytes)
      #expect(bytes.sqliteValue == .blob(Data(bytes)))
    }
  }

  @Test func uuid() {
    let id = UUID()
    #expect(id.sqliteValue == .text(id.uuidString))
    #expect(roundTrip(id) == id)
    // Only the canonical uppercase text decodes, so that equal stored text means `==` UUIDs.
    #expect(UUID.decode(sqliteValue: .text(id.uuidString.lowercased())) == nil)
  }

  @Test func url() throws {
    for text in ["https://swift.org/path?q=1#frag", "file:///tmp/a%20b.txt", "mailto:someone@example.com"] {
      let url = try #require(URL(string: text))
      #expect(url.sqliteValue == .text(text))
      #expect(roundTrip(url) == url)
    }
  }

  @Test func decimal() throws {
    for text in ["0", "0.1", "-123.456", "3.14159265358979323846264338327950288", "1e-20", "-99999999999999999999999999"] {
      let value = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
      #expect(roundTrip(value) == value)
    }
    #expect(Decimal(string: "0.1")?.sqliteValue == .text("0.1"))
  }

  @Test func dateDefaultIsISO8601WithMilliseconds() {
    #expect(Date(timeIntervalSince1970: 0).sqliteValue == .text("1970-01-01T00:00:00.000Z"))
    #expect(Date(timeIntervalSince1970: 1_700_000_000.25).sqliteValue == .text("2023-11-14T22:13:20.250Z"))
    #expect(Date(timeIntervalSince1970: -1.5).sqliteValue == .text("1969-12-31T23:59:58.500Z"))
    #expect(Date.decode(sqliteValue: .text("2000-02-29T12:00:00.001Z")) == Date(timeIntervalSince1970: 951_825_600.001))
  }

  @Test(arguments: [0, 1_700_000_000.123, -86_400.001, -2_208_988_800.5, 253_402_300_799.999, -62_135_596_800])
  func dateRoundTrips(_ seconds: Double) {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(roundTrip(date) == date)
  }

  @Test func dateRepresentations() {
    let date = Date(timeIntervalSince1970: -12_345)
    #expect(Date.UnixTimeRepresentation(date).sqliteValue == .integer(-12_345))
    #expect(Date.UnixTimeRepresentation.decode(sqliteValue: .integer(-12_345))?.represented == date)
    #expect(Date.UnixTimeRepresentation(Date(timeIntervalSince1970: 60.9)).sqliteValue == .integer(60))

    let precise = Date(timeIntervalSince1970: 1_700_000_000.123456)
    #expect(Date.UnixTimeIntervalRepresentation(precise).sqliteValue == .real(precise.timeIntervalSince1970))
    #expect(Date.UnixTimeIntervalRepresentation.decode(sqliteValue: .real(precise.timeIntervalSince1970))?.represented == precise)

    #expect(Date.JulianDayRepresentation(Date(timeIntervalSince1970: 0)).sqliteValue == .real(2_440_587.5))
    let julian = Date.JulianDayRepresentation.decode(sqliteValue: .real(2_451_545.0))?.represented
    #expect(julian == Date(timeIntervalSince1970: 946_728_000))
    #expect(Date.ISO8601Representation(date).sqliteValue == date.sqliteValue)
  }

  @Test func optional() {
    let none: Int? = nil
    #expect(none.sqliteValue == .null)
    #expect(Int?.decode(sqliteValue: .null) == .some(nil))
    #expect(Int?.decode(sqliteValue: .integer(3)) == .some(3))
    #expect(Int?.decode(sqliteValue: .text("3")) == nil)
    #expect(roundTrip(Optional("x")) == Optional("x"))
    #expect(Date.UnixTimeRepresentation?(nil).sqliteValue == .null)
  }

  @Test func rawRepresentable() {
    #expect(Priority.sqliteTypeName == .integer)
    #expect(Priority.high.sqliteValue == .integer(3))
    #expect(roundTrip(Priority.medium) == .medium)
    #expect(Mood.sqliteTypeName == .text)
    #expect(roundTrip(Mood.grumpy) == .grumpy)
  }

  struct Tags: Codable, Equatable, Sendable { var names: [String]; var count: Int }

  @Test func json() {
    let tags = Tags(names: ["a", "b/c"], count: 2)
    #expect(JSONRepresentation(tags).sqliteValue == .text(#"{"count":2,"names":["a","b/c"]}"#))
    #expect(JSONRepresentation<Tags>.decode(sqliteValue: JSONRepresentation(tags).sqliteValue)?.represented == tags)
  }
}
