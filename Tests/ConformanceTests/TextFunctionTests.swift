import Tandem
import Testing

/// LIKE, GLOB, case mapping, length, substr, trim, replace, instr and NOCASE, with SQLite's
/// ASCII-only case folding.
@Suite struct TextFunctionTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Word.self)
    try db.insert(Word.samples)
    return db
  }

  @Test(arguments: BackendKind.allCases)
  func like(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Word, Word>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    #expect(try ids(Word.where { $0.text.like("%milk%") }) == [1, 2])
    #expect(try ids(Word.where { $0.text.like("MILK") }) == [1])
    #expect(try ids(Word.where { $0.text.notLike("%milk%") }) == [3, 4, 5, 6])
    #expect(try ids(Word.where { $0.text.like("_ilk") }) == [1])
    #expect(try ids(Word.where { $0.text.like("1_0_") }) == [4, 5])
    // ASCII letters fold; É and é do not.
    #expect(try ids(Word.where { $0.text.like("é%") }) == [])
    #expect(try ids(Word.where { $0.text.like("É%") }) == [3])
    #expect(try ids(Word.where { $0.text.like("ÉCOLE") }) == [3])
    #expect(try ids(Word.where { $0.text.like("STRASSE") }) == [])
    #expect(try ids(Word.where { $0.text.like("STRAßE") }) == [6])
    // Wildcards and the escape character.
    #expect(try ids(Word.where { $0.text.like("100%") }) == [4, 5])
    #expect(try ids(Word.where { $0.text.like("100!%", escape: "!") }) == [4])
    #expect(try ids(Word.where { $0.note.like("b_c") }) == [6])
    #expect(try ids(Word.where { $0.note.like(#"b\_c"#, escape: "\\") }) == [6])
    #expect(try ids(Word.where { $0.note.like(#"b\_"#, escape: "\\") }) == [])
    // NULL never matches, not even `%`.
    #expect(try ids(Word.where { $0.note.like("%") }) == [2, 3, 5, 6])
    #expect(try ids(Word.where { $0.note.notLike("%") }) == [])
    #expect(try db.rows(Word.all.select { $0.note.like("%") }) == [[nil], [1], [1], [nil], [1], [1]])
    // The escape is one code point (a `Unicode.Scalar`, so a two-code-point escape, which SQLite
    // rejects at run time, cannot be written); a non-ASCII one works.
    #expect(try ids(Word.where { $0.text.like("100é%", escape: "é") }) == [4])
  }

  @Test(arguments: BackendKind.allCases)
  func glob(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Word, Word>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    #expect(try ids(Word.where { $0.text.glob("M*") }) == [1])
    #expect(try ids(Word.where { $0.text.glob("m*") }) == [])
    #expect(try ids(Word.where { $0.text.glob("*milk*") }) == [2])
    #expect(try ids(Word.where { $0.text.glob("[0-9]*") }) == [4, 5])
    #expect(try ids(Word.where { $0.text.glob("1?0?") }) == [4, 5])
    #expect(try ids(Word.where { $0.text.glob("*[%]") }) == [4])
    #expect(try ids(Word.where { $0.text.glob("[^0-9]*") }) == [1, 2, 3, 6])
    #expect(try ids(Word.where { $0.text.glob("É*") }) == [3])
    #expect(try ids(Word.where { $0.text.notGlob("*l*") }) == [4, 5, 6])
    #expect(try ids(Word.where { $0.note.glob("b_c") }) == [6])
  }

  @Test(arguments: BackendKind.allCases)
  func caseMappingIsASCIIOnly(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(
      try db.fetchAll(Word.all.select { $0.text.lower() })
        == ["milk", "  oat milk  ", "École", "100%", "1000", "straße"])
    #expect(
      try db.fetchAll(Word.all.select { $0.text.upper() })
        == ["MILK", "  OAT MILK  ", "ÉCOLE", "100%", "1000", "STRAßE"])
    #expect(try db.fetchAll(Word.all.select { $0.note.lower() }) == [nil, "fresh", "École", nil, "", "b_c"])
    #expect(try db.fetchAll(Word.where { $0.note.upper() == "FRESH" }).map(\.id) == [2])
  }

  @Test(arguments: BackendKind.allCases)
  func lengthCountsCharacters(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.fetchAll(Word.all.select { $0.text.length() }) == [4, 12, 5, 4, 4, 6] as [Int?])
    #expect(try db.fetchAll(Word.all.select { $0.note.length() }) == [nil, 5, 5, nil, 0, 3])
    #expect(try db.rows(Word.where { $0.id == 1 }.select { $0.note.length() }) == [[nil]])
  }

  @Test(arguments: BackendKind.allCases)
  func substr(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.fetchAll(Word.all.select { $0.text.substr(2, 3) }) == ["ilk", " oa", "col", "00%", "000", "tra"])
    #expect(try db.fetchAll(Word.all.select { $0.text.substr(-3) }) == ["ilk", "k  ", "ole", "00%", "000", "aße"])
    // Position 0 is a phantom before the first character.
    #expect(try db.fetchAll(Word.all.select { $0.text.substr(0, 2) }) == ["M", " ", "É", "1", "1", "s"])
    // A negative length takes the characters before the start.
    #expect(try db.fetchAll(Word.where { $0.id == 1 }.select { $0.text.substr(3, -2) }) == ["Mi"])
    #expect(try db.fetchAll(Word.where { $0.id == 1 }.select { $0.text.substr(10) }) == [""])
    #expect(try db.fetchAll(Word.where { $0.id == 1 }.select { $0.text.substr(-10, 7) }) == ["M"])
  }

  @Test(arguments: BackendKind.allCases)
  func trim(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(
      try db.fetchAll(Word.all.select { $0.text.trim() }) == ["Milk", "oat milk", "École", "100%", "1000", "straße"])
    #expect(try db.fetchOne(Word.where { $0.id == 2 }.select { $0.text.ltrim() }) == Optional("oat milk  "))
    #expect(try db.fetchOne(Word.where { $0.id == 2 }.select { $0.text.rtrim() }) == Optional("  oat milk"))
    #expect(try db.fetchAll(Word.all.select { $0.text.trim("%10") }) == ["Milk", "  oat milk  ", "École", "", "", "straße"])
    #expect(try db.fetchAll(Word.all.select { $0.text.trim("É") }) == ["Milk", "  oat milk  ", "cole", "100%", "1000", "straße"])
    #expect(try db.fetchAll(Word.all.select { $0.text.ltrim("1") }) == ["Milk", "  oat milk  ", "École", "00%", "000", "straße"])
    #expect(try db.fetchAll(Word.all.select { $0.text.rtrim("0") }) == ["Milk", "  oat milk  ", "École", "100%", "1", "straße"])
  }

  @Test(arguments: BackendKind.allCases)
  func replaceAndInstr(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(
      try db.fetchAll(Word.all.select { $0.text.replace("milk", with: "MILK") })
        == ["Milk", "  oat MILK  ", "École", "100%", "1000", "straße"])
    #expect(try db.fetchAll(Word.all.select { $0.text.replace("0", with: "") }) == ["Milk", "  oat milk  ", "École", "1%", "1", "straße"])
    #expect(try db.fetchAll(Word.all.select { $0.text.replace("", with: "x") }) == Word.samples.map(\.text))
    #expect(try db.fetchAll(Word.all.select { $0.text.replace("00", with: "0") }) == ["Milk", "  oat milk  ", "École", "10%", "100", "straße"])

    #expect(try db.fetchAll(Word.all.select { $0.text.instr("l") }) == [3, 9, 4, 0, 0, 0])
    #expect(try db.fetchAll(Word.all.select { $0.text.instr("ß") }) == [0, 0, 0, 0, 0, 5])
    #expect(try db.fetchAll(Word.all.select { $0.text.instr("") }) == [1, 1, 1, 1, 1, 1])
    #expect(try db.rows(Word.all.select { $0.note.instr("e") }) == [[nil], [3], [0], [nil], [0], [0]])
  }

  @Test(arguments: BackendKind.allCases)
  func nocaseCollation(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    func ids(_ query: Select<Word, Word>) throws -> [Int] { try db.fetchAll(query).map(\.id) }

    #expect(try ids(Word.where { $0.text.collate(.nocase) == "milk" }) == [1])
    #expect(try ids(Word.where { $0.text == "milk" }) == [])
    #expect(try ids(Word.where { $0.note.collate(.nocase) == "école" }) == [])
    #expect(try ids(Word.where { $0.note.collate(.nocase) == "ÉcOlE" }) == [3])
    #expect(try ids(Word.where { $0.text.collate(.nocase).in(["MILK", "STRAßE"]) }) == [1, 6])
    #expect(try ids(Word.where { $0.text.collate(.nocase) > "m" }) == [1, 3, 6])
    #expect(try ids(Word.where { $0.text.collate(.nocase).between("a", and: "n") }) == [1])
    // RTRIM ignores trailing spaces (only spaces).
    #expect(try ids(Word.where { $0.text.collate(.rtrim) == "  oat milk" }) == [2])
    #expect(try ids(Word.where { $0.text.collate(.rtrim) == "Milk   " }) == [1])
    #expect(try ids(Word.where { $0.text == "Milk   " }) == [])
  }

  /// Fuzzer seed 0xC0FFEE35 case 36918: `replace(X, '', Z)` returns X itself once read as text.
  /// A BLOB comes back as TEXT; a number stays a number but holds its text beside it, so SQLite's
  /// comparison under TEXT affinity (a TEXT column on the other side) compares it as the number
  /// when it scans — and as text when it seeks an index. The memory engine refuses that
  /// comparison; without TEXT affinity, or with a text X, every engine answers.
  @Test(arguments: BackendKind.allCases)
  func replaceWithAnEmptyPatternReturnsItsArgumentHoldingText(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: "CREATE TABLE s (t TEXT); INSERT INTO s VALUES ('5')")
    #expect(try db.values(sql: "SELECT typeof(replace(x'41', '', 'z')), replace(5, '', 'z') = '5'") == [["text", 0]])
    #expect(try db.values(sql: "SELECT t = replace('5', '', 'x'), t = replace(5, 'q', 'x') FROM s") == [[1, 1]])
    for sql in [
      "SELECT t = replace(5, '', 'x') FROM s", "SELECT t IN (replace(5, '', 'x')) FROM s",
      "SELECT t BETWEEN '0' AND replace(5, '', 'x') FROM s", "SELECT CASE t WHEN +replace(5, '', 'x') THEN 1 ELSE 0 END FROM s",
      // Relational fuzzer, seed 0xC0FFEE6D, case 675,989: a scalar subquery hands the number over.
      "SELECT (SELECT replace(count(*), X'00', 'N') FROM s) = t FROM s",
      "SELECT (SELECT 'q' UNION ALL SELECT replace(5, '', 'x') ORDER BY 1) = t FROM s",
      // Relational fuzzer, seed 0xC0FFEE73, case 2,878: the number as the CASE's base.
      "SELECT CASE replace(5, '', 'x') WHEN t THEN 1 ELSE 0 END FROM s",
      "SELECT CASE replace(5, '', 'x') WHEN CAST(5 AS TEXT) THEN 1 ELSE 0 END FROM s",
    ] {
      let answer = try kind.answerUnlessMemoryRefuses { try db.values(sql: sql) }
      if let answer { #expect(answer == [[0]], "\(sql)") }
    }
  }
}
