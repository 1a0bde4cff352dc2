import Foundation

/// The shared sqllogictest corpus, found at `../shared/sqllogictest/test` from the package root.
enum Corpus {
  /// `…/shared/sqllogictest/test`, computed from this file's path.
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // SQLLogicTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .deletingLastPathComponent()
    .appendingPathComponent("shared/sqllogictest/test")

  /// Whether the corpus is there (tests that need it are skipped otherwise).
  static var isPresent: Bool { FileManager.default.fileExists(atPath: root.path) }

  /// `select1.test` … `select5.test`.
  static var selectFiles: [URL] {
    (1...5).map { root.appendingPathComponent("select\($0).test") }
  }

  /// Every `.test` file under a folder of the corpus (or the whole corpus), sorted by path.
  static func files(under folder: String = "") -> [URL] {
    let base = folder.isEmpty ? root : root.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
    return walker.compactMap { $0 as? URL }
      .filter { $0.pathExtension == "test" }
      .sorted { $0.path < $1.path }
  }
}
