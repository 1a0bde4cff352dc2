import Foundation
import Tandem
import Testing

/// Statements of the query model run directly (`db.execute`), over columns whose values the typed
/// layer would never mix: storage classes side by side, column affinity in comparisons, and
/// SQLite's own number ↔ text conversions.
@Suite struct RawStatementTests {
  /// A table with one BLOB-affinity column, which stores every value as given.
  static func mixedDatabase(_ kind: BackendKind, _ values: [SqliteValue]) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("mixed", columns: [.column("x", .null(.blob))]))
    for value in values { try db.insertRaw(into: "mixed", columns: ["x"], values: [value]) }
    return db
  }

  static func select(
    _ columns: [SQLExpression], from table: String, distinct: Bool = false, filter: SQLExpression? = nil,
    groupBy: [SQLExpression] = [], orderBy: [OrderingTerm] = []
  ) -> Statement {
    .select(
      SelectStatement(table: table, columns: columns, distinct: distinct, filter: filter, groupBy: groupBy, orderBy: orderBy))
  }

  static let x = SQLExpression.column("x")

  @Test(arguments: BackendKind.allCases)
  func orderAcrossStorageClasses(_ kind: BackendKind) throws {
    let values: [SqliteValue] = [2, "b", nil, .blob(Data([1])), 1.5, "A", 10, "", .blob(Data()), "10", -1, 1, 1.0]
    let db = try Self.mixedDatabase(kind, values)
    func ordered(_ term: OrderingTerm) throws -> [SqliteValue] {
      try db.execute(Self.select([Self.x], from: "mixed", orderBy: [term, OrderingTerm(.rowid)])).rows.map { $0[0] }
    }
    // NULL, then numbers by value (INTEGER and REAL together), then text by bytes, then blobs.
    #expect(try ordered(OrderingTerm(Self.x)) == [nil, -1, 1, 1.0, 1.5, 2, 10, "", "10", "A", "b", .blob(Data()), .blob(Data([1]))])
    #expect(
      try ordered(OrderingTerm(Self.x, descending: true))
        == [.blob(Data([1])), .blob(Data()), "b", "A", "10", "", 10, 2, 1.5, 1, 1.0, -1, nil])
    #expect(
      try ordered(OrderingTerm(Self.x, nulls: .last))
        == [-1, 1, 1.0, 1.5, 2, 10, "", "10", "A", "b", .blob(Data()), .blob(Data([1])), nil])
  }

  @Test(arguments: BackendKind.allCases)
  func distinctAndGroupEquality(_ kind: BackendKind) throws {
    let values: [SqliteValue] = [1, 1.0, "1", nil, nil, .blob(Data("1".utf8)), "a", "A", 2.0, 2]
    let db = try Self.mixedDatabase(kind, values)
    // 1 and 1.0 are one value, 1 and '1' are not, all NULLs are one; the first row represents.
    let distinct = try db.execute(Self.select([Self.x], from: "mixed", distinct: true, orderBy: [OrderingTerm(Self.x)]))
    #expect(distinct.rows.map { $0[0] } == [nil, 1, 2.0, "1", "A", "a", .blob(Data("1".utf8))])
    let groups = try db.execute(
      Self.select([Self.x, .aggregate(.count, nil, distinct: false)], from: "mixed", groupBy: [Self.x], orderBy: [OrderingTerm(Self.x)]))
    #expect(groups.rows == [[nil, 2], [1, 2], [2.0, 2], ["1", 1], ["A", 1], ["a", 1], [.blob(Data("1".utf8)), 1]])
    let nocase = SQLExpression.collate(Self.x, .nocase)
    let folded = try db.execute(
      Self.select([Self.x, .aggregate(.count, nil, distinct: false)], from: "mixed", groupBy: [nocase], orderBy: [OrderingTerm(nocase)]))
    #expect(folded.rows == [[nil, 2], [1, 2], [2.0, 2], ["1", 1], ["a", 2], [.blob(Data("1".utf8)), 1]])
  }

  @Test(arguments: BackendKind.allCases)
  func aggregatesOverMixedValues(_ kind: BackendKind) throws {
    let db = try Self.mixedDatabase(kind, [1, nil, "3", 2.5, "abc", .blob(Data("12".utf8))])
    let aggregates: [SQLExpression] = [
      .aggregate(.count, nil, distinct: false), .aggregate(.count, Self.x, distinct: false), .aggregate(.sum, Self.x, distinct: false),
      .aggregate(.total, Self.x, distinct: false), .aggregate(.avg, Self.x, distinct: false), .aggregate(.min, Self.x, distinct: false),
      .aggregate(.max, Self.x, distinct: false),
    ]
    let result = try db.execute(Self.select(aggregates, from: "mixed"))
    #expect(result.rows == [[6, 5, 18.5, 18.5, 3.7, 1, .blob(Data("12".utf8))]])
  }

  @Test(arguments: BackendKind.allCases)
  func columnAffinityInComparisons(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema(
        "affinity",
        columns: [.column("i", .null(.integer)), .column("tx", .null(.text)), .column("b", .null(.blob)), .column("r", .null(.real))]))
    try db.insertRaw(into: "affinity", columns: ["i", "tx", "b", "r"], values: [10, "10", "10", 10])
    let i = SQLExpression.column("i"), tx = SQLExpression.column("tx"), b = SQLExpression.column("b"), r = SQLExpression.column("r")
    let comparisons: [SQLExpression] = [
      .binary(.equal, i, .literal("10")), .binary(.less, i, .literal("9")), .binary(.equal, tx, .literal(10)),
      .binary(.less, tx, .literal(9)), .binary(.equal, b, .literal("10")), .binary(.equal, b, .literal(10)),
      .binary(.equal, r, .literal("10")), .binary(.equal, r, .literal("10.0")), .binary(.equal, tx, .literal("10.0")),
      .binary(.equal, tx, .literal(10.0)), .binary(.equal, i, tx), .binary(.equal, tx, i),
      .inList(i, [.literal("10"), .literal("x")], negated: false), .inList(tx, [.literal(10)], negated: false),
      .between(tx, .literal(9), .literal(11), negated: false),
      .like(i, pattern: .literal("1%"), escape: nil, negated: false), .like(r, pattern: .literal("10"), escape: nil, negated: false),
      .like(r, pattern: .literal("10.0"), escape: nil, negated: false), .binary(.concatenate, r, .literal("")),
    ]
    let result = try db.execute(Self.select(comparisons, from: "affinity"))
    #expect(result.rows == [[1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, "10.0"]])
  }

  @Test(arguments: BackendKind.allCases)
  func limitAndOffsetMustBeIntegers(_ kind: BackendKind) throws {
    let db = try Self.mixedDatabase(kind, [3, 1, 2])
    func rows(limit: SqliteValue, offset: SqliteValue? = nil) throws -> [SqliteValue] {
      try db.execute(
        .select(
          SelectStatement(
            table: "mixed", columns: [Self.x], orderBy: [OrderingTerm(.rowid)], limit: .literal(limit),
            offset: offset.map(SQLExpression.literal)))
      ).rows.map { $0[0] }
    }
    // Text and reals that are whole numbers are accepted; anything else is a datatype mismatch.
    #expect(try rows(limit: "2") == [3, 1])
    #expect(try rows(limit: 2.0) == [3, 1])
    #expect(try rows(limit: 2, offset: "1") == [1, 2])
    for bad: SqliteValue in [2.5, nil, "abc"] {
      let error = try #require(throws: TandemError.self) { try rows(limit: bad) }
      #expect(error.signature == .sqlite(code: 20, message: "datatype mismatch"))
    }
    let offsetError = try #require(throws: TandemError.self) { try rows(limit: 2, offset: 1.5) }
    #expect(offsetError.signature == .sqlite(code: 20, message: "datatype mismatch"))
  }

  @Test(arguments: BackendKind.allCases)
  func realToTextUsesSQLitesFifteenDigits(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Sample.self)
    let reals = [
      0.8585005279831045, -82227.89813682565, 4.355772405659235e+181, 1.0 / 3, 0.1 + 0.2, 1e15 + 0.3,
      123456789.123456789, 100.0, 1e20, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
    ]
    try db.insert(reals.enumerated().map { Sample(id: $0.offset + 1, real: $0.element) })
    // Not Swift's (correctly rounded) "%.15g": SQLite computes the digits in long double.
    let texts = try db.fetchAll(Sample.all.select { $0.real.cast(as: .text, to: String.self) })
    #expect(
      texts == [
        "0.858500527983105", "-82227.8981368257", "4.35577240565923e+181", "0.333333333333333", "0.3", "1.0e+15",
        "123456789.123457", "100.0", "1.0e+20", "1.79769313486232e+308", "4.94065645841247e-324",
      ])
    // The same conversion applies when a TEXT column stores a REAL.
    try db.create(Word.self)
    try db.insertRaw(into: "words", columns: ["id", "text"], values: [1, 0.8585005279831045])
    #expect(try db.storedRows(of: "words", columns: ["text"]) == [["0.858500527983105"]])
  }

  @Test(arguments: BackendKind.allCases)
  func textToNumberUsesSQLitesParser(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Word.self)
    let texts = ["613740.838162", "1e3", "12abc", ".5", "  -2.5e-3xyz", "9007199254740993", "1e999"]
    try db.insert(texts.enumerated().map { Word(id: $0.offset + 1, text: $0.element) })
    let casts = try db.rows(
      Word.all.select {
        ($0.text.cast(as: .real, to: Double.self), $0.text.cast(as: .integer, to: Int.self), $0.text.cast(as: .numeric, to: Double.self))
      })
    // SQLite's text → REAL parser is not correctly rounded: 613740.838162 lands one ulp above
    // the nearest double. (Parsed at run time: on x86 a Swift literal is rounded through Float80.)
    let nearest = try #require(Double("613740.838162"))
    #expect(casts[0] == [.real(nearest.nextUp), 613_740, .real(nearest.nextUp)])
    #expect(casts[1] == [1000.0, 1, 1000])
    #expect(casts[2] == [12.0, 12, 12])
    #expect(casts[3] == [0.5, 0, 0.5])
    #expect(casts[4] == [-0.0025, -2, -0.0025])
    #expect(casts[5] == [9_007_199_254_740_992.0, 9_007_199_254_740_993, 9_007_199_254_740_993])
    #expect(casts[6] == [.real(.infinity), 1, .real(.infinity)])
  }
}
