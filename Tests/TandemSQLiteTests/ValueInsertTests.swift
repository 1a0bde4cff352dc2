import Foundation
@_spi(TandemBackend) import TandemCore
import Testing

@testable import TandemSQLite

/// `insert(into:columns:values:conflict:)`, SQLite's value path, against the `InsertStatement`
/// path it replaces: same rows, results and errors, and the whole call is one statement.
@Suite("SQLite backend: value inserts")
struct ValueInsertTests {
  static let schema = TableSchema(
    "items",
    columns: [
      .column("id", .integer, primaryKey: true),
      .column("name", .text),
      .column("stock", .null(.integer)),
    ],
    indexes: [.index(on: ["name"], unique: true)])

  static let columns = ["id", "name", "stock"]

  /// Runs `body` twice: on a backend using the value path and on one using the statement path.
  private func compare<T: Equatable>(
    kind: DatabaseKind, setUp: (SQLiteBackend) throws -> Void = { _ in },
    _ body: (SQLiteBackend, _ insert: ([[SqliteValue]], InsertStatement.ConflictResolution) throws -> StatementResult)
      throws -> T
  ) throws -> (values: T, statements: T) {
    let values = try kind.withBackend { backend in
      try backend.create(Self.schema, ifNotExists: false)
      try setUp(backend)
      return try body(backend) { rows, conflict in
        try backend.insert(into: "items", columns: Self.columns, values: rows, conflict: conflict)
      }
    }
    let statements = try kind.withBackend { backend in
      try backend.create(Self.schema, ifNotExists: false)
      try setUp(backend)
      return try body(backend) { rows, conflict in
        let statement = InsertStatement(
          table: "items", columns: Self.columns, rows: rows.map { $0.map(SQLExpression.literal) }, conflict: conflict)
        return try backend.execute(.insert(statement), parameters: [:])
      }
    }
    return (values, statements)
  }

  private func contents(_ backend: SQLiteBackend) throws -> [[SqliteValue]] {
    try backend.execute(selectAll("items", Self.columns), parameters: [:]).rows
  }

  private func row(_ id: Int64, _ name: String, _ stock: SqliteValue = .null) -> [SqliteValue] {
    [.integer(id), .text(name), stock]
  }

  @Test(arguments: DatabaseKind.allCases)
  func rowsAndResultsMatchTheStatementPath(kind: DatabaseKind) throws {
    let (values, statements) = try compare(kind: kind) { backend, insert in
      let many = try insert([row(3, "a", 1), row(1, "b"), row(7, "c", 2)], .abort)
      let one = try insert([[.null, .text("d"), .real(2.5)]], .abort)
      return [many, one].map { "\($0.lastInsertRowid)/\($0.changes)" } + (try contents(backend)).map { "\($0)" }
    }
    #expect(values == statements)
    #expect(values.prefix(2) == ["7/3", "8/1"])
  }

  @Test(arguments: DatabaseKind.allCases)
  func conflictResolutionsMatchTheStatementPath(kind: DatabaseKind) throws {
    let setUp: (SQLiteBackend) throws -> Void = { backend in
      _ = try backend.insert(into: "items", columns: Self.columns, values: [[.integer(1), .text("a"), .integer(5)]], conflict: .abort)
    }
    let (values, statements) = try compare(kind: kind, setUp: setUp) { backend, insert in
      var results: [String] = []
      // Ignored rows keep the last inserted rowid at what this statement inserted (0 when nothing).
      for (rows, conflict) in [
        ([row(1, "x")], InsertStatement.ConflictResolution.ignore),
        ([row(2, "b"), row(1, "y"), row(3, "c")], .ignore),
        ([row(1, "z", 9)], .replace),
        ([row(1, "u"), row(4, "d")], .update(target: ["id"], assignments: [Assignment(column: "stock", value: .literal(42))])),
        ([row(4, "e"), row(5, "f")], .nothing(target: ["id"])),
        ([row(5, "g")], .update(target: ["id"], assignments: [Assignment(column: "name", value: .excluded("name"))])),
      ] {
        let result = try insert(rows, conflict)
        results.append("\(result.lastInsertRowid)/\(result.changes)")
      }
      return results + (try contents(backend)).map { "\($0)" }
    }
    #expect(values == statements)
    #expect(values.prefix(6) == ["0/0", "3/2", "1/1", "4/2", "5/1", "0/1"])
  }

  /// A row failing in the middle leaves none of the call's rows, in and outside a transaction.
  @Test(arguments: DatabaseKind.allCases, [false, true])
  func aFailingMiddleRowLeavesNothing(kind: DatabaseKind, inTransaction: Bool) throws {
    let (values, statements) = try compare(kind: kind) { backend, insert in
      if inTransaction { try backend.savepoint("outer") }
      _ = try insert([row(1, "kept")], .abort)
      let error = tandemError { _ = try insert([row(2, "b"), row(3, "kept"), row(4, "d")], .abort) }
      let ignoreError = tandemError {
        // OR IGNORE skips constraint failures, but a text rowid still fails the statement.
        _ = try insert([row(5, "e"), [.text("six"), .text("f"), .null], row(7, "g")], .ignore)
      }
      let rows = try contents(backend)
      if inTransaction { try backend.release("outer") }
      return [error.map(summary), ignoreError.map(summary)].map { $0 ?? "none" } + rows.map { "\($0)" } + (try contents(backend)).map { "\($0)" }
    }
    #expect(values == statements)
    #expect(values[0] == "constraint violation unique items [name] UNIQUE constraint failed: items.name")
    #expect(values[1] == "constraint violation datatype items [id] datatype mismatch")
    #expect(values.dropFirst(2) == [#"[1, 'kept', NULL]"#, #"[1, 'kept', NULL]"#])
  }

  @Test(arguments: DatabaseKind.allCases)
  func aFailedCallOutsideATransactionLeavesNoTransactionOpen(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(Self.schema, ifNotExists: false)
      #expect(tandemError { _ = try backend.insert(into: "items", columns: Self.columns, values: [row(1, "a"), row(1, "b")], conflict: .abort) } != nil)
      #expect(!backend.connection.isInTransaction)
      _ = try backend.insert(into: "items", columns: Self.columns, values: [row(1, "a"), row(2, "b")], conflict: .abort)
      #expect(!backend.connection.isInTransaction)
      #expect(try contents(backend).count == 2)
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func errorsMatchTheStatementPath(kind: DatabaseKind) throws {
    let (values, statements) = try compare(kind: kind) { backend, insert in
      [
        tandemError { _ = try insert([row(1, "a"), [.integer(2)]], .abort) },
        tandemError { _ = try insert([], .abort) },
        tandemError { _ = try insert([row(1, "a"), row(1, "b")], .abort) },
        tandemError { _ = try insert([[.text("x"), .text("a"), .null]], .abort) },
        tandemError { _ = try insert([row(1, "a")], .update(target: ["id"], assignments: [])) },
      ].map { $0.map(summary) ?? "none" }
    }
    #expect(values == statements)
    #expect(values[0] == "misuse - - [] insert row 2 has 1 values for 3 columns")
    #expect(values[1] == "misuse - - [] an insert needs at least one row")
    #expect(values[2] == "constraint violation primaryKey items [id] UNIQUE constraint failed: items.id")
    #expect(values[4] == "misuse - - [] an update needs at least one assignment")
  }

  @Test(arguments: DatabaseKind.allCases)
  func unknownTablesAndColumnsFailAsTheStatementPathDoes(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(Self.schema, ifNotExists: false)
      let manyRows = (1...3_000).map { [SqliteValue.integer(Int64($0))] }
      for (table, columns, rows) in [("nope", ["id"], [[SqliteValue.integer(1)]]), ("nope", ["id"], manyRows), ("items", ["nope"], manyRows)] {
        let valueError = tandemError { _ = try backend.insert(into: table, columns: columns, values: rows, conflict: .abort) }
        let statementError = tandemError {
          let statement = InsertStatement(table: table, columns: columns, rows: [rows[0].map(SQLExpression.literal)])
          _ = try backend.execute(.insert(statement), parameters: [:])
        }
        #expect(valueError.map(summary) == statementError.map(summary))
        #expect(valueError != nil)
      }
      #expect(try contents(backend).isEmpty)
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func defaultValuesGoThroughTheStatementPath(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(Self.schema.withDefaultName, ifNotExists: false)
      let result = try backend.insert(into: "defaults", columns: [], values: [[]], conflict: .abort)
      #expect(result == StatementResult(lastInsertRowid: 1, changes: 1))
      #expect(try backend.execute(selectAll("defaults", ["id", "name"]), parameters: [:]).rows == [[.integer(1), .text("n")]])
    }
  }

  @Test func theOneRowStatementIsPreparedOncePerShape() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    _ = try backend.insert(into: "items", columns: Self.columns, values: [row(1, "n1")], conflict: .abort)
    let misses = backend.statements.misses
    for id in 2...50 {
      _ = try backend.insert(into: "items", columns: Self.columns, values: [row(Int64(id), "n\(id)")], conflict: .abort)
    }
    #expect(backend.statements.misses == misses)
    _ = try backend.insert(into: "items", columns: ["id", "name"], values: [[.integer(100), .text("x")]], conflict: .ignore)
    #expect(backend.statements.misses == misses + 1)
    #expect(try contents(backend).count == 51)
  }

  /// Rows stored one after another give the same rows, results and errors as rows of arrays.
  @Test(arguments: DatabaseKind.allCases, [false, true])
  func flattenedRowsMatchRowsOfArrays(kind: DatabaseKind, inTransaction: Bool) throws {
    let batches: [([[SqliteValue]], InsertStatement.ConflictResolution)] = [
      ([row(1, "a", 1), row(2, "b")], .abort),
      ([row(3, "c"), row(1, "dup"), row(4, "d")], .abort),
      ([row(5, "e"), row(2, "x"), row(6, "f")], .ignore),
      ([row(2, "y", 7)], .replace),
      ([row(6, "g"), row(9, "h")], .update(target: ["id"], assignments: [Assignment(column: "stock", value: .literal(3))])),
      ([row(10, "i"), [.text("ten"), .text("j"), .null]], .ignore),
    ]
    let run = { (flattened: Bool) throws -> [String] in
      try kind.withBackend { backend in
        try backend.create(Self.schema, ifNotExists: false)
        if inTransaction { try backend.savepoint("outer") }
        var outcomes: [String] = []
        for (rows, conflict) in batches {
          do {
            let result =
              flattened
              ? try backend.insert(into: "items", columns: Self.columns, flattenedRows: rows.flatMap { $0 }, conflict: conflict)
              : try backend.insert(into: "items", columns: Self.columns, values: rows, conflict: conflict)
            outcomes.append("\(result.lastInsertRowid)/\(result.changes)")
          } catch let error as TandemError {
            outcomes.append(summary(error))
          }
        }
        if inTransaction { try backend.release("outer") }
        return outcomes + (try contents(backend)).map { "\($0)" }
      }
    }
    let flattened = try run(true)
    #expect(flattened == (try run(false)))
    #expect(flattened.prefix(6) == [
      "2/2", "constraint violation primaryKey items [id] UNIQUE constraint failed: items.id", "6/2", "2/1", "9/2",
      "constraint violation datatype items [id] datatype mismatch",
    ])
  }

  @Test func flattenedRowsThatDoNotDivideIntoRowsAreRefused() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.schema, ifNotExists: false)
    let error = tandemError {
      _ = try backend.insert(into: "items", columns: Self.columns, flattenedRows: [1, "a", .null, 2], conflict: .abort)
    }
    #expect(error?.kind == .misuse)
    #expect(error?.message == "4 values do not make rows of 3 columns")
    #expect(try [SqliteValue](arrayLiteral: 1, 2, 3, 4).rows(of: 2) == [[1, 2], [3, 4]])
    #expect(try contents(backend).isEmpty)
  }

  /// `kind table [columns] message`: what both paths must agree on.
  private func summary(_ error: TandemError) -> String {
    let constraint = error.constraint?.rawValue ?? "-"
    let code = error.sqliteCode.map { " code \($0)" } ?? ""
    return "\(error.kind) \(constraint) \(error.table ?? "-") [\(error.columns.joined(separator: ","))] \(error.message)\(code)"
  }
}

extension TableSchema {
  /// A table whose every column has a default, for `DEFAULT VALUES`.
  fileprivate var withDefaultName: TableSchema {
    TableSchema("defaults", columns: [.column("id", .integer, primaryKey: true), .column("name", .text, default: "n")])
  }
}
