// tandem-demo: a small reminders app run on both engines. `swift run tandem-demo`
// uses a SQLite file in the temporary directory; pass `--memory` or `--tandem` to pick another
// engine, or `--path FILE` to keep the database.
import Foundation
import Tandem

enum Priority: Int, ColumnType { case low = 1, medium, high }

@Table struct RemindersList {
  let id: Int
  var name: String
}

@Table struct Reminder {
  let id: Int
  var title = ""
  @Column("is_completed") var isCompleted = false
  var dueDate: Date?
  var priority: Priority?
  var listID: Int
}

func run(on storage: Database.Storage) throws {
  let db = try Database(storage)
  print("== \(storage) ==")
  print(Reminder.schema.createTableSQL())
  try db.create(RemindersList.self)
  try db.create(Reminder.self)

  let home = try db.insert(RemindersList.Draft(name: "Home"))
  let work = try db.insert(RemindersList.Draft(name: "Work"))
  let day: TimeInterval = 86_400
  let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
  try db.transaction { db in
    try db.insert(Reminder.Draft(title: "Buy milk", dueDate: now, priority: .high, listID: home.id))
    try db.insert(Reminder.Draft(title: "Call the plumber", priority: .medium, listID: home.id))
    try db.insert(Reminder.Draft(title: "Ship Tandem 1.0", dueDate: now + 7 * day, priority: .high, listID: work.id))
    try db.insert(Reminder.Draft(title: "Expense report", isCompleted: true, dueDate: now - day, listID: work.id))
  }

  let open = try db.fetchAll(Reminder.where { !$0.isCompleted }.order { $0.dueDate.desc(nulls: .last) })
  print("Open reminders, latest due first:")
  for reminder in open {
    print("  #\(reminder.id) \(reminder.title) due \(reminder.dueDate.map { "\($0)" } ?? "—")")
  }

  let urgent = try db.fetchCount(Reminder.where { $0.priority == .high && !$0.isCompleted })
  print("Urgent: \(urgent)")

  let perList = try db.fetchAll(Reminder.group { $0.listID }.select { ($0.listID, TypedExpression.countAll) })
  for (listID, count) in perList { print("List \(listID): \(count) reminder(s)") }

  try db.update(Reminder.where { $0.title.like("%milk%") }) { $0.set(\.isCompleted, to: true) }
  let failed: Void? = try? db.transaction { db in
    try db.delete(Reminder.all)
    throw CancellationError()  // rolled back: nothing is deleted
  }
  print("Rolled back: \(failed == nil), reminders left: \(try db.fetchCount(Reminder.all))")

  do {
    try db.insert(RemindersList(id: home.id, name: "Duplicate"))
  } catch let error as TandemError {
    print("Duplicate key rejected: \(error.kind), \(error.constraint.map { "\($0)" } ?? "-") on \(error.table ?? "?")")
  }
  print()
}

var arguments = CommandLine.arguments.dropFirst()
var storage: Database.Storage = .sqlite(
  path: FileManager.default.temporaryDirectory.appendingPathComponent("tandem-demo-\(UUID().uuidString).sqlite").path)
while let argument = arguments.popFirst() {
  switch argument {
  case "--memory": storage = .memory
  case "--tandem": storage = .tandem
  case "--path": if let path = arguments.popFirst() { storage = .sqlite(path: path) }
  default:
    print("usage: tandem-demo [--memory | --tandem | --path FILE]")
    exit(2)
  }
}

do {
  try run(on: storage)
  if case .sqlite = storage { try run(on: .memory) }
} catch {
  print("error: \(error)")
  exit(1)
}
