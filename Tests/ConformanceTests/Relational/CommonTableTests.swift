import Tandem
import Testing

/// Common table expressions (`WITH`, `WITH RECURSIVE`) on every engine.
@Suite struct CommonTableTests {
  @Test(arguments: BackendKind.allCases)
  func commonTableReadLikeATable(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let busy = ListNumber.where { $0.n > 1 }
      .with(ListNumber.self, as: WorkTask.where { !$0.isDone }.select { $0.listID })
      .select { $0.n }
    // Open tasks are in lists 2, 2, 3 and 1: the common table keeps every row.
    #expect(try db.fetchAll(busy) == [2, 2, 3])
  }

  @Test(arguments: BackendKind.allCases)
  func commonTableJoinedToATable(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let names = ListNumber.join(WorkList.self) { $0.n == $1.id }
      .select { _, list in list.name }
      .with(ListNumber.self, as: WorkTask.where { $0.estimate != nil }.select { $0.listID })
    #expect(try db.fetchAll(names) == ["Work", "Work", "Old"])
  }

  @Test(arguments: BackendKind.allCases)
  func recursiveCounter(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let upToFive = ListNumber.all.select { $0.n }.withRecursive(
      ListNumber.self, start: WorkList.where { $0.id == 1 }.select { $0.id },
      step: ListNumber.where { $0.n < 5 }.select { $0.n + 1 })
    #expect(try db.fetchAll(upToFive) == [1, 2, 3, 4, 5])
  }

  @Test(arguments: BackendKind.allCases)
  func recursiveUnionStopsAtRowsSeenBefore(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    // n -> n % 3 + 1 cycles 1, 2, 3, 1, …: UNION ends the cycle, UNION ALL would not.
    let cycle = ListNumber.all.select { $0.n }.withRecursive(
      ListNumber.self, start: WorkList.where { $0.id == 1 }.select { $0.id },
      step: ListNumber.all.select { $0.n % 3 + 1 }, unionAll: false)
    #expect(try db.fetchAll(cycle) == [1, 2, 3])
  }

  @Test(arguments: BackendKind.allCases)
  func commonTableWithTheWrongNumberOfColumnsFails(_ kind: BackendKind) throws {
    let db = try JoinTests.database(kind)
    let wrong = ListNumber.all.with(ListNumber.self, as: WorkTask.all.select { ($0.id, $0.listID) })
    let error = try #require(throws: TandemError.self) { try db.fetchAll(wrong) }
    #expect(error.kind == .sqlite)
    #expect(error.message.contains("has 2 values for 1 columns"))
  }
}
