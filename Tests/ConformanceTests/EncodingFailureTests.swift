import Foundation
import Tandem
import Testing

/// A Swift value with no stored form that reads back is never written: every write path throws
/// an encoding failure naming the table, column and type (never the value) before anything
/// reaches the engine, and the database is left as it was.
@Suite struct EncodingFailureTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Reading.self)
    try db.insert(Reading(id: 1, ratio: 0.5, score: 1, samples: [1, 2]))
    return db
  }

  static let scoreNaN = TandemError.Signature.encoding(
    table: "readings", column: "score", swiftType: "Double", reason: "NaN has no stored form: SQLite stores it as NULL")

  /// Regression test: NaN in a `Double?` column was stored as NULL and read back as `nil`, and a
  /// JSON value that could not be encoded was stored as NULL.
  @Test(arguments: BackendKind.allCases)
  func everyWritePathRefusesUnstorableValues(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let columns = ["id", "ratio", "score", "samples"]
    let before = try db.storedRows(of: "readings", columns: columns)
    let ratioNaN = TandemError.Signature.encoding(
      table: "readings", column: "ratio", swiftType: "Float", reason: "NaN has no stored form: SQLite stores it as NULL")
    let samplesNaN = TandemError.Signature.encoding(
      table: "readings", column: "samples", swiftType: "JSONRepresentation<Array<Double>>",
      reason: "JSONEncoder cannot encode it (at 1)")

    let attempts: [(String, TandemError.Signature, (Database) throws -> Void)] = [
      ("insert", Self.scoreNaN, { try $0.insert(Reading(id: 2, score: .nan)) }),
      ("insert many", ratioNaN, { try $0.insert([Reading(id: 2), Reading(id: 3, ratio: .nan)]) }),
      ("insert draft", samplesNaN, { try $0.insert(Reading.Draft(samples: [1, .nan])) }),
      ("replace", Self.scoreNaN, { try $0.insert(Reading(id: 1, score: .nan), onConflict: .replace) }),
      ("upsert", Self.scoreNaN, { try $0.upsert(Reading(id: 1, score: .nan)) }),
      ("update record", samplesNaN, { try $0.update(Reading(id: 1, samples: [0, .infinity])) }),
      ("update query", Self.scoreNaN, { try $0.update(Reading.all) { $0.set(\.score, to: .nan) } }),
      ("update by representation", samplesNaN, { try $0.update(Reading.all) { $0.set(\.samples, to: [1, .nan]) } }),
      ("delete record", Self.scoreNaN, { try $0.delete(Reading(id: 1, score: .nan)) }),
      ("transaction", Self.scoreNaN, { db in
        try db.transaction { db in
          try db.insert(Reading(id: 5))
          try db.insert(Reading(id: 6, score: .nan))
        }
      }),
    ]
    for (name, expected, attempt) in attempts {
      let error = try #require(throws: TandemError.self, "\(name)") { try attempt(db) }
      #expect(error.signature == expected, "\(name)")
      #expect(!error.description.contains("nan"), "\(name): the value stays out of the message")
      #expect(try db.storedRows(of: "readings", columns: columns) == before, "\(name)")
    }
  }

  /// A value with no stored form in a query fails the statement; it never matches nothing (NULL)
  /// or something else.
  @Test(arguments: BackendKind.allCases)
  func queriesWithUnstorableValuesFail(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let find = try #require(throws: TandemError.self) { try db.find(Reading.self, key: Double.nan) }
    #expect(find.signature == .encoding(
      table: "readings", column: "id", swiftType: "Double", reason: "NaN has no stored form: SQLite stores it as NULL"))
    for query in [
      Reading.where { $0.score == .nan }, Reading.where { $0.score.isNot(.nan) },
      Reading.where { $0.score.notIn([.nan]) }, Reading.where { $0.score.nullIf(.nan).isNull() },
      Reading.where { ($0.score ?? .nan) > 0 }, Reading.where { ($0.score * .nan).isNull() },
    ] {
      let error = try #require(throws: TandemError.self) { try db.fetchAll(query) }
      #expect(error.signature == Self.scoreNaN)
      #expect(throws: TandemError.self) { try db.fetchCount(query) }
      #expect(throws: TandemError.self) { try db.delete(query) }
    }
    let selected = try #require(throws: TandemError.self) {
      try db.fetchAll(Reading.all.select { Case<Double>(else: .nan).when($0.id == 1, then: 1) })
    }
    #expect(selected.kind == .encodingFailure)
    #expect(try db.fetchCount(Reading.all) == 1)
  }

  /// Issue 9 item 2 for `update`: a closure that assigns nothing is a misuse on every engine,
  /// not a silent "0 rows changed"; a `select` that chooses nothing fails the same way.
  @Test(arguments: BackendKind.allCases)
  func updateThatSetsNoColumnIsAMisuse(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let skip = true
    let error = try #require(throws: TandemError.self) {
      try db.update(Reading.all) { if !skip { $0.set(\.ratio, to: 1) } }
    }
    #expect(error.signature == .misuse("update of readings sets no column"))
    #expect(throws: TandemError.self) { try Reading.all.validatedUpdate { _ in } }
    #expect(try db.fetchAll(Reading.all) == [Reading(id: 1, ratio: 0.5, score: 1, samples: [1, 2])])

    let select = try #require(throws: TandemError.self) { try db.fetchAll(Reading.all.select { _ in }) }
    #expect(select.kind == .misuse)
  }
}
