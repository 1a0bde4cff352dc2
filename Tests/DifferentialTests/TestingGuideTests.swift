import Foundation
import Tandem
import Testing

// The code samples of Docs/Testing.md, each run here as written.

/// The guide's table.
@Table struct Reminder: Equatable {
  let id: Int
  var title = ""
  var isCompleted = false
}

/// A table with a UNIQUE column, for the guide's error sample.
@Table struct Account: Equatable {
  let id: Int
  @Column(unique: true) var email: String
}

@Suite("Docs/Testing.md samples")
struct TestingGuideTests {
  // "Unit tests on the memory engine"
  @Test func completingAReminder() throws {
    let db = try Database(.memory)
    try db.create(Reminder.self)
    try db.insert(Reminder(id: 1, title: "Milk"))

    try db.update(Reminder.where { $0.id == 1 }) { $0.set(\.isCompleted, to: true) }

    #expect(try db.fetchCount(Reminder.where { $0.isCompleted }) == 1)
  }

  // "The same test on every engine"
  @Test(arguments: [Database.Storage.memory, .sqliteInMemory, .tandem])
  func titlesCompareByBytes(_ storage: Database.Storage) throws {
    let db = try Database(storage)
    try db.create(Reminder.self)
    try db.insert(Reminder(id: 1, title: "café"))  // precomposed é
    try db.insert(Reminder(id: 2, title: "cafe\u{301}"))  // e + combining accent

    // Swift's == calls these equal; SQLite (and so Tandem) compares bytes.
    #expect(try db.fetchCount(Reminder.where { $0.title == "café" }) == 1)
  }

  // "Tandem mode": an error both engines agree on arrives as itself, not as a divergence.
  // "The memory engine follows SQLite's plan"
  @Test(arguments: [Database.Storage.memory, .sqliteInMemory, .tandem])
  func searchesTheRowidRange(_ storage: Database.Storage) throws {
    let db = try Database(storage)
    try db.create(Reminder.self)
    let plan = try db.queryPlan(for: Reminder.where { $0.id > 1 }.select { $0.title })
    #expect(plan == ["SEARCH reminders USING INTEGER PRIMARY KEY (rowid>?)"])
  }

  @Test func tandemPassesAgreedErrorsThrough() throws {
    let db = try Database(.tandem)
    try db.create(Account.self)
    try db.insert(Account(id: 1, email: "a@example.com"))
    do {
      try db.insert(Account(id: 2, email: "a@example.com"))
      Issue.record("expected a UNIQUE violation")
    } catch let error as TandemError {
      #expect(error.kind == .constraintViolation)
      #expect(error.constraint == .unique)
      #expect(error.message == "UNIQUE constraint failed: accounts.email")
    }
  }

  // "Tandem mode": catching a divergence.
  @Test func catchingADivergence() throws {
    let db = try Database(.tandem)
    try db.create(Reminder.self)
    try db.insert(Reminder(id: 1, title: "Milk"))
    var divergence: TandemError?
    do {
      _ = try db.fetchAll(Reminder.where { $0.title.like("MILK") })
    } catch let error as TandemError where error.kind == .divergence {
      print(error.statement ?? "", error.message)  // the statement, then both answers
      divergence = error
    }
    #expect(divergence == nil)
  }

  // "Running the fuzzer": the reproduction line a report prints.
  @Test func reproductionCommand() {
    let settings = FuzzSettings(seed: 0x7A4D_E11A, cases: 3000, first: 0, maxMismatches: 10, verbose: false)
    #expect(
      settings.reproduction(index: 1234)
        == "TANDEM_FUZZ_SEED=0x7A4DE11A TANDEM_FUZZ_FIRST=1234 TANDEM_FUZZ_CASES=1 swift test --filter DifferentialFuzzTests"
    )
    #expect(settings.indices == 0..<3000)
  }
}
