import Foundation
import Testing
@_spi(TandemBackend) import TandemCore
@testable import TandemMemory

/// ``MemoryBackend/select(prepared:parameters:eachRow:)``: a prepared query found again by
/// identity must still answer from the database's current schema and rows, and two queries
/// whose names differ only by Unicode normalization must never share a plan.
@Suite struct EnginePreparedSelectTests {
  typealias Shared = EngineSharedPlanTests

  static func rows(_ backend: MemoryBackend, _ query: PreparedStatement, _ values: [SqliteValue] = []) throws
    -> [[SqliteValue]]
  {
    var rows: [[SqliteValue]] = []
    try backend.select(prepared: query, values: values) { rows.append($0) }
    return rows
  }

  /// The lookup by `a`, prepared with `a` as its one value.
  static func preparedLookup() -> PreparedStatement { PreparedStatement(Shared.lookup, parameterNames: ["a"]) }

  @Test func repeatedQueryInterleavedWithOtherStatements() throws {
    let backend = try Shared.database(Shared.narrow)
    _ = try backend.insert(into: "t", columns: ["a", "b"], values: [[1, "x"], [2, "y"], [3, "z"]], conflict: .abort)
    let lookup = Self.preparedLookup()
    let all = SelectStatement(table: "t", columns: [.column("b")], orderBy: [OrderingTerm(.rowid)])
    for round in 0..<3 {
      for key in 1...3 {
        let expected = try Shared.rows(backend, Shared.lookup, ["a": .integer(Int64(key))])
        #expect(expected.count == 1)
        #expect(try Self.rows(backend, lookup, [.integer(Int64(key))]) == expected)
        // Another statement in between replaces the engine's last select.
        #expect(try Shared.rows(backend, all).count == 3 + round)
      }
      _ = try backend.insert(into: "t", columns: ["a", "b"], values: [[SqliteValue.integer(Int64(10 + round)), "new"]], conflict: .abort)
      #expect(try Self.rows(backend, lookup, [.integer(Int64(10 + round))]) == [[.integer(Int64(10 + round)), "new", .integer(Int64(4 + round))]])
    }
    #expect(try Self.rows(backend, lookup, [99]) == [])
    // A wrong number of values is a misuse, on the cached path too.
    let error = #expect(throws: TandemError.self) { try Self.rows(backend, lookup) }
    #expect(error?.kind == .misuse)
  }

  @Test func schemaChangeBetweenRunsRecompiles() throws {
    let backend = try Shared.database(Shared.narrow)
    _ = try backend.insert(into: "t", columns: ["a", "b"], values: [[1, "x"], [2, "y"]], conflict: .abort)
    let lookup = Self.preparedLookup()
    #expect(try Self.rows(backend, lookup, [2]) == [[2, "y", 2]])
    // The same table name with other columns, types and order: TEXT a now.
    try backend.drop(table: "t", ifExists: false)
    #expect(throws: TandemError.self) { try Self.rows(backend, lookup, [2]) }
    try backend.create(Shared.wide, ifNotExists: false)
    _ = try backend.insert(into: "t", columns: ["a", "b"], values: [[2, "y"]], conflict: .abort)
    #expect(try Self.rows(backend, lookup, [2]) == [["2", "y", 1]])
    #expect(try Shared.rows(backend, Shared.lookup, ["a": 2]) == [["2", "y", 1]])
    // Another database with the first schema runs the same query object on its own rows.
    let other = try Shared.database(Shared.narrow)
    _ = try other.insert(into: "t", columns: ["a", "b"], values: [[2, "other"]], conflict: .abort)
    #expect(try Self.rows(other, lookup, [2]) == [[2, "other", 1]])
    #expect(try Self.rows(backend, lookup, [2]) == [["2", "y", 1]])
  }

  /// `"é"` precomposed and decomposed are equal Swift strings but different SQLite names.
  @Test func namesDifferingOnlyByNormalizationStayApart() throws {
    let precomposed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(precomposed == decomposed)
    let backend = MemoryBackend()
    try backend.create(
      TableSchema("t", columns: [.column(precomposed, .null(.integer)), .column(decomposed, .null(.integer))]),
      ifNotExists: false)
    _ = try backend.insert(into: "t", columns: [precomposed, decomposed], values: [[1, 2]], conflict: .abort)
    let first = PreparedStatement(SelectStatement(table: "t", columns: [.column(precomposed)]))
    let second = PreparedStatement(SelectStatement(table: "t", columns: [.column(decomposed)]))
    for _ in 0..<3 {
      #expect(try Self.rows(backend, first) == [[1]])
      #expect(try Self.rows(backend, second) == [[2]])
      #expect(try Self.rows(backend, second) == [[2]])
      #expect(try Self.rows(backend, first) == [[1]])
    }
  }

  /// Errors thrown by the row closure come back as they are, without the statement.
  @Test func rowClosureErrorsAreRethrownAsTheyAre() throws {
    let backend = try Shared.database(Shared.narrow)
    _ = try backend.insert(into: "t", columns: ["a", "b"], values: [[1, "x"]], conflict: .abort)
    let lookup = Self.preparedLookup()
    for _ in 0..<2 {
      let error = #expect(throws: TandemError.self) {
        try backend.select(prepared: lookup, values: [1]) { _ in throw TandemError.misuse("stop") }
      }
      #expect(error?.message == "stop")
      #expect(error?.statement == nil)
    }
  }

  /// Values given by position answer as the same values given by name through the statement
  /// path: a name listed twice takes its last value, an unused name is ignored, and a
  /// placeholder without a name among them is reported as missing.
  @Test func valuesByPositionMatchValuesByName() throws {
    let backend = try Shared.database(Shared.narrow)
    _ = try backend.insert(into: "t", columns: ["a", "b"], values: [[1, "x"], [2, "y"], [3, "z"]], conflict: .abort)
    let twice = PreparedStatement(Shared.lookup, parameterNames: ["a", "unused", "a"])
    let other = PreparedStatement(Shared.lookup, parameterNames: ["b"])
    let both = SelectStatement(
      table: "t", columns: [.column("b")],
      filter: .binary(.or, .binary(.equal, .column("a"), .parameter("x")), .binary(.equal, .column("a"), .parameter("y"))),
      orderBy: [OrderingTerm(.rowid)])
    let pair = PreparedStatement(both, parameterNames: ["y", "x"])
    for _ in 0..<2 {
      #expect(try Self.rows(backend, twice, [1, 99, 3]) == Shared.rows(backend, Shared.lookup, ["a": 3]))
      #expect(try Self.rows(backend, twice, [1, 99, 3]) == [[3, "z", 3]])
      let missing = #expect(throws: TandemError.self) { try Self.rows(backend, other, [1]) }
      let byName = #expect(throws: TandemError.self) { try Shared.rows(backend, Shared.lookup, ["b": 1]) }
      #expect(missing?.message == byName?.message)
      #expect(missing?.kind == .misuse)
      #expect(try Self.rows(backend, pair, [3, 1]) == [["x"], ["z"]])
      #expect(try Self.rows(backend, pair, [2, 2]) == [["y"]])
    }
  }

  /// The seam's one entry point refuses bindings that do not fit the statement: rows as data for
  /// a select, and positional values not one per parameter name.
  @Test func runRefusesBindingsThatDoNotFit() throws {
    let backend = try Shared.database(Shared.narrow)
    let select = PreparedStatement(Shared.lookup, parameterNames: ["a"])
    let rows = #expect(throws: TandemError.self) { try backend.run(select, .rows([[1]])) { _ in } }
    #expect(rows?.kind == .misuse)
    let count = #expect(throws: TandemError.self) { try backend.run(select, .positional([1, 2])) { _ in } }
    #expect(count?.kind == .misuse)
  }
}
