@_spi(TandemBackend) import TandemCore
import Tandem
import Testing

/// The SQL of joins and subqueries, as reviewers read it.
@Suite struct JoinSQLSnapshotTests {
  @Table struct Shelf {
    let id: Int
    var name: String
    var isArchived = false
  }

  @Table struct Book {
    let id: Int
    var shelfID: Int
    var title: String
  }

  @Test func innerJoinWithFilterOrderAndProjection() throws {
    let query = Book.join(Shelf.self) { $0.shelfID == $1.id }
      .where { _, shelf in shelf.name == "Work" }
      .order { book, shelf in (shelf.name, book.title) }
      .select { book, shelf in (book.title, shelf.name) }
    // A sorted join runs as a subquery that SQLite plans for its WHERE clause alone; the rows are
    // then sorted outside it (see SQLTextWriter.writeSortedJoin).
    #expect(
      try query.renderedSQL().sql
        == #"SELECT "tandem_c0", "tandem_c1" FROM (SELECT "books"."title" AS "tandem_c0", "shelfs"."name" AS "tandem_c1","#
        + #" "shelfs"."name" AS "tandem_o0", "books"."title" AS "tandem_o1", (+"books".rowid) AS "tandem_o2","#
        + #" (+"shelfs".rowid) AS "tandem_o3" FROM "books" JOIN "shelfs" ON ("books"."shelfID" = "shelfs"."id")"#
        + #" WHERE ("shelfs"."name" = ?) LIMIT -1 OFFSET 0)"#
        + #" ORDER BY "tandem_o0" ASC, "tandem_o1" ASC, "tandem_o2" ASC, "tandem_o3" ASC"#)
  }

  @Test func orderFreeAggregateOverALeftJoinLetsSQLitePlan() throws {
    // A count per shelf, grouped by the shelf's rowid: no visiting order changes the answer.
    let query = Shelf.leftJoin(Book.self) { $0.id == $1.shelfID }
      .group { shelf, _ in shelf.id }
      .select { shelf, book in (shelf.name, book.id.count()) }
    #expect(
      try query.renderedSQL().sql
        == #"SELECT "shelfs"."name", count("books"."id") FROM "shelfs" LEFT JOIN "books""#
        + #" ON ("shelfs"."id" = "books"."shelfID") GROUP BY "shelfs"."id" ORDER BY "shelfs"."id" ASC"#)
  }

  @Test func orderDependentAggregateOverAJoinPinsTheVisitingOrder() throws {
    // max() beside another column of the book: which book's title comes with it depends on the
    // order rows are visited in, so the join's rows reach the aggregate in FROM order and rowid
    // order, through a subquery SQLite may still plan with its indexes.
    let query = Book.join(Shelf.self) { $0.shelfID == $1.id }
      .group { _, shelf in shelf.id }
      .select { book, _ in (book.title, book.id.max()) }
    #expect(
      try query.renderedSQL().sql
        == #"SELECT "tandem_v0", max("tandem_v1") FROM (SELECT "books"."title" AS "tandem_v0", "books"."id" AS "tandem_v1","#
        + #" "shelfs"."id" AS "tandem_v2" FROM "books" JOIN "shelfs" ON ("books"."shelfID" = "shelfs"."id")"#
        + #" ORDER BY "books".rowid ASC, "shelfs".rowid ASC LIMIT -1 OFFSET 0) GROUP BY "tandem_v2" ORDER BY "tandem_v2" ASC"#)
  }

  @Test func selfJoinTakesAnAlias() throws {
    let query = Book.join(Book.self) { $0.shelfID == $1.shelfID }.select { a, b in (a.id, b.id) }
    #expect(
      try query.renderedSQL().sql
        == #"SELECT "tandem_c0", "tandem_c1" FROM (SELECT "books"."id" AS "tandem_c0", "books_2"."id" AS "tandem_c1","#
        + #" (+"books".rowid) AS "tandem_o0", (+"books_2".rowid) AS "tandem_o1" FROM "books" JOIN "books" AS "books_2""#
        + #" ON ("books"."shelfID" = "books_2"."shelfID") LIMIT -1 OFFSET 0) ORDER BY "tandem_o0" ASC, "tandem_o1" ASC"#)
  }

  @Test func correlatedExistsQualifiesTheOuterColumn() throws {
    let query = Shelf.where { shelf in Book.where { $0.shelfID == shelf.id }.exists() }.select { $0.name }
    #expect(
      try query.renderedSQL().sql
        == #"SELECT "name" FROM "shelfs" WHERE (EXISTS (SELECT "id", "shelfID", "title" FROM "books""#
        + #" WHERE ("shelfID" = "shelfs"."id"))) ORDER BY rowid ASC"#)
  }

  @Test func scalarSubqueryTakesTheDeterministicOrder() throws {
    let query = Shelf.all.select { shelf in
      Book.where { $0.shelfID == shelf.id }.order { $0.title }.select { $0.title }.value()
    }
    #expect(
      try query.renderedSQL().sql
        == #"SELECT (SELECT "title" FROM "books" WHERE ("shelfID" = "shelfs"."id") ORDER BY "title" ASC, rowid ASC)"#
        + #" FROM "shelfs" ORDER BY rowid ASC"#)
  }

  /// `fetchAll`/`fetchOne` run a statement prepared once per query and shared by its copies, so
  /// engines recognize it by identity; a query whose statement changes is prepared afresh.
  @Test func aQueryIsPreparedOnceAndAfreshWhenItsStatementChanges() throws {
    let query = Book.where { $0.shelfID == Parameter<Int>("shelf") }
    let copy = query
    #expect(query.preparedForFirst === copy.preparedForFirst)
    #expect(query.preparedForAll === copy.preparedForAll)
    #expect(query.preparedForAll !== query.preparedForFirst)
    guard case .select(let first) = query.preparedForFirst.statement else { throw TandemError.misuse("not a select") }
    #expect(first.limit == .literal(.integer(1)))
    var changed = query
    changed.base.limit = .literal(.integer(2))
    #expect(changed.preparedForFirst !== query.preparedForFirst)
    guard case .select(let limited) = changed.preparedForFirst.statement else { throw TandemError.misuse("not a select") }
    #expect(limited.limit == .literal(.integer(2)))
  }

  @Test func inSubquery() throws {
    let archived = Shelf.where { $0.isArchived }.select { $0.id }
    let statement = Statement.delete(Book.where { $0.shelfID.in(archived) }.deleteStatement)
    #expect(
      try statement.renderedSQL().sql
        == #"DELETE FROM "books" WHERE ("shelfID" IN (SELECT "id" FROM "shelfs" WHERE "isArchived"))"#)
  }

  @Test func compoundIsOrderedByItsResultColumns() throws {
    let query = Shelf.all.select { $0.name }.union(Book.where { $0.shelfID == 1 }.select { $0.title }).limit(5)
    #expect(
      try query.renderedSQL().sql
        == #"SELECT "name" FROM "shelfs" UNION SELECT "title" FROM "books" WHERE ("shelfID" = ?)"#
        + #" ORDER BY 1 ASC LIMIT ?"#)
  }

  @Table struct Level {
    let n: Int
  }

  @Test func recursiveCommonTableIsOrderedByItsResultColumns() throws {
    let query = Level.all.select { $0.n }.withRecursive(
      Level.self, start: Shelf.where { $0.id == 1 }.select { $0.id }, step: Level.where { $0.n < 3 }.select { $0.n + 1 })
    #expect(
      try query.renderedSQL().sql
        == #"WITH RECURSIVE "levels"("n") AS (SELECT "id" FROM "shelfs" WHERE ("id" = ?) UNION ALL"#
        + #" SELECT ("n" + ?) FROM "levels" WHERE ("n" < ?)) SELECT "n" FROM "levels" ORDER BY "n" ASC"#)
  }
}
