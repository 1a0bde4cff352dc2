import Foundation
import Testing
import TandemCore
@testable import TandemMemory

/// Ordering, DISTINCT, GROUP BY, aggregates, HAVING and LIMIT/OFFSET (Docs/SQLiteSemantics.md §10–§12), against real SQLite.
@Suite struct EngineSelectTests {
  static let mixed = TableSchema(
    "m", columns: [.column("x", .null(.blob)), .column("k", .null(.integer)), .column("s", .null(.text))])

  static func mixedTable() -> EngineTandem {
    let db = EngineTandem(mixed)
    let values: [SqliteValue] = [
      2, "b", nil, .blob(Data([1])), 1.5, "A", 10, "", .blob(Data()), "10", -1, 1, 1.0, "a", "B", "_", "a ", 2.0,
    ]
    for (index, value) in values.enumerated() {
      db.write(Q.insert("m", ["x", "k", "s"], [[value, .integer(Int64(index % 3)), index % 4 == 0 ? nil : .text("s\(index % 5)")]]))
    }
    return db
  }

  static let x = Q.col("x")
  static let k = Q.col("k")
  static let s = Q.col("s")
  static func agg(_ f: AggregateFunction, _ e: SQLExpression?, distinct: Bool = false) -> SQLExpression {
    .aggregate(f, e, distinct: distinct)
  }

  @Test func orderingAcrossStorageClassesAndCollations() {
    let db = Self.mixedTable()
    for collation in [nil, Collation.nocase, .rtrim, .binary] {
      let term = collation.map { SQLExpression.collate(Self.x, $0) } ?? Self.x
      for descending in [false, true] {
        for nulls in [nil, OrderingTerm.NullsOrder.first, .last] {
          db.run(Q.select("m", [Self.x, .rowid], orderBy: [OrderingTerm(term, descending: descending, nulls: nulls)]))
        }
      }
    }
    db.run(Q.select("m", [Self.x], orderBy: [OrderingTerm(Self.k, descending: true), OrderingTerm(Self.s)]))
    db.run(Q.select("m", [Self.x], orderBy: [OrderingTerm(.binary(.add, Self.x, Q.lit(0)))]))
    db.run(Q.select("m", [Self.x], orderBy: [OrderingTerm(Q.lit(2))]))
  }

  @Test func distinctKeepsFirstOccurrences() {
    let db = Self.mixedTable()
    db.run(Q.select("m", [Self.x], distinct: true))
    db.run(Q.select("m", [.collate(Self.x, .nocase)], distinct: true))
    db.run(Q.select("m", [.collate(Self.x, .rtrim), Self.k], distinct: true))
    db.run(Q.select("m", [Self.k], distinct: true, orderBy: [OrderingTerm(Self.x)]))
    db.run(Q.select("m", [Self.s], distinct: true, orderBy: [OrderingTerm(Self.s, descending: true)], limit: Q.lit(2), offset: Q.lit(1)))
  }

  @Test func groupingAndAggregates() {
    let db = Self.mixedTable()
    let all: [SQLExpression] = [
      Self.agg(.count, nil), Self.agg(.count, Self.x), Self.agg(.sum, Self.k), Self.agg(.total, Self.x), Self.agg(.avg, Self.k),
      Self.agg(.min, Self.x), Self.agg(.max, Self.x), Self.agg(.count, Self.x, distinct: true), Self.agg(.sum, Self.k, distinct: true),
      Self.agg(.max, .collate(Self.x, .nocase)), Self.agg(.min, .collate(Self.s, .rtrim)),
    ]
    db.run(Q.select("m", all))
    db.run(Q.select("m", [Self.x] + all, groupBy: [Self.x]))
    db.run(Q.select("m", [Self.x, Self.agg(.count, nil)], groupBy: [.collate(Self.x, .nocase)]))
    db.run(Q.select("m", [Self.k, Self.s, Self.agg(.count, nil)], groupBy: [Self.k, Self.s]))
    db.run(Q.select("m", [Self.k, Self.agg(.count, nil)], groupBy: [Self.k], having: .binary(.greater, Self.agg(.count, nil), Q.lit(5))))
    db.run(Q.select("m", [Self.k, Self.agg(.count, nil)], groupBy: [Self.k], having: .binary(.greater, Self.k, Q.lit(0))))
    db.run(Q.select("m", [Self.k, Self.agg(.count, nil)], groupBy: [Self.k], orderBy: [OrderingTerm(Self.agg(.count, nil), descending: true)]))
    db.run(Q.select("m", [Self.agg(.count, nil)], where: Q.lit(0)))
    db.run(Q.select("m", [Self.agg(.count, nil), Self.x], where: .binary(.less, Self.k, Q.lit(0))))
    db.run(Q.select("m", [Self.agg(.count, nil)], where: .binary(.less, Self.k, Q.lit(0)), groupBy: [Self.k]))
    db.run(Q.select("m", [Self.agg(.count, nil)], having: .binary(.greater, Self.agg(.count, nil), Q.lit(100))))
    db.run(Q.select("m", [Self.agg(.sum, Self.x)], where: .function(.typeof, [Self.x]) .isIn(["integer", "real"])))
  }

  @Test func bareColumnsFollowTheLastMinOrMax() {
    let db = EngineTandem(TableSchema("t", columns: [.column("g", .null(.blob)), .column("a", .null(.integer)), .column("b", .null(.text))]))
    db.write(Q.insert("t", ["g", "a", "b"], [[1, 1, "p"], [1, 3, "q"], [1, 2, "s"], [1.0, 0, "z"], [2, nil, "n"], [2, nil, "m"], [2, 5, "o"]]))
    let a = Q.col("a")
    let b = Q.col("b")
    let g = Q.col("g")
    for aggregates in [[Self.agg(.max, a)], [Self.agg(.min, a)], [Self.agg(.min, a), Self.agg(.max, a)], [Self.agg(.max, a), Self.agg(.min, a)],
                       [Self.agg(.count, nil)], [Self.agg(.max, a), Self.agg(.count, nil)], [Self.agg(.max, a), Self.agg(.max, a)]] {
      db.run(Q.select("t", [b, g] + aggregates))
      db.run(Q.select("t", [g, b, .rowid] + aggregates, groupBy: [g]))
    }
    db.run(Q.select("t", [b, Self.agg(.count, nil)], orderBy: [OrderingTerm(Self.agg(.min, a))]))
    db.run(Q.select("t", [b], groupBy: [g], having: .binary(.greater, Self.agg(.max, a), Q.lit(0))))
  }

  @Test func limitAndOffset() {
    let db = Self.mixedTable()
    let windows: [(SqliteValue?, SqliteValue?)] = [
      (-1, 3), (2, -3), (2, nil), ("2", nil), (2.0, nil), (2.5, nil), (nil, nil), (0, nil), ("abc", nil), (3, "1"),
      (3, 1.5), (nil, 2), (.integer(.max), .integer(.max)),
    ]
    for (limit, offset) in windows {
      let limitExpression: SQLExpression? = limit.map(Q.lit) ?? (offset == nil ? Q.lit(nil) : nil)
      db.run(Q.select("m", [Self.x], limit: limitExpression, offset: offset.map(Q.lit)))
      db.run(Q.select("m", [Self.x], orderBy: [OrderingTerm(Self.x)], limit: limitExpression, offset: offset.map(Q.lit)))
      db.run(Q.select("m", [Self.k, Self.agg(.count, nil)], groupBy: [Self.k], limit: limitExpression, offset: offset.map(Q.lit)))
    }
  }

  @Test func limitParametersShareTheStatementsSlots() {
    let db = Self.mixedTable()
    let statement = Q.select(
      "m", [.parameter("a"), Self.x], where: .binary(.isNot, Self.k, .parameter("b")), orderBy: [OrderingTerm(.rowid)],
      limit: .parameter("n"), offset: .parameter("o"))
    for (a, n, o): (SqliteValue, SqliteValue, SqliteValue) in [(-5, 1, 0), (-2.5, 3, 1), ("x", -1, 2), (1, 2, "1")] {
      db.run(statement, ["a": a, "b": 1, "n": n, "o": o])
    }
  }

  @Test func constantConditionsAreEvaluatedBeforeAnyRow() {
    let db = EngineTandem(TableSchema("t", columns: [.column("x", .null(.integer))]))
    let overflow = SQLExpression.function(.abs, [Q.lit(.integer(.min))])
    db.run(Q.select("t", [Self.x], where: .binary(.and, .binary(.greater, Self.x, Q.lit(0)), overflow)))
    db.run(Q.select("t", [overflow]))
    db.run(Q.select("t", [Self.x], limit: overflow))
    db.write(Q.insert("t", ["x"], [[1]]))
    db.run(Q.select("t", [Self.x], where: .binary(.or, .binary(.greater, Self.x, Q.lit(5)), overflow)))
    db.run(Q.select("t", [Self.x], where: .binary(.or, Q.eq(Self.x, Q.lit(1)), overflow)))
    db.run(Q.select("t", [Self.x], where: .binary(.and, .binary(.greater, Self.x, Q.lit(5)), .function(.abs, [.binary(.add, Q.lit(.integer(.min)), .binary(.subtract, Self.x, Q.lit(1)))]))))
    db.run(Q.select("t", [.binary(.or, Q.lit(1), overflow)]))
    db.run(Q.select("t", [Self.x], limit: Q.lit(0), offset: overflow))
    db.write(Q.update("t", [("x", Q.lit(2))], where: .binary(.and, Q.eq(Self.x, Q.lit(5)), overflow)))
    db.write(Q.delete("t", where: .binary(.and, Q.lit(0), overflow)))
  }
}

extension SQLExpression {
  fileprivate func isIn(_ values: [SqliteValue]) -> SQLExpression {
    .inList(self, values.map(SQLExpression.literal), negated: false)
  }
}

/// Tie order of grouped queries: SQLite sorts groups in the ORDER BY's directions when both
/// clauses have as many terms.
@Suite struct EngineGroupOrderTests {
  @Test func groupDirectionFollowsOrderByOfTheSameLength() {
    let db = EngineTandem(TableSchema("t", columns: [.column("k", .null(.integer)), .column("g", .null(.integer))]))
    db.write(Q.insert("t", ["k", "g"], [[1, 1], [0, 2], [1, 3], [0, 4], [1, 5], [0, 6], [nil, nil], [1, nil]]))
    let k = Q.col("k")
    let g = Q.col("g")
    let count = SQLExpression.aggregate(.count, nil, distinct: false)
    let orders: [[OrderingTerm]] = [
      [OrderingTerm(count, descending: true)], [OrderingTerm(count)], [OrderingTerm(k, descending: true)],
      [OrderingTerm(k, descending: true), OrderingTerm(count)], [OrderingTerm(count), OrderingTerm(k, descending: true)],
      [OrderingTerm(count, descending: true, nulls: .first)], [],
    ]
    for order in orders {
      db.run(Q.select("t", [g, k, count], groupBy: [g], orderBy: order))
      db.run(Q.select("t", [g, k, count], groupBy: [g, k], orderBy: order))
    }
  }
}

/// Aggregate and DISTINCT queries over indexed columns: the SQLite backend reads them
/// `NOT INDEXED`, so rows arrive in rowid order on both engines (REAL sums round alike, the same
/// equal value represents a group).
@Suite struct EngineIndexedAggregateTests {
  @Test func rowsArriveInRowidOrder() {
    let schema = TableSchema(
      "t",
      columns: [
        .column("id", .integer, primaryKey: true), .column("x", .null(.real)), .column("g", .null(.blob)),
        .column("n", .null(.text)), .column("w", .null(.text)),
      ],
      indexes: [.index(on: ["x"]), .index(on: ["g", "x"])])
    let db = EngineTandem(schema)
    let values: [Double] = [0.1, 1e16, 0.3, -1e16, 0.2, 3.3, 1.1, 2.2, 0.7, 1e-3, 5.5]
    for (index, value) in values.enumerated() {
      let group: SqliteValue = index % 3 == 0 ? 1 : (index % 3 == 1 ? 1.0 : "a")
      db.write(Q.insert("t", ["x", "g", "n", "w"], [[.real(value), group, index % 2 == 0 ? "a" : "A", .text("w\(index)")]]))
    }
    let x = Q.col("x")
    let g = Q.col("g")
    db.run(Q.select("t", [.aggregate(.sum, x, distinct: false), .aggregate(.avg, x, distinct: false), .aggregate(.total, x, distinct: false)]))
    db.run(Q.select("t", [g, .aggregate(.sum, x, distinct: false)], groupBy: [g]))
    db.run(Q.select("t", [g, .aggregate(.sum, x, distinct: false)], groupBy: [g], orderBy: [OrderingTerm(g, descending: true)]))
    db.run(Q.select("t", [g], distinct: true, orderBy: [OrderingTerm(g)]))
    db.run(Q.select("t", [g, x], distinct: true, orderBy: [OrderingTerm(x)]))
    db.run(Q.select("t", [.aggregate(.sum, x, distinct: false)], where: .binary(.greater, Q.col("id"), Q.lit(2))))
    db.run(Q.select("t", [.aggregate(.sum, x, distinct: false)], where: .binary(.greater, x, Q.lit(0.0))))
    db.run(Q.select("t", [.aggregate(.sum, x, distinct: false), .aggregate(.count, Q.col("w"), distinct: false)]))
    db.run(Q.select("t", [.collate(Q.col("n"), .nocase), .aggregate(.count, nil, distinct: false)], groupBy: [.collate(Q.col("n"), .nocase)]))
  }
}

/// Where SQLite's expression matching meets the SQLite backend's placeholders, and when aggregate
/// errors surface.
@Suite struct EngineAggregateTimingTests {
  /// Every literal is its own `?`, so a HAVING term with a literal never matches its GROUP BY term
  /// and stays in HAVING: the groups' aggregates are finalized (and may fail) first.
  @Test func havingTermsWithLiteralsStayInHaving() {
    let schema = TableSchema("t", columns: [.column("index", .blob), .column("n", .integer)])
    let db = EngineTandem(schema)
    db.write(Q.insert("t", ["index", "n"], [[.blob(Data([0x31, 0x32])), .integer(-9223372036854775807)], [.blob(Data([0xCA])), .integer(-9223372036854775807)]]))
    let key = SQLExpression.cast(.binary(.greaterOrEqual, .literal(10.0), .column("index")), as: .real)
    let sum = SQLExpression.aggregate(.sum, .binary(.subtract, .literal(0), .column("n")), distinct: false)
    db.run(Q.select("t", [.literal(1)], groupBy: [key], having: key, orderBy: [OrderingTerm(sum)]))
    db.run(Q.select("t", [.literal(1)], groupBy: [key], having: .binary(.and, key, .binary(.greater, sum, .literal(0)))))
    db.run(Q.select("t", [.literal(1)], groupBy: [.column("index")], having: .binary(.greater, .column("index"), .literal(5)), orderBy: [OrderingTerm(sum)]))
    db.run(Q.select("t", [.literal(1)], groupBy: [key], orderBy: [OrderingTerm(key)], limit: .literal(1)))
  }

  /// SQLite shares an accumulator between equal calls — `max(alias)` is `max(rowid)` — but never
  /// between calls holding placeholders; which min()/max() runs last picks the bare columns' row.
  @Test func sharedAggregatesAndBareColumns() {
    let schema = TableSchema(
      "o", columns: [.column("oid", .blob), .column("x", .null(.integer)), .column("where", .integer, primaryKey: true)])
    let db = EngineTandem(schema)
    db.write(Q.insert("o", ["oid", "x"], [[-93.0, .blob(Data([0x41]))], ["a*", .blob(Data([0x61, 0x00, 0x62]))]]))
    let count = SQLExpression.aggregate(.count, nil, distinct: false)
    func agg(_ function: AggregateFunction, _ argument: SQLExpression) -> SQLExpression { .aggregate(function, argument, distinct: false) }
    db.run(Q.select("o", [.column("x"), agg(.max, .rowid)], having: .binary(.or, .binary(.equal, agg(.min, .column("oid")), agg(.max, .column("where"))), count)))
    db.run(Q.select("o", [.column("x"), agg(.max, .column("WHERE"))], having: .binary(.or, .binary(.equal, agg(.min, .column("oid")), agg(.max, .column("where"))), count)))
    let plusOne = SQLExpression.binary(.add, .rowid, .literal(1))
    db.run(Q.select("o", [.column("x"), agg(.max, plusOne), agg(.min, .column("oid"))], orderBy: [OrderingTerm(agg(.max, plusOne))]))
    db.run(Q.select("o", [.column("x"), agg(.max, .rowid), agg(.min, .column("oid"))], orderBy: [OrderingTerm(agg(.max, .rowid))]))
    db.run(Q.select("o", [.column("x"), agg(.max, plusOne)], groupBy: [.column("oid")], having: .binary(.and, .binary(.greater, .column("oid"), .literal(0)), .binary(.greater, agg(.min, plusOne), .literal(0)))))
  }

  /// Aggregates inside CASE arms, with constant arguments (placeholders): each is stepped for
  /// every row, and the last min()/max() to run decides the bare columns' row.
  @Test func aggregatesInCaseArms() {
    func agg(_ function: AggregateFunction, _ argument: SQLExpression?) -> SQLExpression { .aggregate(function, argument, distinct: false) }
    func when(_ w: SQLExpression, _ t: SQLExpression, _ e: SQLExpression? = nil) -> SQLExpression {
      .caseWhen(base: nil, branches: [CaseBranch(when: w, then: t)], else: e)
    }
    let db = EngineTandem(
      TableSchema("o", columns: [.column("ab", .null(.real))]),
      TableSchema("c", columns: [.column("c", .real), .column("id", .integer)]),
      TableSchema("m", columns: [.column("v", .null(.blob)), .column("n", .null(.text))]),
      TableSchema("g", columns: [.column("v", .null(.blob)), .column("d", .null(.text)), .column("n", .null(.text))]))
    db.write(Q.insert("o", ["ab"], [[10.0]]))
    db.write(Q.insert("o", ["ab"], [[nil]]))
    db.run(Q.select("o", [when(agg(.max, .function(.substr, [.literal(.blob(Data())), .literal(4)])), agg(.max, .literal(1.0)))], having: .column("ab")))
    db.write(Q.insert("c", ["c", "id"], [[.blob(Data([0x30, 0x21])), -78], [4.35772405659235e+181, 0.5]]))
    db.run(Q.select("c", [.caseWhen(base: nil, branches: [
      CaseBranch(when: .column("c"), then: agg(.sum, .column("c"))), CaseBranch(when: agg(.max, .literal("0x10")), then: agg(.min, .column("c"))),
    ], else: nil)]))
    db.write(Q.insert("m", ["n"], [[12], [nil]]))
    db.run(Q.select("m", [when(agg(.max, .function(.typeof, [.parameter("p0")])), agg(.count, nil), .binary(.isNot, .column("n"), agg(.max, .column("v"))))]), ["p0": .blob(Data([0x31, 0x32]))])
    db.write(Q.insert("g", ["d"], [["abc"]]))
    db.write(Q.insert("g", ["n"], [[7]]))
    db.run(
      Q.select("g", [.column("n"), when(agg(.min, .binary(.greater, .column("v"), .literal(2.2250738585072014e-308))), agg(.total, .column("d")))],
        groupBy: [.column("v")], having: .binary(.notEqual, agg(.min, .literal(.blob(Data([0x5A, 0x0A, 0x63])))), .parameter("p1")),
        orderBy: [OrderingTerm(.column("v"))]), ["p1": "é"])
  }

  /// sum() reports `integer overflow` when it is finalized, after every row of the group stepped.
  @Test func sumOverflowIsReportedAtTheEnd() {
    let schema = TableSchema("t", columns: [.column("n", .integer), .column("p", .null(.text))])
    let db = EngineTandem(schema)
    db.write(Q.insert("t", ["n", "p"], [[.integer(.max), "a"], [1, "a"], [1, "xx"]]))
    let sum = SQLExpression.aggregate(.sum, .column("n"), distinct: false)
    let like = SQLExpression.aggregate(
      .max, .like(.literal("a"), pattern: .literal("a"), escape: .column("p"), negated: false), distinct: false)
    db.run(Q.select("t", [sum, like]))
    db.run(Q.select("t", [like, sum]))
    db.run(Q.select("t", [sum], having: .literal(0)))
    // A group past the LIMIT is never finalized, so its overflow is never reported; one inside
    // the LIMIT, or one that HAVING reads, is.
    db.write(Q.insert("t", ["n", "p"], [[.integer(.max), "b"], [1, "b"]]))
    let p = SQLExpression.column("p")
    db.run(Q.select("t", [p, sum], groupBy: [p], orderBy: [OrderingTerm(p)], limit: .literal(1)))
    db.run(Q.select("t", [p], groupBy: [p], orderBy: [OrderingTerm(p)], limit: .literal(1)))
    db.run(Q.select("t", [p, sum], groupBy: [p], orderBy: [OrderingTerm(p, descending: true)], limit: .literal(1)))
    db.run(Q.select("t", [p, sum], groupBy: [p], orderBy: [OrderingTerm(p, descending: true)], limit: .literal(2)))
    db.run(Q.select("t", [p], groupBy: [p], having: .binary(.greater, sum, .literal(0)), orderBy: [OrderingTerm(p, descending: true)], limit: .literal(1)))
    db.run(Q.select("t", [p, .aggregate(.count, nil, distinct: false)], groupBy: [p], orderBy: [OrderingTerm(sum)], limit: .literal(1)))
  }

  /// `.rowid` stays the rowid in a lookup even when a column is named "rowid".
  @Test func rowidLookupBesideAColumnNamedRowid() {
    let schema = TableSchema(
      "t", columns: [.column("v", .null(.text)), .column("rowid", .null(.text), primaryKey: true), .column("y", .integer)])
    let db = EngineTandem(schema)
    db.write(Q.insert("t", ["y"], [[100]]))
    let one = SQLExpression.glob(.literal(12), pattern: .literal("**[a-c]11"), negated: true)
    db.write(Q.update("t", [("y", .column("v"))], where: .binary(.equal, .rowid, one)))
    db.run(Q.select("t", [.column("y")], where: .binary(.equal, .rowid, one)))
    db.run(Q.select("t", [.column("y")], where: .binary(.equal, .column("rowid"), .literal(.null))))
  }

  /// `IS` drives lookups too; the rowid lookup needs a key that becomes an integer, so -2⁶³ as a
  /// REAL (or text that reads as it) finds nothing though it compares equal to the smallest rowid;
  /// `u IS NULL` through the index finds every NULL.
  @Test func isLookupsAndTheSmallestRowid() {
    let schema = TableSchema(
      "t", columns: [.column("n", .integer, primaryKey: true), .column("u", .null(.integer), unique: true), .column("y", .null(.blob))])
    let db = EngineTandem(schema)
    db.write(Q.insert("t", ["n", "u"], [[.integer(.min), 1], [.integer(.max), nil], [0, nil]]))
    for key: SqliteValue in ["-9223372036854775809", "-9223372036854775808", -9.223372036854775808e18, "9223372036854775808", 9.223372036854775807e18, "0.0", .null] {
      db.run(Q.select("t", [.rowid], where: .binary(.is, .literal(key), .rowid)))
      db.run(Q.select("t", [.rowid], where: .binary(.equal, .column("n"), .literal(key))))
      db.run(Q.select("t", [.rowid], where: .binary(.is, .column("u"), .literal(key))))
      db.run(Q.select("t", [.rowid], where: .binary(.is, .unary(.plus, .rowid), .literal(key))))
      db.write(Q.update("t", [("y", .literal(.blob(Data([0x41]))))], where: .binary(.is, .column("n"), .literal(key))))
    }
  }

  /// A lookup key that reads no row is computed before any row is read, even in an empty table;
  /// aggregate queries read `NOT INDEXED`, so only the rowid lookup remains for them.
  @Test func lookupKeysAreComputedFirst() {
    let schema = TableSchema(
      "t", columns: [.column("id", .integer, primaryKey: true), .column("u", .null(.integer), unique: true), .column("s", .null(.text), unique: true)])
    let db = EngineTandem(schema)
    let overflow = SQLExpression.function(.abs, [.literal(.integer(.min))])
    let count = SQLExpression.aggregate(.count, nil, distinct: false)
    for table in ["empty", "full"] {
      if table == "full" { db.write(Q.insert("t", ["id", "u", "s"], [[1, 1, "1"], [2, 2, "2"]])) }
      db.run(Q.select("t", [.rowid], where: .binary(.equal, .rowid, overflow)))
      db.run(Q.select("t", [.rowid], where: .binary(.equal, .column("u"), overflow)))
      db.run(Q.select("t", [.rowid], where: .binary(.equal, overflow, .column("s"))))
      db.run(Q.select("t", [.rowid], where: .binary(.equal, .column("s"), .cast(overflow, as: .integer))))
      db.run(Q.select("t", [.rowid], where: .binary(.equal, .column("s"), .collate(overflow, .nocase))))
      db.run(Q.select("t", [count], where: .binary(.equal, .column("u"), overflow)))
      db.run(Q.select("t", [count], where: .binary(.equal, .rowid, overflow)))
      db.run(Q.select("t", [.rowid], where: .binary(.and, .binary(.equal, .column("u"), overflow), .binary(.equal, .rowid, .binary(.add, .function(.abs, [.literal(.integer(.max))]), .literal(0))))))
      db.write(Q.delete("t", where: .binary(.equal, .rowid, overflow)))
      db.write(Q.update("t", [("u", .literal(3))], where: .binary(.equal, .column("u"), overflow)))
    }
  }
}
