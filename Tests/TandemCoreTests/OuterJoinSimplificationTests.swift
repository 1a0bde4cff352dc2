import CSQLite
import SQLiteReference
import TandemCore
import Testing

/// `SelectStatement.leftJoinBecomesInner(at:readsJoinedTable:)` against SQLite itself: for each
/// WHERE clause (and joins after the LEFT JOIN), whether SQLite still codes the row of NULLs
/// (`OP_NullRow` in `EXPLAIN`) must be the opposite of what the rule says.
@Suite struct OuterJoinSimplificationTests {
  struct Case: CustomStringConvertible {
    /// What follows `FROM a LEFT JOIN b ON b.w = a.x` in SQL.
    let tail: String
    let joins: [JoinClause]
    let filter: SQLExpression?
    var description: String { tail }

    init(_ tail: String, _ filter: SQLExpression?, joins: [JoinClause] = []) {
      self.tail = tail
      self.filter = filter
      self.joins = joins
    }
  }

  static let x = SQLExpression.qualifiedColumn(source: "a", name: "x")
  static let z = SQLExpression.qualifiedColumn(source: "b", name: "z")
  static let one = SQLExpression.literal(1)
  static let two = SQLExpression.literal(2)

  static let cases: [Case] = [
    Case("WHERE 1", one),
    Case("WHERE b.z", z),
    Case("WHERE z", .column("z")),
    Case("WHERE b.rowid", .qualifiedRowid(source: "b")),
    Case("WHERE NOT b.z", .unary(.not, z)),
    Case("WHERE NOT NOT b.z", .unary(.not, .unary(.not, z))),
    Case("WHERE -b.z", .unary(.negate, z)),
    Case("WHERE b.z + 1", .binary(.add, z, one)),
    Case("WHERE b.z || 'x'", .binary(.concatenate, z, .literal("x"))),
    Case("WHERE CAST(b.z AS INTEGER)", .cast(z, as: .integer)),
    Case("WHERE b.z COLLATE NOCASE", .collate(z, .nocase)),
    Case("WHERE b.z = 1", .binary(.equal, z, one)),
    Case("WHERE (b.z = 1) = 0", .binary(.equal, .binary(.equal, z, one), .literal(0))),
    Case("WHERE b.z <> a.x", .binary(.notEqual, z, x)),
    Case("WHERE a.x = 1", .binary(.equal, x, one)),
    Case("WHERE b.z IS NOT NULL", .isNull(z, negated: true)),
    Case("WHERE b.z IS NULL", .isNull(z, negated: false)),
    Case("WHERE b.z IS 1", .binary(.is, z, one)),
    Case("WHERE b.z IS NOT 1", .binary(.isNot, z, one)),
    Case("WHERE b.z IN (1, 2)", .inList(z, [one, two], negated: false)),
    Case("WHERE b.z IN (1)", .inList(z, [one], negated: false)),
    Case("WHERE b.z NOT IN (1)", .inList(z, [one], negated: true)),
    Case("WHERE b.z IN (a.x)", .inList(z, [x], negated: false)),
    Case("WHERE b.z BETWEEN 1 AND 2", .between(z, one, two, negated: false)),
    Case("WHERE b.z NOT BETWEEN 1 AND 2", .between(z, one, two, negated: true)),
    Case("WHERE 1 BETWEEN b.z AND 2", .between(one, z, two, negated: false)),
    Case("WHERE b.z LIKE 'a'", .like(z, pattern: .literal("a"), escape: nil, negated: false)),
    Case("WHERE b.z GLOB 'a'", .glob(z, pattern: .literal("a"), negated: false)),
    Case("WHERE abs(b.z)", .function(.abs, [z])),
    Case("WHERE CASE WHEN b.z THEN 1 END", .caseWhen(base: nil, branches: [CaseBranch(when: z, then: one)], else: nil)),
    Case("WHERE b.z OR a.x", .binary(.or, z, x)),
    Case("WHERE a.x AND b.z", .binary(.and, x, z)),
    Case("WHERE b.z AND a.x", .binary(.and, z, x)),
    Case("WHERE NOT (a.x AND b.z)", .unary(.not, .binary(.and, x, z))),
    Case("WHERE NOT (b.z AND b.z)", .unary(.not, .binary(.and, z, z))),
    Case("WHERE b.z IS NOT NULL AND a.x", .binary(.and, .isNull(z, negated: true), x)),
    Case("WHERE a.x AND b.z IS NOT NULL", .binary(.and, x, .isNull(z, negated: true))),
    Case(
      "WHERE (a.x AND b.z IS NOT NULL) AND a.x",
      .binary(.and, .binary(.and, x, .isNull(z, negated: true)), x)),
    Case("WHERE +(b.z IS NOT NULL)", .unary(.plus, .isNull(z, negated: true))),
    Case(
      "WHERE EXISTS (SELECT 1 WHERE b.z)",
      .exists(SelectStatement(table: "a", columns: [one], filter: z), negated: false)),
    Case("WHERE b.z IN (SELECT 1)", .inSubquery(z, SelectStatement(table: "a", columns: [one]), negated: false)),
    Case(
      "JOIN c ON c.k = b.z", nil,
      joins: [JoinClause(.inner, table: "c", on: .binary(.equal, .qualifiedColumn(source: "c", name: "k"), z))]),
    Case(
      "JOIN c ON c.k = a.x WHERE c.m", .qualifiedColumn(source: "c", name: "m"),
      joins: [JoinClause(.inner, table: "c", on: .binary(.equal, .qualifiedColumn(source: "c", name: "k"), x))]),
    Case(
      "JOIN c ON b.z IS NOT NULL WHERE a.x", x,
      joins: [JoinClause(.inner, table: "c", on: .isNull(z, negated: true))]),
    Case(
      "JOIN c ON b.z IS NOT NULL", nil,
      joins: [JoinClause(.inner, table: "c", on: .isNull(z, negated: true))]),
    // A later clause is split like the first (0xC0FFEE75 case 748,125: `m.a AND g.y = g2.y`).
    Case(
      "JOIN c ON (b.z AND c.k = a.x)", nil,
      joins: [JoinClause(.inner, table: "c", on: .binary(.and, z, .binary(.equal, .qualifiedColumn(source: "c", name: "k"), x)))]),
    Case(
      "JOIN c ON (c.k = a.x AND b.z) WHERE a.x", x,
      joins: [JoinClause(.inner, table: "c", on: .binary(.and, .binary(.equal, .qualifiedColumn(source: "c", name: "k"), x), z))]),
    Case(
      "JOIN c ON (c.k = a.x AND b.z IS NOT NULL)", nil,
      joins: [JoinClause(.inner, table: "c", on: .binary(.and, .binary(.equal, .qualifiedColumn(source: "c", name: "k"), x), .isNull(z, negated: true)))]),
    Case(
      "JOIN c ON (b.z IS NOT NULL AND c.k = a.x)", nil,
      joins: [JoinClause(.inner, table: "c", on: .binary(.and, .isNull(z, negated: true), .binary(.equal, .qualifiedColumn(source: "c", name: "k"), x)))]),
  ]

  @Test(arguments: cases)
  func theRuleAgreesWithSQLite(_ testCase: Case) throws {
    let sqlite = try SQLiteHandle()
    try sqlite.execute("CREATE TABLE a(x); CREATE TABLE b(y INTEGER PRIMARY KEY, z, w); CREATE TABLE c(k, m);")
    let statement = try sqlite.prepare("EXPLAIN SELECT a.x, b.w FROM a LEFT JOIN b ON b.w = a.x \(testCase.tail)")
    defer { sqlite3_finalize(statement) }
    var codesNullRow = false
    while sqlite3_step(statement) == SQLITE_ROW {
      if SQLiteHandle.value(of: statement, column: 1) == .text("NullRow") { codesNullRow = true }
    }
    let select = SelectStatement(
      table: "a",
      joins: [JoinClause(.left, table: "b", on: .binary(.equal, .qualifiedColumn(source: "b", name: "w"), Self.x))]
        + testCase.joins,
      columns: [Self.x], filter: testCase.filter)
    let becomesInner = select.leftJoinBecomesInner(at: 0) { node in
      switch node {
      case .qualifiedColumn(let source, _), .qualifiedRowid(let source): source == "b"
      case .column(let name): name == "z" || name == "w" || name == "y"
      default: false
      }
    }
    #expect(becomesInner == !codesNullRow)
  }
}
