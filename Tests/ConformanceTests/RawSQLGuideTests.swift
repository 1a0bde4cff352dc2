import Foundation
import Tandem
import Testing

// The code samples of Docs/RawSQL.md, run on every backend.

@Table private struct Note: Equatable {
  let id: Int
  var body = ""
  var pinned = 0
}

@Suite struct RawSQLGuideTests {
  @Test(arguments: BackendKind.allCases)
  func guideSamples(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    // Running statements
    try db.execute(sql: """
      CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT NOT NULL, pinned INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX notes_by_body ON notes(body);
      """)
    let result = try db.execute(sql: "INSERT INTO notes(body) VALUES (?), (?)", arguments: ["Milk", "Eggs"])
    #expect(result.changes == 2)
    #expect(result.lastInsertRowid == 2)

    // Arguments
    try db.execute(sql: "UPDATE notes SET pinned = ? WHERE id = ?", arguments: [1, 2])
    let byPosition = try db.fetchAll(sql: "SELECT body FROM notes WHERE id = ?2 OR body = ?1 ORDER BY id", arguments: ["Milk", 2])
    let byName = try db.fetchAll(sql: "SELECT body FROM notes WHERE pinned = :pinned", arguments: ["pinned": 1])
    #expect(try byPosition.map { try $0[0] as String } == ["Milk", "Eggs"])
    #expect(try byName.map { try $0["body"] as String } == ["Eggs"])

    // Rows
    let rows = try db.fetchAll(sql: "SELECT id, body AS text, length(body) FROM notes ORDER BY id")
    #expect(rows[0].columnNames == ["id", "text", "length(body)"])
    let text: String = try rows[0]["text"]
    let length: Int = try rows[0][2]
    let pinned: Int? = try db.fetchOne(Int.self, sql: "SELECT pinned FROM notes WHERE id = 2")
    #expect(text == "Milk" && length == 4 && pinned == 1)

    let pinnedNotes = try db.fetchAll(Note.self, sql: "SELECT * FROM notes WHERE pinned = 1")
    #expect(pinnedNotes == [Note(id: 2, body: "Eggs", pinned: 1)])

    // Row order
    try db.execute(sql: "CREATE TABLE tags(noteID INTEGER, label TEXT); INSERT INTO tags VALUES (1, 'shop'), (2, 'shop')")
    let pairs = try db.fetchAll(
      sql: "SELECT n.body, t.label FROM notes n, tags t WHERE t.noteID = n.id", rowOrder: .unordered)
    #expect(Set(pairs.map(\.values)) == [["Milk", "shop"], ["Eggs", "shop"]])

    // Transactions
    try db.execute(sql: "BEGIN; DELETE FROM notes; SAVEPOINT s; INSERT INTO notes(body) VALUES ('Tea'); ROLLBACK TO s; COMMIT")
    #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes") == 0)
  }
}
