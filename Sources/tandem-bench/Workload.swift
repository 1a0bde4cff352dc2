/// The workloads, after GRDB's performance suite.
enum Workload: String, CaseIterable {
  case insert = "W1"
  case insertEach = "W1b"
  case fetch = "W2"
  case lookup = "W3"
  case lookupPrepared = "W3p"
  case scan = "W4"
  case unitTests = "W5"

  /// Whether the workload reads the populated `Row10` table.
  var readsPopulatedTable: Bool { self == .fetch || self == .lookup || self == .lookupPrepared || self == .scan }

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

  /// The sizes Docs/Performance.md specifies.
  static let full = WorkloadSizes(insertedRows: 20_000, tableRows: 200_000, lookups: 100_000, databases: 1_000)
  /// A tenth of them, for a smoke test.
  static let quick = WorkloadSizes(insertedRows: 2_000, tableRows: 20_000, lookups: 10_000, databases: 100)
}
