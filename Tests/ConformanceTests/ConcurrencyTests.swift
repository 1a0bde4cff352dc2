import Tandem
import Testing

/// A `Database` shared by many tasks serializes their statements and loses nothing.
@Suite struct ConcurrencyTests {
  @Test(arguments: BackendKind.allCases)
  func concurrentInsertsKeepEveryRow(_ kind: BackendKind) async throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<50 {
            try db.insert(Item(id: task * 1_000 + index, name: "task \(task)", stock: index))
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try db.fetchCount(Item.all) == 400)
    let sum: Int? = try db.fetchSingle(Item.all.select { $0.stock.sum() })
    #expect(sum == 8 * (0..<50).reduce(0, +))
    let perTask = try db.fetchAll(Item.group { $0.name }.select { _ in TypedExpression<Int>.countAll })
    #expect(perTask == Array(repeating: 50, count: 8))
  }

  @Test(arguments: BackendKind.allCases)
  func concurrentDraftsGetDistinctKeys(_ kind: BackendKind) async throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    let ids = try await withThrowingTaskGroup(of: [Int].self) { group in
      for task in 0..<4 {
        group.addTask {
          try (0..<25).map { try db.insert(Reminder.Draft(title: "task \(task) #\($0)")).id }
        }
      }
      return try await group.reduce(into: [Int]()) { $0 += $1 }
    }
    #expect(ids.sorted() == Array(1...100))
  }

  @Test(arguments: BackendKind.allCases)
  func concurrentTransactionsAreIsolated(_ kind: BackendKind) async throws {
    struct Abort: Error {}
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    let committed = try await withThrowingTaskGroup(of: Bool.self) { group in
      for task in 0..<6 {
        group.addTask {
          do {
            try db.transaction { db in
              for index in 0..<10 { try db.insert(Item(id: task * 100 + index, name: "task \(task)")) }
              // Reads inside a transaction see only its own writes plus committed ones.
              let mine = try db.fetchCount(Item.where { $0.name == "task \(task)" })
              if mine != 10 { throw Abort() }
              if task.isMultiple(of: 2) { throw Abort() }
            }
            return true
          } catch is Abort {
            return false
          }
        }
      }
      return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
    }
    #expect(committed == 3)
    #expect(try db.fetchCount(Item.all) == 30)
    #expect(try db.fetchAll(Item.all.select { $0.name }.distinct()) == ["task 1", "task 3", "task 5"])
  }
}
