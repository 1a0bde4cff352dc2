import Foundation
import Tandem
import Testing
import SeededRandomness

/// The fuzzer's own machinery: reproducible cases, coverage of the query model, statements SQLite
/// mostly accepts, and the shrinker's tree surgery.
@Suite("Fuzz case generation")
struct GeneratorTests {
  @Test("A case is a pure function of (seed, index)")
  func casesAreReproducible() {
    for index in UInt64(0)..<50 {
      #expect(CaseGenerator.generate(seed: 99, index: index) == CaseGenerator.generate(seed: 99, index: index))
    }
    let distinct = Set((UInt64(0)..<50).map { CaseGenerator.generate(seed: 99, index: $0) })
    #expect(distinct.count == 50)
    #expect(CaseGenerator.generate(seed: 1, index: 7) != CaseGenerator.generate(seed: 2, index: 7))
  }

  @Test("Over a few hundred cases, the generator reaches every part of the query model")
  func generatorCoversTheQueryModel() {
    var seen: Set<String> = []
    for index in UInt64(0)..<400 {
      let fuzzCase = CaseGenerator.generate(seed: FuzzSettings.defaultSeed, index: index)
      for schema in fuzzCase.schemas {
        seen.formUnion(Coverage.features(of: schema))
      }
      Coverage.collect(fuzzCase.operations, into: &seen)
      seen.formUnion(Coverage.planFeatures(of: fuzzCase))
    }
    let missing = Coverage.expected.subtracting(seen)
    #expect(missing.isEmpty, "never generated: \(missing.sorted())")
  }

  @Test("Over a few hundred relational cases, the generator reaches joins, subqueries and compounds")
  func relationalGeneratorCoversJoinsSubqueriesAndCompounds() {
    var seen: Set<String> = []
    for index in UInt64(0)..<600 {
      Coverage.collect(RelationalCaseGenerator.generate(seed: FuzzSettings.defaultSeed, index: index).operations, into: &seen)
    }
    let expected: Set<String> = [
      "join JOIN", "join LEFT JOIN", "join CROSS JOIN without ON", "join alias", "3-way join", "4-way join", "self-join",
      "scalar subquery", "exists", "in subquery", "subquery aggregate", "subquery group by", "subquery distinct",
      "compound UNION", "compound UNION ALL", "compound INTERSECT", "compound EXCEPT", "subquery compound UNION",
      "subquery compound EXCEPT", "update", "delete", "with", "with recursive", "common table compound UNION",
      "common table compound UNION ALL", "common table limit",
    ]
    let missing = expected.subtracting(seen)
    #expect(missing.isEmpty, "never generated: \(missing.sorted())")
  }

  @Test("SQLite accepts every generated schema and most generated statements")
  func sqliteAcceptsGeneratedCases() throws {
    var selects = 0
    var failedSelects = 0
    for index in UInt64(0)..<150 {
      let fuzzCase = CaseGenerator.generate(seed: FuzzSettings.defaultSeed, index: index)
      let db = try Database(.sqliteInMemory)
      for schema in fuzzCase.schemas { try db.create(schema) }
      for statement in CaseShrinker.statements(fuzzCase.operations) {
        guard case .select = statement else { continue }
        selects += 1
        let parameters = Coverage.parameters(in: fuzzCase.operations, for: statement)
        if (try? db.execute(statement, parameters: parameters)) == nil { failedSelects += 1 }
      }
    }
    // Errors are compared too, but a fuzzer whose queries mostly fail compares little.
    #expect(selects > 500)
    #expect(failedSelects * 5 < selects, "\(failedSelects) of \(selects) selects failed on SQLite")
  }

  @Test("Replacing a child by itself rebuilds the same expression")
  func childReplacementRoundTrips() {
    var generator = ExpressionGenerator(
      random: SplitMix64(seed: 5),
      table: TableSchema("t", columns: [.column("a", .integer), .column("b", .null(.text))]))
    for _ in 0..<300 {
      let expression = generator.expression(depth: 4)
      for (index, child) in expression.children.enumerated() {
        #expect(expression.replacingChild(at: index, with: child) == expression)
      }
      #expect(expression.simplifications.allSatisfy { $0 != expression })
    }
  }

  @Test("Truncating at a path inside a savepoint keeps what ran before it")
  func truncationFollowsPaths() {
    let select = Statement.select(SelectStatement(table: "t", columns: [.column("a")]))
    let delete = Statement.delete(DeleteStatement(table: "t"))
    let operations: [FuzzOperation] = [
      .statement(select, parameters: [:]),
      .savepoint([.statement(delete, parameters: [:]), .statement(select, parameters: [:])], rollback: true),
      .statement(delete, parameters: [:]),
    ]
    #expect(CaseShrinker.paths(operations) == [[0], [1], [1, 0], [1, 1], [2]])
    #expect(
      CaseShrinker.truncated(operations, through: [1, 0]) == [
        .statement(select, parameters: [:]), .savepoint([.statement(delete, parameters: [:])], rollback: true),
      ])
    #expect(
      CaseShrinker.replacing(operations, at: [1, 1]) { _ in [] }[1]
        == .savepoint([.statement(delete, parameters: [:])], rollback: true))
  }

  @Test("Reports write statements as SQL with values inline")
  func readableSQLInlinesValues() {
    let schema = TableSchema("order", columns: [.column("rowid", .null(.text)), .column("a", .integer)])
    let statement = Statement.select(
      SelectStatement(
        table: "order", columns: [.column("a"), .function(.substr, [.column("rowid"), .literal(2)])],
        filter: .like(.column("rowid"), pattern: .literal("%é_"), escape: .literal("\\"), negated: true),
        orderBy: [OrderingTerm(.column("a"), descending: true, nulls: .last), OrderingTerm(.rowid)],
        limit: .parameter("p0")))
    #expect(
      ReadableSQL(schema: schema).statement(statement)
        == #"SELECT "a", substr("rowid", 2) FROM "order" WHERE ("rowid" NOT LIKE '%é_' ESCAPE '\') ORDER BY "a" DESC NULLS LAST, _rowid_ LIMIT :p0"#
    )
    #expect(ReadableSQL.literal(.integer(.min)) == "(-9223372036854775808)")
    #expect(ReadableSQL.literal(.text("a\u{0}b")) == "CAST(X'610062' AS TEXT)")
  }
}
