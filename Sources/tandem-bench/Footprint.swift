import CSQLite
import Foundation
import Tandem

/// `tandem-bench --footprint`: the memory a table of small rows takes on each engine, as the peak
/// resident set of a fresh process above what it had before the rows were inserted.
///
/// Each measurement runs in its own child process (`--footprint-child`), so that one engine's
/// freed memory cannot hide another's. The rows go in by batches of 10,000 (one transaction
/// each), as an app imports data, and then all in one transaction, which a rollback journal must
/// be able to undo.
enum Footprint {
  /// The row shapes measured.
  enum Shape: String, CaseIterable {
    /// `(id INTEGER PRIMARY KEY, n INTEGER, flag INTEGER)`, small values.
    case small
    /// `(id INTEGER PRIMARY KEY, name TEXT, score REAL)`, names of 8–12 characters.
    case text
    /// W1's row: `id` and nine INTEGER columns, values up to 1,000,000.
    case row10

    var title: String {
      switch self {
      case .small: "(id, n INTEGER, flag INTEGER)"
      case .text: "(id, name TEXT 8–12 chars, score REAL)"
      case .row10: "(id, c1 … c9 INTEGER)"
      }
    }
  }

  /// The engines measured: raw C `:memory:`, `.sqliteInMemory` and `.memory`.
  static let engines = ["b", "c", "d"]

  /// Runs every shape on every engine in child processes and prints a table.
  static func runAll(rows: Int) -> Int32 {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0])
    print("Peak RSS above the empty table, \(rows.formatted) rows (bytes per row in parentheses)")
    print("shape".padding(toLength: 46, withPad: " ", startingAt: 0) + "  (b) raw C :memory:   (c) .sqliteInMemory   (d) .memory   d/c")
    for batch in [10_000, rows] {
      print(batch == rows ? "one transaction" : "transactions of \(batch.formatted) rows")
      if let failure = runShapes(rows: rows, batch: batch, executable: executable) { return failure }
    }
    return 0
  }

  private static func runShapes(rows: Int, batch: Int, executable: URL) -> Int32? {
    for shape in Shape.allCases {
      var bytes: [Int] = []
      for engine in engines {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--footprint-child", shape.rawValue, engine, String(rows), String(batch)]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
          try process.run()
        } catch {
          print("cannot start \(executable.path): \(error)")
          return 1
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
          let value = Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
          print("\(shape.rawValue) on \(engine) failed: \(String(decoding: output, as: UTF8.self))")
          return 1
        }
        bytes.append(value)
      }
      func cell(_ value: Int) -> String {
        "\(String(format: "%.1f", Double(value) / 1_048_576)) MB (\(value / rows))"
      }
      let ratio = bytes[1] > 0 ? String(format: "%.2f", Double(bytes[2]) / Double(bytes[1])) : "-"
      print(
        ("  " + shape.title).padding(toLength: 46, withPad: " ", startingAt: 0) + "  "
          + cell(bytes[0]).padding(toLength: 20, withPad: " ", startingAt: 0) + " "
          + cell(bytes[1]).padding(toLength: 21, withPad: " ", startingAt: 0) + " "
          + cell(bytes[2]).padding(toLength: 13, withPad: " ", startingAt: 0) + " " + ratio)
    }
    return nil
  }

  /// The child: fills one table and prints the peak RSS growth in bytes.
  static func runChild(arguments: [String]) -> Int32 {
    guard arguments.count == 4, let shape = Shape(rawValue: arguments[0]), engines.contains(arguments[1]),
      let rows = Int(arguments[2]), rows > 0, let batch = Int(arguments[3]), batch > 0
    else {
      print("usage: tandem-bench --footprint-child small|text|row10 b|c|d ROWS BATCH")
      return 2
    }
    do {
      let grown: Int
      switch arguments[1] {
      case "b": grown = try fillRaw(shape, rows: rows, batch: batch)
      case "c": grown = try fillTandem(shape, rows: rows, batch: batch, storage: .sqliteInMemory)
      default: grown = try fillTandem(shape, rows: rows, batch: batch, storage: .memory)
      }
      print(grown)
      return 0
    } catch {
      print("\(error)")
      return 1
    }
  }

  /// The process's peak resident set so far, in bytes.
  static func peakResidentBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return usage.ru_maxrss * 1024
    #else
      getrusage(RUSAGE_SELF, &usage)
      return usage.ru_maxrss
    #endif
  }

  private static func name(_ row: Int) -> String {
    "name-" + String(row * 7919 % 1_000_003, radix: 36)
  }

  private static func fillTandem(_ shape: Shape, rows: Int, batch: Int, storage: Database.Storage) throws -> Int {
    let db = try Database(storage)
    switch shape {
    case .small: try db.create(SmallRow.self)
    case .text: try db.create(TextRow.self)
    case .row10: try db.create(Row10.self)
    }
    // Rows go in 10,000 at a time (one array each); `batch` rows share a transaction.
    func insert(_ rows: ClosedRange<Int>, into db: some DatabaseWriter) throws {
      var start = rows.lowerBound
      while start <= rows.upperBound {
        let end = min(rows.upperBound, start + 9_999)
        switch shape {
        case .small:
          try db.insert((start...end).map { SmallRow(id: $0, n: $0 % 1000, flag: $0 % 2) })
        case .text:
          try db.insert((start...end).map { TextRow(id: $0, name: name($0), score: Double($0 % 500) / 8) })
        case .row10:
          try db.insert(
            (start...end).map {
              Row10(
                id: $0, c1: $0 % 1_000_000, c2: $0 * 3 % 1_000_000, c3: $0 % 1000, c4: $0 % 100, c5: $0 % 10_000,
                c6: $0 * 7 % 1_000_000, c7: $0 % 17, c8: $0 % 65_536, c9: $0 * 11 % 1_000_000)
            })
        }
        start = end + 1
      }
    }
    let before = peakResidentBytes()
    var start = 1
    while start <= rows {
      let end = min(rows, start + batch - 1)
      try db.transaction { connection in try insert(start...end, into: connection) }
      start = end + 1
    }
    let after = peakResidentBytes()
    withExtendedLifetime(db) {}
    return after - before
  }

  private static func fillRaw(_ shape: Shape, rows: Int, batch: Int) throws -> Int {
    let connection = try RawConnection(path: ":memory:")
    let columns: [String]
    switch shape {
    case .small:
      try connection.execute("CREATE TABLE small_rows (id INTEGER PRIMARY KEY NOT NULL, n INTEGER NOT NULL, flag INTEGER NOT NULL)")
      columns = ["id", "n", "flag"]
    case .text:
      try connection.execute("CREATE TABLE text_rows (id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, score REAL NOT NULL)")
      columns = ["id", "name", "score"]
    case .row10:
      let others = (1...9).map { "c\($0) INTEGER NOT NULL" }.joined(separator: ", ")
      try connection.execute("CREATE TABLE bench_rows (id INTEGER PRIMARY KEY NOT NULL, \(others))")
      columns = ["id"] + (1...9).map { "c\($0)" }
    }
    let table = shape == .small ? "small_rows" : shape == .text ? "text_rows" : "bench_rows"
    let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    let statement = try connection.prepare("INSERT INTO \(table) VALUES (\(placeholders))")
    let before = peakResidentBytes()
    var start = 1
    while start <= rows {
      let end = min(rows, start + batch - 1)
      try connection.execute("BEGIN")
      for id in start...end {
        switch shape {
        case .small:
          statement.bind(id, at: 1)
          statement.bind(id % 1000, at: 2)
          statement.bind(id % 2, at: 3)
        case .text:
          statement.bind(id, at: 1)
          statement.bind(name(id), at: 2)
          statement.bind(Double(id % 500) / 8, at: 3)
        case .row10:
          let values = [
            id, id % 1_000_000, id * 3 % 1_000_000, id % 1000, id % 100, id % 10_000, id * 7 % 1_000_000, id % 17,
            id % 65_536, id * 11 % 1_000_000,
          ]
          for (index, value) in values.enumerated() { statement.bind(value, at: Int32(index + 1)) }
        }
        try statement.runToCompletion()
      }
      try connection.execute("COMMIT")
      start = end + 1
    }
    return peakResidentBytes() - before
  }
}

/// The footprint's smallest row.
@Table("small_rows")
struct SmallRow {
  let id: Int
  var n: Int
  var flag: Int
}

/// The footprint's row with text and a REAL.
@Table("text_rows")
struct TextRow {
  let id: Int
  var name: String
  var score: Double
}
