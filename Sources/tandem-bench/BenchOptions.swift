/// The command line: `tandem-bench [--quick] [--workload W2[,W3…]] [--engine c,d] [--runs N]`.
struct BenchOptions {
  var sizes = WorkloadSizes.full
  var workloads: [Workload] = Workload.allCases
  /// Each measurement is the best of this many runs.
  var runs = 5
  var isQuick = false
  /// `--help`: print the usage and run nothing.
  var showsHelp = false
  /// Which engines run: indexes into (a) raw file, (b) raw memory, (c) Tandem SQLite, (d) memory.
  var engines: Set<Int> = [0, 1, 2, 3]

  static let usage = """
    usage: tandem-bench [--quick] [--workload W1|W1b|W2|W3|W3p|W4|W5|W6|W6p|W7[,…]] [--engine a|b|c|d[,…]] [--runs N]
      --quick       a tenth of the sizes, 2 runs each (a smoke test)
      --workload    run only these workloads (repeatable or comma-separated)
      --engine      run only these engines: a raw C file, b raw C :memory:, c Tandem SQLite,
                    d Tandem memory (for profiling one of them)
      --runs N      best of N timed runs, after one untimed warm-up (default 5)
    """

  /// Parses the arguments after the program name.
  init(arguments: [String]) throws {
    var chosen: [Workload] = []
    var runsGiven: Int?
    var chosenEngines: Set<Int> = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick":
        isQuick = true
        sizes = .quick
      case "--workload", "-w":
        guard let list = remaining.popFirst() else { throw BenchError("--workload needs a value\n\(Self.usage)") }
        for name in list.split(separator: ",") {
          guard let workload = Workload.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            throw BenchError("unknown workload \(name)\n\(Self.usage)")
          }
          chosen.append(workload)
        }
      case "--engine", "-e":
        guard let list = remaining.popFirst() else { throw BenchError("--engine needs a value\n\(Self.usage)") }
        for name in list.split(separator: ",") {
          guard let index = ["a", "b", "c", "d"].firstIndex(of: name.lowercased()) else {
            throw BenchError("unknown engine \(name)\n\(Self.usage)")
          }
          chosenEngines.insert(index)
        }
      case "--runs":
        guard let text = remaining.popFirst(), let runs = Int(text), runs > 0 else {
          throw BenchError("--runs needs a positive number\n\(Self.usage)")
        }
        runsGiven = runs
      case "--help", "-h":
        showsHelp = true
      default:
        throw BenchError("unknown argument \(argument)\n\(Self.usage)")
      }
    }
    if !chosenEngines.isEmpty { engines = chosenEngines }
    if !chosen.isEmpty { workloads = Workload.allCases.filter(chosen.contains) }
    runs = runsGiven ?? (isQuick ? 2 : 5)
  }
}
