import Testing
import TandemCore
@testable import TandemMemory

/// The compiled relational select a memory database keeps (``PlanCache/RelationalPlan``): found
/// again for the same join while nothing changed, never once the schema or any row changed, and
/// never for a query whose runs keep what they computed with the values bound.
@Suite struct EngineRelationalPlanTests {
  static func database() throws -> MemoryBackend {
    let backend = MemoryBackend()
    try backend.create(
      TableSchema("l", columns: [.column("id", .integer, primaryKey: true), .column("name", .text)]),
      ifNotExists: false)
    try backend.create(
      TableSchema("r", columns: [.column("id", .integer, primaryKey: true), .column("lid", .integer)]),
      ifNotExists: false)
    _ = try backend.insert(into: "l", columns: ["id", "name"], values: [[1, "a"], [2, "b"]], conflict: .abort)
    _ = try backend.insert(into: "r", columns: ["id", "lid"], values: [[1, 2], [2, 1], [3, 2]], conflict: .abort)
    return backend
  }

  /// `SELECT r.id FROM r JOIN l ON r.lid = l.id WHERE l.name = :name`
  static let join = SelectStatement(
    table: "r", joins: [JoinClause(.inner, table: "l", on: .binary(.equal, .qualifiedColumn(source: "r", name: "lid"), .qualifiedColumn(source: "l", name: "id")))],
    columns: [.qualifiedColumn(source: "r", name: "id")],
    filter: .binary(.equal, .qualifiedColumn(source: "l", name: "name"), .parameter("name")))

  static func ids(_ backend: MemoryBackend, _ statement: SelectStatement, _ name: SqliteValue) throws -> [SqliteValue] {
    try backend.execute(.select(statement), parameters: ["name": name]).rows.map { $0[0] }
  }

  static func isKept(_ backend: MemoryBackend, _ statement: SelectStatement) -> Bool {
    backend.plans.cachedRelational(statement, catalog: backend.catalog) != nil
  }

  @Test func aJoinRunAgainFindsItsPlanUntilARowChanges() throws {
    let backend = try Self.database()
    #expect(try Self.ids(backend, Self.join, "b") == [1, 3])
    #expect(Self.isKept(backend, Self.join))
    // Another value bound: the same plan, this run's value.
    #expect(try Self.ids(backend, Self.join, "a") == [2])
    #expect(Self.isKept(backend, Self.join))
    // Another statement is not taken for it.
    var other = Self.join
    other.joins[0].alias = "x"
    other.joins[0].condition = .binary(
      .equal, .qualifiedColumn(source: "r", name: "lid"), .qualifiedColumn(source: "x", name: "id"))
    other.filter = .binary(.equal, .qualifiedColumn(source: "x", name: "name"), .parameter("name"))
    #expect(!Self.isKept(backend, other))
    // An update that changes a value in place (no row added or removed) drops it.
    _ = try backend.execute(
      .update(UpdateStatement(table: "l", assignments: [Assignment(column: "name", value: .literal("c"))], filter: .binary(.equal, .column("id"), .literal(1)))),
      parameters: [:])
    #expect(!Self.isKept(backend, Self.join))
    #expect(try Self.ids(backend, Self.join, "c") == [2])
    #expect(Self.isKept(backend, Self.join))
    _ = try backend.insert(into: "r", columns: ["id", "lid"], values: [[4, 1]], conflict: .abort)
    #expect(!Self.isKept(backend, Self.join))
    #expect(try Self.ids(backend, Self.join, "c") == [2, 4])
    // A schema change drops it too.
    try backend.create(TableSchema("z", columns: [.column("a", .integer)]), ifNotExists: false)
    #expect(!Self.isKept(backend, Self.join))
  }

  /// A literal compared with a column is lifted out as a parameter: the same join with another
  /// value runs the plan compiled for the first, with its own value.
  @Test func aJoinWithAnotherComparedLiteralRunsTheSamePlan() throws {
    let backend = try Self.database()
    func named(_ name: SqliteValue) -> SelectStatement {
      var statement = Self.join
      statement.filter = .binary(.equal, .literal(name), .qualifiedColumn(source: "l", name: "name"))
      return statement
    }
    #expect(try backend.execute(.select(named("b")), parameters: [:]).rows == [[1], [3]])
    let lifted = LiftedLiterals(named("a"))
    #expect(lifted.values.map(\.value) == ["a"])
    #expect(Self.isKept(backend, lifted.statement))
    #expect(try backend.execute(.select(named("a")), parameters: [:]).rows == [[2]])
    #expect(try backend.execute(.select(named(2)), parameters: [:]).rows == [])
    // NULL is not lifted: `name = NULL` is another statement.
    #expect(LiftedLiterals(named(.null)).values.isEmpty)
    #expect(try backend.execute(.select(named(.null)), parameters: [:]).rows == [])
    // A statement naming a parameter as a lifted one would be named is compiled as written.
    var clash = named("b")
    clash.columns.append(.parameter("\u{0}0"))
    #expect(LiftedLiterals(clash).values.isEmpty)
    #expect(try backend.execute(.select(clash), parameters: ["\u{0}0": 7]).rows == [[1, 7], [3, 7]])
  }

  /// An uncorrelated subquery keeps its answer for the run, computed with the values bound: a
  /// query holding one is compiled again on every run.
  @Test func aJoinWithASubqueryIsNotKept() throws {
    let backend = try Self.database()
    var statement = Self.join
    statement.filter = .inSubquery(
      .qualifiedColumn(source: "l", name: "id"),
      SelectStatement(table: "l", columns: [.column("id")], filter: .binary(.equal, .column("name"), .parameter("name"))),
      negated: false)
    #expect(try Self.ids(backend, statement, "b") == [1, 3])
    #expect(!Self.isKept(backend, statement))
    #expect(try Self.ids(backend, statement, "a") == [2])
  }
}
