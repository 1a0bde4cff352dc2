import Tandem
import Testing

/// AND, OR and NOT over NULL, false and true (SQL three-valued logic).
@Suite struct LogicTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Flag.self)
    try db.insert(Flag.samples)
    return db
  }

  @Test(arguments: BackendKind.allCases)
  func truthTables(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // Rows: (a, b) = (N,N) (N,F) (N,T) (F,N) (F,F) (F,T) (T,N) (T,F) (T,T).
    let results = try db.rows(Flag.all.select { ($0.a && $0.b, $0.a || $0.b, !$0.a) })
    #expect(results.map { $0[0] } == [nil, 0, nil, 0, 0, 0, nil, 0, 1])
    #expect(results.map { $0[1] } == [nil, nil, 1, nil, 0, 1, 1, 1, 1])
    #expect(results.map { $0[2] } == [nil, nil, nil, 1, 1, 1, 0, 0, 0])
  }

  @Test(arguments: BackendKind.allCases)
  func typedResultsOfLogicOverNullableColumns(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // `&&` is typed Bool even over Bool? operands; re-typing as Bool? decodes the NULLs.
    let and = try db.fetchAll(Flag.all.select { TypedExpression<Bool?>($0.a && $0.b) })
    #expect(and == [nil, false, nil, false, false, false, nil, false, true])
  }

  @Test(arguments: BackendKind.allCases)
  func whereKeepsOnlyTrueRows(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Flag, Flag>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    #expect(try ids(Flag.where { $0.a && $0.b }) == [9])
    #expect(try ids(Flag.where { $0.a || $0.b }) == [3, 6, 7, 8, 9])
    #expect(try ids(Flag.where { !$0.a }) == [4, 5, 6])
    #expect(try ids(Flag.where { !($0.a && $0.b) }) == [2, 4, 5, 6, 8])
    #expect(try ids(Flag.where { !($0.a || $0.b) }) == [5])
    #expect(try ids(Flag.where { $0.a == true }) == [7, 8, 9])
    #expect(try ids(Flag.where { $0.a != true }) == [4, 5, 6])
    #expect(try ids(Flag.where { $0.a.isNot(true) }) == [1, 2, 3, 4, 5, 6])
    #expect(try ids(Flag.where { $0.a == $0.b }) == [5, 9])
    // Calling `where` twice combines the predicates with AND.
    #expect(try ids(Flag.where { $0.a.isNotNull() }.where { $0.b == false }) == [5, 8])
  }
}
