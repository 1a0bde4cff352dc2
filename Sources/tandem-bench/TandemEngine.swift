import Tandem

/// Tandem's public API on one of its engines: `Database(.sqlite(path:))` or `Database(.memory)`.
final class TandemEngine: BenchEngine {
  let label: String
  /// The storage of W1–W4's database.
  private let storage: Database.Storage
  /// The storage of each of W5's fresh databases.
  private let suiteStorage: Database.Storage
  private var database: Database?

  init(label: String, storage: Database.Storage, suiteStorage: Database.Storage) {
    self.label = label
    self.storage = storage
    self.suiteStorage = suiteStorage
  }

  private func open() throws -> Database {
    guard let database else { throw BenchError("\(label): no database is open") }
    return database
  }

  func reset() throws {
    close()
    let database = try Database(storage)
    try database.create(Row10.self)
    self.database = database
  }

  /// The batch API: `db.insert([Row10])`, all or none.
  func insertInOneTransaction(_ rows: [Row10]) throws {
    try open().insert(rows)
  }

  /// `db.insert(row)` per row inside `db.transaction { }`.
  func insertEachInOneTransaction(_ rows: [Row10]) throws {
    try open().transaction { db in
      for row in rows { try db.insert(row) }
    }
  }

  func contentChecksum() throws -> Checksum {
    try fetchAll()
  }

  func fetchAll() throws -> Checksum {
    let rows = try open().fetchAll(Row10.all)
    var checksum = Checksum()
    checksum.mix(rows)
    return checksum
  }

  func lookUp(_ keys: [Int]) throws -> Checksum {
    let db = try open()
    var checksum = Checksum()
    for key in keys {
      guard let row = try db.find(Row10.self, key: key) else { throw BenchError("\(label): no row with id \(key)") }
      checksum.mix(row)
    }
    return checksum
  }

  /// `db.fetchOne(query, parameters: ["id": key])` with one query built once.
  func lookUpWithParameter(_ keys: [Int]) throws -> Checksum {
    let db = try open()
    let query = Row10.where { $0.id == Parameter<Int>("id") }
    var checksum = Checksum()
    for key in keys {
      guard let row = try db.fetchOne(query, parameters: ["id": .integer(Int64(key))]) else {
        throw BenchError("\(label): no row with id \(key)")
      }
      checksum.mix(row)
    }
    return checksum
  }

  func scan(c3Above: Int, c5Below: Int) throws -> Checksum {
    let rows = try open().fetchAll(Row10.where { $0.c3 > c3Above && $0.c5 < c5Below })
    var checksum = Checksum()
    checksum.mix(rows)
    return checksum
  }

  func fillJoinTables(lists: [BenchList], reminders: [BenchReminder]) throws {
    close()
    let database = try Database(storage)
    self.database = database
    try database.create(BenchList.self)
    try database.create(BenchReminder.self)
    try database.insert(lists)
    try database.insert(reminders)
  }

  /// The typed join, built for each name.
  func joinRemindersOfLists(named names: [String]) throws -> Checksum {
    let db = try open()
    var checksum = Checksum()
    for name in names {
      let pairs = try db.fetchAll(
        BenchReminder.join(BenchList.self) { $0.listID == $1.id }
          .where { _, list in list.name == name }
          .select { reminder, list in (reminder.title, list.name) })
      checksum.mix(pairs.count)
      for (title, list) in pairs {
        checksum.mix(title)
        checksum.mix(list)
      }
    }
    return checksum
  }
  /// `db.fetchAll(query, parameters: ["name": …])` with one join built once.
  func joinRemindersOfListsWithParameter(named names: [String]) throws -> Checksum {
    let db = try open()
    let query = BenchReminder.join(BenchList.self) { $0.listID == $1.id }
      .where { _, list in list.name == Parameter<String>("name") }
      .select { reminder, list in (reminder.title, list.name) }
    var checksum = Checksum()
    for name in names {
      let pairs = try db.fetchAll(query, parameters: ["name": .text(name)])
      checksum.mix(pairs.count)
      for (title, list) in pairs {
        checksum.mix(title)
        checksum.mix(list)
      }
    }
    return checksum
  }


  func listsWithOverdueReminder(today: Int) throws -> Checksum {
    let lists = try open().fetchAll(
      BenchList.where { list in
        BenchReminder.where { $0.listID == list.id && !$0.isCompleted && $0.dueDay < today }.exists()
      })
    var checksum = Checksum()
    checksum.mix(lists.count)
    for list in lists { checksum.mix(list) }
    return checksum
  }

  func runUnitTestSuites(count: Int, fixture: UnitTestFixture) throws -> Checksum {
    var checksum = Checksum()
    for _ in 0..<count {
      if case .sqlite(let path) = suiteStorage { TemporaryFiles.removeDatabase(at: path) }
      checksum.mix(try TandemUnitTestSuite(storage: suiteStorage).run(fixture))
    }
    if case .sqlite(let path) = suiteStorage { TemporaryFiles.removeDatabase(at: path) }
    return checksum
  }

  var suiteUsesFiles: Bool {
    if case .sqlite = suiteStorage { return true }
    return false
  }

  func close() {
    database = nil
    if case .sqlite(let path) = storage { TemporaryFiles.removeDatabase(at: path) }
  }
}
