import Foundation
import TandemCore
import Testing

@testable import TandemSQLite

/// Runs every rendered expression kind on real SQLite: the SQL must parse and the
/// parenthesization must give the tree's meaning.
@Suite("SQLite backend: rendered expressions evaluate as the tree says")
struct RenderedExpressionEvaluationTests {
  private static func backendWithOneRow() throws -> SQLiteBackend {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(
      TableSchema("t", columns: [.column("a", .null(.integer)), .column("b", .null(.text)), .column("c", .null(.real))]), ifNotExists: false)
    _ = try backend.execute(insertRow("t", ["a", "b", "c"], [5, "Hello", 2.5]), parameters: [:])
    return backend
  }

  private static let a = SQLExpression.column("a")
  private static let b = SQLExpression.column("b")
  private static let c = SQLExpression.column("c")

  /// (expression, SQLite's answer on the row a = 5, b = 'Hello', c = 2.5)
  private static let cases: [(SQLExpression, SqliteValue)] = [
    (a, 5), (.rowid, 1), (.literal("x"), "x"), (.parameter("p"), 42),
    (.unary(.negate, a), -5), (.unary(.plus, b), "Hello"), (.unary(.not, .binary(.equal, a, .literal(5))), 0),
    (.unary(.negate, .unary(.negate, .literal(1))), 1),
    (.binary(.multiply, .binary(.add, a, .literal(1)), .binary(.subtract, .literal(2), .unary(.negate, a))), 42),
    (.binary(.subtract, .literal(10), .binary(.subtract, a, .literal(3))), 8),
    (.binary(.equal, a, .literal(5)), 1), (.binary(.notEqual, a, .literal(5)), 0), (.binary(.less, a, .literal(6)), 1),
    (.binary(.lessOrEqual, a, .literal(4)), 0), (.binary(.greater, a, .literal(4)), 1),
    (.binary(.greaterOrEqual, a, .literal(6)), 0), (.binary(.is, a, .literal(.null)), 0),
    (.binary(.isNot, a, .literal(.null)), 1), (.binary(.and, .literal(1), .literal(0)), 0),
    (.binary(.or, .literal(0), .literal(1)), 1), (.binary(.divide, a, .literal(2)), 2),
    (.binary(.remainder, a, .literal(3)), 2), (.binary(.concatenate, b, .literal("!")), "Hello!"),
    (.function(.lower, [b]), "hello"), (.function(.upper, [b]), "HELLO"), (.function(.length, [b]), 5),
    (.function(.coalesce, [.literal(.null), b]), "Hello"), (.function(.ifnull, [.literal(.null), .literal(1)]), 1),
    (.function(.nullif, [a, .literal(5)]), .null), (.function(.substr, [b, .literal(2), .literal(3)]), "ell"),
    (.function(.instr, [b, .literal("l")]), 3), (.function(.replace, [b, .literal("l"), .literal("L")]), "HeLLo"),
    (.function(.trim, [.literal("  x ")]), "x"), (.function(.ltrim, [.literal("xxy"), .literal("x")]), "y"),
    (.function(.rtrim, [.literal("y  ")]), "y"), (.function(.round, [c]), 3.0), (.function(.abs, [.unary(.negate, a)]), 5),
    (.function(.typeof, [c]), "real"), (.function(.min, [a, .literal(7)]), 5), (.function(.max, [a, .literal(7)]), 7),
    (.cast(c, as: .integer), 2), (.cast(a, as: .text), "5"), (.cast(b, as: .blob), .blob(Data("Hello".utf8))),
    (.cast(.literal("3.0"), as: .numeric), 3), (.cast(a, as: .real), 5.0),
    (.inList(a, [.literal(1), .literal(5)], negated: false), 1), (.inList(a, [.literal(5)], negated: true), 0),
    (.inList(a, [], negated: false), 0),
    (.between(a, .literal(1), .literal(5), negated: false), 1), (.between(a, .literal(1), .literal(5), negated: true), 0),
    (.like(b, pattern: .literal("h%"), escape: nil, negated: false), 1),
    (.like(b, pattern: .literal("h%"), escape: nil, negated: true), 0),
    (.like(.literal("5%"), pattern: .literal("5\\%"), escape: .literal("\\"), negated: false), 1),
    (.like(.literal("55"), pattern: .literal("5\\%"), escape: .literal("\\"), negated: false), 0),
    (.glob(b, pattern: .literal("h*"), negated: false), 0), (.glob(b, pattern: .literal("H*"), negated: false), 1),
    (.glob(b, pattern: .literal("H*"), negated: true), 0),
    (.isNull(a, negated: false), 0), (.isNull(.literal(.null), negated: false), 1), (.isNull(a, negated: true), 1),
    (.caseWhen(base: nil, branches: [CaseBranch(when: .binary(.greater, a, .literal(1)), then: .literal("big"))], else: .literal("small")), "big"),
    (.caseWhen(base: a, branches: [CaseBranch(when: .literal(1), then: .literal("one")), CaseBranch(when: .literal(5), then: .literal("five"))], else: nil), "five"),
    (.caseWhen(base: a, branches: [CaseBranch(when: .literal(1), then: .literal("one"))], else: nil), .null),
    (.binary(.equal, .collate(b, .nocase), .literal("HELLO")), 1), (.binary(.equal, b, .literal("HELLO")), 0),
    (.binary(.equal, .collate(.literal("a  "), .rtrim), .literal("a")), 1),
  ]

  @Test func everyExpressionKindRunsOnSQLite() throws {
    let backend = try Self.backendWithOneRow()
    let select = SelectStatement(table: "t", columns: Self.cases.map(\.0))
    let row = try backend.execute(.select(select), parameters: ["p": 42]).rows
    #expect(row.count == 1)
    for (index, (expression, expected)) in Self.cases.enumerated() {
      let sql = try SQLRenderer().render(expression).sql
      #expect(row.first?[index] == expected, "\(sql)")
    }
  }

  @Test func aggregatesRunOnSQLite() throws {
    let backend = try Self.backendWithOneRow()
    _ = try backend.execute(insertRow("t", ["a", "b", "c"], [5, "apple", .null]), parameters: [:])
    let aggregates: [(SQLExpression, SqliteValue)] = [
      (.aggregate(.count, nil, distinct: false), 2), (.aggregate(.count, Self.c, distinct: false), 1),
      (.aggregate(.count, Self.a, distinct: true), 1), (.aggregate(.sum, Self.a, distinct: false), 10),
      (.aggregate(.sum, Self.a, distinct: true), 5), (.aggregate(.total, Self.a, distinct: false), 10.0),
      (.aggregate(.avg, Self.c, distinct: false), 2.5), (.aggregate(.min, Self.b, distinct: false), "Hello"),
      (.aggregate(.max, Self.b, distinct: false), "apple"),
    ]
    let rows = try backend.execute(.select(SelectStatement(table: "t", columns: aggregates.map(\.0))), parameters: [:]).rows
    #expect(rows == [aggregates.map(\.1)])
  }

  @Test func groupedQueriesRunOnSQLite() throws {
    let backend = try Self.backendWithOneRow()
    for (a, b) in [(1, "x"), (1, "y"), (2, "z")] as [(Int64, String)] {
      _ = try backend.execute(insertRow("t", ["a", "b"], [.integer(a), .text(b)]), parameters: [:])
    }
    let select = SelectStatement(
      table: "t", columns: [Self.a, .aggregate(.count, nil, distinct: false)], groupBy: [Self.a],
      having: .binary(.greater, .aggregate(.count, nil, distinct: false), .parameter("n")),
      orderBy: [OrderingTerm(Self.a, descending: true, nulls: .last)], limit: .literal(5), offset: .literal(0))
    #expect(try backend.execute(.select(select), parameters: ["n": 0]).rows == [[5, 1], [2, 1], [1, 2]])
    #expect(try backend.execute(.select(select), parameters: ["n": 1]).rows == [[1, 2]])
    let distinct = SelectStatement(
      table: "t", columns: [Self.a], distinct: true, orderBy: [OrderingTerm(Self.a)], offset: .literal(1))
    #expect(try backend.execute(.select(distinct), parameters: [:]).rows == [[2], [5]])
  }

  @Test func nullsOrdering() throws {
    let backend = try Self.backendWithOneRow()
    _ = try backend.execute(insertRow("t", ["a"], [.null]), parameters: [:])
    _ = try backend.execute(insertRow("t", ["a"], [1]), parameters: [:])
    func order(_ descending: Bool, _ nulls: OrderingTerm.NullsOrder?) throws -> [[SqliteValue]] {
      try backend.execute(
        .select(SelectStatement(table: "t", columns: [Self.a], orderBy: [OrderingTerm(Self.a, descending: descending, nulls: nulls)])),
        parameters: [:]
      ).rows
    }
    #expect(try order(false, nil) == [[.null], [1], [5]])
    #expect(try order(false, .last) == [[1], [5], [.null]])
    #expect(try order(true, nil) == [[5], [1], [.null]])
    #expect(try order(true, .first) == [[.null], [5], [1]])
  }
}
