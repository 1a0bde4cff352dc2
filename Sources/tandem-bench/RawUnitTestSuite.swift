import CSQLite

/// W5 in raw C: one fresh database's life in a unit test — open, create 3 tables, insert 50 rows
/// in a transaction with one prepared statement per table, run 10 queries, close.
struct RawUnitTestSuite {
  let path: String

  static let createAuthors =
    "CREATE TABLE \"authors\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL, \"born\" INTEGER NOT NULL)"
  static let createBooks =
    "CREATE TABLE \"books\" (\"id\" INTEGER PRIMARY KEY, \"authorID\" INTEGER NOT NULL, \"title\" TEXT NOT NULL, "
    + "\"year\" INTEGER NOT NULL, \"rating\" REAL)"
  static let createReviews =
    "CREATE TABLE \"reviews\" (\"id\" INTEGER PRIMARY KEY, \"bookID\" INTEGER NOT NULL, \"stars\" INTEGER NOT NULL, "
    + "\"body\" TEXT NOT NULL)"

  func run(_ fixture: UnitTestFixture) throws -> Checksum {
    let db = try RawConnection(path: path)
    try db.execute(Self.createAuthors)
    try db.execute(Self.createBooks)
    try db.execute(Self.createReviews)
    try insert(fixture, into: db)
    return try query(db)
  }

  private func insert(_ fixture: UnitTestFixture, into db: RawConnection) throws {
    try db.execute("BEGIN")
    let authors = try db.prepare("INSERT INTO \"authors\" (\"id\", \"name\", \"born\") VALUES (?, ?, ?)")
    for author in fixture.authors {
      authors.bind(author.id, at: 1)
      authors.bind(author.name, at: 2)
      authors.bind(author.born, at: 3)
      try authors.runToCompletion()
    }
    let books = try db.prepare(
      "INSERT INTO \"books\" (\"id\", \"authorID\", \"title\", \"year\", \"rating\") VALUES (?, ?, ?, ?, ?)")
    for book in fixture.books {
      books.bind(book.id, at: 1)
      books.bind(book.authorID, at: 2)
      books.bind(book.title, at: 3)
      books.bind(book.year, at: 4)
      books.bind(book.rating, at: 5)
      try books.runToCompletion()
    }
    let reviews = try db.prepare("INSERT INTO \"reviews\" (\"id\", \"bookID\", \"stars\", \"body\") VALUES (?, ?, ?, ?)")
    for review in fixture.reviews {
      reviews.bind(review.id, at: 1)
      reviews.bind(review.bookID, at: 2)
      reviews.bind(review.stars, at: 3)
      reviews.bind(review.body, at: 4)
      try reviews.runToCompletion()
    }
    try db.execute("COMMIT")
  }

  /// The same 10 queries as ``TandemUnitTestSuite``, with the same result order.
  private func query(_ db: RawConnection) throws -> Checksum {
    typealias F = UnitTestFixture
    var checksum = Checksum()
    let authorColumns = "\"id\", \"name\", \"born\""
    let bookColumns = "\"id\", \"authorID\", \"title\", \"year\", \"rating\""
    let reviewColumns = "\"id\", \"bookID\", \"stars\", \"body\""

    // 1. every author
    var statement = try db.prepare("SELECT \(authorColumns) FROM \"authors\" ORDER BY \"id\"")
    while try statement.step() { checksum.mix(author(statement)) }
    // 2. one book by primary key
    statement = try db.prepare("SELECT \(bookColumns) FROM \"books\" WHERE \"id\" = ?")
    statement.bind(F.bookKey, at: 1)
    while try statement.step() { checksum.mix(book(statement)) }
    // 3. an author's books, newest first
    statement = try db.prepare(
      "SELECT \(bookColumns) FROM \"books\" WHERE \"authorID\" = ? ORDER BY \"year\" DESC, \"id\"")
    statement.bind(F.authorOfBooks, at: 1)
    while try statement.step() { checksum.mix(book(statement)) }
    // 4. how many recent books
    statement = try db.prepare("SELECT count(*) FROM \"books\" WHERE \"year\" >= ?")
    statement.bind(F.booksSinceYear, at: 1)
    while try statement.step() { checksum.mix(statement.int(0)) }
    // 5. the best reviews
    statement = try db.prepare(
      "SELECT \(reviewColumns) FROM \"reviews\" WHERE \"stars\" >= ? ORDER BY \"stars\" DESC, \"id\" LIMIT ?")
    statement.bind(F.minimumStars, at: 1)
    statement.bind(F.reviewLimit, at: 2)
    while try statement.step() { checksum.mix(review(statement)) }
    // 6. an author by name
    statement = try db.prepare("SELECT \(authorColumns) FROM \"authors\" WHERE \"name\" = ? ORDER BY \"id\" LIMIT 1")
    statement.bind(F.authorName, at: 1)
    while try statement.step() { checksum.mix(author(statement)) }
    // 7. books whose title matches a pattern
    statement = try db.prepare("SELECT \(bookColumns) FROM \"books\" WHERE \"title\" LIKE ? ORDER BY \"id\"")
    statement.bind(F.titlePattern, at: 1)
    while try statement.step() { checksum.mix(book(statement)) }
    // 8. how many reviews
    statement = try db.prepare("SELECT count(*) FROM \"reviews\"")
    while try statement.step() { checksum.mix(statement.int(0)) }
    // 9. every title
    statement = try db.prepare("SELECT \"title\" FROM \"books\" ORDER BY \"id\"")
    while try statement.step() { checksum.mix(statement.text(0)) }
    // 10. a book's good reviews
    statement = try db.prepare(
      "SELECT \(reviewColumns) FROM \"reviews\" WHERE \"bookID\" = ? AND \"stars\" > ? ORDER BY \"id\"")
    statement.bind(F.reviewedBook, at: 1)
    statement.bind(F.starsAbove, at: 2)
    while try statement.step() { checksum.mix(review(statement)) }
    return checksum
  }

  private func author(_ s: RawStatement) -> Author {
    Author(id: s.int(0), name: s.text(1), born: s.int(2))
  }

  private func book(_ s: RawStatement) -> Book {
    Book(id: s.int(0), authorID: s.int(1), title: s.text(2), year: s.int(3), rating: s.optionalDouble(4))
  }

  private func review(_ s: RawStatement) -> Review {
    Review(id: s.int(0), bookID: s.int(1), stars: s.int(2), body: s.text(3))
  }
}
