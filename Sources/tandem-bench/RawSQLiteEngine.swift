import CSQLite

/// The baseline: SQLite's C API called the way a C programmer would — one prepared statement per
/// query, reused with bind/step/reset, integers read with `sqlite3_column_int64`.
final class RawSQLiteEngine: BenchEngine {
  let label: String
  /// The database file, or `nil` for `:memory:`.
  private let path: String?
  /// W5's database file (one at a time), or `nil` for `:memory:`.
  private let suitePath: String?
  private var connection: RawConnection?

  static let createTable =
    "CREATE TABLE \"bench_rows\" (\"id\" INTEGER PRIMARY KEY, \"c1\" INTEGER NOT NULL, \"c2\" INTEGER NOT NULL, "
    + "\"c3\" INTEGER NOT NULL, \"c4\" INTEGER NOT NULL, \"c5\" INTEGER NOT NULL, \"c6\" INTEGER NOT NULL, "
    + "\"c7\" INTEGER NOT NULL, \"c8\" INTEGER NOT NULL, \"c9\" INTEGER NOT NULL)"
  static let allColumns = "\"id\", \"c1\", \"c2\", \"c3\", \"c4\", \"c5\", \"c6\", \"c7\", \"c8\", \"c9\""

  static let createLists = "CREATE TABLE \"bench_lists\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL)"
  static let createReminders =
    "CREATE TABLE \"bench_reminders\" (\"id\" INTEGER PRIMARY KEY, "
    + "\"listID\" INTEGER NOT NULL REFERENCES \"bench_lists\" (\"id\"), \"title\" TEXT NOT NULL, "
    + "\"dueDay\" INTEGER, \"isCompleted\" INTEGER NOT NULL)"
  static let createRemindersIndex =
    "CREATE INDEX \"bench_reminders_on_listID\" ON \"bench_reminders\" (\"listID\")"

  /// Raw C calls on the file at `path`, or on `:memory:` when `path` is `nil`.
  init(label: String, path: String?, suitePath: String?) {
    self.label = label
    self.path = path
    self.suitePath = suitePath
  }

  private func open() throws -> RawConnection {
    guard let connection else { throw BenchError("\(label): no database is open") }
    return connection
  }

  func reset() throws {
    close()
    let connection = try RawConnection(path: path ?? ":memory:")
    try connection.execute(Self.createTable)
    self.connection = connection
  }

  func insertInOneTransaction(_ rows: [Row10]) throws {
    let connection = try open()
    try connection.execute("BEGIN")
    let insert = try connection.prepare(
      "INSERT INTO \"bench_rows\" (\(Self.allColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    for row in rows {
      insert.bind(row.id, at: 1)
      insert.bind(row.c1, at: 2)
      insert.bind(row.c2, at: 3)
      insert.bind(row.c3, at: 4)
      insert.bind(row.c4, at: 5)
      insert.bind(row.c5, at: 6)
      insert.bind(row.c6, at: 7)
      insert.bind(row.c7, at: 8)
      insert.bind(row.c8, at: 9)
      insert.bind(row.c9, at: 10)
      try insert.runToCompletion()
    }
    try connection.execute("COMMIT")
  }

  /// The C way has only one way: W1b is W1.
  func insertEachInOneTransaction(_ rows: [Row10]) throws {
    try insertInOneTransaction(rows)
  }

  func contentChecksum() throws -> Checksum {
    try fetchAll()
  }

  func fetchAll() throws -> Checksum {
    let select = try open().prepare("SELECT \(Self.allColumns) FROM \"bench_rows\" ORDER BY \"id\"")
    var rows: [Row10] = []
    while try select.step() { rows.append(select.row10()) }
    var checksum = Checksum()
    checksum.mix(rows)
    return checksum
  }

  func lookUp(_ keys: [Int]) throws -> Checksum {
    let select = try open().prepare("SELECT \(Self.allColumns) FROM \"bench_rows\" WHERE \"id\" = ?")
    var checksum = Checksum()
    for key in keys {
      select.bind(key, at: 1)
      guard try select.step() else { throw BenchError("\(label): no row with id \(key)") }
      checksum.mix(select.row10())
      sqlite3_reset(select.handle)
    }
    return checksum
  }

  /// The C version of W3 already reuses one prepared statement: W3p is W3.
  func lookUpWithParameter(_ keys: [Int]) throws -> Checksum {
    try lookUp(keys)
  }

  func scan(c3Above: Int, c5Below: Int) throws -> Checksum {
    let select = try open().prepare(
      "SELECT \(Self.allColumns) FROM \"bench_rows\" WHERE \"c3\" > ? AND \"c5\" < ? ORDER BY \"id\"")
    select.bind(c3Above, at: 1)
    select.bind(c5Below, at: 2)
    var rows: [Row10] = []
    while try select.step() { rows.append(select.row10()) }
    var checksum = Checksum()
    checksum.mix(rows)
    return checksum
  }

  func fillJoinTables(lists: [BenchList], reminders: [BenchReminder]) throws {
    close()
    let connection = try RawConnection(path: path ?? ":memory:")
    self.connection = connection
    try connection.execute("PRAGMA foreign_keys = ON")
    try connection.execute(Self.createLists)
    try connection.execute(Self.createReminders)
    try connection.execute(Self.createRemindersIndex)
    try connection.execute("BEGIN")
    let insertList = try connection.prepare("INSERT INTO \"bench_lists\" (\"id\", \"name\") VALUES (?, ?)")
    for list in lists {
      insertList.bind(list.id, at: 1)
      insertList.bind(list.name, at: 2)
      try insertList.runToCompletion()
    }
    let insertReminder = try connection.prepare(
      "INSERT INTO \"bench_reminders\" (\"id\", \"listID\", \"title\", \"dueDay\", \"isCompleted\") VALUES (?, ?, ?, ?, ?)")
    for reminder in reminders {
      insertReminder.bind(reminder.id, at: 1)
      insertReminder.bind(reminder.listID, at: 2)
      insertReminder.bind(reminder.title, at: 3)
      insertReminder.bind(reminder.dueDay, at: 4)
      insertReminder.bind(reminder.isCompleted ? 1 : 0, at: 5)
      try insertReminder.runToCompletion()
    }
    try connection.execute("COMMIT")
  }

  /// The join as a C programmer writes it, without an ORDER BY: SQLite scans the lists for the
  /// name and finds each one's reminders through the index on `listID`, so they come in id order.
  func joinRemindersOfLists(named names: [String]) throws -> Checksum {
    let select = try open().prepare(
      "SELECT \"bench_reminders\".\"title\", \"bench_lists\".\"name\" FROM \"bench_reminders\" "
        + "JOIN \"bench_lists\" ON \"bench_reminders\".\"listID\" = \"bench_lists\".\"id\" WHERE \"bench_lists\".\"name\" = ?")
    var checksum = Checksum()
    for name in names {
      select.bind(name, at: 1)
      var pairs: [(String, String)] = []
      while try select.step() { pairs.append((select.text(0), select.text(1))) }
      sqlite3_reset(select.handle)
      checksum.mix(pairs.count)
      for (title, list) in pairs {
        checksum.mix(title)
        checksum.mix(list)
      }
    }
    return checksum
  }

  /// The C version of W6 already reuses one prepared statement: W6p is W6.
  func joinRemindersOfListsWithParameter(named names: [String]) throws -> Checksum {
    try joinRemindersOfLists(named: names)
  }

  func listsWithOverdueReminder(today: Int) throws -> Checksum {
    let select = try open().prepare(
      "SELECT \"id\", \"name\" FROM \"bench_lists\" WHERE EXISTS (SELECT 1 FROM \"bench_reminders\" "
        + "WHERE \"listID\" = \"bench_lists\".\"id\" AND NOT \"isCompleted\" AND \"dueDay\" < ?) ORDER BY \"id\"")
    select.bind(today, at: 1)
    var lists: [BenchList] = []
    while try select.step() { lists.append(BenchList(id: select.int(0), name: select.text(1))) }
    var checksum = Checksum()
    checksum.mix(lists.count)
    for list in lists { checksum.mix(list) }
    return checksum
  }

  func runUnitTestSuites(count: Int, fixture: UnitTestFixture) throws -> Checksum {
    var checksum = Checksum()
    for _ in 0..<count {
      if let suitePath { TemporaryFiles.removeDatabase(at: suitePath) }
      checksum.mix(try RawUnitTestSuite(path: suitePath ?? ":memory:").run(fixture))
    }
    if let suitePath { TemporaryFiles.removeDatabase(at: suitePath) }
    return checksum
  }

  var suiteUsesFiles: Bool { suitePath != nil }

  func close() {
    connection = nil
    if let path { TemporaryFiles.removeDatabase(at: path) }
  }
}
