import Foundation
import Tandem
import Testing

/// The engines every conformance test runs on. A test takes one as its argument, so each
/// behaviour is written once and checked on all of them.
enum BackendKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  /// SQLite on a database file in a temporary directory.
  case sqliteFile
  /// SQLite in memory.
  case sqliteInMemory
  /// Tandem's pure-Swift engine.
  case memory
  /// Both engines at once, failing on any difference between them.
  case tandem

  var testDescription: String { rawValue }
}

/// A fresh, empty database on `kind`.
///
/// ```swift
/// let db = try makeDatabase(.memory)
/// ```
func makeDatabase(_ kind: BackendKind) throws -> Database {
  switch kind {
  case .sqliteFile: try Database(.sqlite(path: TemporaryDatabaseFiles.newPath()))
  case .sqliteInMemory: try Database(.sqliteInMemory)
  case .memory: try Database(.memory)
  case .tandem: try Database(.tandem)
  }
}

/// Database files of the `.sqliteFile` backend: one directory per test process, removed when the
/// process exits.
enum TemporaryDatabaseFiles {
  /// The directory the files of this process live in.
  static let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tandem-conformance-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: TemporaryDatabaseFiles.directory) }
    return url
  }()

  /// A path no database uses yet.
  static func newPath() -> String {
    directory.appendingPathComponent("\(UUID().uuidString).sqlite").path
  }
}

extension BackendKind {
  /// The answer SQLite gives a statement the memory engine refuses (one whose answer only
  /// SQLite's plan decides): `body`'s result on the SQLite engines; on `.memory` the refusal
  /// (`.unsupported`) is expected, on `.tandem` the divergence it makes, and the answer is `nil`.
  ///
  /// ```swift
  /// let rows = try kind.answerUnlessMemoryRefuses { try db.fetchAll(sql: "SELECT total(x) FROM a, b") }
  /// ```
  func answerUnlessMemoryRefuses<Answer>(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Answer
  ) throws -> Answer? {
    switch self {
    case .memory, .tandem:
      let error = try #require(throws: TandemError.self, sourceLocation: sourceLocation) { _ = try body() }
      #expect(error.kind == (self == .memory ? .unsupported : .divergence), sourceLocation: sourceLocation)
      return nil
    case .sqliteFile, .sqliteInMemory:
      return try body()
    }
  }
}
