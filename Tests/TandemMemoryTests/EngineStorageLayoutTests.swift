import Foundation
import Testing
import TandemCore
@testable import TandemMemory
import SeededRandomness

/// The engine's storage — records, pages, rows and indexes — against plain Swift collections,
/// over many random operations.
@Suite struct EngineStorageLayoutTests {
  @Test func recordsRoundTripEveryValue() {
    let values: [SqliteValue] = [
      .null, .integer(0), .integer(1), .integer(-1), .integer(127), .integer(-128), .integer(128), .integer(32767),
      .integer(-32769), .integer(8_388_607), .integer(-8_388_609), .integer(2_147_483_648),
      .integer(140_737_488_355_327), .integer(-140_737_488_355_329), .integer(.max), .integer(.min), .real(0),
      .real(-0.0), .real(1.5), .real(.infinity), .text(""), .text("é"), .text(String(repeating: "x", count: 300)),
      .blob(Data()), .blob(Data([0, 1, 255])),
    ]
    let bytes = Record.encode(values)
    let decoded = bytes.withUnsafeBytes { Record.values($0.baseAddress!, count: values.count) }
    #expect(decoded == values)
    for (index, value) in values.enumerated() {
      #expect(bytes.withUnsafeBytes { Record.value($0.baseAddress!, count: values.count, column: index) } == value)
    }
  }

  @Test func recordsCompareAsSQLiteIndexesDo() {
    let ordered: [SqliteValue] = [
      .null, .integer(.min), .real(-1.5), .integer(-1), .integer(0), .real(0.5), .integer(1), .real(1e300),
      .text(""), .text("A"), .text("a"), .text("ab"), .blob(Data()), .blob(Data([0])),
    ]
    for (i, a) in ordered.enumerated() {
      for (j, b) in ordered.enumerated() {
        let x = Record.encode([a])
        let y = Record.encode([b])
        let order = x.withUnsafeBytes { p in y.withUnsafeBytes { q in Record.compare(p.baseAddress!, q.baseAddress!, count: 1) } }
        #expect(order.signum() == (i < j ? -1 : (i > j ? 1 : 0)), "\(a) vs \(b)")
      }
    }
    // An integer and an equal real are the same key.
    let one = Record.encode([.integer(1)])
    let oneReal = Record.encode([.real(1)])
    #expect(one.withUnsafeBytes { p in oneReal.withUnsafeBytes { q in Record.compare(p.baseAddress!, q.baseAddress!, count: 1) } } == 0)
  }

  @Test func tableDataMatchesADictionaryWithItsIndexes() throws {
    let schema = TableSchema(
      "t",
      columns: [
        .column("id", .integer, primaryKey: true), .column("code", .null(.text), unique: true),
        .column("n", .null(.integer)),
      ], indexes: [.index(on: ["n", "code"])])
    let definition = TableDefinition(schema, number: 1)
    let data = TableData(definition: definition)
    var reference: [Int64: [SqliteValue]] = [:]
    var generator = SplitMix64(state: 7)
    for step in 0..<6_000 {
      let rowid = Int64.random(in: -400...400, using: &generator)
      let code: SqliteValue = step % 7 == 0 ? .null : .text("c\(Int.random(in: 0..<100_000, using: &generator))")
      let row: [SqliteValue] = [.integer(rowid), code, step % 5 == 0 ? .null : .integer(Int64(step % 13))]
      if let old = reference[rowid] {
        if step % 2 == 0 {
          #expect(data.remove(rowid) == old)
          reference[rowid] = nil
        } else if data.owner(of: row, inConstraint: 0).map({ $0 == rowid }) ?? true {
          #expect(data.replace(rowid, values: row) == old)
          reference[rowid] = row
        }
      } else if data.owner(of: row, inConstraint: 0) == nil {
        data.insert(rowid, values: row)
        reference[rowid] = row
      }
    }
    #expect(data.invariantViolation() == nil)
    #expect(data.rowCount == reference.count)
    #expect(data.rowids == reference.keys.sorted())
    for (rowid, row) in reference {
      #expect(data.row(rowid) == row)
      if !row[1].isNull { #expect(data.owner(of: row, inConstraint: 0) == rowid) }
    }
    // The (n, code) index walks its entries in key order, then rowid order.
    let index = data.indexes[0]
    var entries: [([SqliteValue], Int64)] = []
    var position = index.first
    while let current = position {
      entries.append((Record.values(index.record(at: current), count: 2), index.rowid(at: current)))
      position = index.next(current)
    }
    let expected = reference.map { ([$0.value[2], $0.value[1]], $0.key) }.sorted { a, b in
      for (x, y) in zip(a.0, b.0) {
        let order = ValueOrder.compare(x, y, collation: .binary)
        if order != 0 { return order < 0 }
      }
      return a.1 < b.1
    }
    #expect(entries.map(\.1) == expected.map(\.1))
  }

  /// The storage checks are off unless asked for (a full pass per write is what made debug-build
  /// writes slow); on, a write that finds an index out of step with its rows fails as a misuse.
  @Test func invariantChecksAreOptInAndCatchABrokenIndex() throws {
    let schema = TableSchema("t", columns: [.column("id", .integer, primaryKey: true), .column("code", .text, unique: true)])
    let insert = Statement.insert(InsertStatement(table: "t", columns: ["id", "code"], rows: [[.literal(1), .literal("a")]]))
    let unchecked = MemoryBackend()
    #expect(unchecked.checksInvariants == MemoryBackend.checksInvariantsByDefault)
    let checked = MemoryBackend()
    checked.checksInvariants = true
    try checked.create(schema, ifNotExists: false)
    _ = try checked.execute(insert, parameters: [:])
    // An index entry for a row that does not exist.
    let table = try #require(checked.catalog.table("t"))
    Record.encode([.text("zz")]).withUnsafeBytes { table.data.indexes[0].insert(rowid: 99, record: $0) }
    let next = Statement.insert(InsertStatement(table: "t", columns: ["id", "code"], rows: [[.literal(2), .literal("b")]]))
    let error = try #require(throws: TandemError.self) { try checked.execute(next, parameters: [:]) }
    #expect(error.kind == .misuse)
    #expect(error.message.contains("table t"))
  }
}
