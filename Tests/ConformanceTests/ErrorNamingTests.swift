import Foundation
import Tandem
import Testing

/// Errors say what happened, identically on every engine: every constraint failure is a
/// `.constraintViolation`, foreign key failures name the written table and the column to blame,
/// a non-integer rowid is a `.datatype` violation, and no user value appears in a description.
@Suite struct ErrorNamingTests {
  /// `folders(id)`; `files(id, folderID → folders ON DELETE RESTRICT, ownerID → owners)`;
  /// `owners(id)`; `nodes(id, parentID → nodes)`, which references itself.
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("folders", columns: [.column("id", .integer, primaryKey: true), .column("name", .text)]))
    try db.create(TableSchema("owners", columns: [.column("id", .integer, primaryKey: true)]))
    try db.create(
      TableSchema(
        "files",
        columns: [
          .column("id", .integer, primaryKey: true),
          .column("folderID", .integer, references: .table("folders", column: "id", onDelete: .restrict)),
          .column("ownerID", .null(.integer), references: .table("owners", column: "ID")),
          .column("name", .text),
        ]))
    try db.create(
      TableSchema(
        "nodes",
        columns: [
          .column("id", .integer, primaryKey: true),
          .column("parentID", .null(.integer), references: .table("nodes", column: "id")),
        ]))
    try db.insertRaw(into: "folders", columns: ["id", "name"], values: [1, "docs"])
    try db.insertRaw(into: "owners", columns: ["id"], values: [1])
    try db.insertRaw(into: "files", columns: ["id", "folderID", "ownerID", "name"], values: [1, 1, 1, "a"])
    try db.insertRaw(into: "nodes", columns: ["id", "parentID"], values: [1, nil])
    try db.insertRaw(into: "nodes", columns: ["id", "parentID"], values: [2, 1])
    return db
  }

  static func foreignKey(_ table: String, _ columns: [String]) -> TandemError.Signature {
    .constraint(.foreignKey, table: table, columns: columns, message: "FOREIGN KEY constraint failed")
  }

  /// SQLite fails an `ON DELETE RESTRICT` key with a generic constraint code, not the foreign
  /// key one; it is a foreign key violation all the same.
  @Test(arguments: BackendKind.allCases)
  func restrictIsAForeignKeyViolation(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let error = try #require(throws: TandemError.self) {
      try db.execute(.delete(DeleteStatement(table: "folders")))
    }
    #expect(error.kind == .constraintViolation)
    #expect(error.signature == Self.foreignKey("folders", ["id"]))
    #expect(error.sqliteCode == nil)
  }

  @Test(arguments: BackendKind.allCases)
  func foreignKeyViolationsNameTheTableAndTheColumnToBlame(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func failure(_ statement: Statement, sourceLocation: SourceLocation = #_sourceLocation) throws -> TandemError.Signature {
      try #require(throws: TandemError.self, sourceLocation: sourceLocation) { try db.execute(statement) }.signature
    }
    func insert(_ table: String, _ columns: [String], _ values: [SqliteValue], _ conflict: InsertStatement.ConflictResolution = .abort)
      -> Statement
    {
      .insert(InsertStatement(table: table, columns: columns, rows: [values.map(SQLExpression.literal)], conflict: conflict))
    }
    func update(_ table: String, _ column: String, _ value: SqliteValue) -> Statement {
      .update(UpdateStatement(table: table, assignments: [Assignment(column: column, value: .literal(value))]))
    }

    // An insert can break either of files' two keys: no column is singled out.
    #expect(try failure(insert("files", ["id", "folderID", "name"], [2, 99, "b"])) == Self.foreignKey("files", []))
    // An update breaks only the keys of the columns it sets (the parent column as declared: "id").
    #expect(try failure(update("files", "folderID", 99)) == Self.foreignKey("files", ["folderID"]))
    #expect(try failure(update("files", "ownerID", 99)) == Self.foreignKey("files", ["ownerID"]))
    #expect(try failure(update("owners", "id", 99)) == Self.foreignKey("owners", ["id"]))
    // A delete, or a replacing insert, breaks the keys that reference the table.
    #expect(try failure(.delete(DeleteStatement(table: "owners"))) == Self.foreignKey("owners", ["id"]))
    // (RESTRICT fails as the row is deleted, even though the new row has the same key.)
    #expect(try failure(insert("folders", ["id", "name"], [1, "new"], .replace)) == Self.foreignKey("folders", ["id"]))
    // A table that references itself: inserting a child, or deleting a parent.
    #expect(try failure(insert("nodes", ["id", "parentID"], [3, 99])) == Self.foreignKey("nodes", ["parentID"]))
    #expect(try failure(.delete(DeleteStatement(table: "nodes", filter: .binary(.equal, .column("id"), .literal(1)))))
      == Self.foreignKey("nodes", ["id"]))
    // Replacing a node may break either side of its one key.
    #expect(try failure(insert("nodes", ["id", "parentID"], [1, 99], .replace)) == Self.foreignKey("nodes", []))

    // Through the typed API and its value inserts, and for a dropped table.
    let orphan = try #require(throws: TandemError.self) {
      try db.insert([StoredFile(id: 3, folderID: 99, ownerID: nil, name: "c")])
    }
    #expect(orphan.signature == Self.foreignKey("files", []))
    let drop = try #require(throws: TandemError.self) { try db.drop(Owner.self) }
    #expect(drop.signature == Self.foreignKey("owners", ["id"]))
    #expect(try db.storedRows(of: "files", columns: ["id", "folderID", "ownerID"]) == [[1, 1, 1]])
  }

  /// SQLite's `datatype mismatch` for a non-integer rowid is the rowid alias's datatype
  /// constraint, as the docs say; a non-integer a foreign key action writes into another table's
  /// rowid cannot be pinned on a table, and stays SQLite's code 20.
  @Test(arguments: BackendKind.allCases)
  func aNonIntegerRowidIsADatatypeViolation(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)
    let datatype = TandemError.Signature.constraint(.datatype, table: "items", columns: ["id"], message: "datatype mismatch")
    let viaInsert = try #require(throws: TandemError.self) {
      try db.insertRaw(into: "items", columns: ["id", "name"], values: ["five", "x"])
    }
    #expect(viaInsert.signature == datatype)
    let viaUpdate = try #require(throws: TandemError.self) {
      try db.execute(.update(UpdateStatement(table: "items", assignments: [Assignment(column: "id", value: .literal(1.5))])))
    }
    #expect(viaUpdate.signature == datatype)
    let viaUpsert = try #require(throws: TandemError.self) {
      try db.execute(
        .insert(
          InsertStatement(
            table: "items", columns: ["id", "name"], rows: [[.literal(1), .literal("apple")]],
            conflict: .update(target: ["id"], assignments: [Assignment(column: "id", value: .literal("one"))]))))
    }
    #expect(viaUpsert.signature == datatype)
    let viaRowid = try #require(throws: TandemError.self) {
      try db.execute(.update(UpdateStatement(table: "items", assignments: [Assignment(column: "rowid", value: .literal("x"))])))
    }
    #expect(viaRowid.signature == datatype)
    #expect(try db.fetchAll(Item.all) == Item.samples)

    // tags.id is both the rowid and a key to items, set to NULL when its item goes.
    try db.create(
      TableSchema(
        "tags", columns: [.column("id", .integer, primaryKey: true, references: .table("items", column: "id", onDelete: .setNull))]))
    try db.insertRaw(into: "tags", columns: ["id"], values: [1])
    let viaAction = try #require(throws: TandemError.self) { try db.delete(Item.where { $0.id == 1 }) }
    #expect(viaAction.signature == .sqlite(code: 20, message: "datatype mismatch"))
    let viaReplace = try #require(throws: TandemError.self) { try db.insert(Item(id: 1, name: "new"), onConflict: .replace) }
    #expect(viaReplace.signature == .sqlite(code: 20, message: "datatype mismatch"))
  }

  /// Descriptions and messages show no user value on any engine (the memory engine's statement
  /// descriptions printed them); the typed fields keep them.
  @Test(arguments: BackendKind.allCases)
  func valuesStayOutOfDescriptions(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let secret = "Secret-7f3a"
    let orphan = try #require(throws: TandemError.self) {
      try db.insertRaw(into: "files", columns: ["id", "folderID", "name"], values: [987_654, 99, .text(secret)])
    }
    let batch = try #require(throws: TandemError.self) {
      try db.insert([StoredFile(id: 987_654, folderID: 99, ownerID: nil, name: secret)])
    }
    let single = try #require(throws: TandemError.self) {
      try db.insert(StoredFile(id: 987_654, folderID: 99, ownerID: nil, name: secret))
    }
    for error in [orphan, batch, single] {
      #expect(error.constraint == .foreignKey)
      #expect(!"\(error)".contains(secret), "\(error)")
      #expect(!"\(error)".contains("987654"), "\(error)")
    }
    try db.insertRaw(into: "folders", columns: ["id", "name"], values: [987_654, .blob(Data(secret.utf8))])
    let decoding = try #require(throws: TandemError.self) { try db.fetchAll(Folder.all) }
    #expect(decoding.value == .blob(Data(secret.utf8)))
    #expect(decoding.primaryKey == [987_654])
    #expect(!"\(decoding)".contains(secret), "\(decoding)")
    #expect("\(decoding)" == "decoding failure: cannot decode String from a blob value in column folders.name (result row 1, rowid 987654)")
  }
}

@Table("folders") struct Folder {
  let id: Int
  var name: String
}

@Table("owners") struct Owner {
  let id: Int
}

@Table("files") struct StoredFile {
  let id: Int
  var folderID: Int
  var ownerID: Int?
  var name: String
}
