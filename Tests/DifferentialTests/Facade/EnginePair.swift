import Tandem

/// A fresh `.sqliteInMemory` and `.memory` database holding one table, on which the record-API
/// fuzzers run each call and compare the answers, then the whole table.
///
/// ```swift
/// let pair = try EnginePair(creating: { try $0.create(Probe.self) }, contents: { try $0.fetchAll(Probe.all).map(\.sqliteValues) })
/// let verdict = pair.run { db in try FacadePerformer.perform(call, on: db) }
/// ```
struct EnginePair {
  let sqlite: Database
  let memory: Database
  private let contents: (Database) throws -> [[SqliteValue]]

  enum Verdict {
    /// Both answered alike (with this error, if they failed).
    case agrees(failure: String?)
    /// The memory engine answered `unsupported` (allowed: it must not approximate).
    case refused(String)
    case differs(String)
  }

  /// The two databases, each with the table `create` creates; `contents` reads the table back.
  init(creating create: (Database) throws -> Void, contents: @escaping (Database) throws -> [[SqliteValue]]) throws {
    sqlite = try Database(.sqliteInMemory)
    memory = try Database(.memory)
    try create(sqlite)
    try create(memory)
    self.contents = contents
  }

  /// Runs `perform` on both and compares the answers, then the table contents.
  func run(_ perform: (Database) throws -> [[SqliteValue]]) -> Verdict {
    let theirs = Outcome.of { StatementResult(rows: try perform(sqlite)) }
    let mine = Outcome.of { StatementResult(rows: try perform(memory)) }
    if let feature = mine.unsupportedFeature { return .refused(feature) }
    if theirs != mine { return .differs("SQLite: \(theirs)\nmemory: \(mine)") }
    let tables = (
      Outcome.of { StatementResult(rows: try contents(sqlite)) }, Outcome.of { StatementResult(rows: try contents(memory)) }
    )
    if tables.0 != tables.1 { return .differs("tables differ after the call\nSQLite: \(tables.0)\nmemory: \(tables.1)") }
    if case .failure(let failure) = theirs { return .agrees(failure: failure.description) }
    return .agrees(failure: nil)
  }

  /// Runs `calls` in one transaction on `db`, committed or rolled back: a failing call inside
  /// is part of the answer, not the end of the transaction; a refusal by the memory engine ends it.
  static func transaction<Call>(
    _ calls: [Call], rollsBack: Bool, on db: some DatabaseWriter,
    perform: (Call, Connection) throws -> [[SqliteValue]]
  ) throws -> [[SqliteValue]] {
    var answers: [[SqliteValue]] = []
    do {
      try db.transaction { connection in
        for call in calls {
          do {
            answers += try perform(call, connection)
          } catch let error as TandemError where error.kind != .unsupported {
            answers.append([.text(TandemError.Signature(error).description)])
          }
        }
        if rollsBack { throw RollbackRequest() }
      }
    } catch is RollbackRequest {
      answers.append([.text("rolled back")])
    }
    return answers
  }
}
