import Foundation
import TandemCore
import TandemSQLite
import Testing

/// Identifiers are always quoted and values never reach the SQL text, whatever they contain.
@Suite("Renderer: quoting and hostile input")
struct RendererQuotingTests {
  private let hostile = "'); DROP TABLE reminders; --"

  @Test(arguments: ["order", #"a "quoted" name"#, "café ☕︎", "select", "a.b", "x, y", "--", ""])
  func identifiersAreAlwaysQuoted(name: String) throws {
    let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    let rendered = try SQLRenderer(tableColumns: [name]).render(
      .update(
        UpdateStatement(
          table: name, assignments: [Assignment(column: name, value: .excluded(name))],
          filter: .binary(.equal, .column(name), .literal(1)))))
    #expect(rendered.sql == "UPDATE \(quoted) SET \(quoted) = excluded.\(quoted) WHERE (\(quoted) = ?)")
  }

  @Test func keywordAndQuoteNamesSnapshot() throws {
    let rendered = try SQLRenderer().render(
      .insert(
        InsertStatement(
          table: "order", columns: [#"a "quoted" name"#, "naïve"], rows: [[.literal(1), .literal(2)]],
          conflict: .update(target: ["group"], assignments: [Assignment(column: "naïve", value: .excluded("naïve"))]))))
    #expect(
      rendered.sql
        == #"INSERT INTO "order" ("a ""quoted"" name", "naïve") VALUES (?, ?) ON CONFLICT ("group") DO UPDATE SET "naïve" = excluded."naïve""#
    )
  }

  @Test func hostileValuesAppearOnlyInBindings() throws {
    let statements: [Statement] = [
      .select(
        SelectStatement(
          table: "reminders", columns: [.column("title"), .literal(.text(hostile))],
          filter: .like(.column("title"), pattern: .literal(.text(hostile)), escape: .literal("'"), negated: false),
          orderBy: [OrderingTerm(.literal(.text(hostile)))], limit: .literal(.text(hostile)))),
      .insert(InsertStatement(table: "reminders", columns: ["title"], rows: [[.literal(.text(hostile))]])),
      .update(
        UpdateStatement(
          table: "reminders", assignments: [Assignment(column: "title", value: .literal(.text(hostile)))],
          filter: .inList(.column("title"), [.literal(.text(hostile))], negated: false))),
      .delete(DeleteStatement(table: "reminders", filter: .binary(.equal, .column("title"), .literal(.text(hostile))))),
    ]
    for statement in statements {
      let rendered = try SQLRenderer().render(statement)
      #expect(!rendered.sql.contains("DROP"))
      #expect(!rendered.sql.contains("'"))
      #expect(!rendered.sql.contains("--"))
      #expect(rendered.bindings.contains(.value(.text(hostile))))
      #expect(rendered.sql.filter { $0 == "?" }.count == rendered.bindings.count)
    }
  }

  @Test func hostileIdentifiersStayInsideTheirQuotes() throws {
    let table = #"reminders"; DROP TABLE "reminders"#
    let rendered = try SQLRenderer().render(.delete(DeleteStatement(table: table)))
    #expect(rendered.sql == #"DELETE FROM "reminders""; DROP TABLE ""reminders""#)
  }

  @Test func identifiersWithNulAreRefused() {
    let error = tandemError { _ = try SQLRenderer().render(.delete(DeleteStatement(table: "a\u{0}b"))) }
    #expect(error?.kind == .misuse)
  }
}
