import Foundation
import Tandem
import Testing

/// Issue 9, item 1: a `Decimal` means the same in a query as in Swift. Fixed point in hundredths
/// compares, orders, sums and takes min/max as numbers; the default exact text offers equality
/// only (its ordering does not compile: see CompileTimeRejectionTests) and reads only the text
/// Tandem writes; NaN and unstorable amounts are never written.
@Suite struct DecimalTests {
  static func decimal(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? .nan
  }

  /// The amounts of the issue, {9.99, 10, 100}, and two smaller ones.
  static let amounts = ["9.99", "10", "100", "0.1", "0.2"].map(decimal)

  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Payment.self)
    try db.insert(
      amounts.enumerated().map { index, amount in
        Payment(id: index + 1, amount: amount, fee: index == 4 ? nil : decimal("0.05"), exact: amount)
      })
    return db
  }

  /// Regression test for issue 9 item 1: over {9.99, 10, 100}, `> 9.99` returned nothing,
  /// ORDER BY gave `0.1, 0.2, 10, 100, 9.99` and `max()` gave 9.99.
  @Test(arguments: BackendKind.allCases)
  func issue9Item1FixedPointComparesOrdersAndAggregatesAsNumbers(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.storedRows(of: "payments", columns: ["amount"]).map { $0[0] } == [999, 1000, 10_000, 10, 20])
    #expect(try db.fetchAll(Payment.all).map(\.amount) == Self.amounts)

    #expect(try db.fetchAll(Payment.where { $0.amount > Self.decimal("9.99") }).map(\.id) == [2, 3])
    #expect(try db.fetchAll(Payment.where { $0.amount >= Self.decimal("9.99") }).map(\.id) == [1, 2, 3])
    #expect(try db.fetchAll(Payment.where { $0.amount < 10 }).map(\.id) == [1, 4, 5])
    #expect(try db.fetchAll(Payment.where { $0.amount == Self.decimal("10.00") }).map(\.id) == [2])
    #expect(try db.fetchAll(Payment.where { $0.amount.between(Self.decimal("0.2"), and: 10) }).map(\.id) == [1, 2, 5])
    #expect(try db.fetchAll(Payment.where { $0.amount.in([Self.decimal("0.1"), 100]) }).map(\.id) == [3, 4])

    let ascending = try db.fetchAll(Payment.order { $0.amount }).map(\.amount)
    #expect(ascending == ["0.1", "0.2", "9.99", "10", "100"].map(Self.decimal))
    #expect(try db.fetchAll(Payment.order { $0.amount.desc() }).map(\.id) == [3, 2, 1, 5, 4])

    let (max, min, sum) = try db.fetchSingle(Payment.all.select { ($0.amount.max(), $0.amount.min(), $0.amount.sum()) })
    #expect(max?.represented == 100)
    #expect(min?.represented == Self.decimal("0.1"))
    #expect(sum?.represented == Self.decimal("120.29"))
    #expect(try db.fetchSingle(Payment.all.select { $0.fee.sum() })??.represented == Self.decimal("0.2"))
    #expect(try db.fetchSingle(Payment.all.select { least($0.amount + 0, $0.amount + 1).max() })?.represented == 100)

    // `+` and `-` are exact integer arithmetic on the scaled values.
    let totals = try db.fetchAll(Payment.all.select { ($0.amount + Self.decimal("0.01"), $0.amount - $0.amount, -$0.amount) })
    #expect(totals.map(\.0.represented) == ["10", "10.01", "100.01", "0.11", "0.21"].map(Self.decimal))
    #expect(totals.map(\.1.represented) == Array(repeating: 0, count: 5))
    #expect(totals.map(\.2.represented) == Self.amounts.map { -$0 })
    try db.update(Payment.where { $0.id == 1 }) { $0.set(\.amount, to: $0.amount + Self.decimal("0.01")) }
    #expect(try db.fetchOne(Payment.where { $0.id == 1 })?.amount == 10)
  }

  /// A literal the column cannot hold exactly is never rounded into another comparison: the
  /// statement fails with an encoding failure, and so does writing such an amount.
  @Test(arguments: BackendKind.allCases)
  func unstorableFixedPointAmountsFailLoudly(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let before = try db.storedRows(of: "payments", columns: ["id", "amount", "fee", "exact"])
    let type = "Decimal.FixedPointRepresentation<Hundredths>"
    let tooPrecise = TandemError.Signature.encoding(
      table: "payments", column: "amount", swiftType: type, reason: "it has more than 2 fraction digits")
    let tooLarge = TandemError.Signature.encoding(
      table: "payments", column: "amount", swiftType: type, reason: "it is beyond the Int64 range of 2-fraction-digit units")
    let nan = TandemError.Signature.encoding(table: "payments", column: "amount", swiftType: type, reason: "NaN has no fixed-point value")

    for (query, expected) in [
      (Payment.where { $0.amount > Self.decimal("9.995") }, tooPrecise),
      (Payment.where { $0.amount == Self.decimal("9.991") }, tooPrecise),
      (Payment.where { $0.amount < Self.decimal("1e30") }, tooLarge),
      (Payment.where { $0.amount.in([1, .nan]) }, nan),
      (Payment.where { ($0.amount + Self.decimal("0.001")) > 0 }, tooPrecise),
    ] {
      let error = try #require(throws: TandemError.self) { try db.fetchAll(query) }
      #expect(error.signature == expected)
    }

    let insert = try #require(throws: TandemError.self) {
      try db.insert([Payment(id: 10, amount: 1), Payment(id: 11, amount: Self.decimal("0.125"))])
    }
    #expect(insert.signature == tooPrecise)
    let upsert = try #require(throws: TandemError.self) { try db.upsert(Payment(id: 1, amount: Self.decimal("1e17"))) }
    #expect(upsert.signature == tooLarge)
    let update = try #require(throws: TandemError.self) {
      try db.update(Payment.all) { $0.set(\.amount, to: Self.decimal("0.001")) }
    }
    #expect(update.signature == tooPrecise)
    let fee = try #require(throws: TandemError.self) { try db.update(Payment(id: 1, amount: 1, fee: .nan)) }
    #expect(
      fee.signature
        == .encoding(table: "payments", column: "fee", swiftType: type, reason: "NaN has no fixed-point value"))
    #expect(try db.storedRows(of: "payments", columns: ["id", "amount", "fee", "exact"]) == before)

    // The largest amounts that fit are stored, and a sum past Int64 is SQLite's overflow error.
    let largest = Self.decimal("92233720368547758.07")
    try db.insert([Payment(id: 20, amount: largest), Payment(id: 21, amount: -largest - Self.decimal("0.01"))])
    #expect(try db.fetchAll(Payment.where { $0.id >= 20 }).map(\.amount) == [largest, -largest - Self.decimal("0.01")])
    let overflow = try #require(throws: TandemError.self) {
      try db.fetchAll(Payment.where { $0.amount > 0 }.select { $0.amount.sum() })
    }
    #expect(overflow.signature == .sqlite(code: 1, message: "integer overflow"))
  }

  /// The default `Decimal` column stores canonical text: exact round trips, and equality (`==`,
  /// `in`, GROUP BY) that is Swift's `==` because only canonical text decodes.
  @Test(arguments: BackendKind.allCases)
  func exactTextRoundTripsAndComparesForEquality(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Payment.self)
    let values = ["0", "-0.001", "3.14159265358979323846264338327950288", "1e-20", "-99999999999999999999999999", "1.10", "1e3"]
      .map(Self.decimal)
    try db.insert(values.enumerated().map { Payment(id: $0.offset + 1, amount: 0, exact: $0.element) })
    #expect(try db.fetchAll(Payment.all.select { $0.exact }) == values)
    #expect(
      try db.storedRows(of: "payments", columns: ["exact"]).map { $0[0] }
        == [
          "0", "-0.001", "3.14159265358979323846264338327950288", "0.00000000000000000001", "-99999999999999999999999999",
          "1.1", "1000",
        ])
    #expect(try db.fetchAll(Payment.where { $0.exact == Self.decimal("1.100") }).map(\.id) == [6])
    #expect(try db.fetchAll(Payment.where { $0.exact.in([1000, 0]) }).map(\.id) == [1, 7])
    #expect(try db.fetchAll(Payment.group { $0.exact }.select { $0.exact }).count == values.count)

    // Text another tool wrote in another form would compare unequal although Swift calls the
    // values equal, so it does not decode.
    for text in ["1.0", "1e3", "+1", " 1", "0.10", "NaN", "1,5"] {
      try db.execute(.delete(DeleteStatement(table: "payments")))
      try db.insertRaw(into: "payments", columns: ["id", "amount", "exact"], values: [1, 0, .text(text)])
      let error = try #require(throws: TandemError.self) { try db.fetchAll(Payment.all) }
      #expect(error.kind == .decodingFailure)
      #expect(error.columns == ["exact"])
      #expect(error.swiftType == "Decimal")
    }

    // NaN has no decimal text: it is not written, and comparing with it fails.
    try db.execute(.delete(DeleteStatement(table: "payments")))
    let nan = TandemError.Signature.encoding(table: "payments", column: "exact", swiftType: "Decimal", reason: "NaN has no decimal text")
    let error = try #require(throws: TandemError.self) { try db.insert(Payment(id: 1, amount: 0, exact: .nan)) }
    #expect(error.signature == nan)
    let query = try #require(throws: TandemError.self) { try db.fetchAll(Payment.where { $0.exact == .nan }) }
    #expect(query.signature == nan)
    #expect(try db.fetchCount(Payment.all) == 0)
  }
}
