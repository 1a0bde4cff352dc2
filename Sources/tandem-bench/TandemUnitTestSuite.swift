import Tandem

/// W5 with Tandem: one fresh database's life in a unit test — open, create 3 tables, insert 50
/// rows in a transaction, run 10 queries; the database is released at the end.
struct TandemUnitTestSuite {
  let storage: Database.Storage

  func run(_ fixture: UnitTestFixture) throws -> Checksum {
    let db = try Database(storage)
    try db.create(Author.self)
    try db.create(Book.self)
    try db.create(Review.self)
    try db.transaction { db in
      for author in fixture.authors { try db.insert(author) }
      for book in fixture.books { try db.insert(book) }
      for review in fixture.reviews { try db.insert(review) }
    }
    return try query(db)
  }

  /// The same 10 queries as ``RawUnitTestSuite``.
  private func query(_ db: Database) throws -> Checksum {
    typealias F = UnitTestFixture
    var checksum = Checksum()
    // 1. every author
    for author in try db.fetchAll(Author.all) { checksum.mix(author) }
    // 2. one book by primary key
    if let book = try db.find(Book.self, key: F.bookKey) { checksum.mix(book) }
    // 3. an author's books, newest first
    for book in try db.fetchAll(Book.where { $0.authorID == F.authorOfBooks }.order { $0.year.desc() }) {
      checksum.mix(book)
    }
    // 4. how many recent books
    checksum.mix(try db.fetchCount(Book.where { $0.year >= F.booksSinceYear }))
    // 5. the best reviews
    let best = Review.where { $0.stars >= F.minimumStars }.order { $0.stars.desc() }.limit(F.reviewLimit)
    for review in try db.fetchAll(best) { checksum.mix(review) }
    // 6. an author by name
    if let author = try db.fetchOne(Author.where { $0.name == F.authorName }) { checksum.mix(author) }
    // 7. books whose title matches a pattern
    for book in try db.fetchAll(Book.where { $0.title.like(F.titlePattern) }) { checksum.mix(book) }
    // 8. how many reviews
    checksum.mix(try db.fetchCount(Review.all))
    // 9. every title
    for title in try db.fetchAll(Book.all.select { $0.title }) { checksum.mix(title) }
    // 10. a book's good reviews
    for review in try db.fetchAll(Review.where { $0.bookID == F.reviewedBook && $0.stars > F.starsAbove }) {
      checksum.mix(review)
    }
    return checksum
  }
}
