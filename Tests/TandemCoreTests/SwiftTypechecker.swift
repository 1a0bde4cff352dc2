import Foundation

/// Type-checks Swift snippets against the TandemCore module this test run was built with, so
/// that "this does not compile" is a test and not a claim.
///
/// All snippets go to one `swiftc -typecheck` invocation (each one costs seconds), one file per
/// snippet, and the diagnostics come back grouped by snippet.
///
/// ```swift
/// let checker = try SwiftTypechecker.current()
/// let result = try checker.typecheck(prelude: "import TandemCore", snippets: ["bad": "let x: Int = \"\""])
/// result.errors["bad"]   // ["cannot convert value of type 'String' to specified type 'Int'"]
/// ```
struct SwiftTypechecker {
  /// The compiler.
  let swiftc: URL
  /// The directory holding `TandemCore.swiftmodule`.
  let modules: URL

  /// Diagnostics of one invocation, by snippet name (the prelude is `"prelude"`).
  struct Result {
    var errors: [String: [String]] = [:]
    var warnings: [String: [String]] = [:]
    /// Everything the compiler printed, for failure messages.
    var output = ""
  }

  /// Why no checker can run here, when that is so: no `swiftc` on this machine.
  static let unavailableReason: String? = findSwiftc() == nil ? "no swiftc found in PATH or next to the toolchain" : nil

  /// The checker for this test run: the first `swiftc` on `PATH` (or `SWIFT_EXEC`), and the
  /// modules directory next to the test binary.
  static func current() throws -> SwiftTypechecker {
    guard let swiftc = findSwiftc() else { throw TypecheckerError(message: unavailableReason ?? "no swiftc") }
    guard let modules = findModules() else {
      throw TypecheckerError(message: "no TandemCore.swiftmodule above \(CommandLine.arguments.first ?? "the test binary")")
    }
    return SwiftTypechecker(swiftc: swiftc, modules: modules)
  }

  /// Type-checks `prelude` together with every snippet, each in a file of its own.
  func typecheck(prelude: String, snippets: [String: String]) throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-typecheck-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    var files: [String: String] = ["prelude.swift": "prelude"]
    try prelude.write(to: directory.appendingPathComponent("prelude.swift"), atomically: true, encoding: .utf8)
    for (name, source) in snippets {
      let file = "snippet_\(name).swift"
      files[file] = name
      try source.write(to: directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
    }

    let process = Process()
    process.executableURL = swiftc
    process.currentDirectoryURL = directory
    process.arguments =
      ["-typecheck", "-continue-building-after-errors", "-parse-as-library", "-swift-version", "6", "-I", modules.path, "-module-name", "Snippets"]
      + files.keys.sorted().map { directory.appendingPathComponent($0).path }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()

    var result = Result(output: String(decoding: data, as: UTF8.self))
    // `/tmp/…/snippet_name.swift:12:7: error: message`
    for line in result.output.split(separator: "\n") {
      guard let fileEnd = line.range(of: ".swift:") else { continue }
      let file = String(line[..<fileEnd.lowerBound].split(separator: "/").last ?? "") + ".swift"
      guard let name = files[file] else { continue }
      let rest = line[fileEnd.upperBound...]
      if let range = rest.range(of: ": error: ") {
        result.errors[name, default: []].append(String(rest[range.upperBound...]))
      } else if let range = rest.range(of: ": warning: ") {
        result.warnings[name, default: []].append(String(rest[range.upperBound...]))
      }
    }
    return result
  }

  private static func findSwiftc() -> URL? {
    let environment = ProcessInfo.processInfo.environment
    if let exec = environment["SWIFT_EXEC"], FileManager.default.isExecutableFile(atPath: exec) {
      return URL(fileURLWithPath: exec)
    }
    let path = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
    for directory in path {
      let candidate = URL(fileURLWithPath: directory).appendingPathComponent("swiftc")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  /// The first directory above the test binary that holds `TandemCore.swiftmodule`, directly or
  /// in `Modules/` (SwiftPM's layout).
  private static func findModules() -> URL? {
    var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    for _ in 0..<6 {
      directory = directory.deletingLastPathComponent()
      for candidate in [directory.appendingPathComponent("Modules"), directory] {
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("TandemCore.swiftmodule").path) {
          return candidate
        }
      }
    }
    return nil
  }
}

struct TypecheckerError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
