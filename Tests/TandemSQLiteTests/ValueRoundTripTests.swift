import Foundation
import TandemCore
import Testing

@testable import TandemSQLite

/// Values go in and come back out exactly: same storage class, same bytes, same bits.
@Suite("SQLite backend: value round trips")
struct ValueRoundTripTests {
  /// Values SQLite stores unchanged in a column without affinity (declared BLOB).
  static let exactValues: [SqliteValue] = [
    .text("a\u{0}b\u{0}"), .text("\u{0}"), .text(""), .text("👩‍👩‍👧‍👦 emoji ☕︎"), .text("e\u{301}"), .text("é"),
    .text("'); DROP TABLE reminders; --"), .text(String(repeating: "long ", count: 50_000)),
    .blob(Data()), .blob(Data([0, 0, 255])), .blob(Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })),
    .integer(.min), .integer(.max), .integer(0), .integer(-1),
    .real(-0.0), .real(0.0), .real(0.1), .real(Double(Float(0.1))), .real(.leastNonzeroMagnitude),
    .real(-.leastNormalMagnitude), .real(.greatestFiniteMagnitude), .real(.infinity), .real(-.infinity), .real(1e20),
    .null,
  ]

  @Test(arguments: DatabaseKind.allCases)
  func valuesRoundTripExactlyInAnUntypedColumn(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(
        TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("v", .null(.blob))]), ifNotExists: false)
      for (index, value) in Self.exactValues.enumerated() {
        _ = try backend.execute(insertRow("t", ["id", "v"], [.integer(Int64(index)), value]), parameters: [:])
      }
      let stored = try backend.execute(selectAll("t", ["v"]), parameters: [:]).rows.map { $0[0] }
      #expect(stored.count == Self.exactValues.count)
      for (value, read) in zip(Self.exactValues, stored) {
        #expect(read == value, "\(value.storageClass) \(String(describing: value).prefix(40))")
      }
      // Bit patterns, not just ==: -0.0 keeps its sign bit.
      if case .real(let zero)? = stored.first(where: { if case .real(let r) = $0 { r == 0 && r.sign == .minus } else { false } }) {
        #expect(zero.bitPattern == (-0.0 as Double).bitPattern)
      } else {
        Issue.record("-0.0 lost its sign")
      }
      // The text with NUL characters keeps all of its bytes.
      #expect(stored[0] == .text("a\u{0}b\u{0}"))
      if case .text(let text) = stored[0] { #expect(text.utf8.count == 4) }
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func parametersRoundTripLikeLiterals(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("one", columns: [.column("id", .integer, primaryKey: true)]), ifNotExists: false)
      _ = try backend.execute(insertRow("one", ["id"], [1]), parameters: [:])
      let select = Statement.select(SelectStatement(table: "one", columns: [.parameter("v"), .function(.typeof, [.parameter("v")])]))
      for value in Self.exactValues {
        let row = try backend.execute(select, parameters: ["v": value]).rows
        #expect(row == [[value, .text(value.storageClass)]])
      }
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func nanIsStoredAsNull(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(TableSchema("t", columns: [.column("v", .null(.blob))]), ifNotExists: false)
      _ = try backend.execute(insertRow("t", ["v"], [.real(.nan)]), parameters: [:])
      #expect(try backend.execute(selectAll("t", ["v"]), parameters: [:]).rows == [[.null]])
    }
  }

  @Test(arguments: DatabaseKind.allCases)
  func negativeZeroPerColumnAffinity(kind: DatabaseKind) throws {
    try kind.withBackend { backend in
      try backend.create(
        TableSchema(
          "z",
          columns: [
            .column("i", .integer), .column("r", .real), .column("t", .text), .column("b", .blob),
          ]),
        ifNotExists: false)
      _ = try backend.execute(insertRow("z", ["i", "r", "t", "b"], [-0.0, -0.0, -0.0, -0.0]), parameters: [:])
      let row = try backend.execute(selectAll("z", ["i", "r", "t", "b"]), parameters: [:]).rows
      // What SQLite 3.40 does: INTEGER affinity stores 0, a REAL column stores an integral real as
      // an integer on disk and reads back +0.0 (the sign is lost), TEXT affinity renders "0.0",
      // and only a column without affinity keeps -0.0 bit for bit.
      #expect(row == [[.integer(0), .real(0.0), .text("0.0"), .real(-0.0)]])
      if case .real(let real)? = row.first?[1] { #expect(real.sign == .plus) }
      if case .real(let blob)? = row.first?[3] { #expect(blob.sign == .minus) }
    }
  }
}
