import Foundation
import Testing
import TandemCore
@testable import TandemMemory

/// Expression evaluation over table rows: affinity and collation of operands (Docs/SQLiteSemantics.md §3), NULL logic
/// (Docs/SQLiteSemantics.md §4), IN/BETWEEN/CASE/LIKE/GLOB, lazy functions and errors, against real SQLite.
@Suite struct EngineExpressionTests {
  static let schema = TableSchema(
    "t",
    columns: [
      .column("id", .integer, primaryKey: true), .column("i", .null(.integer)), .column("r", .null(.real)),
      .column("tx", .null(.text)), .column("b", .null(.blob)),
    ])

  static func table() -> EngineTandem {
    let db = EngineTandem(schema)
    let rows: [[SqliteValue]] = [
      [10, 10, "10", "10"], [1, 1.5, "abc", "ABC"], [nil, nil, nil, nil], [-3, 0.0, "a ", .blob(Data([0x61]))],
      [.integer(.max), 1e20, "é", 2.5], [0, -0.0, "", ""], [7, 7, "7.0", "1e1"],
    ]
    db.write(Q.insert("t", ["i", "r", "tx", "b"], rows))
    return db
  }

  static let columns: [SQLExpression] = [.column("i"), .column("r"), .column("tx"), .column("b"), .rowid]
  static let constants: [SQLExpression] = [
    .literal("10"), .literal(10), .literal(10.0), .literal(nil), .literal("abc"), .literal("ABC"), .literal("a"),
    .literal(.blob(Data([0x61]))), .cast(.literal("10"), as: .text), .cast(.literal("10"), as: .integer),
    .collate(.literal("abc"), .nocase), .unary(.plus, .column("tx")), .collate(.column("tx"), .rtrim),
  ]

  @Test func comparisonsUseAffinityAndCollation() {
    let db = Self.table()
    let operators: [BinaryOperator] = [.equal, .notEqual, .less, .greaterOrEqual, .is, .isNot]
    for op in operators {
      var results: [SQLExpression] = []
      for lhs in Self.columns + Self.constants {
        for rhs in Self.columns + Self.constants.prefix(8) { results.append(.binary(op, lhs, rhs)) }
      }
      db.run(Q.select("t", results))
    }
  }

  @Test func whereClausesAndIndexLookups() {
    let db = Self.table()
    for value in Self.constants + [.literal(1), .literal(1.0), .literal(" 7 "), .literal(.integer(.max)), .literal(9.2233720368547758e18)] {
      for column in Self.columns {
        db.run(Q.select("t", [.rowid], where: .binary(.equal, column, value)))
        db.run(Q.select("t", [.rowid], where: .binary(.equal, value, column)))
      }
      db.run(Q.select("t", [.rowid], where: .binary(.equal, .column("id"), value)))
    }
    let unique = TableSchema("u", columns: [.column("k", .null(.text), unique: true), .column("n", .null(.integer), unique: true)])
    db.create(unique)
    db.write(Q.insert("u", ["k", "n"], [["1", 1], ["x", 2], [nil, nil], ["2.5", 3]]))
    for value: SqliteValue in [1, "1", 1.0, "x", "X", nil, 2.5, "2.5", 3] {
      db.run(Q.select("u", [.rowid], where: .binary(.equal, .column("k"), .literal(value))))
      db.run(Q.select("u", [.rowid], where: .binary(.equal, .literal(value), .column("n"))))
      db.run(Q.select("u", [.rowid], where: .binary(.and, .binary(.equal, .column("n"), .parameter("v")), .literal(1))), ["v": value])
    }
  }

  @Test func nullLogicInListsBetweenAndCase() {
    let db = Self.table()
    let i = SQLExpression.column("i")
    let tx = SQLExpression.column("tx")
    let expressions: [SQLExpression] = [
      .binary(.and, i, .literal(0)), .binary(.or, i, .literal(1)), .unary(.not, i), .binary(.and, .literal(nil), tx),
      .inList(i, [.literal(10), .literal(nil)], negated: false), .inList(i, [.literal("10"), .literal("x")], negated: true),
      .inList(tx, [.literal(10), .literal(7)], negated: false), .inList(i, [], negated: false), .inList(i, [], negated: true),
      .inList(.literal("10"), [i], negated: false), .inList(.collate(tx, .nocase), [.literal("abc"), .literal("x"), .literal("y")], negated: false),
      .between(i, .literal(0), .literal("10"), negated: false), .between(tx, .literal(9), .literal(11), negated: false),
      .between(i, .literal(nil), .literal(5), negated: true), .between(.collate(tx, .nocase), .literal("A"), .literal("B"), negated: false),
      .caseWhen(base: i, branches: [CaseBranch(when: .literal("10"), then: .literal("ten")), CaseBranch(when: .literal(nil), then: .literal("null"))], else: .literal("other")),
      .caseWhen(base: nil, branches: [CaseBranch(when: tx, then: .literal("truthy"))], else: .literal("falsy")),
      .caseWhen(base: tx, branches: [CaseBranch(when: .literal(10), then: .literal(1))], else: nil),
      .isNull(i, negated: false), .isNull(tx, negated: true),
      .like(tx, pattern: .literal("A%"), escape: nil, negated: false), .like(.column("b"), pattern: .literal("%"), escape: nil, negated: true),
      .like(i, pattern: .literal("1_"), escape: nil, negated: false), .glob(tx, pattern: .literal("[a-c]*"), negated: false),
      .like(tx, pattern: .literal("a!%"), escape: .literal("!"), negated: false),
    ]
    db.run(Q.select("t", expressions))
    for condition in expressions {
      db.run(Q.select("t", [.rowid], where: condition))
      db.run(Q.select("t", [.rowid], where: .unary(.not, condition)))
    }
  }

  @Test func arithmeticFunctionsAndCasts() {
    let db = Self.table()
    let i = SQLExpression.column("i")
    let r = SQLExpression.column("r")
    let tx = SQLExpression.column("tx")
    let expressions: [SQLExpression] = [
      .binary(.add, i, .literal(1)), .binary(.multiply, r, tx), .binary(.divide, i, .literal(0)), .binary(.remainder, r, .literal(2)),
      .binary(.concatenate, tx, r), .unary(.negate, i), .cast(tx, as: .integer), .cast(r, as: .text), .cast(i, as: .real),
      .function(.coalesce, [.literal(nil), tx, .function(.abs, [.literal(.integer(.min))])]),
      .function(.ifnull, [i, .literal("none")]), .function(.nullif, [i, .literal(10)]), .function(.length, [tx]),
      .function(.upper, [tx]), .function(.typeof, [r]), .function(.max, [i, r, tx]), .function(.min, [.collate(tx, .nocase), .literal("B")]),
      .function(.substr, [tx, .literal(2)]), .function(.round, [r, .literal(1)]), .function(.instr, [tx, .literal("b")]),
      .function(.replace, [tx, .literal("a"), .literal("z")]), .function(.trim, [tx]),
    ]
    db.run(Q.select("t", expressions))
    db.run(Q.select("t", [.function(.abs, [i])]))
    db.run(Q.select("t", [.aggregate(.sum, i, distinct: false)]))
    db.run(Q.select("t", [.like(tx, pattern: .literal("a"), escape: .literal("ab"), negated: false)]))
    db.run(Q.select("t", [.rowid], where: .like(tx, pattern: .literal("a"), escape: .literal("ab"), negated: false)))
  }

  @Test func namedParametersCompileOnce() throws {
    let db = Self.table()
    let statement = Q.select("t", [.rowid, .column("tx")], where: .binary(.greater, .column("i"), .parameter("min")), orderBy: [OrderingTerm(.column("i"), descending: true)])
    for minimum: SqliteValue in [0, "5", 100, nil] { db.run(statement, ["min": minimum]) }
    #expect {
      try db.memory.execute(statement, parameters: ["max": 1])
    } throws: { error in
      (error as? TandemError)?.kind == .misuse && (error as? TandemError)?.message == "missing value for parameter :min"
    }
  }
}

/// Expressions nested beyond what SQLite's parser certainly accepts are refused; within the
/// budget they run as usual.
@Suite struct EngineNestingTests {
  @Test func deepNestingIsUnsupportedNotGuessed() throws {
    let db = EngineTandem(TableSchema("t", columns: [.column("a", .null(.integer))]))
    db.write(Q.insert("t", ["a"], [[1]]))
    var leftDeep = SQLExpression.column("a")
    for _ in 0..<40 { leftDeep = .binary(.or, leftDeep, .binary(.equal, .column("a"), .literal(2))) }
    db.run(Q.select("t", [.rowid], where: leftDeep))
    var functions = SQLExpression.column("a")
    for _ in 0..<10 { functions = .function(.abs, [functions]) }
    db.run(Q.select("t", [functions]))
    for _ in 0..<30 { functions = .function(.abs, [functions]) }
    #expect {
      try db.memory.execute(Q.select("t", [functions]), parameters: [:])
    } throws: { error in
      (error as? TandemError)?.kind == .unsupported
    }
  }
}

/// SQLite's parser folds `x IN ()` to false and an AND with such an operand to the integer 0,
/// without ever reading the dropped operands.
@Suite struct EngineFoldingTests {
  @Test func emptyInListsFoldAtParseTime() {
    let db = EngineTandem(TableSchema("t", columns: [.column("a", .null(.integer)), .column("b", .null(.integer))]))
    db.write(Q.insert("t", ["a", "b"], [[1, 2]]))
    let empty = SQLExpression.inList(.column("nope"), [], negated: false)
    let overflow = SQLExpression.function(.abs, [.literal(.integer(.min))])
    db.run(Q.select("t", [empty, .inList(.column("nope"), [], negated: true), .binary(.and, overflow, empty)]))
    db.run(Q.select("t", [.rowid], where: .binary(.and, empty, .column("zz"))))
    db.run(Q.select("t", [.rowid], where: .binary(.or, empty, .column("a"))))
    db.run(Q.select("t", [.column("a")], orderBy: [OrderingTerm(.column("b")), OrderingTerm(.binary(.and, .column("a"), empty))]))
    db.run(Q.select("t", [.column("a")], groupBy: [.binary(.and, .binary(.and, empty, .column("b")), .column("a"))]))
    db.run(Q.select("t", [.binary(.and, empty, .aggregate(.count, nil, distinct: false))]))
    db.write(Q.update("t", [("a", Q.lit(5))], where: .binary(.and, .column("zz"), empty)))
  }
}
