import Foundation
import Tandem

/// The command line of `tandem-slt`.
///
/// ```
/// tandem-slt --engine memory|sqlite|tandem [--verbose] [--failures N] [--unsupported N] FILE|DIR…
/// ```
struct SLTOptions {
  /// Which `Database.Storage` each script runs on.
  var storage: Database.Storage = .memory
  /// The engine's name as given (`memory`, `sqlite`, `tandem`).
  var engineName = "memory"
  /// Whether every failure is printed, not only the counts.
  var verbose = false
  /// How many failures each file keeps for printing: `--failures N`, else all with `--verbose`.
  var failureLimit: Int { explicitFailureLimit ?? (verbose ? Int.max : 0) }
  /// The `--failures N` given, if any.
  private var explicitFailureLimit: Int?
  /// How many unsupported records each file prints (their SQL and construct): `--unsupported N`.
  var unsupportedLimit = 0
  /// The files and folders named.
  var paths: [String] = []

  static let usage = """
    usage: tandem-slt --engine memory|sqlite|tandem [--verbose] [--failures N] [--unsupported N] FILE|DIR…
      Runs sqllogictest scripts (*.test; folders are searched recursively), each on a fresh
      database, and prints per-file and total counts. Exits 1 when any record failed.
      --verbose        print every failure (SQL, expected and actual)
      --failures N     print at most N failures per file
      --unsupported N  print the SQL of at most N unsupported records per file
    """

  /// Reads the arguments (without the program name); `nil` after printing why, on a bad one.
  init?(arguments: [String]) {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--engine":
        guard let name = remaining.popFirst(), let storage = Self.storage(named: name) else {
          Self.fail("--engine needs memory, sqlite or tandem")
          return nil
        }
        self.storage = storage
        engineName = name
      case "--verbose", "-v":
        verbose = true
      case "--failures":
        guard let text = remaining.popFirst(), let limit = Int(text), limit >= 0 else {
          Self.fail("--failures needs a count")
          return nil
        }
        explicitFailureLimit = limit
      case "--unsupported":
        guard let text = remaining.popFirst(), let limit = Int(text), limit >= 0 else {
          Self.fail("--unsupported needs a count")
          return nil
        }
        unsupportedLimit = limit
      case "--help", "-h":
        print(Self.usage)
        return nil
      default:
        if argument.hasPrefix("-") {
          Self.fail("unknown option \(argument)")
          return nil
        }
        paths.append(argument)
      }
    }
    if paths.isEmpty {
      Self.fail("no FILE or DIR given")
      return nil
    }
  }

  private static func storage(named name: String) -> Database.Storage? {
    switch name {
    case "memory": .memory
    case "sqlite": .sqliteInMemory
    case "tandem": .tandem
    default: nil
    }
  }

  private static func fail(_ message: String) {
    FileHandle.standardError.write(Data("tandem-slt: \(message)\n\(usage)\n".utf8))
  }
}
