/// One of the four things measured: raw C on a file, raw C on `:memory:`, Tandem's SQLite
/// backend, Tandem's memory backend. Methods named after a workload are the timed part; the
/// others are untimed setup and verification.
protocol BenchEngine: AnyObject {
  /// The column heading in the report.
  var label: String { get }
  /// Replaces the current database with a fresh one holding an empty `Row10` table.
  func reset() throws
  /// W1: inserts `rows` in one transaction, the way this engine does it best.
  func insertInOneTransaction(_ rows: [Row10]) throws
  /// W1b: inserts `rows` one statement per row, inside one transaction.
  func insertEachInOneTransaction(_ rows: [Row10]) throws
  /// The checksum of every row of the table, in primary-key order (verifies W1).
  func contentChecksum() throws -> Checksum
  /// W2: fetches every row into `Row10` values.
  func fetchAll() throws -> Checksum
  /// W3: looks up each key by primary key.
  func lookUp(_ keys: [Int]) throws -> Checksum
  /// W3p: looks up each key with one query whose key is a named parameter.
  func lookUpWithParameter(_ keys: [Int]) throws -> Checksum
  /// W4: fetches the rows with `c3 > c3Above AND c5 < c5Below`.
  func scan(c3Above: Int, c5Below: Int) throws -> Checksum
  /// W5: `count` times, opens a fresh database, creates 3 tables, inserts the fixture's 50 rows
  /// and runs 10 queries.
  func runUnitTestSuites(count: Int, fixture: UnitTestFixture) throws -> Checksum
  /// Replaces the current database with a fresh one holding `bench_lists` and `bench_reminders`
  /// (indexed on `listID`), filled with `lists` and `reminders`, for W6–W7.
  func fillJoinTables(lists: [BenchList], reminders: [BenchReminder]) throws
  /// W6: for each name, one query joining the reminders to their list, keeping the list of that
  /// name, and fetching each (reminder title, list name) pair, in reminder id order.
  func joinRemindersOfLists(named names: [String]) throws -> Checksum
  /// W6p: W6 with one query whose list name is a named parameter.
  func joinRemindersOfListsWithParameter(named names: [String]) throws -> Checksum
  /// W7: the lists that have a reminder not completed and due before `today` (a correlated
  /// EXISTS), in id order.
  func listsWithOverdueReminder(today: Int) throws -> Checksum
  /// Whether W5's databases are files (each then costs several fsyncs, so W5 is run once).
  var suiteUsesFiles: Bool { get }
  /// Releases the database and deletes its files.
  func close()
}
