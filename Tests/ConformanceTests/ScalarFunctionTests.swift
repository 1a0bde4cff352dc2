import Foundation
import Tandem
import Testing

/// abs, coalesce, ifnull, nullif, round, typeof, CAST, scalar min/max, CASE and parameters.
@Suite struct ScalarFunctionTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Operand.self)
    try db.insert(Operand.samples)
    return db
  }

  static let twoToThe63 = 9_223_372_036_854_775_808.0

  @Test(arguments: BackendKind.allCases)
  func abs(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.fetchAll(Operand.where { $0.id <= 3 }.select { $0.x.abs() }) == [7, 7, .max])
    #expect(try db.fetchAll(Operand.all.select { $0.r.abs() }) == [7.5, 7.5, .infinity, 1e308])
    #expect(try db.fetchAll(Operand.all.select { $0.n.abs() }) == [nil, 1, nil, nil])
    // |INT64_MIN| does not fit: an error, not a REAL.
    let error = try #require(throws: TandemError.self) {
      try db.fetchAll(Operand.where { $0.id == 4 }.select { $0.x.abs() })
    }
    #expect(error.signature == .sqlite(code: 1, message: "integer overflow"))
  }

  @Test(arguments: BackendKind.allCases)
  func nullHandlingFunctions(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.fetchAll(Operand.all.select { $0.n ?? 0 }) == [0, 1, 0, 0])
    #expect(try db.fetchAll(Operand.all.select { $0.n.coalesce(-1) }) == [-1, 1, -1, -1])
    #expect(try db.fetchAll(Operand.all.select { $0.n.ifNull($0.x) }) == [7, 1, .max, .min])
    #expect(try db.fetchAll(Operand.all.select { $0.y.nullIf(0) }) == [2, 3, nil, -1])
    #expect(try db.rows(Operand.all.select { $0.n.nullIf(1) }) == [[nil], [nil], [nil], [nil]])
    #expect(try db.fetchAll(Operand.where { ($0.n ?? 0) == 0 }).map(\.id) == [1, 3, 4])
  }

  @Test(arguments: BackendKind.allCases)
  func round(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.rows(Operand.all.select { $0.r.round() }) == [[8.0], [-8.0], [.real(.infinity)], [1e308]])
    // Rounding an integer gives a REAL.
    #expect(try db.rows(Operand.all.select { $0.x.round() }) == [[7.0], [-7.0], [.real(Self.twoToThe63)], [.real(-Self.twoToThe63)]])

    let samples = try makeDatabase(kind)
    try samples.create(Sample.self)
    try samples.insert([2.345, 1.005, -0.04, 2.5, -2.5].enumerated().map { Sample(id: $0.offset + 1, real: $0.element) })
    // SQLite rounds through its own decimal printing: 1.005 → 1.01 although the double is below 1.005.
    let rounded = try samples.rows(Sample.all.select { ($0.real.round(), $0.real.round(2), $0.real.round(1)) })
    #expect(rounded[0] == [2.0, 2.35, 2.3])
    #expect(rounded[1] == [1.0, 1.01, 1.0])
    // round(-0.04) is 0.0 but round(-0.04, 1) is -0.0.
    #expect(rounded[2] == [.real(0.0), -0.04, .real(-0.0)])
    #expect(rounded[3] == [3.0, 2.5, 2.5])
    #expect(rounded[4] == [-3.0, -2.5, -2.5])
  }

  @Test(arguments: BackendKind.allCases)
  func typeofReportsStorageClasses(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.fetchAll(Operand.all.select { $0.n.typeof() }) == ["null", "integer", "null", "null"])
    #expect(try db.fetchAll(Operand.all.select { ($0.x + 1).typeof() }) == ["integer", "integer", "real", "integer"])
    #expect(try db.fetchAll(Operand.all.select { ($0.x / $0.y).typeof() }) == ["integer", "integer", "null", "real"])
    #expect(try db.fetchAll(Operand.all.select { $0.r.typeof() }) == ["real", "real", "real", "real"])
    #expect(try db.fetchAll(Operand.all.select { ($0.r - $0.s).typeof() }) == ["real", "real", "null", "real"])
  }

  @Test(arguments: BackendKind.allCases)
  func cast(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(
      try db.fetchAll(Operand.all.select { $0.x.cast(as: .text, to: String.self) })
        == ["7", "-7", "9223372036854775807", "-9223372036854775808"])
    // REAL → INTEGER truncates toward zero and saturates.
    #expect(try db.fetchAll(Operand.all.select { $0.r.cast(as: .integer, to: Int.self) }) == [7, -7, .max, .max])
    #expect(try db.fetchAll(Operand.all.select { $0.r.cast(as: .text, to: String.self) }) == ["7.5", "-7.5", "Inf", "1.0e+308"])
    #expect(try db.fetchAll(Operand.all.select { $0.x.cast(as: .real, to: Double.self) }) == [7, -7, Self.twoToThe63, -Self.twoToThe63])
    #expect(try db.rows(Operand.all.select { $0.r.cast(as: .numeric, to: Double.self) }) == [[7.5], [-7.5], [.real(.infinity)], [1e308]])
    #expect(try db.rows(Operand.all.select { $0.n.cast(as: .text, to: String?.self) }) == [[nil], ["1"], [nil], [nil]])

    let words = try makeDatabase(kind)
    try words.create(Word.self)
    try words.insert(Word.samples)
    #expect(try words.fetchAll(Word.all.select { $0.text.cast(as: .integer, to: Int.self) }) == [0, 0, 0, 100, 1000, 0])
    #expect(try words.rows(Word.all.select { $0.text.cast(as: .real, to: Double.self) }) == [[0.0], [0.0], [0.0], [100.0], [1000.0], [0.0]])
    #expect(try words.rows(Word.all.select { $0.text.cast(as: .numeric, to: Int.self) }) == [[0], [0], [0], [100], [1000], [0]])
    #expect(try words.fetchAll(Word.where { $0.id == 1 }.select { $0.text.cast(as: .blob, to: Data.self) }) == [Data("Milk".utf8)])
  }

  @Test(arguments: BackendKind.allCases)
  func leastAndGreatest(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.fetchAll(Operand.all.select { least($0.x, $0.y) }) == [2, -7, 0, .min])
    #expect(try db.fetchAll(Operand.all.select { greatest($0.x, $0.y) }) == [7, 3, .max, -1])
    #expect(try db.fetchAll(Operand.all.select { greatest($0.r, $0.s) }) == [7.5, 0, .infinity, 1e308])
    // NULL if any argument is NULL.
    #expect(try db.fetchAll(Operand.all.select { least(TypedExpression<Int?>($0.x), TypedExpression($0.n)) }) == [nil, -7, nil, nil])
    #expect(try db.fetchAll(Operand.all.select { greatest($0.x, $0.y, $0.y * 100) }) == [200, 300, .max, -1])
    // A column with a computed expression of its type, and with values.
    #expect(try db.fetchAll(Operand.all.select { least($0.y, $0.y + 1) }) == [2, 3, 0, -1])
    #expect(try db.fetchAll(Operand.all.select { least($0.x, 5) }) == [5, -7, 5, .min])
    #expect(try db.fetchAll(Operand.all.select { greatest($0.y, 0, 2) }) == [2, 3, 2, 2])
    #expect(try db.fetchAll(Operand.all.select { greatest($0.n, nil) }) == [nil, nil, nil, nil])
    #expect(try db.fetchAll(Operand.all.select { least($0.n, $0.n * 2, $0.n - 1) }) == [nil, 0, nil, nil])
  }

  @Test(arguments: BackendKind.allCases)
  func caseExpressions(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(
      try db.fetchAll(
        Operand.all.select {
          Case<String>(else: "zero").when($0.x > 0, then: "positive").when($0.x < 0, then: "negative")
        }) == ["positive", "negative", "positive", "negative"])
    // The first true branch wins; a NULL condition is not true.
    #expect(try db.fetchAll(Operand.all.select { Case<Int>(else: 0).when($0.x > 0, then: 1).when($0.x > 5, then: 2) }) == [1, 0, 1, 0])
    let named = try db.fetchAll(Operand.all.select { Case<String>(else: "unknown").when($0.n == 1, then: "one") })
    #expect(named == ["unknown", "one", "unknown", "unknown"])
    // Without ELSE, no match is NULL.
    #expect(try db.fetchAll(Operand.all.select { Case<String?>().when($0.x > 100, then: "big") }) == [nil, nil, "big", nil])
    #expect(try db.fetchAll(Operand.where { Case<Bool>(else: false).when($0.y == 0, then: true) }).map(\.id) == [3])
  }

  @Test(arguments: BackendKind.allCases)
  func caseWithExpressions(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // x is 7, -7, Int.max, Int.min; y is 2, 3, 0, -1.
    #expect(try db.fetchAll(Operand.where { $0.id <= 3 }.select { Case(else: $0.y).when($0.x < 0, then: $0.x + $0.y) }) == [2, -4, 0])
    // Values and expressions mix across branches.
    let tens = Operand.all.select { Case(else: 0).when($0.y > 0, then: $0.y * 10).when($0.y < 0, then: -1) }
    #expect(try db.fetchAll(tens) == [20, 30, 0, -1])
    // An optional ELSE expression: n is NULL, 1, NULL, NULL.
    let optional = Operand.all.select { Case(else: $0.n).when($0.y == 0, then: 42) }
    #expect(try db.fetchAll(optional) == [nil, 1, 42, nil])
  }

  @Test(arguments: BackendKind.allCases)
  func constants(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let pairs = try db.fetchAll(Operand.where { $0.id <= 2 }.select { ($0.id, TypedExpression.constant("fixed")) })
    #expect(pairs.map(\.1) == ["fixed", "fixed"])
    #expect(try db.fetchAll(Operand.where { TypedExpression.constant(0) < $0.x }).map(\.id) == [1, 3])
    #expect(try db.fetchAll(Operand.where { $0.id == 1 }.select { _ in TypedExpression<Int?>.constant(nil) }) == [nil])
    #expect(try db.fetchAll(Operand.where { $0.id == 1 }.select { TypedExpression.constant(2.5) * $0.r }) == [18.75])
    // A value with no stored form fails the statement, as a compared value does.
    let error = try #require(throws: TandemError.self) {
      try db.fetchAll(Operand.all.select { _ in TypedExpression.constant(Double.nan) })
    }
    #expect(error.kind == .encodingFailure)
  }

  @Test(arguments: BackendKind.allCases)
  func namedParameters(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let above = Operand.where { $0.x > Parameter<Int>("minimum") }
    #expect(try db.fetchAll(above, parameters: ["minimum": 0]).map(\.id) == [1, 3])
    #expect(try db.fetchAll(above, parameters: ["minimum": -100]).map(\.id) == [1, 2, 3])
    #expect(try db.fetchCount(above, parameters: ["minimum": 7]) == 1)
    #expect(try db.fetchOne(above, parameters: ["minimum": .integer(.max)]) == nil)

    let shifted = Operand.where { $0.id <= 2 }.select { $0.x + Parameter<Int>("delta") }
    #expect(try db.fetchAll(shifted, parameters: ["delta": 3]) == [10, -4])
    // A parameter is bound as given: here a NULL.
    #expect(try db.rows(shifted, parameters: ["delta": nil]) == [[nil], [nil]])

    let byID = Operand.where { $0.id == Parameter<Int>("id") }
    #expect(try db.update(byID, set: { $0.set(\.n, to: Parameter<Int?>("n")) }, parameters: ["id": 1, "n": 42]) == 1)
    #expect(try db.delete(Operand.where { $0.id == Parameter<Int>("id") }, parameters: ["id": 4]) == 1)
    #expect(try db.fetchAll(Operand.all.select { $0.n }) == [42, 1, nil])

    // A parameter is compared with the column's affinity: the text "0" is the number 0 for an
    // INTEGER column, while text that is no number sorts after every number.
    #expect(try db.fetchAll(above, parameters: ["minimum": "0"]).map(\.id) == [1, 3])
    #expect(try db.fetchAll(above, parameters: ["minimum": "abc"]).map(\.id) == [])
    #expect(try db.fetchAll(above, parameters: ["minimum": 0.5]).map(\.id) == [1, 3])

    let error = try #require(throws: TandemError.self) { try db.fetchAll(above) }
    #expect(error.kind == .misuse)
  }
}
