import Foundation
import Tandem
import Testing

// The query samples of Docs/ColumnTypes.md, run on every backend (the value samples are in
// TandemCoreTests/ColumnTypesGuideTests.swift). The guide's tables are the suite's `Payment`,
// `Reading` and `Moment`.

@Suite struct ColumnTypesGuideQueryTests {
  @Test(arguments: BackendKind.allCases)
  func decimalSamples(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Payment.self)
    let amounts = ["9.99", "10", "100"].compactMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
    try db.insert(amounts.enumerated().map { Payment(id: $0.offset + 1, amount: $0.element) })
    let nineNinetyNine = amounts[0]
    let query = Payment.where { $0.amount > nineNinetyNine }.order { $0.amount.desc() }
    #expect(try db.fetchAll(query).map(\.amount) == [100, 10])
    #expect(try db.fetchSingle(Payment.all.select { $0.amount.sum() })?.represented == amounts.reduce(0, +))
  }

  @Test(arguments: BackendKind.allCases)
  func encodingFailureSample(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reading.self)
    let error = try #require(throws: TandemError.self) { try db.insert(Reading(id: 1, score: .nan)) }
    #expect(error.kind == .encodingFailure)
    #expect(error.description.hasPrefix("encoding failure: cannot store Double in column readings.score: NaN has no stored form"))
    #expect(try db.fetchCount(Reading.all) == 0)
  }

  /// A comparison encodes its date as a write does: to the millisecond for the default text.
  @Test(arguments: BackendKind.allCases)
  func dateComparisonsEncodeLikeWrites(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Moment.self)
    let date = Date(timeIntervalSince1970: 1_700_000_000.123_456)
    try db.insert(Moment(id: 1, iso: date, exact: date))
    #expect(try db.fetchAll(Moment.where { $0.iso == date }).map(\.id) == [1])
    #expect(try db.fetchOne(Moment.all)?.iso != date)
    #expect(try db.fetchOne(Moment.all)?.exact == date)
  }
}
