import Tandem
import Testing

/// Every engine refuses the schemas SQLite refuses, with SQLite's error (a name holding a NUL
/// character, which SQL text cannot carry, is a misuse), and creates nothing then. The expected
/// messages are SQLite 3.40.1's, from the `sqlite3` shell with double-quoted strings off.
@Suite struct SchemaNameTests {
  /// A database holding `existing(id, a)` and its index `existing_idx`.
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(
      TableSchema(
        "existing", columns: [.column("id", .integer, primaryKey: true), .column("a", .null(.text))],
        indexes: [.index("existing_idx", on: ["a"])]))
    return db
  }

  static let id = ColumnSchema.column("id", .integer, primaryKey: true)
  static let a = ColumnSchema.column("a", .null(.text))

  static func sqlite(_ message: String) -> TandemError.Signature { .sqlite(code: 1, message: message) }
  static func nul(_ name: String) -> TandemError.Signature {
    TandemError.Signature(
      kind: .misuse, constraint: nil, table: nil, columns: [], message: "identifier \(name.debugDescription) contains a NUL character",
      sqliteCode: nil)
  }

  /// Schemas that fail, with the error each engine must report.
  static let refused: [(TableSchema, ifNotExists: Bool, TandemError.Signature)] = [
    // NUL anywhere a name is written.
    (TableSchema("no\0tes", columns: [id]), false, nul("no\0tes")),
    (TableSchema("notes", columns: [id, .column("ti\0tle", .text)]), false, nul("ti\0tle")),
    (TableSchema("notes", columns: [id, a], indexes: [.index("by\0a", on: ["a"])]), false, nul("by\0a")),
    (TableSchema("notes", columns: [id, a], indexes: [.index(on: ["a\0"])]), false, nul("notes_on_a\0")),
    (
      TableSchema("notes", columns: [id, .column("ref", .integer, references: .table("exi\0sting", column: "id"))]), false,
      nul("exi\0sting")
    ),
    // The table's name, then the columns.
    (TableSchema("sqlite_notes", columns: [id]), false, sqlite("object name reserved for internal use: sqlite_notes")),
    (TableSchema("SQLite_Notes", columns: []), false, sqlite("object name reserved for internal use: SQLite_Notes")),
    (TableSchema("EXISTING", columns: [id, id]), false, sqlite(#"table "EXISTING" already exists"#)),
    (TableSchema("existing_IDX", columns: [id]), true, sqlite("there is already an index named existing_IDX")),
    (TableSchema("notes", columns: []), false, sqlite(#"near ")": syntax error"#)),
    (TableSchema("existing", columns: []), true, sqlite(#"near ")": syntax error"#)),
    (TableSchema("notes", columns: [id, a, .column("A", .text)]), false, sqlite("duplicate column name: A")),
    (
      TableSchema("wide", columns: (0...2_000).map { .column("c\($0)", .null(.integer)) }), false,
      sqlite("too many columns on wide")
    ),
    // Each index: its columns, its name, then its columns' names.
    (TableSchema("notes", columns: [id, a], indexes: [.index("i", on: [])]), false, sqlite(#"near ")": syntax error"#)),
    (
      TableSchema("notes", columns: [id, a], indexes: [.index("sqlite_i", on: ["zz"])]), false,
      sqlite("object name reserved for internal use: sqlite_i")
    ),
    (
      TableSchema("notes", columns: [id, a], indexes: [.index("NOTES", on: ["a"])]), true,
      sqlite("there is already a table named NOTES")
    ),
    (
      TableSchema("notes", columns: [id, a], indexes: [.index("existing", on: ["a"])]), true,
      sqlite("there is already a table named existing")
    ),
    (
      TableSchema("notes", columns: [id, a], indexes: [.index("i", on: ["a"]), .index("I", on: ["id"])]), false,
      sqlite("index I already exists")
    ),
    (
      TableSchema("notes", columns: [id, a], indexes: [.index("existing_idx", on: ["a"])]), false,
      sqlite("index existing_idx already exists")
    ),
    (TableSchema("notes", columns: [id, a], indexes: [.index("i", on: ["a", "zz"])]), false, sqlite("no such column: zz")),
    (TableSchema("notes", columns: [id, a], indexes: [.index("i", on: ["rowid"])]), false, sqlite("no such column: rowid")),
    (
      TableSchema("notes", columns: [id, a], indexes: [.index("i", on: ["zz"] + Array(repeating: "a", count: 2_000))]), false,
      sqlite("too many columns in index")
    ),
  ]

  @Test(arguments: BackendKind.allCases, refused.indices)
  func refusedSchemas(_ kind: BackendKind, _ index: Int) throws {
    let (schema, ifNotExists, expected) = Self.refused[index]
    let db = try Self.database(kind)
    let error = try #require(throws: TandemError.self) { try db.create(schema, ifNotExists: ifNotExists) }
    #expect(error.signature == expected)
    // Nothing was created: the same name is still free (or still the existing table).
    let taken = ["existing", "existing_idx"].contains(schema.name.lowercased()) || schema.name.lowercased().hasPrefix("sqlite_")
    if !taken && !schema.name.utf8.contains(0) {
      try db.create(TableSchema(schema.name, columns: [Self.id]))
    }
    try db.create(TableSchema("after", columns: [Self.id], indexes: [.index("i", on: ["id"]), .index("I2", on: ["id"])]))
  }

  /// What SQLite accepts: names the memory engine must accept too.
  @Test(arguments: BackendKind.allCases)
  func acceptedNames(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.create(TableSchema("", columns: [.column("", .null(.integer)), .column("rowid", .null(.integer))]))
    try db.create(TableSchema("main", columns: [.column("sqlite_column", .null(.integer))], indexes: [.index(on: ["SQLITE_COLUMN"])]))
    try db.create(TableSchema("existing", columns: [Self.id, Self.id]), ifNotExists: true)  // left as it is
    try db.create(
      TableSchema("wide", columns: (0..<2_000).map { .column("c\($0)", .null(.integer)) }, indexes: [.index(on: ["c1", "c1"])]))
    try db.insertRaw(into: "", columns: ["", "rowid"], values: [1, 2])
    #expect(try db.storedRows(of: "", columns: [""]) == [[1]])
  }

  /// With IF NOT EXISTS, SQLite skips an index whose name is taken — by an index of another
  /// table, or earlier in the same schema — and creates the table and its other indexes.
  @Test(arguments: BackendKind.allCases)
  func ifNotExistsSkipsAnIndexWhoseNameIsTaken(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    try db.create(
      TableSchema(
        "notes", columns: [Self.id, Self.a],
        indexes: [.index("by_a", on: ["a"]), .index("BY_A", on: ["a"], unique: true), .index("existing_idx", on: ["a"], unique: true)]),
      ifNotExists: true)
    // Neither unique index exists: equal values are stored.
    try db.insertRaw(into: "notes", columns: ["id", "a"], values: [1, "x"])
    try db.insertRaw(into: "notes", columns: ["id", "a"], values: [2, "x"])
    #expect(try db.storedRows(of: "notes", columns: ["a"]) == [["x"], ["x"]])
  }

  /// Names given to statements and drops are checked for NUL the same way.
  @Test(arguments: BackendKind.allCases)
  func statementNamesHoldingNULAreMisuses(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let delete = try #require(throws: TandemError.self) { try db.execute(.delete(DeleteStatement(table: "exi\0sting"))) }
    #expect(delete.signature == Self.nul("exi\0sting"))
    let select = try #require(throws: TandemError.self) {
      try db.execute(.select(SelectStatement(table: "existing", columns: [.column("a\0")])))
    }
    #expect(select.signature == Self.nul("a\0"))
    let insert = try #require(throws: TandemError.self) {
      try db.insertRaw(into: "existing", columns: ["id", "\0"], values: [1, 2])
    }
    #expect(insert.signature == Self.nul("\0"))
  }
}
