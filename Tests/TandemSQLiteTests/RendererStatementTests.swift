import Foundation
import TandemCore
import TandemSQLite
import Testing

/// Inline snapshots of every statement kind.
@Suite("Renderer: statements")
struct RendererStatementTests {
  private let renderer = SQLRenderer(tableColumns: ["a", "b"])

  @Test func selectWithFilter() throws {
    let rendered = try renderer.render(
      .select(SelectStatement(table: "t", columns: [.column("a")], filter: .binary(.equal, .column("a"), .literal(1)))))
    #expect(rendered.sql == #"SELECT "a" FROM "t" WHERE ("a" = ?)"#)
    #expect(rendered.bindings == [.value(.integer(1))])
  }

  @Test func selectWithEveryClause() throws {
    let select = SelectStatement(
      table: "t",
      columns: [.column("a"), .aggregate(.count, nil, distinct: false), .aggregate(.sum, .column("b"), distinct: true)],
      distinct: true,
      filter: .binary(.greater, .column("b"), .parameter("minimum")),
      groupBy: [.column("a")],
      having: .binary(.greater, .aggregate(.count, nil, distinct: false), .literal(1)),
      orderBy: [
        OrderingTerm(.column("a"), descending: true, nulls: .last),
        OrderingTerm(.aggregate(.count, nil, distinct: false), nulls: .first),
        OrderingTerm(.rowid),
      ],
      limit: .literal(10),
      offset: .literal(20))
    let rendered = try renderer.render(.select(select))
    #expect(
      rendered.sql
        == #"SELECT DISTINCT "a", count(*), sum(DISTINCT "b") FROM "t" NOT INDEXED WHERE ("b" > ?) GROUP BY "a" HAVING (count(*) > ?) ORDER BY "a" DESC NULLS LAST, count(*) ASC NULLS FIRST, rowid ASC LIMIT ? OFFSET ?"#
    )
    #expect(
      rendered.bindings == [.parameter("minimum"), .value(.integer(1)), .value(.integer(10)), .value(.integer(20))])
  }

  @Test func offsetWithoutLimitUsesNoLimit() throws {
    let rendered = try renderer.render(.select(SelectStatement(table: "t", columns: [.column("a")], offset: .literal(5))))
    #expect(rendered.sql == #"SELECT "a" FROM "t" LIMIT -1 OFFSET ?"#)
    #expect(rendered.bindings == [.value(.integer(5))])
    let limitOnly = try renderer.render(.select(SelectStatement(table: "t", columns: [.column("a")], limit: .parameter("n"))))
    #expect(limitOnly.sql == #"SELECT "a" FROM "t" LIMIT ?"#)
    #expect(limitOnly.bindings == [.parameter("n")])
  }

  @Test func selectWithoutColumnsIsMisuse() {
    #expect(tandemError { _ = try renderer.render(.select(SelectStatement(table: "t", columns: []))) }?.kind == .misuse)
  }

  @Test func insertOneRow() throws {
    let rendered = try renderer.render(
      .insert(InsertStatement(table: "t", columns: ["a", "b"], rows: [[.literal(1), .literal("x")]])))
    #expect(rendered.sql == #"INSERT INTO "t" ("a", "b") VALUES (?, ?)"#)
    #expect(rendered.bindings == [.value(.integer(1)), .value(.text("x"))])
  }

  @Test func insertManyRows() throws {
    let rendered = try renderer.render(
      .insert(
        InsertStatement(
          table: "t", columns: ["a", "b"],
          rows: [[.literal(1), .literal("x")], [.parameter("a"), .literal(.null)], [.literal(3), .column("a")]])))
    #expect(rendered.sql == #"INSERT INTO "t" ("a", "b") VALUES (?, ?), (?, ?), (?, "a")"#)
    #expect(
      rendered.bindings == [
        .value(.integer(1)), .value(.text("x")), .parameter("a"), .value(.null), .value(.integer(3)),
      ])
  }

  @Test func insertRowsMixingValuesAndExpressions() throws {
    // Rows of plain values take a shortcut; a row with an expression in its last place must
    // still come out whole, with bindings in order.
    let rendered = try renderer.render(
      .insert(
        InsertStatement(
          table: "t", columns: ["a", "b", "c"],
          rows: [
            [.literal(1), .parameter("p"), .binary(.add, .literal(2), .literal(3))],
            [.literal(4), .literal(5), .literal(6)],
          ])))
    #expect(rendered.sql == #"INSERT INTO "t" ("a", "b", "c") VALUES (?, ?, (? + ?)), (?, ?, ?)"#)
    #expect(
      rendered.bindings == [
        .value(.integer(1)), .parameter("p"), .value(.integer(2)), .value(.integer(3)), .value(.integer(4)),
        .value(.integer(5)), .value(.integer(6)),
      ])
  }

  @Test func insertConflictClauses() throws {
    func render(_ conflict: InsertStatement.ConflictResolution) throws -> String {
      try renderer.render(.insert(InsertStatement(table: "t", columns: ["a"], rows: [[.literal(1)]], conflict: conflict)))
        .sql
    }
    #expect(try render(.replace) == #"INSERT OR REPLACE INTO "t" ("a") VALUES (?)"#)
    #expect(try render(.ignore) == #"INSERT OR IGNORE INTO "t" ("a") VALUES (?)"#)
    #expect(try render(.nothing(target: ["a"])) == #"INSERT INTO "t" ("a") VALUES (?) ON CONFLICT ("a") DO NOTHING"#)
    #expect(try render(.nothing(target: [])) == #"INSERT INTO "t" ("a") VALUES (?) ON CONFLICT DO NOTHING"#)
    let upsert = try render(
      .update(
        target: ["a", "b"],
        assignments: [
          Assignment(column: "x", value: .excluded("x")),
          Assignment(column: "n", value: .binary(.add, .column("n"), .literal(1))),
        ]))
    #expect(
      upsert
        == #"INSERT INTO "t" ("a") VALUES (?) ON CONFLICT ("a", "b") DO UPDATE SET "x" = excluded."x", "n" = ("n" + ?)"#
    )
    #expect(tandemError { _ = try render(.update(target: ["a"], assignments: [])) }?.kind == .misuse)
  }

  @Test func insertWithoutColumnsUsesDefaultValues() throws {
    let rendered = try renderer.render(.insert(InsertStatement(table: "t", columns: [], rows: [[]])))
    #expect(rendered.sql == #"INSERT INTO "t" DEFAULT VALUES"#)
    #expect(rendered.bindings.isEmpty)
    let ignored = try renderer.render(.insert(InsertStatement(table: "t", columns: [], rows: [[]], conflict: .ignore)))
    #expect(ignored.sql == #"INSERT OR IGNORE INTO "t" DEFAULT VALUES"#)
    // DEFAULT VALUES inserts exactly one row and takes no ON CONFLICT clause (SQLite 3.40).
    for statement in [
      InsertStatement(table: "t", columns: [], rows: [[], []]),
      InsertStatement(table: "t", columns: [], rows: [[]], conflict: .nothing(target: [])),
    ] {
      #expect(tandemError { _ = try renderer.render(.insert(statement)) }?.kind == .misuse)
    }
  }

  @Test func malformedInsertsAreMisuse() {
    for statement in [
      InsertStatement(table: "t", columns: ["a", "b"], rows: [[.literal(1)]]),
      InsertStatement(table: "t", columns: ["a"], rows: []),
    ] {
      #expect(tandemError { _ = try renderer.render(.insert(statement)) }?.kind == .misuse)
    }
  }

  @Test func update() throws {
    let rendered = try renderer.render(
      .update(
        UpdateStatement(
          table: "t",
          assignments: [Assignment(column: "a", value: .literal("new")), Assignment(column: "b", value: .literal(.null))],
          filter: .binary(.equal, .rowid, .parameter("id")))))
    #expect(rendered.sql == #"UPDATE "t" SET "a" = ?, "b" = ? WHERE (rowid = ?)"#)
    #expect(rendered.bindings == [.value(.text("new")), .value(.null), .parameter("id")])
    let everything = try renderer.render(
      .update(UpdateStatement(table: "t", assignments: [Assignment(column: "a", value: .column("b"))])))
    #expect(everything.sql == #"UPDATE "t" SET "a" = "b""#)
    #expect(tandemError { _ = try renderer.render(.update(UpdateStatement(table: "t", assignments: []))) }?.kind == .misuse)
  }

  @Test func delete() throws {
    #expect(try renderer.render(.delete(DeleteStatement(table: "t"))).sql == #"DELETE FROM "t""#)
    let rendered = try renderer.render(
      .delete(DeleteStatement(table: "t", filter: .inList(.column("a"), [.literal(1), .literal(2)], negated: false))))
    #expect(rendered.sql == #"DELETE FROM "t" WHERE ("a" IN (?, ?))"#)
    #expect(rendered.bindings == [.value(.integer(1)), .value(.integer(2))])
  }

  @Test func rendererFromSchemaKnowsShadowingColumns() throws {
    let schema = TableSchema("t", columns: [.column("rowid", .text), .column("v", .integer)])
    let rendered = try SQLRenderer(schema: schema).render(
      .select(SelectStatement(table: "t", columns: [.rowid, .column("rowid")], orderBy: [OrderingTerm(.rowid)])))
    #expect(rendered.sql == #"SELECT _rowid_, "rowid" FROM "t" ORDER BY _rowid_ ASC"#)
  }

  @Test func descriptionHidesValues() throws {
    let rendered = try renderer.render(
      .delete(DeleteStatement(table: "t", filter: .binary(.equal, .column("a"), .literal("secret")))))
    #expect(rendered.description == #"DELETE FROM "t" WHERE ("a" = ?)"#)
    #expect(!"\(rendered)".contains("secret"))
  }

  /// A pinned LEFT JOIN that SQLite would plan as an inner join is written as one, its tests of
  /// the joined table's values for NULL kept from being answered up front.
  @Test func pinnedLeftJoinThatSQLitePlansAsInner() throws {
    let renderer = SQLRenderer(
      tableColumns: ["x", "key"], otherTables: ["q": ["ref", "e"]],
      columnTraits: [
        "a": ["x": ColumnTraits(type: .real, isRowidAlias: false), "key": ColumnTraits(type: .real, isRowidAlias: false)],
        "q": ["ref": ColumnTraits(type: .real, isRowidAlias: false), "e": ColumnTraits(type: .blob, isRowidAlias: false, isNotNull: true)],
      ])
    let ref = SQLExpression.qualifiedColumn(source: "q", name: "ref")
    let select = SelectStatement(
      table: "a",
      joins: [JoinClause(.left, table: "q", on: .binary(.equal, .qualifiedColumn(source: "a", name: "key"), ref))],
      columns: [
        .aggregate(.total, .qualifiedColumn(source: "a", name: "x"), distinct: false),
        .exists(SelectStatement(table: "q", columns: [.literal(1)], filter: .isNull(.column("e"), negated: true)), negated: false),
      ],
      filter: ref, having: .isNull(.qualifiedColumn(source: "q", name: "e"), negated: true))
    // The subquery's "e" is its own table's: SQLite answers that test up front either way.
    #expect(
      try renderer.render(.select(select)).sql
        == #"SELECT total("a"."x"), (EXISTS (SELECT ? FROM "q" WHERE ("e" IS NOT NULL))) FROM "a" NOT INDEXED "#
        + #"CROSS JOIN "q" NOT INDEXED ON ("a"."key" = "q"."ref") WHERE "q"."ref" HAVING (("q"."e" COLLATE BINARY) IS NOT NULL)"#)
  }
}
