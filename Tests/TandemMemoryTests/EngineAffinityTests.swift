import Foundation
import Testing
import TandemCore
@testable import TandemMemory

/// Column affinity on INSERT and UPDATE (Docs/SQLiteSemantics.md §2.2), and defaults as SQLite parses them from the DDL.
@Suite struct EngineAffinityTests {
  static let typed = TableSchema(
    "t",
    columns: [
      .column("i", .null(.integer)), .column("r", .null(.real)), .column("tx", .null(.text)), .column("b", .null(.blob)),
    ])

  static let samples: [SqliteValue] = [
    "12", "  12 ", 3.0, 3.5, 1e20, "3.0", "1e3", "12abc", "0x10", .blob(Data([0])), .blob(Data([0x31, 0x32])),
    "9223372036854775808", ".5", "5.", "", -0.0, "1,000", .integer(.max), .integer(.min), 9.2233720368547758e18,
    -9.2233720368547758e18, "9.0e18", "\t12\n", "12\u{A0}", .real(.infinity), .real(-.infinity), .real(.nan), "é", nil,
  ]

  @Test func storedValuesMatchSQLite() {
    let db = EngineTandem(Self.typed)
    for value in Self.samples {
      db.write(Q.insert("t", ["i", "r", "tx", "b"], [[value, value, value, value]]))
    }
    let columns = ["i", "r", "tx", "b"].map(Q.col)
    db.run(Q.select("t", columns.map { .function(.typeof, [$0]) } + columns))
  }

  @Test func updatesApplyAffinity() {
    let db = EngineTandem(Self.typed)
    db.write(Q.insert("t", ["i"], [[1], [2]]))
    for value in Self.samples.prefix(12) {
      db.write(Q.update("t", [("i", Q.lit(value)), ("r", Q.lit(value)), ("tx", Q.lit(value)), ("b", Q.lit(value))]))
    }
    db.write(Q.update("t", [("r", .binary(.add, Q.col("i"), Q.lit(1))), ("tx", .binary(.multiply, Q.col("r"), Q.lit(2)))]))
  }

  @Test func defaultsAreParsedFromTheDDL() {
    let reals: [Double] = [0.1, 613740.838162, 1e-300, 123456789.123456789, -2.5, 1e300, .infinity, -.infinity, .nan, -0.0, 1e16]
    var columns: [ColumnSchema] = [.column("id", .integer, primaryKey: true)]
    for (index, value) in reals.enumerated() {
      columns.append(.column("r\(index)", .null(.real), default: .real(value)))
      columns.append(.column("b\(index)", .null(.blob), default: .real(value)))
    }
    columns += [
      .column("i", .integer, default: .integer(.min)), .column("t", .text, default: "it's"),
      .column("x", .blob, default: .blob(Data([0xCA, 0xFE]))), .column("n", .null(.integer), default: .null),
      .column("ti", .integer, default: "12"), .column("it", .text, default: 5),
    ]
    let db = EngineTandem(TableSchema("d", columns: columns))
    db.write(Q.insert("d", ["id"], [[1]]))
    db.write(.insert(InsertStatement(table: "d", columns: [], rows: [[]])))
  }
}
