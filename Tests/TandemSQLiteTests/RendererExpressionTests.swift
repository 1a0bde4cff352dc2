import Foundation
import TandemCore
import TandemSQLite
import Testing

/// Inline snapshots of every expression kind: the SQL text and what is bound to each `?`.
@Suite("Renderer: expressions")
struct RendererExpressionTests {
  private func render(_ expression: SQLExpression, columns: [String] = []) throws -> RenderedSQL {
    try SQLRenderer(tableColumns: columns).render(expression)
  }

  @Test func columnsAreQuoted() throws {
    let rendered = try render(.column("a"))
    #expect(rendered.sql == #""a""#)
    #expect(rendered.bindings.isEmpty)
  }

  @Test func rowidPicksASpellingNoColumnShadows() throws {
    #expect(try render(.rowid).sql == "rowid")
    #expect(try render(.rowid, columns: ["id", "title"]).sql == "rowid")
    #expect(try render(.rowid, columns: ["rowid", "v"]).sql == "_rowid_")
    // SQLite compares identifiers case-insensitively (ASCII letters only).
    #expect(try render(.rowid, columns: ["ROWID", "_Rowid_"]).sql == "oid")
    let error = tandemError { _ = try render(.rowid, columns: ["rowid", "_rowid_", "OID"]) }
    #expect(error?.kind == .unsupported)
    #expect(error?.backend == "sqlite")
  }

  @Test func excludedColumnsAreQualified() throws {
    #expect(try render(.excluded("x")).sql == #"excluded."x""#)
  }

  @Test func literalsOfEveryStorageClassAreBound() throws {
    let values: [SqliteValue] = [.integer(.min), .real(-0.0), .text("it's"), .blob(Data([0, 1])), .null]
    for value in values {
      let rendered = try render(.literal(value))
      #expect(rendered.sql == "?")
      #expect(rendered.bindings == [.value(value)])
    }
  }

  @Test func parametersAreBoundByName() throws {
    let rendered = try render(.binary(.equal, .column("a"), .parameter("wanted")))
    #expect(rendered.sql == #"("a" = ?)"#)
    #expect(rendered.bindings == [.parameter("wanted")])
    #expect(try rendered.values(parameters: ["wanted": 3]) == [.integer(3)])
  }

  @Test func missingParameterIsMisuse() throws {
    let rendered = try render(.parameter("name"))
    let error = tandemError { _ = try rendered.values(parameters: ["other": 1]) }
    #expect(error?.kind == .misuse)
    #expect(error?.message == "missing value for parameter :name")
  }

  @Test func unaryOperators() throws {
    #expect(try render(.unary(.negate, .column("a"))).sql == #"(-"a")"#)
    #expect(try render(.unary(.plus, .column("a"))).sql == #"(+"a")"#)
    #expect(try render(.unary(.not, .column("a"))).sql == #"(NOT "a")"#)
    // Two minus signs never touch, so they can never start a `--` comment.
    let doubleNegation = try render(.unary(.negate, .unary(.negate, .literal(1))))
    #expect(doubleNegation.sql == "(-(-?))")
    #expect(doubleNegation.bindings == [.value(.integer(1))])
  }

  @Test func binaryOperators() throws {
    let expected: [(BinaryOperator, String)] = [
      (.equal, #"("a" = ?)"#), (.notEqual, #"("a" <> ?)"#), (.less, #"("a" < ?)"#),
      (.lessOrEqual, #"("a" <= ?)"#), (.greater, #"("a" > ?)"#), (.greaterOrEqual, #"("a" >= ?)"#),
      (.is, #"("a" IS ?)"#), (.isNot, #"("a" IS NOT ?)"#), (.and, #"("a" AND ?)"#), (.or, #"("a" OR ?)"#),
      (.add, #"("a" + ?)"#), (.subtract, #"("a" - ?)"#), (.multiply, #"("a" * ?)"#),
      (.divide, #"("a" / ?)"#), (.remainder, #"("a" % ?)"#), (.concatenate, #"("a" || ?)"#),
    ]
    for (op, sql) in expected {
      let rendered = try render(.binary(op, .column("a"), .literal(2)))
      #expect(rendered.sql == sql)
      #expect(rendered.bindings == [.value(.integer(2))])
    }
  }

  @Test func nestedExpressionsAreFullyParenthesized() throws {
    // (a + 1) * (2 - -b): precedence comes from the tree, never from SQL's operator table.
    let rendered = try render(
      .binary(
        .multiply, .binary(.add, .column("a"), .literal(1)),
        .binary(.subtract, .literal(2), .unary(.negate, .column("b")))))
    #expect(rendered.sql == #"(("a" + ?) * (? - (-"b")))"#)
    #expect(rendered.bindings == [.value(.integer(1)), .value(.integer(2))])
    let logic = try render(
      .unary(.not, .binary(.or, .column("a"), .binary(.and, .column("b"), .column("c")))))
    #expect(logic.sql == #"(NOT ("a" OR ("b" AND "c")))"#)
  }

  @Test func scalarFunctions() throws {
    #expect(try render(.function(.lower, [.column("a")])).sql == #"lower("a")"#)
    let coalesce = try render(.function(.coalesce, [.column("a"), .literal(.null), .literal("x")]))
    #expect(coalesce.sql == #"coalesce("a", ?, ?)"#)
    #expect(coalesce.bindings == [.value(.null), .value(.text("x"))])
    #expect(try render(.function(.substr, [.column("a"), .literal(2)])).sql == #"substr("a", ?)"#)
    #expect(try render(.function(.max, [.column("a"), .column("b")])).sql == #"max("a", "b")"#)
    #expect(try render(.function(.typeof, [.rowid])).sql == "typeof(rowid)")
  }

  @Test func functionArityIsChecked() throws {
    // A one-argument min() would silently become the aggregate.
    for (function, arguments) in [(ScalarFunction.min, 1), (.lower, 0), (.lower, 2), (.replace, 2)] {
      let error = tandemError {
        _ = try render(.function(function, Array(repeating: .column("a"), count: arguments)))
      }
      #expect(error?.kind == .misuse, "\(function) with \(arguments) arguments")
    }
  }

  @Test func aggregates() throws {
    #expect(try render(.aggregate(.count, nil, distinct: false)).sql == "count(*)")
    #expect(try render(.aggregate(.count, .column("a"), distinct: true)).sql == #"count(DISTINCT "a")"#)
    let expected: [(AggregateFunction, String)] = [
      (.count, #"count("a")"#), (.sum, #"sum("a")"#), (.total, #"total("a")"#),
      (.avg, #"avg("a")"#), (.min, #"min("a")"#), (.max, #"max("a")"#),
    ]
    for (function, sql) in expected {
      #expect(try render(.aggregate(function, .column("a"), distinct: false)).sql == sql)
    }
    #expect(try render(.aggregate(.sum, .column("a"), distinct: true)).sql == #"sum(DISTINCT "a")"#)
    #expect(tandemError { _ = try render(.aggregate(.sum, nil, distinct: false)) }?.kind == .misuse)
    #expect(tandemError { _ = try render(.aggregate(.count, nil, distinct: true)) }?.kind == .misuse)
  }

  @Test func casts() throws {
    let expected: [(CastType, String)] = [
      (.integer, #"CAST("a" AS INTEGER)"#), (.real, #"CAST("a" AS REAL)"#), (.text, #"CAST("a" AS TEXT)"#),
      (.blob, #"CAST("a" AS BLOB)"#), (.numeric, #"CAST("a" AS NUMERIC)"#),
    ]
    for (type, sql) in expected {
      #expect(try render(.cast(.column("a"), as: type)).sql == sql)
    }
  }

  @Test func inLists() throws {
    let rendered = try render(.inList(.column("a"), [.literal(1), .literal("x")], negated: false))
    #expect(rendered.sql == #"("a" IN (?, ?))"#)
    #expect(rendered.bindings == [.value(.integer(1)), .value(.text("x"))])
    #expect(try render(.inList(.column("a"), [.literal(1)], negated: true)).sql == #"("a" NOT IN (?))"#)
    #expect(try render(.inList(.column("a"), [], negated: false)).sql == #"("a" IN ())"#)
  }

  @Test func between() throws {
    let rendered = try render(.between(.column("a"), .literal(1), .literal(5), negated: false))
    #expect(rendered.sql == #"("a" BETWEEN ? AND ?)"#)
    #expect(rendered.bindings == [.value(.integer(1)), .value(.integer(5))])
    let negated = try render(
      .between(.column("a"), .binary(.and, .column("b"), .column("c")), .column("d"), negated: true))
    #expect(negated.sql == #"("a" NOT BETWEEN ("b" AND "c") AND "d")"#)
  }

  @Test func likeAndGlob() throws {
    let like = try render(.like(.column("a"), pattern: .literal("%x%"), escape: nil, negated: false))
    #expect(like.sql == #"("a" LIKE ?)"#)
    #expect(like.bindings == [.value(.text("%x%"))])
    let escaped = try render(.like(.column("a"), pattern: .literal("5\\%"), escape: .literal("\\"), negated: true))
    #expect(escaped.sql == #"("a" NOT LIKE ? ESCAPE ?)"#)
    #expect(escaped.bindings == [.value(.text("5\\%")), .value(.text("\\"))])
    #expect(try render(.glob(.column("a"), pattern: .literal("a*"), negated: false)).sql == #"("a" GLOB ?)"#)
    #expect(try render(.glob(.column("a"), pattern: .literal("a*"), negated: true)).sql == #"("a" NOT GLOB ?)"#)
  }

  @Test func nullTests() throws {
    #expect(try render(.isNull(.column("a"), negated: false)).sql == #"("a" IS NULL)"#)
    #expect(try render(.isNull(.column("a"), negated: true)).sql == #"("a" IS NOT NULL)"#)
  }

  @Test func caseExpressions() throws {
    let searched = try render(
      .caseWhen(
        base: nil,
        branches: [CaseBranch(when: .binary(.greater, .column("a"), .literal(1)), then: .literal("big"))],
        else: .literal("small")))
    #expect(searched.sql == #"CASE WHEN ("a" > ?) THEN ? ELSE ? END"#)
    #expect(searched.bindings == [.value(.integer(1)), .value(.text("big")), .value(.text("small"))])
    let simple = try render(
      .caseWhen(
        base: .column("a"),
        branches: [
          CaseBranch(when: .literal(1), then: .literal("one")), CaseBranch(when: .literal(2), then: .literal("two")),
        ], else: nil))
    #expect(simple.sql == #"CASE "a" WHEN ? THEN ? WHEN ? THEN ? END"#)
    #expect(tandemError { _ = try render(.caseWhen(base: nil, branches: [], else: .literal(1))) }?.kind == .misuse)
  }

  @Test func collations() throws {
    #expect(try render(.collate(.column("a"), .nocase)).sql == #"("a" COLLATE NOCASE)"#)
    #expect(try render(.collate(.column("a"), .rtrim)).sql == #"("a" COLLATE RTRIM)"#)
    let comparison = try render(.binary(.equal, .collate(.column("a"), .binary), .literal("x")))
    #expect(comparison.sql == #"(("a" COLLATE BINARY) = ?)"#)
  }
}
