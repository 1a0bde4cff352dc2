// tandem-bench: Tandem's performance suite (see Docs/Performance.md).
//
//   swift run -c release --scratch-path .build-bench tandem-bench            # full sizes, best of 5
//   swift run -c release --scratch-path .build-bench tandem-bench --quick    # smoke test
//   swift run -c release --scratch-path .build-bench tandem-bench --workload W2
import CSQLite
import Foundation
import Tandem

func runBenchmarks() -> Int32 {
  let arguments = Array(CommandLine.arguments.dropFirst())
  if arguments.first == "--footprint-child" { return Footprint.runChild(arguments: Array(arguments.dropFirst())) }
  if arguments.first == "--footprint" {
    let rows = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 1_000_000
    guard rows > 0 else {
      print("usage: tandem-bench --footprint [ROWS]")
      return 2
    }
    return Footprint.runAll(rows: rows)
  }
  let options: BenchOptions
  do {
    options = try BenchOptions(arguments: arguments)
  } catch {
    print(error)
    return 2
  }
  if options.showsHelp {
    print(BenchOptions.usage)
    return 0
  }
  let files: TemporaryFiles
  do {
    files = try TemporaryFiles()
  } catch {
    print("cannot create a temporary directory: \(error)")
    return 1
  }
  defer { files.removeAll() }

  let engines: [any BenchEngine] = [
    RawSQLiteEngine(label: "(a) raw file", path: files.path("raw.sqlite"), suitePath: files.path("raw-suite.sqlite")),
    RawSQLiteEngine(label: "(b) raw mem", path: nil, suitePath: nil),
    TandemEngine(
      label: "(c) SQLite", storage: .sqlite(path: files.path("tandem.sqlite")), suiteStorage: .sqliteInMemory),
    TandemEngine(label: "(d) memory", storage: .memory, suiteStorage: .memory),
  ]
  let sizes = options.isQuick ? "quick sizes" : "full sizes"
  let header = """
    Tandem benchmarks — \(ISO8601DateFormatter().string(from: Date())), SQLite \(String(cString: sqlite3_libversion())), \
    \(ProcessInfo.processInfo.activeProcessorCount) cores, \(sizes), best of \(options.runs) interleaved runs
    """
  FileHandle.standardError.write(Data("\(header)\n".utf8))
  let outcomes = BenchRunner(options: options, engines: engines).run()
  let report = Report(options: options, labels: engines.map(\.label), outcomes: outcomes)
  report.print(header: header)
  return report.isConsistent ? 0 : 1
}

exit(runBenchmarks())
