import Tandem
import Testing

/// A select without FROM (`hasFromClause` false) reads one row of no columns, as `SELECT 1 + 1` does.
@Suite struct SelectWithoutTableTests {
  static func select(
    _ columns: [SQLExpression], filter: SQLExpression? = nil, orderBy: [OrderingTerm] = [], limit: Int64? = nil
  ) -> Statement {
    var select = SelectStatement(
      table: "", columns: columns, filter: filter, orderBy: orderBy, limit: limit.map { .literal(.integer($0)) })
    select.hasFromClause = false
    return .select(select)
  }

  @Test(arguments: BackendKind.allCases)
  func valuesAggregatesAndFilters(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    let sum = SQLExpression.binary(.add, .literal(1), .literal(2.5))
    #expect(try db.execute(Self.select([sum, .literal("x")])).rows == [[3.5, "x"]])
    #expect(try db.execute(Self.select([.aggregate(.count, nil, distinct: false), .aggregate(.max, .literal(7), distinct: false)])).rows == [[1, 7]])
    #expect(try db.execute(Self.select([.literal(1)], filter: .literal(0))).rows == [])
    #expect(try db.execute(Self.select([.aggregate(.count, nil, distinct: false)], filter: .literal(0))).rows == [[0]])
    #expect(try db.execute(Self.select([.literal(1)], orderBy: [OrderingTerm(.literal(1))], limit: 0)).rows == [])
  }

  @Test(arguments: BackendKind.allCases)
  func subqueriesWithoutTable(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)
    let inner = SelectStatement(table: "items", columns: [.aggregate(.sum, .column("stock"), distinct: false)])
    let exists = SelectStatement(table: "items", columns: [.literal(1)], filter: .binary(.greater, .column("stock"), .literal(100)))
    #expect(try db.execute(Self.select([.subquery(inner), .exists(exists, negated: true)])).rows == [[35, 1]])
    let ids = SelectStatement(table: "items", columns: [.column("id")])
    #expect(try db.execute(Self.select([.inSubquery(.literal(3), ids, negated: false), .inList(.literal(nil), [], negated: false)])).rows == [[1, 0]])
  }

  /// A WHERE term holding a subquery, in a select without FROM: SQLite tests it once, as it has
  /// no loop to test it in. The memory engine put it in its first loop, which such a select does
  /// not have, and trapped (found probing scalar subqueries' collations).
  @Test(arguments: BackendKind.allCases)
  func aSubqueryInTheWhereOfASelectWithoutTable(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)
    let one = SelectStatement(table: "", columns: [.literal(1)])
    var constant = one
    constant.hasFromClause = false
    let isOne = SQLExpression.binary(.equal, .subquery(constant), .literal(1))
    #expect(try db.execute(Self.select([.literal("x")], filter: isOne)).rows == [["x"]])
    #expect(try db.execute(Self.select([.aggregate(.count, nil, distinct: false)], filter: .unary(.not, isOne))).rows == [[0]])
    let stocked = SelectStatement(table: "items", columns: [.literal(1)], filter: .binary(.greater, .column("stock"), .literal(0)))
    #expect(try db.execute(Self.select([.literal(2)], filter: .exists(stocked, negated: false))).rows == [[2]])
    #expect(try db.values(sql: "SELECT 1 WHERE (SELECT 1) = 1 AND 2 > 1") == [[1]])
    #expect(try db.values(sql: "SELECT (SELECT 1 WHERE (SELECT 'a' COLLATE NOCASE) = 'A')") == [[nil]])
    // A correlated one runs for each row of the query around it.
    #expect(
      try db.values(sql: "SELECT id FROM items AS i WHERE EXISTS (SELECT 1 WHERE (SELECT i.stock) > 5) ORDER BY id")
        == [[2], [3]])
  }
}
