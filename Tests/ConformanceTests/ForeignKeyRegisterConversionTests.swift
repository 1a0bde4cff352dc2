import Foundation
import Tandem
import Testing

/// Regression (relational fuzzer, seed 0x7A4DE11A case 2198): a row inserted into a parent table
/// resolves the violations counted earlier in its statement by scanning each referencing table.
/// Scanning a child through an index on its key column converts the parent row's key register in
/// place to the index's affinity ('12' becomes 12), so a later scan — here the table's own
/// self-reference — no longer matches a TEXT child value, and the violation stays.
@Suite struct ForeignKeyRegisterConversionTests {
  static let schema = """
    CREATE TABLE v (n BLOB PRIMARY KEY NOT NULL, up BLOB REFERENCES v (n));
    CREATE TABLE t (ref INTEGER NOT NULL REFERENCES v (n));
    """

  @Test(arguments: BackendKind.allCases)
  func anIndexedChildScanConvertsTheParentKeyForLaterScans(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: Self.schema + "CREATE INDEX t_on_ref ON t (ref);")
    let error = try #require(throws: TandemError.self) {
      try db.execute(sql: "INSERT INTO v (n, up) VALUES (X'4D', '12'), ('12', NULL)")
    }
    #expect(error.kind == .constraintViolation && error.constraint == .foreignKey)
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM v") == 0)
  }

  @Test(arguments: BackendKind.allCases)
  func withoutTheIndexTheLaterRowResolvesTheViolation(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: Self.schema)
    try db.execute(sql: "INSERT INTO v (n, up) VALUES (X'4D', '12'), ('12', NULL)")
    #expect(try db.values(sql: "SELECT n, typeof(n) FROM v ORDER BY rowid") == [[.blob(Data([0x4D])), "blob"], ["12", "text"]])
  }

  /// The same conversion of the old key when a parent row is deleted: the self-reference's scan
  /// then finds no child, and SQLite lets the orphan stay.
  @Test(arguments: BackendKind.allCases)
  func aDeletedParentsConvertedKeyMissesLaterChildren(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: Self.schema + "CREATE INDEX t_on_ref ON t (ref); INSERT INTO v VALUES ('12', NULL), ('13', '12')")
    try db.execute(sql: "DELETE FROM v WHERE n = '12'")
    #expect(try db.values(sql: "SELECT n, up FROM v") == [["13", "12"]])
  }

  /// And when a parent key is updated: the ON UPDATE CASCADE action reads the converted old key,
  /// so it changes no child.
  @Test(arguments: BackendKind.allCases)
  func anUpdatedParentsCascadeReadsTheConvertedKey(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE v (n BLOB PRIMARY KEY NOT NULL, up BLOB REFERENCES v (n) ON UPDATE CASCADE);
      CREATE TABLE t (ref INTEGER REFERENCES v (n));
      CREATE INDEX t_on_ref ON t (ref);
      INSERT INTO v VALUES ('12', NULL), ('13', '12');
      UPDATE v SET n = '14' WHERE n = '12';
      """)
    #expect(try db.values(sql: "SELECT n, up, typeof(up) FROM v ORDER BY n") == [["13", "12", "text"], ["14", nil, "null"]])
  }

  /// Fuzzer seed 0x5EED1007 case 1276: the new key is converted too, by the scan that resolves
  /// the orphans the old key's scan counted. `SET g = g` then leaves old and new key equal (12
  /// and 12), so no ON UPDATE action runs; a changed key still runs it.
  @Test(arguments: BackendKind.allCases)
  func anUnchangedKeyConvertedOnBothSidesRunsNoAction(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE child (g TEXT PRIMARY KEY NOT NULL);
      CREATE TABLE kids (ref INTEGER DEFAULT 99 REFERENCES child (g) ON UPDATE SET DEFAULT, x TEXT);
      CREATE INDEX kids_on_ref ON kids (ref);
      INSERT INTO child VALUES ('12'), ('99');
      INSERT INTO kids VALUES ('12', 'a');
      UPDATE child SET g = g WHERE g = '12';
      """)
    #expect(try db.values(sql: "SELECT ref FROM kids") == [[12]])
    try db.execute(sql: "UPDATE child SET g = '13' WHERE g = '12'")
    #expect(try db.values(sql: "SELECT ref FROM kids") == [[99]])
  }

  /// Fuzzer seed 0xC0FFEE31 case 74338 (and 0xC0FFEE35 case 23226): a constant default lives in
  /// one register for the whole statement, and the scan for the first row's children (run
  /// because its own reference is missing) converts it there, '-0' becoming 0. The second row
  /// then takes the key '0', which conflicts with no row, and the statement fails on the foreign
  /// key rather than on the primary key; without a pending violation no scan runs, and the
  /// second '-0' conflicts.
  @Test(arguments: BackendKind.allCases)
  func aChildScanConvertsAConstantDefaultForLaterRows(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE u (s TEXT UNIQUE);
      CREATE TABLE kids (ref TEXT REFERENCES u (s), "order" TEXT PRIMARY KEY DEFAULT '-0', id);
      CREATE TABLE g (ref INTEGER REFERENCES kids ("order"));
      CREATE INDEX g_on_ref ON g (ref);
      """)
    let foreignKey = try #require(throws: TandemError.self) {
      try db.execute(sql: "INSERT INTO kids (ref, id) VALUES ('p', 1), ('q', 2)")
    }
    #expect(foreignKey.kind == .constraintViolation && foreignKey.constraint == .foreignKey)
    let unique = try #require(throws: TandemError.self) {
      try db.execute(sql: "INSERT INTO kids (ref, id) VALUES (NULL, 1), (NULL, 2)")
    }
    #expect(unique.kind == .constraintViolation && unique.constraint == .primaryKey)
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM kids") == 0)
  }

  /// Fuzzer seed 0xC0FFEE43 case 778484: the index seek converts a REAL key too (12.0 becomes
  /// the INTEGER 12, `sqlite3VdbeIntegerAffinity`), and the ON UPDATE CASCADE of a table created
  /// earlier, run after the indexed table's action, writes the converted value.
  @Test(arguments: BackendKind.allCases)
  func anIndexedChildScanConvertsARealKeyTheCascadeThenWrites(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE g (i REAL, e BLOB PRIMARY KEY NOT NULL);
      CREATE TABLE c (ref BLOB REFERENCES g (e) ON UPDATE CASCADE);
      CREATE TABLE m (ref INTEGER NOT NULL REFERENCES g (e) ON UPDATE SET NULL);
      INSERT INTO g VALUES (12, X'31'); INSERT INTO c VALUES (X'31');
      """)
    try db.execute(sql: "UPDATE g SET e = i")
    #expect(try db.values(sql: "SELECT e, typeof(e) FROM g") == [[12.0, "real"]])
    #expect(try db.values(sql: "SELECT ref, typeof(ref) FROM c") == [[12.0, "real"]])
    try db.execute(sql: "CREATE INDEX m_on_ref ON m (ref); UPDATE g SET e = X'31'; UPDATE c SET ref = X'31'")
    try db.execute(sql: "UPDATE g SET e = i")
    #expect(try db.values(sql: "SELECT ref, typeof(ref) FROM c") == [[12, "integer"]])
  }

  /// Fuzzer seed 0xC0FFEE44 cases 21012, 31272: under a REAL parent column the key stays a REAL
  /// for the actions after an index seek (they read it through `OP_RealAffinity`): a later ON
  /// DELETE action still finds the TEXT child `'3.0'` of the key 3.0. The memory engine made it the INTEGER 3, found no
  /// child, and failed the delete with a foreign key error.
  @Test(arguments: BackendKind.allCases)
  func aRealIndexSeekKeepsTheKeyARealForLaterActions(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE kids (a REAL PRIMARY KEY);
      CREATE TABLE child (ref TEXT REFERENCES kids (a) ON DELETE SET NULL, n INTEGER);
      CREATE TABLE other (ref2 REAL REFERENCES kids (a) ON DELETE SET NULL);
      CREATE INDEX other_on_ref2 ON other (ref2);
      INSERT INTO kids VALUES (3.0), ('12'); INSERT INTO child VALUES (3.0, 1), ('12.0', 2);
      """)
    try db.execute(sql: "DELETE FROM kids")
    #expect(try db.values(sql: "SELECT ref, n FROM child ORDER BY n") == [[nil, 1], [nil, 2]])
  }

  /// Fuzzer seed 0xC0FFEE44 cases 324233, 270400: so it does after a seek of an INTEGER (or
  /// NUMERIC) index column: a later ON DELETE action finds the TEXT child `'3.0'`
  /// and not `'3'`. The memory engine made it the INTEGER 3 and found the other one.
  @Test(arguments: BackendKind.allCases)
  func anIntegerIndexSeekKeepsARealKeyARealForLaterActions(_ kind: BackendKind) throws {
    for (child, orphan) in [("'3.0'", false), ("'3'", true)] {
      let db = try makeDatabase(kind)
      try db.execute(sql: """
        CREATE TABLE p (x REAL NOT NULL, k REAL NOT NULL UNIQUE);
        CREATE TABLE u (ref INTEGER REFERENCES p (k) ON DELETE CASCADE); CREATE INDEX u_on_ref ON u (ref);
        CREATE TABLE v (ref TEXT REFERENCES p (k) ON DELETE SET NULL, n INTEGER);
        INSERT INTO p VALUES (0.0, 3.0); INSERT INTO v VALUES (\(child), 1);
        """)
      if orphan {
        let error = try #require(throws: TandemError.self) { try db.execute(sql: "DELETE FROM p") }
        #expect(error.kind == .constraintViolation && error.constraint == .foreignKey)
      } else {
        try db.execute(sql: "DELETE FROM p")
        #expect(try db.values(sql: "SELECT ref FROM v") == [[nil]])
      }
    }
  }

  /// Fuzzer seed 0xC0FFEE46 case 496955: a REAL parent column's new key stays a REAL for its ON
  /// UPDATE CASCADE after an index seek made the register an INTEGER — the action trigger reads
  /// `new.key` of a REAL column through `OP_RealAffinity`. SQLite writes the TEXT child `'0.0'`
  /// and the BLOB child the REAL 0.0; the memory engine wrote `'0'` and 0.
  @Test(arguments: BackendKind.allCases)
  func aRealParentColumnCascadesARealAfterAnIndexSeek(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE kids (id REAL, k REAL PRIMARY KEY);
      CREATE TABLE m (ref REAL REFERENCES kids (k) ON DELETE SET NULL ON UPDATE SET NULL, w BLOB NOT NULL);
      CREATE INDEX m_on_ref_w ON m (ref, w);
      CREATE TABLE t (ref TEXT REFERENCES kids (k) ON UPDATE CASCADE, y TEXT NOT NULL);
      CREATE TABLE b (ref BLOB REFERENCES kids (k) ON UPDATE CASCADE);
      INSERT INTO kids VALUES (X'61C3', -1e20); INSERT INTO t VALUES (-1e20, 'a'); INSERT INTO b VALUES (-1e20);
      """)
    try db.execute(sql: "UPDATE kids SET k = abs(id)")
    #expect(try db.values(sql: "SELECT ref, typeof(ref) FROM t") == [["0.0", "text"]])
    #expect(try db.values(sql: "SELECT ref, typeof(ref) FROM b") == [[0.0, "real"]])
  }

  /// Found beside case 496955 (checked with the sqlite3 CLI): under a parent column without REAL
  /// affinity, the index seek leaves the INTEGER 3 of a REAL key 3.0, whatever the index column's
  /// numeric affinity — a later ON DELETE SET NULL finds the TEXT child `'3'` and not `'3.0'`.
  /// The memory engine kept such a key a REAL and found the other one.
  @Test(arguments: BackendKind.allCases)
  func anIndexSeekLeavesAnIntegerUnderAParentColumnWithoutRealAffinity(_ kind: BackendKind) throws {
    for childAffinity in ["REAL", "INTEGER"] {
      let db = try makeDatabase(kind)
      try db.execute(sql: """
        CREATE TABLE p (k BLOB UNIQUE);
        CREATE TABLE c (x \(childAffinity) REFERENCES p (k) ON DELETE CASCADE); CREATE INDEX c_on_x ON c (x);
        CREATE TABLE t (y TEXT REFERENCES p (k) ON DELETE SET NULL, n INTEGER);
        INSERT INTO p VALUES ('3'), ('3.0'), (3.0); INSERT INTO t VALUES ('3', 1), ('3.0', 2);
        """)
      try db.execute(sql: "DELETE FROM p WHERE typeof(k) = 'real'")
      #expect(try db.values(sql: "SELECT y, n FROM t ORDER BY n") == [[nil, 1], ["3.0", 2]], "index \(childAffinity)")
    }
  }

  /// As above under a TEXT parent column: the key `'3.0'` becomes the INTEGER 3, the SET NULL
  /// action finds the child `'3'`, and the child `'3.0'`, counted by the scan that ran before the
  /// conversion, is left an orphan: the DELETE fails.
  @Test(arguments: BackendKind.allCases)
  func anIndexSeekConvertsATextKeyUnderARealIndexColumnToAnInteger(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.execute(sql: """
      CREATE TABLE p (k TEXT UNIQUE);
      CREATE TABLE c (x REAL REFERENCES p (k) ON DELETE CASCADE); CREATE INDEX c_on_x ON c (x);
      CREATE TABLE t (y TEXT REFERENCES p (k) ON DELETE SET NULL, n INTEGER);
      INSERT INTO p VALUES ('3'), ('3.0'); INSERT INTO t VALUES ('3', 1), ('3.0', 2);
      """)
    let error = try #require(throws: TandemError.self) { try db.execute(sql: "DELETE FROM p WHERE k = '3.0'") }
    #expect(error.kind == .constraintViolation && error.constraint == .foreignKey)
    #expect(try db.values(sql: "SELECT y, n FROM t ORDER BY n") == [["3", 1], ["3.0", 2]])
  }
}
