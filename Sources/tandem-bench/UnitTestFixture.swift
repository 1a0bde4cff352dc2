/// The rows W5 inserts into every fresh database: 5 authors, 30 books, 15 reviews (50 rows).
struct UnitTestFixture: Sendable {
  let authors: [Author]
  let books: [Book]
  let reviews: [Review]

  static let standard = UnitTestFixture(
    authors: (1...5).map { Author(id: $0, name: "Author \($0)", born: 1900 + $0 * 13) },
    books: (1...30).map {
      Book(
        id: $0, authorID: $0 % 5 + 1, title: "Book \($0)", year: 1950 + $0 * 7 % 60,
        rating: $0 % 4 == 0 ? nil : Double($0 % 5) + 0.5)
    },
    reviews: (1...15).map { Review(id: $0, bookID: $0 * 3 % 30 + 1, stars: $0 % 5 + 1, body: "Review \($0)") })

  /// Query arguments shared by the raw and the Tandem versions of W5.
  static let bookKey = 7
  static let authorOfBooks = 2
  static let booksSinceYear = 1980
  static let minimumStars = 4
  static let reviewLimit = 5
  static let authorName = "Author 3"
  static let titlePattern = "%7%"
  static let reviewedBook = 4
  static let starsAbove = 2
}
