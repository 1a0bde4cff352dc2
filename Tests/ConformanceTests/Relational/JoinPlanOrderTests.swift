import Foundation
import Tandem
import Testing

/// A join without ORDER BY comes in its sources' rowid order whatever order SQLite's plan finds
/// its rows in, and a fetch that fails does so on the row it would meet first in that order.
///
/// The SQLite backend hands a join's rows out as SQLite steps them while they come in rowid
/// order; at the first that does not, the rows handed out are taken back and all are handed out
/// sorted. Each test makes SQLite's plan (the projects looked up by key, each one's tasks found
/// through the index on `(projectID, title)`: project by project, then by title) hand out rows
/// in order first and one out of order later.
@Suite struct JoinPlanOrderTests {
  /// Projects 1 and 2, and `tasks`.
  static func database(_ kind: BackendKind, tasks: [ProjectTask]) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Project.self)
    try db.create(ProjectTask.self)
    try db.insert([Project(id: 1, code: "H", name: "Home"), Project(id: 2, code: "W", name: "Work")])
    try db.insert(tasks)
    return db
  }

  /// Projects 1 and 2, and tasks 1, 2, … of these projects and titles.
  static func database(_ kind: BackendKind, numbering tasks: [(project: Int, title: String)]) throws -> Database {
    try database(
      kind,
      tasks: tasks.enumerated().map { ProjectTask(id: $0.offset + 1, projectID: $0.element.project, title: $0.element.title) })
  }

  /// The tasks of projects 1 and 2, with their project's name.
  static let tasksOfBothProjects = ProjectTask.join(Project.self) { $0.projectID == $1.id }
    .where { _, project in project.id.in([1, 2]) }

  /// Expects SQLite's plan of `query` to look the projects up by key and find each one's tasks
  /// through the index on `(projectID, title)`. The memory engine describes no plan of a join
  /// (the fuzzer compares the one it follows).
  static func expectProjectsThenTasksByTitle<Root, Output>(_ db: Database, _ query: Select<Root, Output>) throws {
    let plan = try db.queryPlan(for: query)
    #expect(
      plan.isEmpty
        || plan == [
          "SEARCH projects USING INTEGER PRIMARY KEY (rowid=?)",
          "SEARCH projectTasks USING COVERING INDEX projectTasks_on_projectID_title (projectID=?)",
        ])
  }

  /// SQLite finds tasks 1, 2 and 4 (project 1, by title), then task 3 (project 2): three rows
  /// in order before one that is not. They come once each, in rowid order.
  @Test(arguments: BackendKind.allCases)
  func rowsHandedOutBeforeOneOutOfOrderAreTakenBack(_ kind: BackendKind) throws {
    let db = try Self.database(kind, numbering: [(1, "A"), (1, "B"), (2, "C"), (1, "D")])
    try Self.expectProjectsThenTasksByTitle(db, Self.tasksOfBothProjects.select { task, _ in task.id })
    let rows = try db.fetchAll(Self.tasksOfBothProjects.select { task, project in (task.id, project.name) })
    #expect(rows.map { "\($0.0)@\($0.1)" } == ["1@Home", "2@Home", "3@Work", "4@Home"])
    #expect(try db.fetchAll(Self.tasksOfBothProjects).map(\.0.id) == [1, 2, 3, 4])
  }

  /// Projects first: a project has many tasks, so both rowids order the rows. SQLite finds
  /// project 1's tasks by title — 1 (A), 4 (B), 2 (D) — then project 2's task 3: the third row
  /// comes out of order, and the rows come sorted by project, then task.
  @Test(arguments: BackendKind.allCases)
  func rowsOrderedByTwoRowidsAreTakenBackToo(_ kind: BackendKind) throws {
    let db = try Self.database(kind, numbering: [(1, "A"), (1, "D"), (2, "C"), (1, "B")])
    let tasks = Project.join(ProjectTask.self) { $0.id == $1.projectID }.where { project, _ in project.id.in([1, 2]) }
    try Self.expectProjectsThenTasksByTitle(db, tasks.select { _, task in task.id })
    let rows = try db.fetchAll(tasks.select { project, task in (project.name, task.id) })
    #expect(rows.map { "\($0.1)@\($0.0)" } == ["1@Home", "2@Home", "4@Home", "3@Work"])
  }

  /// Task 3's title cannot be decoded, nor can task 1's. SQLite finds task 2, then task 3 (the
  /// first failure it meets), then task 1: in rowid order task 1 comes first, and the fetch
  /// fails on it, result row 0.
  @Test(arguments: BackendKind.allCases)
  func aDecodingFailureIsTheFirstInRowidOrder(_ kind: BackendKind) throws {
    let db = try Self.database(
      kind,
      tasks: [ProjectTask(id: 2, projectID: 1, title: "B")])
    for (id, project): (Int64, Int64) in [(1, 2), (3, 1)] {
      try db.execute(
        sql: #"INSERT INTO "projectTasks" ("id", "projectID", "title") VALUES (?, ?, ?)"#,
        arguments: [.integer(id), .integer(project), .blob(Data([0xFF]))])
    }
    let titles = Self.tasksOfBothProjects.select { task, _ in task.title }
    let error = try #require(throws: TandemError.self) { try db.fetchAll(titles) }
    #expect(error.kind == .decodingFailure)
    #expect(error.rowIndex == 0)
  }
}
