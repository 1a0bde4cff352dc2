import Foundation
import Testing

/// A second process running this test bundle's `ConcurrentWriterTests/writerProcess()` test on
/// a database file, to write it at the same time as the test process.
///
/// The bundle is launched again as `swift test` launched it, with only that test selected and the
/// file's path in ``databaseVariable``. The two processes start writing together: the other one
/// creates `<database>.ready` and waits for the test process to create `<database>.go`.
///
/// ```swift
/// let writer = try WriterProcess(database: path)
/// try writer.waitUntilReady()
/// try writer.go()
/// // … write from this process …
/// let (status, output) = try writer.waitForExit()
/// ```
final class WriterProcess {
  /// The environment variable holding the database path; the writer test does nothing without it.
  static let databaseVariable = "TANDEM_CONCURRENT_WRITER_DATABASE"
  /// How long either side waits for the other to start.
  static let startTimeout: TimeInterval = 60

  private let process = Process()
  private let database: String
  private let outputPath: String

  /// Launches the other process on `database`.
  init(database: String) throws {
    self.database = database
    outputPath = database + ".writer-output"
    let (executable, arguments) = try Self.relaunchCommand(filter: "ConcurrentWriterTests/writerProcess")
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment[Self.databaseVariable] = database
    process.environment = environment
    guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
      throw Failure("cannot create \(outputPath)")
    }
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardOutput = output
    process.standardError = output
    try process.run()
  }

  /// Waits until the other process is ready to write.
  func waitUntilReady() throws {
    let deadline = Date().addingTimeInterval(Self.startTimeout)
    while !FileManager.default.fileExists(atPath: database + ".ready") {
      guard process.isRunning else { throw Failure("the writer process exited before it was ready:\n\(output)") }
      guard Date() < deadline else { throw Failure("the writer process was not ready after \(Self.startTimeout) s") }
      usleep(2_000)
    }
  }

  /// Tells the other process to start writing.
  func go() throws {
    guard FileManager.default.createFile(atPath: database + ".go", contents: nil) else {
      throw Failure("cannot create \(database).go")
    }
  }

  /// Waits for the other process to end; returns its exit status and output.
  func waitForExit() throws -> (status: Int32, output: String) {
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  /// Ends the other process if it still runs (when the test failed half-way).
  func stop() {
    if process.isRunning { process.terminate() }
  }

  private var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

  /// The other process's side: says it is ready, then waits for the test process's go.
  static func signalReadyAndWaitForGo(database: String) throws {
    guard FileManager.default.createFile(atPath: database + ".ready", contents: nil) else {
      throw Failure("cannot create \(database).ready")
    }
    let deadline = Date().addingTimeInterval(startTimeout)
    while !FileManager.default.fileExists(atPath: database + ".go") {
      guard Date() < deadline else { throw Failure("no go after \(startTimeout) s") }
      usleep(500)
    }
  }

  /// How to run one test of this bundle in a new process.
  ///
  /// On Linux the bundle is an executable (`/proc/self/exe`) that `swift test` runs with
  /// `--testing-library swift-testing`; on macOS `swift test` runs `swiftpm-testing-helper
  /// --test-bundle-path <binary> <binary> --testing-library swift-testing`, which is run again
  /// with the same binary.
  private static func relaunchCommand(filter: String) throws -> (URL, [String]) {
    let selection = ["--testing-library", "swift-testing", "--filter", filter]
    #if os(Linux)
      let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
      return (URL(fileURLWithPath: executable), selection)
    #else
      let arguments = CommandLine.arguments
      guard let flag = arguments.firstIndex(of: "--test-bundle-path"), flag + 1 < arguments.count,
        let launcher = Bundle.main.executableURL
      else {
        throw Failure("cannot tell how to launch this test bundle again (arguments: \(arguments))")
      }
      let binary = arguments[flag + 1]
      return (launcher, ["--test-bundle-path", binary, binary] + selection)
    #endif
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
