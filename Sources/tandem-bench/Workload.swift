/// The workloads, after GRDB's performance suite.
enum Workload: String, CaseIterable {
  case insert = "W1"
  case insertEach = "W1b"
  case fetch = "W2"
  case lookup = "W3"
  case lookupPrepared = "W3p"
  case scan = "W4"
  case unitTests = "W5"
  case join = "W6"
  case joinPrepared = "W6p"
  case exists = "W7"

  /// Whether the workload reads the populated `Row10` table.
  var readsPopulatedTable: Bool { self == .fetch || self == .lookup || self == .lookupPrepared || self == .scan }

  /// Whether the workload reads the populated `bench_reminders` and `bench_lists` tables.
  var readsJoinTables: Bool { self == .join || self == .joinPrepared || self == .exists }

  /// A one-line description with the sizes in use.
  func title(_ sizes: WorkloadSizes) -> String {
    switch self {
    case .insert: "insert \(sizes.insertedRows.formatted) rows, 1 transaction"
    case .insertEach: "same, one insert call per row"
    case .fetch: "fetch \(sizes.tableRows.formatted) rows into structs"
    case .lookup: "\(sizes.lookups.formatted) primary-key lookups"
    case .lookupPrepared: "same, one query with a named parameter"
    case .scan: "filtered scan of \(sizes.tableRows.formatted) rows"
    case .unitTests: "\(sizes.databases.formatted) fresh DBs: 3 tables, 50 rows, 10 queries"
    case .join: "\(sizes.joinQueries.formatted) joins of one list's reminders"
    case .joinPrepared: "same, one query with a named parameter"
    case .exists: "lists with an overdue reminder (EXISTS)"
    }
  }
}

/// How big each workload is.
struct WorkloadSizes {
  /// W1: rows inserted.
  var insertedRows: Int
  /// W2–W4: rows in the table read.
  var tableRows: Int
  /// W3: lookups.
  var lookups: Int
  /// W5: databases.
  var databases: Int
  /// W6–W7: rows in `bench_reminders`.
  var reminders: Int
  /// W6–W7: rows in `bench_lists` (each holds about `reminders / lists` reminders).
  var lists: Int
  /// W6: queries, each for one list.
  var joinQueries: Int

  /// The sizes Docs/Performance.md specifies.
  static let full = WorkloadSizes(
    insertedRows: 20_000, tableRows: 200_000, lookups: 100_000, databases: 1_000, reminders: 100_000, lists: 1_000,
    joinQueries: 100)
  /// A tenth of them, for a smoke test.
  static let quick = WorkloadSizes(
    insertedRows: 2_000, tableRows: 20_000, lookups: 10_000, databases: 100, reminders: 10_000, lists: 100,
    joinQueries: 10)
}
