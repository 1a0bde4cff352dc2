import Foundation
import Tandem
import Testing

/// Mismatches the differential fuzzer found, each cut down to its schema and statements. Every
/// test runs the case on SQLite in memory and on the memory engine and demands the same answers
/// (and the same table contents after every write); most also pin SQLite's own answer so the
/// test says what the behaviour is.
///
/// A test here fails until the engine (or the core) is fixed, and then keeps it fixed.
@Suite("Regressions found by the differential fuzzer")
struct Regressions {
  // Seed 0x7A4DE11A, case 1: a LIMIT/OFFSET parameter read the value of the select's first parameter.
  @Test func limitAndOffsetParametersAreBoundByName() throws {
    let t = TableSchema("t", columns: [.column("x", .blob)])
    let limited: [FuzzOperation] = [
      .insert("t", ["x"], [[12], [.blob(Data("12".utf8))]]),
      .select(
        SelectStatement(
          table: "t", columns: [.parameter("p0")], orderBy: [OrderingTerm(.rowid)], limit: .parameter("p1")),
        ["p0": .integer(-9_223_372_036_854_775_807), "p1": 1]),
    ]
    #expect(
      try RegressionCase.sqliteAnswer([t], limited)
        == .result(StatementResult(rows: [[.integer(-9_223_372_036_854_775_807)]])))
    RegressionCase.expectAgreement([t], limited)

    let offset: [FuzzOperation] = [
      .select(
        SelectStatement(
          table: "t", columns: [.aggregate(.sum, .parameter("p0"), distinct: false)], groupBy: [.column("x")],
          orderBy: [OrderingTerm(.column("x"))], limit: .literal(-1), offset: .parameter("p1")),
        ["p0": .real(1e308), "p1": 2])
    ]
    #expect(try RegressionCase.sqliteAnswer([t], offset) == .result(StatementResult()))
    RegressionCase.expectAgreement([t], offset)
  }

  // Seed 0x7A4DE11A, case 252: the DDL wrote a text DEFAULT holding a NUL character into the SQL,
  // which SQLite stops reading at ("unrecognized token"); the memory engine accepted the table.
  @Test func textDefaultWithNULCreatesTheSameTable() {
    let t = TableSchema("t", columns: [.column("a", .null(.real), default: .text("a\u{0}b"))])
    RegressionCase.expectAgreement([t], [.insert("t", [], [[]])])
  }

  // Seed 0x3039, cases 33, 2030, 3564, 5725; seed 0x7A4DE11A, case 286: SQLite folds `x IS NULL`
  // to 0 (and `IS NOT NULL` to 1) when x is a NOT NULL column or the rowid alias — visible on the
  // NULL row an aggregate over no rows produces.
  @Test func isNullOfANotNullColumnIsFoldedToAConstant() throws {
    let t = TableSchema("t", columns: [.column("y", .null(.blob)), .column("n", .real)])
    let having: [FuzzOperation] = [
      .select(
        SelectStatement(
          table: "t", columns: [.aggregate(.total, .column("y"), distinct: false)],
          having: .isNull(.column("n"), negated: false)))
    ]
    #expect(try RegressionCase.sqliteAnswer([t], having) == .result(StatementResult()))
    RegressionCase.expectAgreement([t], having)

    let k = TableSchema("k", columns: [.column("x", .integer, primaryKey: true)])
    let rowidAlias: [FuzzOperation] = [
      .select(
        SelectStatement(
          table: "k", columns: [.isNull(.column("x"), negated: true), .aggregate(.avg, .rowid, distinct: false)]))
    ]
    #expect(try RegressionCase.sqliteAnswer([k], rowidAlias) == .result(StatementResult(rows: [[.integer(1), .null]])))
    RegressionCase.expectAgreement([k], rowidAlias)
  }

  // Seed 0x7A4DE11A, case 535; seed 0x3039, case 1759: when AUTOINCREMENT runs out of rowids
  // ("database or disk is full") in an INSERT OR REPLACE / OR IGNORE, SQLite rolls back the whole
  // transaction, not just the statement (such statements run without a statement journal).
  @Test func fullAutoincrementInInsertOrReplaceRollsBackTheTransaction() throws {
    let t = TableSchema("t", columns: [.column("y", .null(.text)), .column("b", .integer, primaryKey: .autoincrement)])
    let operations: [FuzzOperation] = [
      .savepoint(
        [
          .insert("t", ["y"], [["q"]]),
          .insert("t", ["b"], [[9_223_372_036_854_775_806], [nil], [nil]], .replace),
        ], rollback: false)
    ]
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    try? db.transaction { connection in
      try connection.execute(.insert(InsertStatement(table: "t", columns: ["y"], rows: [[.literal("q")]])))
      _ = try? connection.execute(
        .insert(
          InsertStatement(
            table: "t", columns: ["b"],
            rows: [[.literal(9_223_372_036_854_775_806)], [.literal(nil)], [.literal(nil)]],
            conflict: .replace)))
    }
    let count = SelectStatement(table: "t", columns: [.aggregate(.count, nil, distinct: false)])
    #expect(try db.execute(.select(count)).rows == [[0]])
    RegressionCase.expectAgreement([t], operations)
  }

  // Seed 0x309, case 778: an INSERT OR IGNORE whose row is ignored (NOT NULL) still uses up the
  // AUTOINCREMENT number it took; the next single-row INSERT then finds the rowids exhausted, and
  // as it runs without a statement journal, SQLITE_FULL rolls back the whole transaction.
  @Test func ignoredRowUsesUpItsAutoincrementNumber() throws {
    // (Through `Database(.tandem)` too: see `transactionEndedBySQLiteIsReportedAlike`.)
    let t = TableSchema(
      "t",
      columns: [.column("n", .integer, primaryKey: .autoincrement), .column("c", .real), .column("r", .null(.text))])
    let operations: [FuzzOperation] = [
      .insert("t", ["n", "c"], [[9_223_372_036_854_775_806, 1]]),
      .insert("t", [], [[]], .ignore),
      .savepoint([.insert("t", ["n", "c"], [[5, -1]]), .insert("t", ["r"], [[3.0]])], rollback: false),
    ]
    RegressionCase.expectAgreement([t], operations)
  }

  // Relational seed 0xC0FFEE43, case 801041 (a fault of the pair runner, not of an engine): after
  // SQLITE_FULL ended the transaction, a nested savepoint fails to open on both engines, but the
  // runner opened the second engine's only inside the first's, and counted it as opened.
  @Test func aSavepointNeitherEngineCanOpenAgrees() throws {
    let t = TableSchema(
      "t", columns: [.column("n", .integer, primaryKey: .autoincrement), .column("c", .null(.integer))])
    let operations: [FuzzOperation] = [
      .insert("t", ["n"], [[9_223_372_036_854_775_807]]),
      .savepoint([.insert("t", ["c"], [[-475]]), .savepoint([], rollback: false)], rollback: false),
    ]
    RegressionCase.expectAgreement([t], operations)
  }

  // Seed 0x3039, case 630: an INSERT OR IGNORE that fails on its second row (a rowid alias given
  // text: "datatype mismatch") inside a transaction. Raw SQLite runs OR IGNORE without a
  // statement journal and would keep the first row; both backends undo the whole statement.
  @Test func failedInsertOrIgnoreLeavesNothingInATransaction() {
    let t = TableSchema("t", columns: [.column("y", .integer, primaryKey: true), .column("c", .text)])
    RegressionCase.expectAgreement(
      [t],
      [
        .savepoint(
          [.insert("t", ["y", "c"], [[3_037_000_500, .blob(Data("12".utf8))], ["''", "É"]], .ignore)], rollback: false)
      ])
  }

  // Seed 0x7A4DE11A, case 1123: `excluded.x` holds the proposed value after the column's affinity
  // ('10.0' as TEXT here), so the DO UPDATE sets x to 0 and collides with the row holding '0'.
  @Test func upsertExcludedValueHasTheColumnAffinity() throws {
    let t = TableSchema("t", columns: [.column("x", .null(.text), unique: true)])
    let upsert = Statement.insert(
      InsertStatement(
        table: "t", columns: ["x"], rows: [[.literal(10.0)]],
        conflict: .update(
          target: ["x"], assignments: [Assignment(column: "x", value: .binary(.less, .excluded("x"), .literal(100)))])))
    let operations: [FuzzOperation] = [.insert("t", ["x"], [[10.0], ["0"]]), .statement(upsert, parameters: [:])]
    guard case .failure(let failure) = try RegressionCase.sqliteAnswer([t], operations) else {
      Issue.record("SQLite accepted the upsert")
      return
    }
    #expect(failure.message == "UNIQUE constraint failed: t.x")
    RegressionCase.expectAgreement([t], operations)
  }

  // Seed 0x3039, cases 3141, 4656, 5384, 5789, 2477: SQLite turns `x IN ()` into the integer
  // literal 0 while parsing. So in ORDER BY, `(… AND (x IN ()))` folds to the ordinal 0 ("1st ORDER
  // BY term out of range"); `v IS (x IN ())` means `v IS FALSE`; and x is never resolved, so an
  // unknown column inside an empty IN is no error.
  @Test func emptyInListIsTheLiteralZero() throws {
    let t = TableSchema("t", columns: [.column("v", .text), .column("x", .null(.real))])
    let fill: FuzzOperation = .insert("t", ["v"], [["é"]])
    let ordered: [FuzzOperation] = [
      fill,
      .select(
        SelectStatement(
          table: "t", columns: [.column("v")],
          orderBy: [
            OrderingTerm(
              .binary(
                .and, .inList(.literal(12), [], negated: false), .binary(.greaterOrEqual, .column("v"), .column("x"))),
              descending: true),
            OrderingTerm(.rowid),
          ])),
    ]
    guard case .failure(let failure) = try RegressionCase.sqliteAnswer([t], ordered) else {
      Issue.record("SQLite accepted the ORDER BY")
      return
    }
    #expect(failure.message == "1st ORDER BY term out of range - should be between 1 and 1")
    RegressionCase.expectAgreement([t], ordered)

    let isFalse: [FuzzOperation] = [
      fill,
      .select(
        SelectStatement(
          table: "t", columns: [.column("v")],
          filter: .binary(.is, .column("v"), .inList(.column("x"), [], negated: false)),
          orderBy: [OrderingTerm(.rowid)])),
    ]
    #expect(try RegressionCase.sqliteAnswer([t], isFalse) == .result(StatementResult(rows: [["é"]])))
    RegressionCase.expectAgreement([t], isFalse)

    let unresolved: [FuzzOperation] = [
      fill,
      .statement(
        .update(
          UpdateStatement(
            table: "t", assignments: [Assignment(column: "v", value: .literal("z"))],
            filter: .inList(.column("no_such_column"), [], negated: false))), parameters: [:]),
    ]
    #expect(try RegressionCase.sqliteAnswer([t], unresolved) == .result(StatementResult()))
    RegressionCase.expectAgreement([t], unresolved)

    // Seed 0x309, case 2320: `min(x) IN ()` is the constant 0, so the query is no aggregate and
    // an empty table gives no row at all.
    let notAggregate: [FuzzOperation] = [
      .select(
        SelectStatement(
          table: "t", columns: [.inList(.aggregate(.min, .column("x"), distinct: false), [], negated: false)]))
    ]
    #expect(try RegressionCase.sqliteAnswer([t], notAggregate) == .result(StatementResult()))
    RegressionCase.expectAgreement([t], notAggregate)
  }

  // Seed 0x3039, cases 1305, 5652: an unknown column in an upsert's DO UPDATE SET is no error
  // while no row conflicts (SQLite accepts the statement and inserts).
  @Test func unknownColumnInDoUpdateIsNoErrorWithoutAConflict() throws {
    let t = TableSchema(
      "t",
      columns: [.column("d", .null(.integer)), .column("id", .integer, primaryKey: true), .column("f", .null(.text))])
    let operations: [FuzzOperation] = [
      .statement(
        .insert(
          InsertStatement(
            table: "t", columns: ["f"], rows: [[.literal(1e308)]],
            conflict: .update(target: ["id"], assignments: [Assignment(column: "d", value: .column("no_such_column"))]))
        ),
        parameters: [:])
    ]
    #expect(
      try RegressionCase.sqliteAnswer([t], operations) == .result(StatementResult(lastInsertRowid: 1, changes: 1)))
    RegressionCase.expectAgreement([t], operations)
  }

  // Seed 0x3039, case 4096: `x BETWEEN low AND high` stops when `x >= low` is false, so an error
  // in `high` (here an empty ESCAPE) is never raised.
  @Test func betweenSkipsTheUpperBoundWhenTheLowerFails() throws {
    let t = TableSchema("t", columns: [.column("v", .null(.real))])
    let operations: [FuzzOperation] = [
      .insert("t", ["v"], [["9223372036854775807"]]),
      .select(
        SelectStatement(
          table: "t", columns: [.column("v")],
          filter: .between(
            .unary(.negate, .column("v")), .column("v"),
            .like(.literal("9223372036854775808"), pattern: .literal("."), escape: .literal(""), negated: false),
            negated: false),
          orderBy: [OrderingTerm(.rowid)])),
    ]
    #expect(try RegressionCase.sqliteAnswer([t], operations) == .result(StatementResult()))
    RegressionCase.expectAgreement([t], operations)
  }

  // Seed 0x309, case 184: rows that OFFSET skips are never computed, so an error in a result
  // column of such a row (an ESCAPE of two characters) is never raised.
  @Test func rowsSkippedByOffsetAreNotEvaluated() throws {
    let t = TableSchema("t", columns: [.column("v", .null(.integer))])
    let operations: [FuzzOperation] = [
      .select(
        SelectStatement(
          table: "t",
          columns: [
            .binary(
              .concatenate, .like(.literal("a_b"), pattern: .literal(""), escape: .literal("ab"), negated: false),
              .aggregate(.max, .literal(-9.223372036854776e18), distinct: false))
          ], limit: .literal(-1), offset: .literal(" 3 ")))
    ]
    #expect(try RegressionCase.sqliteAnswer([t], operations) == .result(StatementResult()))
    RegressionCase.expectAgreement([t], operations)
  }


  // Seed 0x3039, case 1786: text made from a blob that is not valid UTF-8 (`text || blob`) is
  // compared by its raw bytes in SQLite; a Swift String can only hold repaired bytes, so the
  // memory engine refuses to make such text (unsupported) instead of answering differently.
  @Test func textFromInvalidUTF8BlobIsRefused() throws {
    let t = TableSchema("t", columns: [.column("b", .blob)])
    let operations: [FuzzOperation] = [
      .insert("t", ["b"], [[.blob(Data([0xFF, 0x00]))], [.blob(Data([0x86, 0x30, 0x95]))]]),
      .select(
        SelectStatement(
          table: "t", columns: [.rowid],
          orderBy: [OrderingTerm(.binary(.concatenate, .literal("x"), .column("b"))), OrderingTerm(.rowid)])),
    ]
    #expect(try RegressionCase.sqliteAnswer([t], operations) == .result(StatementResult(rows: [[2], [1]])))
    #expect(try RegressionCase.memoryAnswer([t], operations).unsupportedFeature != nil)

    // Seed 0xBEEF, case 2018: replace() over such a blob gives its bytes back unchanged.
    let replaced: [FuzzOperation] = [
      .insert("t", ["b"], [[.blob(Data([0xFF, 0x00]))]]),
      .select(
        SelectStatement(
          table: "t", columns: [.cast(.function(.replace, [.column("b"), .literal("\\"), .literal(42)]), as: .blob)],
          orderBy: [OrderingTerm(.rowid)])),
    ]
    #expect(try RegressionCase.sqliteAnswer([t], replaced) == .result(StatementResult(rows: [[.blob(Data([0xFF, 0x00]))]])))
    #expect(try RegressionCase.memoryAnswer([t], replaced).unsupportedFeature != nil)

    // Valid UTF-8 blob bytes read as text are exact, and agree.
    let valid: [FuzzOperation] = [
      .insert("t", ["b"], [[.blob(Data("é".utf8))], [.blob(Data("e".utf8))]]),
      .select(
        SelectStatement(
          table: "t", columns: [.binary(.concatenate, .literal("x"), .column("b")), .function(.upper, [.column("b")])],
          orderBy: [OrderingTerm(.binary(.concatenate, .literal("x"), .column("b")))])),
    ]
    RegressionCase.expectAgreement([t], valid)
  }


  // Seed 0xBEEF, case 1154: LIKE with a BLOB operand is 0 before its ESCAPE is checked, while a
  // NULL operand with a bad ESCAPE is an error; SQLite stops at LIMIT, so the fifth row (NULL)
  // is never evaluated and the query succeeds.
  @Test func rowsAfterTheLimitAreNotEvaluated() throws {
    let t = TableSchema("t", columns: [.column("y", .null(.blob))])
    let operations: [FuzzOperation] = [
      .insert("t", ["y"], [[.blob(Data("abc".utf8))], [.blob(Data([0x61, 0x00]))], [.blob(Data())], [.blob(Data([0x20]))], [nil]]),
      .select(
        SelectStatement(
          table: "t", columns: [.rowid],
          filter: .binary(
            .greaterOrEqual, .literal(.blob(Data("abc".utf8))),
            .like(.column("y"), pattern: .literal("ä_%"), escape: .literal("ab"), negated: false)),
          orderBy: [OrderingTerm(.rowid)], limit: .literal(4))),
    ]
    #expect(try RegressionCase.sqliteAnswer([t], operations) == .result(StatementResult(rows: [[1], [2], [3], [4]])))
    RegressionCase.expectAgreement([t], operations)
  }

  // Seed 0xBEEF, case 2155: `rowid = value` finds a row only when the value converts to an
  // integer strictly inside the Int64 range (`sqlite3VdbeIntegerAffinity`); -9223372036854775808.0 (here from the text
  // '-9223372036854775809') never matches, though `=` elsewhere calls them equal.
  @Test func rowidLookupNeverMatchesTheSmallestReal() throws {
    let t = TableSchema("t", columns: [.column("e", .integer, primaryKey: true), .column("y", .real)])
    let operations: [FuzzOperation] = [
      .insert("t", ["e", "y"], [[.integer(.min), 10]]),
      .statement(
        .delete(DeleteStatement(table: "t", filter: .binary(.equal, .column("e"), .literal("-9223372036854775809")))),
        parameters: [:]),
    ]
    #expect(try RegressionCase.sqliteAnswer([t], operations) == .result(StatementResult()))
    RegressionCase.expectAgreement([t], operations)
  }

  // Seed 0x3039, cases 321, 956, 1705, 5841: a bare column in an aggregate query takes its value
  // from the first row visited. SQLite used to visit a covering index (here the one on k, v) in
  // index order; aggregates now run NOT INDEXED on SQLite, so both engines visit rowid order.
  @Test func bareColumnComesFromTheFirstRowInRowidOrder() throws {
    let t = TableSchema(
      "t", columns: [.column("n", .text), .column("v", .null(.integer)), .column("k", .null(.text))],
      indexes: [.index(on: ["k", "v"])])
    let operations: [FuzzOperation] = [
      .insert("t", ["n", "v"], [["a*", 3], ["0.1", -9_223_372_036_854_775_807]]),
      .select(
        SelectStatement(
          table: "t", columns: [.column("v"), .aggregate(.count, nil, distinct: false)], groupBy: [.literal(0.1)],
          orderBy: [OrderingTerm(.literal(0.1))])),
    ]
    #expect(try RegressionCase.sqliteAnswer([t], operations) == .result(StatementResult(rows: [[3, 2]])))
    RegressionCase.expectAgreement([t], operations)
  }

  // Seed 0x309, cases 1269, 1872: sum() raises "integer overflow" only if the overflowing integers
  // come before the first non-integer, so the visiting order matters; with aggregates NOT INDEXED
  // SQLite sums in rowid order ('3', then the blob, which makes the sum REAL) like the memory engine.
  @Test func sumVisitsRowsInRowidOrder() throws {
    let t = TableSchema(
      "t", columns: [.column("e", .real), .column("d", .null(.text)), .column("y", .null(.blob))],
      indexes: [.index(on: ["d", "y"])])
    let operations: [FuzzOperation] = [
      .insert("t", ["d", "e"], [["3", 0]]),
      .insert("t", ["e", "d"], [[7, .blob(Data("1.5".utf8))], [.real(.infinity), 9_223_372_036_854_775_806]]),
      .select(SelectStatement(table: "t", columns: [.aggregate(.sum, .column("d"), distinct: false)])),
    ]
    guard case .result(let result) = try RegressionCase.sqliteAnswer([t], operations), case .real? = result.rows.first?.first
    else {
      Issue.record("SQLite's sum in rowid order should be a REAL")
      return
    }
    RegressionCase.expectAgreement([t], operations)
  }

  // Record-API fuzzer, seed 0x7A4DE11A, case 18: after a row with rowid 9223372036854775807,
  // SQLite gives a new row a random rowid, which the memory engine cannot reproduce. It used to
  // refuse at once; SQLite's answer is deterministic while the row fails a constraint or is
  // ignored, so the engine now refuses only a row that would be written.
  @Test func randomRowidIsRefusedOnlyForARowThatIsWritten() throws {
    let t = TableSchema(
      "t", columns: [.column("id", .integer, primaryKey: true), .column("code", .null(.text), unique: true)])
    let setup = FuzzOperation.insert("t", ["id", "code"], [[.integer(.max), "a"]])
    let duplicate: [FuzzOperation] = [setup, .insert("t", ["code"], [["a"]])]
    #expect(try RegressionCase.sqliteAnswer([t], duplicate).unsupportedFeature == nil)
    RegressionCase.expectAgreement([t], duplicate)
    RegressionCase.expectAgreement([t], [setup, .insert("t", ["code"], [["a"]], .ignore)])
    RegressionCase.expectAgreement([t], [setup, .insert("t", ["code"], [["a"]], .nothing(target: ["code"]))])

    let written: [FuzzOperation] = [setup, .insert("t", ["code"], [["b"]])]
    guard case .result(let result) = try RegressionCase.sqliteAnswer([t], written) else {
      Issue.record("SQLite inserts the row with a random rowid")
      return
    }
    #expect(result.changes == 1 && result.lastInsertRowid != .max)
    #expect(try RegressionCase.memoryAnswer([t], written).unsupportedFeature != nil)
    let upserted: [FuzzOperation] = [
      setup, .insert("t", ["code"], [["a"]], .update(target: ["code"], assignments: [Assignment(column: "code", value: .literal("z"))])),
    ]
    #expect(try RegressionCase.memoryAnswer([t], upserted).unsupportedFeature != nil)
  }

  // Tandem-mode fuzzing, seed 0x3333, case 654: SQLITE_FULL from a statement without a statement
  // journal ends SQLite's whole transaction, savepoints included. A `transaction {}` whose body
  // caught that error then cannot commit: both engines must say so the same way, and the
  // database must hold what it held before the transaction.
  @Test func transactionEndedBySQLiteIsReportedAlike() throws {
    let t = TableSchema("t", columns: [.column("n", .integer, primaryKey: .autoincrement), .column("r", .null(.text))])
    var answers: [String] = []
    for storage in [Database.Storage.sqliteInMemory, .memory, .tandem] {
      let db = try Database(storage)
      try db.create(t)
      try db.execute(.insert(InsertStatement(table: "t", columns: ["n"], rows: [[.literal(.integer(.max))]])))
      let error = try #require(throws: TandemError.self) {
        try db.transaction { connection in
          try connection.execute(.insert(InsertStatement(table: "t", columns: ["r"], rows: [[.literal("kept?")]])))
        }
      }
      #expect(error.message == "database or disk is full")
      let afterFull = try #require(throws: TandemError.self) {
        try db.transaction { connection in
          _ = try? connection.execute(.insert(InsertStatement(table: "t", columns: ["r"], rows: [[.literal("a")]])))
          try connection.execute(.insert(InsertStatement(table: "t", columns: ["n", "r"], rows: [[.literal(1), .literal("b")]])))
        }
      }
      #expect(afterFull.kind != .divergence, "\(storage): \(afterFull)")
      answers.append("\(afterFull.kind) \(afterFull.message)")
      #expect(try db.execute(.select(SelectStatement(table: "t", columns: [.rowid, .column("r")]))).rows == [[.integer(.max), nil]])
    }
    #expect(Set(answers).count == 1, "\(answers)")
  }

  // Seed 0x9999, case 1388: SQLite reads `ORDER BY u` from u's UNIQUE index, and its OFFSET skips
  // the row before abs(u) is evaluated, so abs(-2^63) never overflows; a sort would evaluate it.
  // The memory engine follows SQLite's plan (it once refused such an error); without the index,
  // both sort and both report the overflow.
  @Test func errorInARowAnIndexOrderedOffsetSkipsFollowsThePlan() throws {
    let indexed = TableSchema("t", columns: [.column("u", .null(.integer), unique: true)])
    let plain = TableSchema("t", columns: [.column("u", .null(.integer))])
    let select = FuzzOperation.select(
      SelectStatement(
        table: "t", columns: [.function(.abs, [.column("u")])],
        orderBy: [OrderingTerm(.column("u"), nulls: .last), OrderingTerm(.rowid)], limit: .literal(-1), offset: .literal(3)))
    let operations: [FuzzOperation] = [.insert("t", ["u"], [[.integer(.min)]]), select]
    #expect(try RegressionCase.sqliteAnswer([indexed], operations) == .result(StatementResult()))
    RegressionCase.expectAgreement([indexed], operations)
    RegressionCase.expectAgreement([plain], operations)
    if case .failure(let failure) = try RegressionCase.sqliteAnswer([plain], operations) {
      #expect(failure.message == "integer overflow")
    } else {
      Issue.record("without an index SQLite sorts, and evaluates abs() for every row")
    }
  }

  // Seed 0xABCD, case 11671: `rowid IN (…)` seeks each value's rowid like `rowid = value` does
  // (a single constant is even parsed as `=`), so a REAL equal to -2^63 finds nothing there
  // either, though `=` elsewhere calls them equal.
  @Test func rowidInListSeeksLikeEquality() throws {
    let t = TableSchema(
      "t", columns: [.column("v", .text), .column("w", .null(.text)), .column("a", .integer, primaryKey: true)])
    let setup = FuzzOperation.insert("t", ["v", "a"], [[.blob(Data([0x31])), .integer(.min)]])
    for list: [SqliteValue] in [["-9223372036854775809"], ["-9223372036854775809", "_"], [-9.223372036854775808e18, 1, nil]] {
      let update = FuzzOperation.statement(
        .update(
          UpdateStatement(
            table: "t", assignments: [Assignment(column: "v", value: .column("w"))],
            filter: .inList(.column("a"), list.map(SQLExpression.literal), negated: false))),
        parameters: [:])
      #expect(try RegressionCase.sqliteAnswer([t], [setup, update]) == .result(StatementResult()))
      RegressionCase.expectAgreement([t], [setup, update])
    }
  }

  // Seed 0x5EED0901, case 9395: in a grouped query sorted after grouping, `c IN (3+ values)` on a
  // REAL column applies REAL affinity in place to the group's register for c, and the sorter
  // stores the whole number it then holds as an INTEGER: SQLite answers 100, not 100.0. The
  // memory engine refuses that shape; with two values, or sorted by the groups, both agree.
  @Test func inListOnAGroupedRealColumnRetypesItBeforeTheSorter() throws {
    let t = TableSchema("t", columns: [.column("c", .null(.real))])
    let setup = FuzzOperation.insert("t", ["c"], [[.real(100)]])
    func select(_ list: [SqliteValue], orderBy: [OrderingTerm]) -> FuzzOperation {
      .select(
        SelectStatement(
          table: "t", columns: [.column("c"), .inList(.column("c"), list.map(SQLExpression.literal), negated: false)],
          groupBy: [.literal(.text("k")), .column("c")], orderBy: orderBy))
    }
    let sorted = select(["x", "y", 126.0], orderBy: [OrderingTerm(.literal(.text("k"))), OrderingTerm(.column("c"))])
    guard case .result(let answer) = try RegressionCase.sqliteAnswer([t], [setup, sorted]) else {
      Issue.record("SQLite failed")
      return
    }
    #expect(answer.rows == [[.integer(100), .integer(0)]])
    #expect(try RegressionCase.memoryAnswer([t], [setup, sorted]).unsupportedFeature != nil)
    RegressionCase.expectAgreement(
      [t], [setup, select(["x", 126.0], orderBy: [OrderingTerm(.literal(.text("k"))), OrderingTerm(.column("c"))])])
    RegressionCase.expectAgreement([t], [setup, select(["x", "y", 126.0], orderBy: [])])
  }

  // Seed 0x5EED0903: a HAVING term moved into a WHERE that SQLite's resolver made always false
  // (`n IS NULL` on a NOT NULL column) is joined by `sqlite3ExprAnd`, which folds the pair to 0:
  // no term is left to search the rowid with, so SQLite scans.
  @Test func havingTermMovedIntoAFalseWhereLeavesNothingToSearch() throws {
    let t = TableSchema("t", columns: [.column("n", .real)])
    let select = FuzzOperation.select(
      SelectStatement(
        table: "t", columns: [.aggregate(.sum, .column("n"), distinct: false)], filter: .isNull(.column("n"), negated: false),
        groupBy: [.rowid], having: .binary(.is, .rowid, .literal(7)), orderBy: [OrderingTerm(.rowid)]))
    RegressionCase.expectAgreement([t], [.insert("t", ["n"], [[1.5]]), select])
  }

  // Seed 0x5EED0904, case 187: SQLite resolves the WHERE clause before a HAVING term moved into
  // it folds it away, so an unknown column there is still an error.
  @Test func whereFoldedAwayByAMovedHavingTermStillReportsItsErrors() throws {
    let t = TableSchema("t", columns: [.column("y", .text)])
    let select = FuzzOperation.select(
      SelectStatement(
        table: "t", columns: [.aggregate(.count, nil, distinct: false)], filter: .column("no_such_column"),
        groupBy: [.column("y")], having: .isNull(.column("y"), negated: false), orderBy: [OrderingTerm(.column("y"))]))
    guard case .failure(let failure) = try RegressionCase.sqliteAnswer([t], [select]) else {
      Issue.record("SQLite answered")
      return
    }
    #expect(failure.message == "no such column: no_such_column")
    RegressionCase.expectAgreement([t], [select])
  }

  // Seed 0x5EED0905, case 4774: SQLite's WHERE analysis turns `x IS NULL` into FALSE when x,
  // COLLATE or unary plus aside, cannot be NULL (the resolver already does for a bare column):
  // the term no longer pins x for the ORDER BY, and, being constant, stops the loop before any
  // row is read.
  @Test func isNullOnACollatedNotNullColumnIsFalseBeforeTheLoop() throws {
    let t = TableSchema(
      "t", columns: [.column("c", .integer, primaryKey: true), .column("n", .integer)], indexes: [.index(on: ["c"])])
    let rows = FuzzOperation.insert("t", ["c", "n"], [[1, .integer(.min)], [2, 3]])
    for operand in [SQLExpression.collate(.column("c"), .nocase), .unary(.plus, .column("c"))] {
      let pinned = FuzzOperation.select(
        SelectStatement(
          table: "t", columns: [.literal(1)], filter: .isNull(operand, negated: false),
          orderBy: [OrderingTerm(.column("c")), OrderingTerm(.binary(.add, .column("c"), .literal(1))), OrderingTerm(.rowid)]))
      RegressionCase.expectAgreement([t], [rows, pinned])
      // abs(-2^63) would overflow on the first row, if a row were read.
      let overflow = FuzzOperation.select(
        SelectStatement(
          table: "t", columns: [.rowid],
          filter: .binary(.and, .binary(.greater, .function(.abs, [.column("n")]), .literal(0)), .isNull(operand, negated: false))))
      #expect(try RegressionCase.sqliteAnswer([t], [rows, overflow]) == .result(StatementResult()))
      RegressionCase.expectAgreement([t], [rows, overflow])
    }
  }

  // Seed 0x5EED0906, case 10403: the parser folds `b IN ()` to a constant before it reads the
  // IN around it, so `a IN ((b IN ()))` is a one-value IN, which it rewrites to `a = +(…)`: an
  // equality on a unique column, one row, no sorting.
  @Test func inListOfAFoldedEmptyInIsAnEquality() throws {
    let t = TableSchema("t", columns: [.column("b", .null(.text)), .column("a", .blob, primaryKey: true)])
    let select = FuzzOperation.select(
      SelectStatement(
        table: "t", columns: [.column("a")],
        filter: .inList(.column("a"), [.inList(.column("b"), [], negated: false)], negated: false),
        orderBy: [OrderingTerm(.rowid)]))
    RegressionCase.expectAgreement([t], [.insert("t", ["b", "a"], [["x", 0], ["y", 1]]), select])
  }

  // Seed 0x7A4DE11A, case 622 (once the generator wrote seekable terms): SQLite runs the branch
  // `v = ?` of a DELETE's or UPDATE's MULTI-INDEX OR through an index on the rowid alias v as
  // `(v=? AND rowid=?)`, an equality on the rowid every index entry ends with; the memory engine
  // followed the plan but read a column past the index's own and crashed.
  @Test func indexEqualityOnTheRowidAfterTheIndexedColumns() throws {
    let t = TableSchema(
      "t", columns: [.column("v", .integer, primaryKey: true), .column("d", .text)],
      indexes: [IndexSchema(columns: ["v"])])
    let setup = FuzzOperation.insert("t", ["v", "d"], [[1, "a"], [2, "b"], [5, "c"], [7, "d"]])
    for value: SqliteValue in [1, 2.0, 1.5, "1e", "5", nil] {
      let filter = SQLExpression.binary(
        .or, .binary(.equal, .column("v"), .literal(value)), .binary(.greater, .column("v"), .literal(6)))
      let update = FuzzOperation.statement(
        .update(UpdateStatement(table: "t", assignments: [Assignment(column: "d", value: .literal("x"))], filter: filter)),
        parameters: [:])
      let delete = FuzzOperation.statement(.delete(DeleteStatement(table: "t", filter: filter)), parameters: [:])
      RegressionCase.expectAgreement([t], [setup, update, delete])
    }
    let list = SQLExpression.binary(
      .or, .inList(.column("v"), [.literal(1), .literal(5), .literal(2.0)], negated: false),
      .binary(.greater, .column("v"), .literal(6)))
    RegressionCase.expectAgreement([t], [setup, .statement(.delete(DeleteStatement(table: "t", filter: list)), parameters: [:])])
    let delete = Statement.delete(
      DeleteStatement(
        table: "t",
        filter: .binary(.or, .binary(.equal, .column("v"), .literal(1)), .binary(.greater, .column("v"), .literal(6)))))
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    #expect(
      try db.queryPlan(for: delete) == [
        "MULTI-INDEX OR", "  INDEX 1", "    SEARCH t USING COVERING INDEX t_on_v (v=? AND rowid=?)", "  INDEX 2",
        "    SEARCH t USING COVERING INDEX t_on_v (v>?)",
      ])
    guard case .result(let result) = try RegressionCase.sqliteAnswer([t], [setup, .statement(delete, parameters: [:])]) else {
      Issue.record("SQLite deletes rows 1 and 7")
      return
    }
    #expect(result.changes == 2)
  }

  // Seed 0x7A4DE11A, case 2284: SQLite's parser drops the operand of `x IN ()`, so x is not a
  // column the statement reads and an index without it still covers the query; the memory
  // engine counted x and described (and costed) the index as not covering.
  @Test func emptyInListReadsNoColumn() throws {
    let t = TableSchema("t", columns: [.column("x", .null(.real)), .column("y", .null(.integer), unique: true)])
    let select = Statement.select(
      SelectStatement(
        table: "t", columns: [.inList(.column("x"), [], negated: false)],
        orderBy: [OrderingTerm(.column("y")), OrderingTerm(.rowid)]))
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    #expect(try db.queryPlan(for: select) == ["SCAN t USING COVERING INDEX sqlite_autoindex_t_1"])
    RegressionCase.expectAgreement(
      [t], [.insert("t", ["x", "y"], [[1.5, 2], [nil, 1]]), .statement(select, parameters: [:])])

    // Seed 0x7A4DE11A, case 3358: nor does an AND the parser folds to 0 because one side is
    // `x IN ()`: `(v IN ()) AND "index"` reads neither v nor "index".
    let kids = TableSchema(
      "kids", columns: [.column("v", .integer, primaryKey: true), .column("index", .null(.text))],
      indexes: [IndexSchema(columns: ["v"])])
    let folded = Statement.select(
      SelectStatement(
        table: "kids", columns: [.column("v")],
        filter: .binary(.and, .inList(.column("v"), [], negated: false), .column("index")), orderBy: [OrderingTerm(.rowid)]))
    try db.create(kids)
    #expect(try db.queryPlan(for: folded) == ["SCAN kids USING COVERING INDEX kids_on_v"])
    RegressionCase.expectAgreement([kids], [.insert("kids", ["v", "index"], [[1, "a"]]), .statement(folded, parameters: [:])])
  }

  // Seed 0x7A4DE11A, cases 3688 and 4120: SQLite moves HAVING terms that read only GROUP BY
  // terms into WHERE, but never one that is always false (`c IN ()`, or an AND folded to 0).
  // Kept in HAVING, it lets the groups be formed: a sum() that overflows still fails, and a
  // constant WHERE that fails is still evaluated. The memory engine moved it and cut the
  // statement short, returning no rows.
  @Test func alwaysFalseHavingTermStaysInHaving() throws {
    let t = TableSchema("t", columns: [.column("a", .null(.blob)), .column("e", .null(.integer))])
    let setup = FuzzOperation.insert("t", ["e"], [[9_007_199_254_740_993], [9_223_372_036_854_775_806]])
    let empty = SQLExpression.inList(.column("a"), [], negated: false)
    for having in [empty, .binary(.and, empty, .column("a"))] {
      let select = FuzzOperation.select(
        SelectStatement(
          table: "t", columns: [.aggregate(.sum, .column("e"), distinct: false)], groupBy: [.column("a")], having: having,
          orderBy: [OrderingTerm(.column("a"))]))
      guard case .failure(let failure) = try RegressionCase.sqliteAnswer([t], [setup, select]) else {
        Issue.record("SQLite sums the group and overflows")
        continue
      }
      #expect(failure.message == "integer overflow")
      RegressionCase.expectAgreement([t], [setup, select])
    }
    let constantWhere = FuzzOperation.select(
      SelectStatement(
        table: "t", columns: [.aggregate(.sum, .column("a"), distinct: false)],
        filter: .function(.abs, [.literal(.integer(.min))]), groupBy: [.column("e")],
        having: .inList(.column("e"), [], negated: false)))
    if case .failure(let failure) = try RegressionCase.sqliteAnswer([t], [constantWhere]) {
      #expect(failure.message == "integer overflow")
    } else {
      Issue.record("SQLite evaluates the constant WHERE once, before the (empty) loop")
    }
    RegressionCase.expectAgreement([t], [constantWhere])
    // A term under COLLATE is not marked always false: it moves, and the loop never runs.
    let collated = FuzzOperation.select(
      SelectStatement(
        table: "t", columns: [.aggregate(.sum, .column("e"), distinct: false)], groupBy: [.column("a")],
        having: .collate(empty, .nocase)))
    #expect(try RegressionCase.sqliteAnswer([t], [setup, collated]) == .result(StatementResult()))
    RegressionCase.expectAgreement([t], [setup, collated])
  }

  // Seed 0xBEEF, case 4483: `w GLOB :a OR w GLOB :b` with two patterns of the same prefix. Each
  // GLOB's range bounds are string literals in SQLite, so whereCombineDisjuncts finds the two
  // lower (and the two upper) bounds equal and adds them as terms of the WHERE: one range
  // search, no MULTI-INDEX OR. The memory engine compared the bounds as bound values (never
  // equal) and planned the OR.
  @Test func samePatternPrefixesCombineIntoOneRange() throws {
    let t = TableSchema(
      "t", columns: [.column("y", .null(.integer)), .column("w", .null(.integer), primaryKey: true), .column("z", .null(.text), unique: true)])
    func either(_ column: String, _ a: String, _ b: String) -> Statement {
      .select(
        SelectStatement(
          table: "t", columns: [.column("y")],
          filter: .binary(.or, .glob(.column(column), pattern: .parameter("a"), negated: false), .glob(.column(column), pattern: .parameter("b"), negated: false)),
          orderBy: [OrderingTerm(.rowid)]))
    }
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    #expect(
      try db.queryPlan(for: either("w", "a", "a"), parameters: ["a": "a*", "b": "a*"]) == ["SEARCH t USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"])
    #expect(
      try db.queryPlan(for: either("z", "a", "b"), parameters: ["a": "ab*", "b": "ab?"])
        == ["SEARCH t USING INDEX sqlite_autoindex_t_1 (z>? AND z<?)", "USE TEMP B-TREE FOR ORDER BY"])
    let setup = FuzzOperation.insert("t", ["y", "w", "z"], [[1, 1, "abc"], [2, 2, "abd"], [3, 3, "b"], [4, 4, "e\u{301}"]])
    for (column, a, b) in [("w", "a*", "a*"), ("z", "ab*", "ab?"), ("z", "ab*", "b*"), ("z", "é*", "e\u{301}*"), ("z", "a*", "A*")] {
      RegressionCase.expectAgreement([t], [setup, .statement(either(column, a, b), parameters: ["a": .text(a), "b": .text(b)])])
    }
  }

  // Seed 0x1234, case 398: SQLite turns `d IS NOT NULL` into the range `d > NULL` an index can
  // seek only when d is a bare column; `(d COLLATE BINARY) IS NOT NULL` scans. The memory
  // engine looked through the COLLATE and searched the index.
  @Test func isNotNullUnderCollateIsNoRange() throws {
    let t = TableSchema("t", columns: [.column("d", .null(.text), unique: true), .column("e", .null(.integer))])
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    let setup = FuzzOperation.insert("t", ["d", "e"], [["a", 1], [nil, 2], ["b", 3]])
    for (operand, plan) in [
      (SQLExpression.column("d"), "SEARCH t USING INDEX sqlite_autoindex_t_1 (d>?)"),
      (.collate(.column("d"), .binary), "SCAN t"), (.collate(.column("d"), .nocase), "SCAN t"),
    ] {
      let delete = Statement.delete(DeleteStatement(table: "t", filter: .isNull(operand, negated: true)))
      #expect(try db.queryPlan(for: delete) == [plan])
      RegressionCase.expectAgreement([t], [setup, .statement(delete, parameters: [:])])
    }
  }

  // Seed 0x1234, case 2548: the WHERE analysis turns `x IS NULL` into FALSE when x cannot be
  // NULL, looking through a COLLATE: `(rowid COLLATE NOCASE) IS NULL` then pins no ORDER BY
  // term, and a covering index scan no longer delivers ORDER BY rowid; SQLite scans the table.
  // The memory engine kept the term as `rowid IS NULL` and took the index scan as ordered.
  @Test func isNullOfTheRowidUnderCollateIsFalse() throws {
    let t = TableSchema("t", columns: [.column("id", .blob, unique: true), .column("n", .text)])
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    for operand in [SQLExpression.rowid, .collate(.rowid, .nocase), .collate(.column("n"), .binary)] {
      let select = Statement.select(
        SelectStatement(
          table: "t", columns: [.literal(-1)], filter: .isNull(operand, negated: false), orderBy: [OrderingTerm(.rowid)]))
      #expect(try db.queryPlan(for: select) == ["SCAN t"])
      RegressionCase.expectAgreement(
        [t], [.insert("t", ["id", "n"], [[.blob(Data([2])), "a"], [.blob(Data([1])), "b"]]), .statement(select, parameters: [:])])
    }
    // The FALSE is tested once, before the loop: a term that would fail on a row never runs.
    let overflowOnA = SQLExpression.function(
      .abs, [.caseWhen(base: nil, branches: [CaseBranch(when: .binary(.equal, .column("n"), .literal("a")), then: .literal(.integer(.min)))], else: nil)])
    let guarded = FuzzOperation.select(
      SelectStatement(
        table: "t", columns: [.column("n")],
        filter: .binary(.and, .binary(.greater, overflowOnA, .literal(0)), .isNull(.collate(.rowid, .nocase), negated: false))))
    let operations: [FuzzOperation] = [.insert("t", ["id", "n"], [[.blob(Data([2])), "a"]]), guarded]
    #expect(try RegressionCase.sqliteAnswer([t], operations) == .result(StatementResult()))
    RegressionCase.expectAgreement([t], operations)
  }

  // Seed 0x3333, case 4591, and seed 0x9999, case 4253 (a column named "rowid"): SQLite searches an index
  // as `(w=? AND rowid>?)`, a range on the rowid every index entry ends with. The memory engine
  // followed the plan, but its key comparisons read only the indexed columns: a lower bound
  // was ignored (an UPDATE changed a row `d >= 'é'` excludes) and an upper bound ended the walk
  // at once (no rows). Entries are now tested against the rowid bounds.
  @Test func indexRangeOnTheRowidAfterTheIndexedColumns() throws {
    let t = TableSchema(
      "t", columns: [.column("d", .integer, primaryKey: true), .column("w", .null(.text))],
      indexes: [IndexSchema(columns: ["w"])])
    let setup = FuzzOperation.insert("t", ["d", "w"], [[1, "ä"], [3, "ä"], [5, "ä"], [7, "b"]])
    let w = SQLExpression.binary(.equal, .column("w"), .literal("ä"))
    let d = SQLExpression.column("d")
    let ranges: [SQLExpression] = [
      .binary(.greaterOrEqual, d, .literal("é")), .binary(.greater, d, .literal(1)), .binary(.greaterOrEqual, d, .literal(3)),
      .binary(.less, d, .literal(5)), .binary(.lessOrEqual, d, .literal(5.0)),
      .binary(.and, .binary(.greater, d, .literal(1)), .binary(.less, d, .literal(5.5))),
      .binary(.and, .binary(.greater, d, .literal(-1)), .binary(.lessOrEqual, d, .literal(3))),
    ]
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    #expect(
      try db.queryPlan(for: .update(UpdateStatement(table: "t", assignments: [Assignment(column: "w", value: .literal("x"))], filter: .binary(.and, ranges[0], w))))
        == ["SEARCH t USING INDEX t_on_w (w=? AND rowid>?)"])
    for range in ranges {
      let filter = SQLExpression.binary(.and, range, w)
      let selects = [
        Statement.select(SelectStatement(table: "t", columns: [d], filter: filter, orderBy: [OrderingTerm(.rowid)])),
        .select(
          SelectStatement(
            table: "t", columns: [d], filter: filter, orderBy: [OrderingTerm(.column("w"), descending: true), OrderingTerm(d, descending: true)])),
      ]
      for select in selects { RegressionCase.expectAgreement([t], [setup, .statement(select, parameters: [:])]) }
      let update = Statement.update(UpdateStatement(table: "t", assignments: [Assignment(column: "w", value: .literal("x"))], filter: filter))
      RegressionCase.expectAgreement([t], [setup, .statement(update, parameters: [:]), .statement(.delete(DeleteStatement(table: "t", filter: filter)), parameters: [:])])
    }

    // A table with a column named "rowid": `_rowid_` is the real rowid.
    let named = TableSchema(
      "n", columns: [.column("id", .integer), .column("rowid", .null(.blob))], indexes: [IndexSchema(columns: ["rowid"])])
    let deleted = FuzzOperation.statement(
      .delete(
        DeleteStatement(
          table: "n",
          filter: .binary(.and, .inList(.column("rowid"), [.literal(214.25)], negated: false), .binary(.greaterOrEqual, .column("_rowid_"), .literal("é"))))),
      parameters: [:])
    let operations: [FuzzOperation] = [.insert("n", ["id", "rowid"], [[0, 214.25]]), deleted]
    guard case .result(let result) = try RegressionCase.sqliteAnswer([named], operations) else {
      Issue.record("SQLite deletes nothing")
      return
    }
    #expect(result.changes == 0)
    RegressionCase.expectAgreement([named], operations)
  }

  // Seed 0xABCD, case 4386: the resolver replaces `a IS NULL` on a NOT NULL column by an
  // always-false 0. A HAVING term moved into such a WHERE is dropped with it (sqlite3ExprAnd
  // folds the AND to 0): SQLite scans where the memory engine searched the rowid range of the
  // moved `d GLOB …`. Nor does such a term move out of HAVING itself: the groups are formed, and
  // an overflowing sum() fails.
  @Test func resolvedFalseWhereAndHavingTerms() throws {
    let t = TableSchema(
      "t", columns: [.column("a", .integer), .column("b", .null(.blob)), .column("d", .null(.integer), primaryKey: true)])
    let select = Statement.select(
      SelectStatement(
        table: "t", columns: [.aggregate(.total, .column("b"), distinct: false)], filter: .isNull(.column("a"), negated: false),
        groupBy: [.column("d")], having: .glob(.column("d"), pattern: .literal("é[]][a-c]"), negated: false),
        orderBy: [OrderingTerm(.column("d"))]))
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    #expect(try db.queryPlan(for: select) == ["SCAN t"])
    RegressionCase.expectAgreement([t], [.insert("t", ["a", "b", "d"], [[1, "x", 2]]), .statement(select, parameters: [:])])

    let g = TableSchema("g", columns: [.column("g", .text), .column("e", .null(.integer))])
    let rows = FuzzOperation.insert("g", ["g", "e"], [["a", 9_223_372_036_854_775_806], ["a", 5], ["b", 1]])
    for (having, overflows) in [
      (SQLExpression.isNull(.column("g"), negated: false), true), (.isNull(.unary(.plus, .column("g")), negated: false), true),
      (.isNull(.collate(.column("g"), .nocase), negated: false), false),
    ] {
      let grouped = FuzzOperation.select(
        SelectStatement(
          table: "g", columns: [.column("g"), .aggregate(.sum, .column("e"), distinct: false)], groupBy: [.column("g")],
          having: having, orderBy: [OrderingTerm(.column("g"))]))
      var message: String?
      if case .failure(let failure) = try RegressionCase.sqliteAnswer([g], [rows, grouped]) { message = failure.message }
      #expect(message == (overflows ? "integer overflow" : nil), "\(having)")
      RegressionCase.expectAgreement([g], [rows, grouped])
    }
  }

  // Seed 0x3333, case 3690: with a unique index on the rowid alias sc, `sc IN (…)` (or an OR of
  // `=`) can serve both the index's column and the rowid after it. SQLite then searches no
  // ORDER BY term for the first column, so that loop does not deliver ORDER BY rowid, and the
  // rowid search wins; the memory engine took the index loop as ordered and chose it.
  @Test func inListServingTwoIndexColumnsDeliversNoOrder() throws {
    let t = TableSchema(
      "v", columns: [.column("sc", .null(.integer), primaryKey: true), .column("n", .null(.real))],
      indexes: [IndexSchema(columns: ["sc"], isUnique: true)])
    let sc = SQLExpression.column("sc")
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    for filter in [
      SQLExpression.inList(sc, [.literal(1), .literal(12)], negated: false),
      .binary(.or, .binary(.equal, sc, .literal(" a")), .binary(.equal, sc, .literal(12))),
    ] {
      let select = Statement.select(
        SelectStatement(table: "v", columns: [.literal(100)], filter: filter, orderBy: [OrderingTerm(.rowid)]))
      #expect(try db.queryPlan(for: select) == ["SEARCH v USING INTEGER PRIMARY KEY (rowid=?)"])
      RegressionCase.expectAgreement(
        [t], [.insert("v", ["sc", "n"], [[12, 1.5], [1, 2.5], [3, 0.5]]), .statement(select, parameters: [:])])
    }
  }

  // Seed 0x9999, case 2077: the resolver replaces `n IS NOT NULL` on a NOT NULL column by TRUE,
  // a constant that reads no column: for the cost of a non-covering index scan it is "covered"
  // by every index, and the two indexes that could deliver ORDER BY g tie (SQLite keeps the
  // later-created one). The memory engine kept testing n, covered only by the primary key's
  // index, which then looked cheaper.
  @Test func isNotNullTheResolverFoldsReadsNoColumn() throws {
    let t = TableSchema(
      "o", columns: [.column("g", .null(.text), primaryKey: true), .column("n", .text, primaryKey: true), .column("d", .null(.text))],
      indexes: [IndexSchema(columns: ["g", "d"])])
    let db = try Database(.sqliteInMemory)
    try db.create(t)
    let setup = FuzzOperation.insert("o", ["g", "n", "d"], [["b", "x", "1"], ["a", "y", nil], ["b", "a", "0"]])
    for filter in [SQLExpression.isNull(.column("n"), negated: true), .isNull(.unary(.plus, .column("n")), negated: true)] {
      let select = Statement.select(
        SelectStatement(
          table: "o", columns: [.column("d")], filter: filter,
          orderBy: [OrderingTerm(.column("g"), descending: true), OrderingTerm(.rowid)]))
      #expect(try db.queryPlan(for: select) == ["SCAN o USING INDEX o_on_g_d", "USE TEMP B-TREE FOR RIGHT PART OF ORDER BY"])
      RegressionCase.expectAgreement([t], [setup, .statement(select, parameters: [:])])
    }
  }

  // Relational seed 0x7A4DE11A, case 5: SQLite's plan of a write to a table that references
  // itself lists the loops of the foreign-key programs (SCAN order, twice more); tandem mode and
  // the fuzzer compared them with the memory engine's one loop.
  @Test func selfReferencingWritePlanComparesOnlyItsLoop() throws {
    let order = TableSchema(
      "order",
      columns: [
        .column("x", .integer, primaryKey: true),
        .column("up", .null(.integer), references: .table("order", column: "x", onDelete: .restrict, onUpdate: .cascade)),
      ])
    let update = Statement.update(UpdateStatement(table: "order", assignments: [Assignment(column: "x", value: .column("x"))]))
    let db = try Database(.sqliteInMemory)
    try db.create(order)
    #expect(try db.queryPlan(for: update) == ["SCAN order", "SCAN order", "SCAN order"])
    #expect(update.comparablePlanLines(try db.queryPlan(for: update)) == ["SCAN order"])
    RegressionCase.expectAgreement([order], [.insert("order", ["x", "up"], [[1, nil], [2, 1]]), .statement(update, parameters: [:])])
    let tandem = try Database(.tandem)
    try tandem.create(order)
    _ = try tandem.execute(update)
  }

  // Relational seed 0x7A4DE11A, cases 0 and 126: a column qualified by its table's name
  // ("u"."y") in a select of that table alone read NULL on the memory engine, which decoded only
  // the columns named bare.
  @Test func columnsQualifiedByTheirTableAreRead() throws {
    let u = TableSchema("u", columns: [.column("y", .blob), .column("w", .null(.integer))])
    let setup = FuzzOperation.insert("u", ["y", "w"], [[.blob(Data([0x86, 0x30])), 2]])
    let y = SQLExpression.qualifiedColumn(source: "u", name: "y")
    let w = SQLExpression.qualifiedColumn(source: "u", name: "w")
    let selects: [SelectStatement] = [
      SelectStatement(table: "u", columns: [y], orderBy: [OrderingTerm(.rowid)]),
      SelectStatement(table: "u", columns: [y, .binary(.add, w, .literal(1))], orderBy: [OrderingTerm(.rowid)]),
    ]
    #expect(
      try RegressionCase.sqliteAnswer([u], [setup, .select(selects[0])])
        == .result(StatementResult(rows: [[.blob(Data([0x86, 0x30]))]])))
    for select in selects { RegressionCase.expectAgreement([u], [setup, .select(select)]) }
  }
}
