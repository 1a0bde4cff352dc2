import Foundation
import TandemCore
import Testing

// The code samples of Docs/ColumnTypes.md, compiled and checked.

struct Money: ColumnType, Equatable {
  var cents: Int64

  static var sqliteTypeName: SqliteTypeName { .integer }
  var sqliteValue: SqliteValue { .integer(cents) }
  static func decode(sqliteValue: SqliteValue) -> Money? {
    guard case .integer(let cents) = sqliteValue else { return nil }
    return Money(cents: cents)
  }
}

@Suite struct ColumnTypesGuideTests {
  @Test func moneySample() {
    let price = Money(cents: 1999)
    #expect(price.sqliteValue == .integer(1999))
    #expect(Money.decode(sqliteValue: .integer(1999)) == Money(cents: 1999))
    #expect(Money.decode(sqliteValue: .text("19.99")) == nil)
    #expect(Money?.sqliteTypeName == .null(.integer))
  }

  @Test func rejectionSamples() {
    #expect(Int8.decode(sqliteValue: .integer(300)) == nil)
    #expect(Bool.decode(sqliteValue: .integer(2)) == nil)
    #expect(Date.decode(sqliteValue: .text("yesterday")) == nil)
    #expect(String.decode(sqliteValue: .integer(1)) == nil)
  }

  @Test func nullabilitySamples() {
    #expect(String.sqliteTypeName == .text)
    #expect(String?.sqliteTypeName == .null(.text))
    #expect(SqliteTypeName.notNull(.null(.text)) == .text)
  }

  @Test func dateRepresentationSamples() {
    #expect(Date(timeIntervalSince1970: 0).sqliteValue == .text("1970-01-01T00:00:00.000Z"))
    #expect(Date.UnixTimeRepresentation(Date(timeIntervalSince1970: 60.9)).sqliteValue == .integer(60))
    #expect(Date.JulianDayRepresentation(Date(timeIntervalSince1970: 0)).sqliteValue == .real(2_440_587.5))
  }
}
