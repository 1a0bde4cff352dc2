import Foundation
import TandemCore
import Testing

@testable import TandemSQLite

/// Every constraint failure maps to the TandemError the error contract prescribes (`raiseSQLiteError`).
@Suite("SQLite backend: errors")
struct SQLiteErrorMappingTests {
  private func insertError(_ backend: SQLiteBackend, _ statement: Statement) -> TandemError? {
    tandemError { _ = try backend.execute(statement, parameters: [:]) }
  }

  @Test(arguments: DatabaseKind.allCases)
  func uniqueOverSeveralColumns(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(
        TableSchema("t", columns: [.column("a", .integer), .column("b", .integer)], indexes: [.index(on: ["a", "b"], unique: true)]),
        ifNotExists: false)
      _ = try backend.execute(insertRow("t", ["a", "b"], [1, 2]), parameters: [:])
      let error = insertError(backend, insertRow("t", ["a", "b"], [1, 2]))
      #expect(
        error == TandemError.constraintViolation(
          .unique, table: "t", columns: ["a", "b"], message: "UNIQUE constraint failed: t.a, t.b"
        ).with(statement: #"INSERT INTO "t" ("a", "b") VALUES (?, ?)"#))
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func uniqueColumnOnUpdate(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("t", columns: [.column("a", .integer, unique: true)]), ifNotExists: false)
      _ = try backend.execute(.insert(InsertStatement(table: "t", columns: ["a"], rows: [[.literal(1)], [.literal(2)], [.literal(3)]])), parameters: [:])
      // UPDATE checks uniqueness row by row, so this fails although the end state would be unique.
      let error = tandemError {
        _ = try backend.execute(
          .update(UpdateStatement(table: "t", assignments: [Assignment(column: "a", value: .binary(.add, .column("a"), .literal(1)))])),
          parameters: [:])
      }
      #expect(error?.kind == .constraintViolation)
      #expect(error?.constraint == .unique)
      #expect(error?.table == "t")
      #expect(error?.columns == ["a"])
      #expect(error?.statement == #"UPDATE "t" SET "a" = ("a" + ?)"#)
      // The failed statement changed nothing.
      #expect(try backend.execute(selectAll("t", ["a"]), parameters: [:]).rows == [[1], [2], [3]])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func primaryKeys(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("ints", columns: [.column("id", .integer, primaryKey: true)]), ifNotExists: false)
      try backend.create(TableSchema("texts", columns: [.column("code", .text, primaryKey: true)]), ifNotExists: false)
      try backend.create(
        TableSchema("pairs", columns: [.column("x", .integer, primaryKey: true), .column("y", .text, primaryKey: true)]),
        ifNotExists: false)
      let cases: [(Statement, String, [String], String)] = [
        (insertRow("ints", ["id"], [1]), "ints", ["id"], "UNIQUE constraint failed: ints.id"),
        (insertRow("texts", ["code"], ["a"]), "texts", ["code"], "UNIQUE constraint failed: texts.code"),
        (insertRow("pairs", ["x", "y"], [1, "a"]), "pairs", ["x", "y"], "UNIQUE constraint failed: pairs.x, pairs.y"),
      ]
      for (insert, table, columns, message) in cases {
        _ = try backend.execute(insert, parameters: [:])
        let error = insertError(backend, insert)
        #expect(error?.kind == .constraintViolation)
        #expect(error?.constraint == .primaryKey)
        #expect(error?.table == table)
        #expect(error?.columns == columns)
        #expect(error?.message == message)
      }
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func duplicateRowidWithoutAlias(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("t", columns: [.column("v", .text)]), ifNotExists: false)
      // "rowid" names no column, so SQLite reads it as the rowid itself.
      _ = try backend.execute(insertRow("t", ["rowid", "v"], [1, "a"]), parameters: [:])
      let error = insertError(backend, insertRow("t", ["rowid", "v"], [1, "b"]))
      #expect(
        error == TandemError.constraintViolation(
          .primaryKey, table: "t", columns: ["rowid"], message: "UNIQUE constraint failed: t.rowid"
        ).with(statement: #"INSERT INTO "t" ("rowid", "v") VALUES (?, ?)"#))
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func notNull(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("t", columns: [.column("a", .integer), .column("b", .text, default: "d")]), ifNotExists: false)
      for insert in [insertRow("t", ["a"], [.null]), insertRow("t", ["a", "b"], [1, .null])] {
        let error = insertError(backend, insert)
        #expect(error?.kind == .constraintViolation)
        #expect(error?.constraint == .notNull)
        #expect(error?.table == "t")
      }
      #expect(insertError(backend, insertRow("t", ["a", "b"], [1, .null]))?.columns == ["b"])
      #expect(insertError(backend, insertRow("t", ["a"], [.null]))?.message == "NOT NULL constraint failed: t.a")
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func check(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      _ = try backend.run(#"CREATE TABLE "t" ("a" INTEGER CHECK (a > 0))"#, cached: false)
      let error = insertError(backend, insertRow("t", ["a"], [0]))
      #expect(
        error == TandemError.constraintViolation(.check, table: nil, columns: [], message: "CHECK constraint failed: a > 0")
          .with(statement: #"INSERT INTO "t" ("a") VALUES (?)"#))
      // SQLite 3.40 shortens a check whose expression starts with a quoted name to that name.
      _ = try backend.run(#"CREATE TABLE "u" ("a" INTEGER CHECK ("a" > 0))"#, cached: false)
      let quoted = insertError(backend, insertRow("u", ["a"], [0]))
      #expect(quoted?.constraint == .check)
      #expect(quoted?.message == "CHECK constraint failed: a")
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func foreignKey(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("lists", columns: [.column("id", .integer, primaryKey: true)]), ifNotExists: false)
      try backend.create(
        TableSchema(
          "items",
          columns: [.column("id", .integer, primaryKey: true), .column("listID", .integer, references: .table("lists", column: "id"))]),
        ifNotExists: false)
      let error = insertError(backend, insertRow("items", ["listID"], [99]))
      #expect(error?.kind == .constraintViolation)
      #expect(error?.constraint == .foreignKey)
      // SQLite's message names nothing; the backend names the written table and its column.
      #expect(error?.table == "items")
      #expect(error?.columns == ["listID"])
      #expect(error?.message == "FOREIGN KEY constraint failed")
      _ = try backend.execute(insertRow("lists", ["id"], [1]), parameters: [:])
      _ = try backend.execute(insertRow("items", ["listID"], [1]), parameters: [:])
      let deleteParent = insertError(backend, .delete(DeleteStatement(table: "lists")))
      #expect(deleteParent?.constraint == .foreignKey)
      #expect(deleteParent?.table == "lists")
      #expect(deleteParent?.columns == ["id"])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func constraintFailingInAnotherTableNamesThatTable(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("lists", columns: [.column("id", .integer, primaryKey: true)]), ifNotExists: false)
      try backend.create(
        TableSchema(
          "items",
          columns: [
            .column("id", .integer, primaryKey: true),
            .column("listID", .integer, references: .table("lists", column: "id", onDelete: .setNull)),
          ]),
        ifNotExists: false)
      _ = try backend.execute(insertRow("lists", ["id"], [1]), parameters: [:])
      _ = try backend.execute(insertRow("items", ["listID"], [1]), parameters: [:])
      // Deleting the list sets items.listID to NULL, which its NOT NULL refuses.
      let error = insertError(backend, .delete(DeleteStatement(table: "lists")))
      #expect(
        error == TandemError.constraintViolation(
          .notNull, table: "items", columns: ["listID"], message: "NOT NULL constraint failed: items.listID"
        ).with(statement: #"DELETE FROM "lists""#))
      #expect(try backend.execute(selectAll("lists", ["id"]), parameters: [:]).rows == [[1]])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func strictDatatype(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      let schema = TableSchema("s", columns: [.column("i", .integer), .column("b", .null(.blob))])
      _ = try backend.run(schema.createTableSQL(strict: true), cached: false)
      let error = insertError(backend, insertRow("s", ["i"], ["12abc"]))
      #expect(
        error == TandemError.constraintViolation(
          .datatype, table: "s", columns: ["i"], message: "cannot store TEXT value in INTEGER column s.i"
        ).with(statement: #"INSERT INTO "s" ("i") VALUES (?)"#))
      #expect(insertError(backend, insertRow("s", ["i", "b"], [1, 1]))?.columns == ["b"])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func otherErrorsCarryThePrimaryCode(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("n", .integer)]), ifNotExists: false)
      // A non-integer rowid is a datatype violation of the rowid alias (see FailedWrite).
      let mismatch = insertError(backend, insertRow("t", ["id", "n"], ["x", 1]))
      #expect(
        mismatch == TandemError.constraintViolation(.datatype, table: "t", columns: ["id"], message: "datatype mismatch")
          .with(statement: #"INSERT INTO "t" ("id", "n") VALUES (?, ?)"#))

      _ = try backend.execute(insertRow("t", ["n"], [.integer(.max)]), parameters: [:])
      _ = try backend.execute(insertRow("t", ["n"], [1]), parameters: [:])
      let overflow = tandemError {
        _ = try backend.execute(.select(SelectStatement(table: "t", columns: [.aggregate(.sum, .column("n"), distinct: false)])), parameters: [:])
      }
      #expect(overflow == TandemError.sqlite(code: 1, message: "integer overflow", sql: #"SELECT sum("n") FROM "t" NOT INDEXED"#))
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func namesWithDotsAndCommasAreReadFromKnownColumns(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      let table = "my.table, t"
      try backend.create(
        TableSchema(
          table, columns: [.column("x, y", .integer), .column("a.b", .null(.integer))], indexes: [.index("both", on: ["x, y", "a.b"], unique: true)]),
        ifNotExists: false)
      _ = try backend.execute(insertRow(table, ["x, y", "a.b"], [1, 2]), parameters: [:])
      let unique = insertError(backend, insertRow(table, ["x, y", "a.b"], [1, 2]))
      #expect(unique?.message == "UNIQUE constraint failed: my.table, t.x, y, my.table, t.a.b")
      #expect(unique?.table == table)
      #expect(unique?.columns == ["x, y", "a.b"])
      let notNull = insertError(backend, insertRow(table, ["a.b"], [3]))
      #expect(notNull?.table == table)
      #expect(notNull?.columns == ["x, y"])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func failedMultiRowInsertLeavesNoRow(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("t", columns: [.column("a", .integer, unique: true)]), ifNotExists: false)
      let error = insertError(
        backend, .insert(InsertStatement(table: "t", columns: ["a"], rows: [[.literal(1)], [.literal(2)], [.literal(1)]])))
      #expect(error?.constraint == .unique)
      #expect(try backend.execute(selectAll("t", ["a"]), parameters: [:]).rows == [])
    }
  }
}
