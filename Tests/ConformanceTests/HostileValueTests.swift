import Foundation
import Tandem
import Testing

/// Values that break naive engines round-trip exactly and compare as SQLite compares them.
@Suite struct HostileValueTests {
  static let injection = "'); DROP TABLE reminders; --"
  static let precomposed = "\u{E9}"  // é as one code point
  static let decomposed = "e\u{301}"  // e + COMBINING ACUTE ACCENT

  @Test(arguments: BackendKind.allCases)
  func sqlInjectionIsJustText(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert(Reminder(id: 1, title: Self.injection))
    try db.insert(Reminder(id: 2, title: "\"; DELETE FROM reminders; --"))
    #expect(try db.fetchOne(Reminder.where { $0.title == Self.injection })?.id == 1)
    #expect(try db.fetchCount(Reminder.where { $0.title.like("%DROP TABLE%") }) == 1)
    let byParameter = Reminder.where { $0.title == Parameter<String>("title") }
    #expect(try db.fetchAll(byParameter, parameters: ["title": .text(Self.injection)]).map(\.id) == [1])
    #expect(try db.fetchAll(Reminder.all.select { $0.title }) == [Self.injection, "\"; DELETE FROM reminders; --"])
  }

  @Test(arguments: BackendKind.allCases)
  func textWithNULCharacters(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Sample.self)
    let texts = ["a\u{0}b", "a", "a\u{0}c", "\u{0}", "\u{0}\u{0}x"]
    try db.insert(texts.enumerated().map { Sample(id: $0.offset + 1, text: $0.element) })
    #expect(try db.fetchAll(Sample.all.select { $0.text }).map { Array($0.utf8) } == texts.map { Array($0.utf8) })
    #expect(try db.fetchAll(Sample.where { $0.text == "a\u{0}b" }).map(\.id) == [1])
    #expect(try db.fetchAll(Sample.where { $0.text > "a" }).map(\.id) == [1, 3])
    // length() counts the characters before the first NUL.
    #expect(try db.fetchAll(Sample.all.select { $0.text.length() }) == [1, 1, 1, 0, 0] as [Int?])
    #expect(try db.fetchAll(Sample.order { $0.text.desc() }.select { $0.id }) == [3, 1, 2, 5, 4])
  }

  @Test(arguments: BackendKind.allCases)
  func emoji(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Sample.self)
    let family = "👩‍👩‍👧‍👦"
    try db.insert([Sample(id: 1, text: family), Sample(id: 2, text: "🎉 party"), Sample(id: 3, text: "🇸🇪")])
    #expect(try db.fetchAll(Sample.all.select { $0.text }) == [family, "🎉 party", "🇸🇪"])
    // Lengths are code points, not grapheme clusters.
    #expect(try db.fetchAll(Sample.all.select { $0.text.length() }) == [7, 7, 2] as [Int?])
    #expect(try db.fetchAll(Sample.all.select { $0.text.upper() }) == [family, "🎉 PARTY", "🇸🇪"])
    let firstScalars = try db.fetchAll(Sample.all.select { $0.text.substr(1, 1) }).map { $0.unicodeScalars.map(\.value) }
    #expect(firstScalars == [[0x1F469], [0x1F389], [0x1F1F8]])
    #expect(try db.fetchAll(Sample.where { $0.text.like("_ party") }).map(\.id) == [2])
    #expect(try db.fetchAll(Sample.where { $0.text.like("_") }).map(\.id) == [])
    #expect(try db.fetchAll(Sample.all.select { $0.text.instr("party") }) == [0, 3, 0])
  }

  @Test(arguments: BackendKind.allCases)
  func precomposedAndDecomposedTextStayDistinct(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Sample.self)
    try db.insert([Sample(id: 1, text: Self.precomposed), Sample(id: 2, text: Self.decomposed), Sample(id: 3, text: Self.precomposed)])

    // Swift's == would call them equal; SQL compares bytes.
    #expect(try db.fetchAll(Sample.where { $0.text == Self.precomposed }).map(\.id) == [1, 3])
    #expect(try db.fetchAll(Sample.where { $0.text == Self.decomposed }).map(\.id) == [2])
    #expect(try db.fetchAll(Sample.where { $0.text != Self.precomposed }).map(\.id) == [2])
    #expect(try db.fetchAll(Sample.where { $0.text.in([Self.decomposed]) }).map(\.id) == [2])
    #expect(try db.fetchAll(Sample.where { $0.text.collate(.nocase) == Self.decomposed }).map(\.id) == [2])
    let bytes = try db.fetchAll(Sample.all.select { $0.text }).map { Array($0.utf8) }
    #expect(bytes == [[0xC3, 0xA9], [0x65, 0xCC, 0x81], [0xC3, 0xA9]])
    #expect(try db.fetchCount(Sample.all.select { $0.text }.distinct()) == 2)
    #expect(try db.fetchAll(Sample.group { $0.text }.select { _ in TypedExpression<Int>.countAll }) == [1, 2] as [Int])
    #expect(try db.fetchAll(Sample.order { $0.text }.select { $0.id }) == [2, 1, 3])
    // Functions work on code points.
    #expect(try db.fetchAll(Sample.all.select { $0.text.length() }) == [1, 2, 1] as [Int?])
    #expect(try db.fetchAll(Sample.where { $0.text.like("_") }).map(\.id) == [1, 3])
    #expect(try db.fetchAll(Sample.where { $0.text.like("e%") }).map(\.id) == [2])
    #expect(try db.fetchAll(Sample.where { $0.id == 2 }.select { $0.text.upper() }).map { Array($0.utf8) } == [[0x45, 0xCC, 0x81]] as [[UInt8]])
    #expect(try db.fetchAll(Sample.where { $0.id == 2 }.select { $0.text.substr(1, 1) }).map { Array($0.utf8) } == [[0x65]] as [[UInt8]])

    // A unique column holds both forms.
    try db.create(Account.self)
    try db.insert([Account(id: 1, email: Self.precomposed), Account(id: 2, email: Self.decomposed)])
    #expect(try db.fetchCount(Account.all) == 2)
  }

  @Test(arguments: BackendKind.allCases)
  func largeAndEmptyBlobs(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Sample.self)
    let megabyte = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
    try db.insert([Sample(id: 1, data: megabyte), Sample(id: 2, data: Data()), Sample(id: 3, data: Data([0, 0xFF, 0]))])
    #expect(try db.fetchAll(Sample.all.select { $0.data }) == [megabyte, Data(), Data([0, 0xFF, 0])])
    #expect(try db.fetchAll(Sample.all.select { $0.data.length() }) == [1 << 20, 0, 3] as [Int?])
    #expect(try db.fetchAll(Sample.all.select { $0.data.typeof() }) == ["blob", "blob", "blob"])
    #expect(try db.fetchAll(Sample.where { $0.data == megabyte }).map(\.id) == [1])
    #expect(try db.fetchAll(Sample.where { $0.data == Data() }).map(\.id) == [2])
    // Blobs have no typed ordering (`Data` has no Swift order); the engines still sort them by
    // their bytes.
    var byBytes = Sample.all.select { $0.id }
    byBytes.base.orderBy = [OrderingTerm(.column("data"))]
    #expect(try db.fetchAll(byBytes) == [2, 1, 3])
    // Text and blobs never compare equal, and the empty string is not the empty blob.
    #expect(try db.fetchAll(Sample.all.select { $0.text.typeof() }) == ["text", "text", "text"])
  }

  @Test(arguments: BackendKind.allCases)
  func integerLimits(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Sample.self)
    try db.insert([Sample(id: 1, integer: .max), Sample(id: 2, integer: .min), Sample(id: 3, integer: 0), Sample(id: 4, integer: -1)])
    #expect(try db.fetchAll(Sample.all.select { $0.integer }) == [.max, .min, 0, -1] as [Int64])
    #expect(try db.fetchAll(Sample.where { $0.integer == .min }).map(\.id) == [2])
    #expect(try db.fetchAll(Sample.where { $0.integer > Int64.max - 1 }).map(\.id) == [1])
    #expect(try db.fetchAll(Sample.order { $0.integer }.select { $0.id }) == [2, 4, 3, 1])
    #expect(try db.fetchAll(Sample.where { $0.integer.between(.min, and: -1) }).map(\.id) == [2, 4])

    // Integer keys at the limits; the next assigned key after INT64_MAX is chosen at random by
    // SQLite, so only keys below the maximum are assigned here.
    try db.create(Reminder.self)
    try db.insert([Reminder(id: .min, title: "min"), Reminder(id: .max - 1, title: "max - 1")])
    #expect(try db.insert(Reminder.Draft(title: "next")).id == .max)
    #expect(try db.fetchAll(Reminder.all.select { $0.id }) == [.min, .max - 1, .max])
    #expect(try db.find(Reminder.self, key: Int.min)?.title == "min")
  }

  @Test(arguments: BackendKind.allCases)
  func specialDoubles(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Sample.self)
    let values: [Double] = [.infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0, 0.1, -0x1p-1060]
    try db.insert(values.enumerated().map { Sample(id: $0.offset + 1, real: $0.element) })
    let stored = try db.fetchAll(Sample.all.select { $0.real })
    // -0.0 in a REAL column comes back as +0.0: SQLite stores an integral REAL as an integer.
    let expected: [Double] = [.infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.0, 0.1, -0x1p-1060]
    #expect(stored.map(\.bitPattern) == expected.map(\.bitPattern))
    #expect(try db.fetchAll(Sample.order { $0.real }.select { $0.id }) == [2, 7, 5, 4, 6, 3, 1])
    #expect(try db.fetchAll(Sample.where { $0.real == 0 }).map(\.id) == [5])
    #expect(try db.fetchAll(Sample.where { $0.real == -0.0 }).map(\.id) == [5])
    #expect(try db.fetchAll(Sample.where { $0.real > .greatestFiniteMagnitude }).map(\.id) == [1])

    // NaN has no stored form (SQLite stores it as NULL): comparing with it, computing with it
    // or writing it fails loudly instead of matching nothing or storing NULL.
    let nanFailure = TandemError.Signature(
      kind: .encodingFailure, constraint: nil, table: "samples", columns: ["real"],
      message: "cannot store Double in column samples.real: NaN has no stored form: SQLite stores it as NULL", sqliteCode: nil)
    let queries: [Select<Sample, Sample>] = [
      Sample.where { $0.real == .nan }, Sample.where { $0.real != .nan }, Sample.where { $0.real < .nan },
      Sample.where { $0.real.in([1, .nan]) }, Sample.where { $0.real.between(.nan, and: 1) },
      Sample.where { ($0.real + .nan).isNull() }, Sample.where { $0.real.is(.nan) },
    ]
    for query in queries {
      let error = try #require(throws: TandemError.self) { try db.fetchAll(query) }
      #expect(error.signature == nanFailure)
    }
    let insert = try #require(throws: TandemError.self) { try db.insert(Sample(id: 10, real: .nan)) }
    #expect(insert.signature == nanFailure)
    let update = try #require(throws: TandemError.self) {
      try db.update(Sample.where { $0.id == 1 }) { $0.set(\.real, to: .nan) }
    }
    #expect(update.signature == nanFailure)
    #expect(try db.fetchAll(Sample.all.select { $0.real }).map(\.bitPattern) == expected.map(\.bitPattern))
  }

  @Test(arguments: BackendKind.allCases)
  func negativeZeroInEachColumnType(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    let columns = ["i", "r", "t", "b"]
    try db.create(
      TableSchema(
        "zeros",
        columns: [
          .column("i", .null(.integer)), .column("r", .null(.real)), .column("t", .null(.text)), .column("b", .null(.blob)),
        ]))
    try db.insertRaw(into: "zeros", columns: columns, values: [.real(-0.0), .real(-0.0), .real(-0.0), .real(-0.0)])
    try db.insertRaw(into: "zeros", columns: columns, values: [.real(.nan), .real(.nan), .real(.nan), .real(.nan)])
    // INTEGER affinity makes it 0, REAL stores +0.0, TEXT renders "0.0", BLOB keeps -0.0 as is.
    let stored = try db.storedRows(of: "zeros", columns: columns)
    #expect(stored == [[.integer(0), .real(0.0), .text("0.0"), .real(-0.0)], [nil, nil, nil, nil]])
  }
}
