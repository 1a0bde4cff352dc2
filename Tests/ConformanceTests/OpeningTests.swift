import Foundation
import Tandem
import Testing

/// Opening a database: paths that would silently lose data are refused, a file can be opened
/// read-only, and every error says which file.
@Suite struct OpeningTests {
  /// SQLite reads these as a temporary or in-memory database, whose data vanishes on close.
  @Test(arguments: ["", ":memory:", "file::memory:", "file:app.sqlite?mode=memory", "file:app.sqlite"])
  func pathsThatAreNotFilesAreRefused(_ path: String) throws {
    let error = try #require(throws: TandemError.self) { try Database(.sqlite(path: path)) }
    #expect(error.kind == .misuse)
    #expect(error.message.contains(".sqliteInMemory"))
  }

  /// Only a path that starts with `file:` is a URI: a file may still be called so.
  @Test func aFileCalledFileColonIsAFile() throws {
    let path = TemporaryDatabaseFiles.directory.appendingPathComponent("file:\(UUID().uuidString).sqlite").path
    try Database(.sqlite(path: path)).create(Item.self)
    #expect(FileManager.default.fileExists(atPath: path))
  }

  @Test(arguments: [BackendKind.sqliteInMemory, .memory, .tandem])
  func readOnlyNeedsAFile(_ kind: BackendKind) throws {
    let storage: Database.Storage =
      switch kind {
      case .sqliteInMemory: .sqliteInMemory
      case .memory: .memory
      default: .tandem
      }
    let error = try #require(throws: TandemError.self) {
      try Database(storage, configuration: .init(readOnly: true))
    }
    #expect(error.kind == .misuse)
    #expect(error.message.hasPrefix("readOnly needs a SQLite file (.sqlite(path:))"))
  }

  /// A file with items, closed.
  static func fileWithItems() throws -> String {
    let path = TemporaryDatabaseFiles.newPath()
    let db = try Database(.sqlite(path: path))
    try db.create(Item.self)
    try db.insert(Item.samples)
    return path
  }

  /// Reads work; writes fail with SQLite's own error, and change nothing.
  static func expectReadOnly(_ db: Database, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try db.fetchAll(Item.all) == Item.samples, sourceLocation: sourceLocation)
    #expect(try db.transaction { db in try db.fetchCount(Item.all) } == 4, sourceLocation: sourceLocation)
    let writes: [(Database) throws -> Void] = [
      { try $0.insert(Item(id: 9, name: "fig")) },
      { try $0.update(Item.all) { $0.set(\.stock, to: 0) } },
      { try $0.delete(Item.all) },
      { try $0.transaction { db in try db.insert([Item(id: 9, name: "fig"), Item(id: 10, name: "kiwi")]) } },
      { try $0.create(Reminder.self) },
    ]
    for write in writes {
      let error = try #require(throws: TandemError.self, sourceLocation: sourceLocation) { try write(db) }
      #expect(error.kind == .sqlite, sourceLocation: sourceLocation)
      #expect(error.sqliteCode == 8, sourceLocation: sourceLocation)  // SQLITE_READONLY
      #expect(error.message == "attempt to write a readonly database", sourceLocation: sourceLocation)
    }
    #expect(try db.fetchAll(Item.all) == Item.samples, sourceLocation: sourceLocation)
  }

  @Test func aWritableFileOpenedReadOnly() throws {
    let path = try Self.fileWithItems()
    let reader = try Database(.sqlite(path: path), configuration: .init(readOnly: true))
    #expect(reader.configuration.readOnly)
    try Self.expectReadOnly(reader)
    // Another connection still writes it, and the reader sees the change.
    try Database(.sqlite(path: path)).insert(Item(id: 5, name: "elderberry"))
    #expect(try reader.fetchCount(Item.all) == 5)
  }

  @Test func aFileMadeReadOnlyOpensReadOnly() throws {
    let path = try Self.fileWithItems()
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
    try Self.expectReadOnly(try Database(.sqlite(path: path), configuration: .init(readOnly: true)))

    // Opened for writing, it is refused at once, naming the file — unless this process may write
    // it anyway (root ignores file permissions).
    if access(path, W_OK) == 0 {
      #expect(try Database(.sqlite(path: path)).fetchCount(Item.all) == 4)
    } else {
      let error = try #require(throws: TandemError.self) { try Database(.sqlite(path: path)) }
      #expect(error.kind == .sqlite)
      #expect(error.sqliteCode == 8)
      #expect(error.message == "attempt to write a readonly database: \(path) can only be read; open it read-only")
    }
  }

  @Test func aMissingFileIsNotCreatedReadOnly() throws {
    let path = TemporaryDatabaseFiles.newPath()
    let error = try #require(throws: TandemError.self) {
      try Database(.sqlite(path: path), configuration: .init(readOnly: true))
    }
    #expect(error.kind == .sqlite)
    #expect(error.sqliteCode == 14)  // SQLITE_CANTOPEN
    #expect(error.message == "unable to open database file: \(path)")
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func openingErrorsNameTheFile() throws {
    let missingDirectory = TemporaryDatabaseFiles.newPath() + "/no/such/directory/app.sqlite"
    let error = try #require(throws: TandemError.self) { try Database(.sqlite(path: missingDirectory)) }
    #expect(error.sqliteCode == 14)
    #expect(error.message == "unable to open database file: \(missingDirectory)")
    #expect("\(error)".contains(missingDirectory))

    let notADatabase = TemporaryDatabaseFiles.newPath()
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: notADatabase))
    let garbage = try #require(throws: TandemError.self) { try Database(.sqlite(path: notADatabase)) }
    #expect(garbage.sqliteCode == 26)  // SQLITE_NOTADB
    #expect(garbage.message == "file is not a database: \(notADatabase)")
  }
}
