import Foundation
import Tandem
import Testing

/// Answers that depend on SQLite's query plan, not only on the data: which rows an expression
/// that can fail is ever evaluated on (a rowid or index seek never visits the others), the order
/// an UPDATE visits rows in (and so which error it meets first), and whether a fetch decodes a
/// row before a later row fails. Every engine must give SQLite 3.40's answer, so the memory
/// engine follows SQLite's plan.
///
/// Row 1 of ``PlannedItem/samples`` holds `Int.min`, whose `abs()` is an integer overflow: a
/// statement that evaluates `abs(n)` on that row fails, one whose plan never reaches it does not.
@Suite struct PlanDependentAnswerTests {
  static let overflow = ErrorSummary.sqlite(code: 1, message: "integer overflow")

  /// The two sample items.
  static func database(_ kind: BackendKind, _ items: [PlannedItem] = PlannedItem.samples) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(PlannedItem.self)
    try db.insert(items)
    return db
  }

  /// The summary of the error `body` throws (`nil`, failing the test, when it throws none).
  static func failure(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> ErrorSummary? {
    do {
      try body()
      Issue.record("expected an error", sourceLocation: sourceLocation)
      return nil
    } catch let error as TandemError {
      return error.summary
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
      return nil
    }
  }

  // MARK: - Which error a fetch reports

  @Test(arguments: BackendKind.allCases)
  func fetchDecodesEachRowBeforeALaterRowFails(_ kind: BackendKind) throws {
    let db = try Self.database(
      kind, [PlannedItem(id: 1, n: 2, s: "b", t: nil, code: "a"), PlannedItem(id: 2, n: .min, s: "a", t: nil, code: "z")])
    // Row 1's n = 2 is no Bool: the fetch fails decoding it before SQLite reaches row 2.
    let decoding = try #require(throws: TandemError.self) {
      try db.fetchAll(PlannedItem.all.select { (TypedExpression<Bool>($0.n), $0.n.abs()) })
    }
    #expect(decoding.kind == .decodingFailure)
    #expect(decoding.value == .integer(2))
    #expect(decoding.swiftType == "Bool")
    #expect(decoding.rowIndex == 0)
    // Read in the order of the index of `code`: the same.
    let indexOrdered = try #require(throws: TandemError.self) {
      try db.fetchAll(PlannedItem.all.select { (TypedExpression<Bool>($0.n), $0.n.abs()) }.order { $0.code })
    }
    #expect(indexOrdered.kind == .decodingFailure)
    // Sorted by `s`, every row's result columns are computed before the first is returned.
    #expect(
      Self.failure { _ = try db.fetchAll(PlannedItem.all.select { (TypedExpression<Bool>($0.n), $0.n.abs()) }.order { $0.s }) }
        == Self.overflow)
  }
}
