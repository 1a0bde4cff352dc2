import Foundation

/// The benchmark's scratch directory for database files, removed by ``removeAll()``.
struct TemporaryFiles {
  let directory: URL

  /// A new directory under the system's temporary directory, named after this process.
  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tandem-bench-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// The path of a database file called `name` in the directory.
  func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  /// Deletes a database file with its `-wal`, `-shm` and `-journal` companions.
  static func removeDatabase(at path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }

  /// Deletes the directory and everything in it.
  func removeAll() {
    try? FileManager.default.removeItem(at: directory)
  }
}
