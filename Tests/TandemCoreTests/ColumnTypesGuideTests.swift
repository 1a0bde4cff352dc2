import Foundation
import TandemCore
import Testing

// The code samples of Docs/ColumnTypes.md, compiled and checked.

struct Money: ColumnType, QueryComparable, Equatable {
  var cents: Int64

  static var sqliteTypeName: SqliteTypeName { .integer }
  var sqliteValue: SqliteValue { .integer(cents) }
  static func decode(sqliteValue: SqliteValue) -> Money? {
    guard case .integer(let cents) = sqliteValue else { return nil }
    return Money(cents: cents)
  }
}

enum PercentageError: Error { case outOfRange }

struct Percentage: ColumnType {
  var value: Double
  static var sqliteTypeName: SqliteTypeName { .real }
  var sqliteValue: SqliteValue { .real(value) }
  static func decode(sqliteValue: SqliteValue) -> Percentage? {
    guard case .real(let value) = sqliteValue, (0...100).contains(value) else { return nil }
    return Percentage(value: value)
  }
  func validateForStorage() throws {
    guard (0...100).contains(value) else { throw PercentageError.outOfRange }
  }
}

enum Satoshis: DecimalScale { static var fractionDigits: Int { 8 } }

@Suite struct ColumnTypesGuideTests {
  @Test func moneySample() {
    let price = Money(cents: 1999)
    #expect(price.sqliteValue == .integer(1999))
    #expect(Money.decode(sqliteValue: .integer(1999)) == Money(cents: 1999))
    #expect(Money.decode(sqliteValue: .text("19.99")) == nil)
    #expect(Money?.sqliteTypeName == .null(.integer))
  }

  @Test func moneyOrdersAsDeclared() {
    let price = ColumnExpression<Money>("price")
    #expect((price > Money(cents: 1000)).expression == .binary(.greater, .column("price"), .literal(.integer(1000))))
  }

  @Test func rejectionSamples() {
    #expect(Int8.decode(sqliteValue: .integer(300)) == nil)
    #expect(Bool.decode(sqliteValue: .integer(2)) == nil)
    #expect(Date.decode(sqliteValue: .text("yesterday")) == nil)
    #expect(String.decode(sqliteValue: .integer(1)) == nil)
    #expect(Decimal.decode(sqliteValue: .text("1.0")) == nil)
    #expect(Decimal.decode(sqliteValue: .text("1")) == 1)
  }

  @Test func encodingSamples() {
    #expect(throws: TandemError.self) { try Double.nan.validateForStorage() }
    #expect(throws: PercentageError.outOfRange) { try Percentage(value: 120).validateForStorage() }
    #expect((try? Percentage(value: 12).validateForStorage()) != nil)
    var row = RowEncoder()
    row.encode(Percentage(value: 120))
    let schema = TableSchema("scores", columns: [.column("share", .real)])
    let error = try? #require(throws: TandemError.self) { try row.checkStorable(in: schema) }
    #expect(error?.kind == .encodingFailure)
    #expect(error?.message == "cannot store Percentage in column scores.share: outOfRange")
  }

  @Test func decimalSamples() {
    let nineNinetyNine = Decimal(string: "9.99", locale: Locale(identifier: "en_US_POSIX")) ?? 0
    #expect(Decimal.FixedPointRepresentation<Hundredths>(nineNinetyNine).sqliteValue == .integer(999))
    #expect(Decimal.FixedPointRepresentation<Satoshis>(nineNinetyNine).sqliteValue == .integer(999_000_000))
    #expect(Decimal.FixedPointRepresentation<Hundredths>.decode(sqliteValue: .integer(999))?.represented == nineNinetyNine)
    #expect(throws: TandemError.self) {
      try Decimal.FixedPointRepresentation<Hundredths>(nineNinetyNine / 10).validateForStorage()
    }
    #expect(nineNinetyNine.sqliteValue == .text("9.99"))
  }

  @Test func nullabilitySamples() {
    #expect(String.sqliteTypeName == .text)
    #expect(String?.sqliteTypeName == .null(.text))
    #expect(SqliteTypeName.notNull(.null(.text)) == .text)
  }

  @Test func dateRepresentationSamples() {
    #expect(Date(timeIntervalSince1970: 0).sqliteValue == .text("1970-01-01T00:00:00.000Z"))
    #expect(Date.decode(sqliteValue: .text("1969-03-01")) == Date(timeIntervalSince1970: -26_438_400))
    #expect(Date.decode(sqliteValue: .text("1969-02-30")) == nil)
    let now = Date(timeIntervalSinceReferenceDate: 786_297_600.123_456_7)
    #expect(Date.decode(sqliteValue: now.sqliteValue) != now)
    let exact = Date.ReferenceTimeIntervalRepresentation(now).sqliteValue
    #expect(Date.ReferenceTimeIntervalRepresentation.decode(sqliteValue: exact)?.represented == now)
    #expect(Date.UnixTimeRepresentation(Date(timeIntervalSince1970: 60.9)).sqliteValue == .integer(60))
    #expect(Date.JulianDayRepresentation(Date(timeIntervalSince1970: 0)).sqliteValue == .real(2_440_587.5))
  }
}
