import Tandem
import Testing

/// `+ - * / %` and negation with SQLite's rules: integer division truncates, division by zero is
/// NULL, integer overflow becomes REAL, NaN becomes NULL, `%` works on truncated integers.
@Suite struct ArithmeticTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Operand.self)
    try db.insert(Operand.samples)
    return db
  }

  /// 2^63 as a double, what overflowing integer arithmetic gives.
  static let twoToThe63 = 9_223_372_036_854_775_808.0

  @Test(arguments: BackendKind.allCases)
  func integerArithmetic(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let results = try db.rows(Operand.all.select { ($0.x + $0.y, $0.x - $0.y, $0.x * $0.y, $0.x / $0.y, $0.x % $0.y) })
    #expect(results[0] == [9, 5, 14, 3, 1])
    #expect(results[1] == [-4, -10, -21, -2, -1])
    // Division and remainder by zero are NULL.
    #expect(results[2] == [.integer(.max), .integer(.max), 0, nil, nil])
    // Overflow redoes the operation in REAL; INT64_MIN / -1 too; INT64_MIN % -1 is 0.
    #expect(results[3] == [.real(-Self.twoToThe63), .integer(.min + 1), .real(Self.twoToThe63), .real(Self.twoToThe63), 0])
  }

  @Test(arguments: BackendKind.allCases)
  func arithmeticWithValues(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let results = try db.rows(Operand.all.select { ($0.x + 1, $0.x - 1, $0.x * 2, $0.x / 0, $0.x % 0, -$0.x) })
    #expect(results[0] == [8, 6, 14, nil, nil, -7])
    #expect(results[1] == [-6, -8, -14, nil, nil, 7])
    #expect(results[2] == [.real(Self.twoToThe63), .integer(.max - 1), .real(2 * Self.twoToThe63), nil, nil, .integer(-.max)])
    #expect(results[3] == [.integer(.min + 1), .real(-Self.twoToThe63), .real(-2 * Self.twoToThe63), nil, nil, .real(Self.twoToThe63)])

    // Typed results decode when they stay integers.
    let halves = try db.fetchAll(Operand.where { $0.id <= 2 }.select { $0.x / 2 })
    #expect(halves == [3, -3])
    let sums = try db.fetchAll(Operand.where { $0.id <= 2 }.select { $0.x + $0.y * 10 })
    #expect(sums == [27, 23])
    // NULL operands give NULL.
    #expect(try db.fetchAll(Operand.all.select { $0.n + 1 }) == [nil, 2, nil, nil])
  }

  /// A Swift value on the left of an operator (`1.0 - $0.discount`), as a report writes it, did
  /// not compile: only `expression op value` did.
  @Test(arguments: BackendKind.allCases)
  func valuesOnTheLeftOfAnOperator(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let results = try db.rows(Operand.all.select { (10 + $0.x, 10 - $0.x, 3 * $0.x, 100 / $0.y, 100 % $0.y) })
    #expect(results[0] == [17, 3, 21, 50, 0])
    #expect(results[1] == [3, 17, -21, 33, 1])
    // 10 + INT64_MAX and 3 * INT64_MAX overflow to REAL, 10 - INT64_MAX does not; dividing by zero is NULL.
    #expect(results[2] == [.real(Self.twoToThe63), .integer(10 - .max), .real(3 * Self.twoToThe63), nil, nil])
    #expect(try db.fetchAll(Operand.where { $0.id == 1 }.select { 1.0 - $0.s * 0.5 }) == [0.0])
    // An optional operand keeps the result singly optional.
    let shares: Select<Operand, Int?> = Operand.all.select { 10 / $0.n }
    #expect(try db.fetchAll(shares) == [nil, 10, nil, nil])
    #expect(try db.fetchAll(Operand.all.select { 1 - $0.n }) == [nil, 0, nil, nil])
    let words = try makeDatabase(kind)
    try words.create(Word.self)
    try words.insert(Word.samples)
    #expect(try words.fetchAll(Word.where { $0.id <= 3 }.select { "¡" + $0.text }) == ["¡Milk", "¡  oat milk  ", "¡École"])
    #expect(try words.fetchAll(Word.where { $0.id <= 3 }.select { "(" + $0.note + ")" }) == [nil, "(fresh)", "(ÉCOLE)"])
  }

  @Test(arguments: BackendKind.allCases)
  func divisionOfOptionalsIsSinglyOptional(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // n is NULL, 1, NULL, NULL. The queries are typed `Int?`, not `Int??`.
    let halves: Select<Operand, Int?> = Operand.all.select { $0.n / 2 }
    let remainders: Select<Operand, Int?> = Operand.all.select { $0.n % 2 }
    let ratios: Select<Operand, Int?> = Operand.all.select { $0.n / $0.n }
    let moduli: Select<Operand, Int?> = Operand.all.select { $0.n % ($0.n + 1) }
    #expect(try db.fetchAll(halves) == [nil, 0, nil, nil])
    #expect(try db.fetchAll(remainders) == [nil, 1, nil, nil])
    #expect(try db.fetchAll(ratios) == [nil, 1, nil, nil])
    #expect(try db.fetchAll(moduli) == [nil, 1, nil, nil])
    // Division by zero is NULL, as for non-optional operands.
    #expect(try db.fetchAll(Operand.all.select { $0.n / 0 }) == [nil, nil, nil, nil])
    #expect(try db.fetchAll(Operand.all.select { $0.n % ($0.n - 1) }) == [nil, nil, nil, nil])
  }

  @Test(arguments: BackendKind.allCases)
  func realArithmetic(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // `%` on reals does not compile (SQLite truncates both operands to integers first, which is
    // not Swift's `truncatingRemainder`); the engines' behaviour is still compared, untyped.
    let remainder = { (o: TableView<Operand>) in TypedExpression<Double?>(.binary(.remainder, o.r.expression, o.s.expression)) }
    let results = try db.rows(Operand.all.select { ($0.r + $0.s, $0.r - $0.s, $0.r * $0.s, $0.r / $0.s, remainder($0)) })
    #expect(results[0] == [9.5, 5.5, 15.0, 3.75, 1.0])
    // -7.5 * 0.0 is -0.0 (a computed value keeps its sign); x / 0.0 and x % 0.0 are NULL.
    #expect(results[1] == [-7.5, -7.5, .real(-0.0), nil, nil])
    // ∞ - ∞ and ∞ / ∞ are NaN, which SQLite turns into NULL; % truncates ∞ to INT64_MAX.
    #expect(results[2] == [.real(.infinity), nil, .real(.infinity), nil, 0.0])
    #expect(results[3] == [1e308, 1e308, .real(.infinity), 1e307, 7.0])

    #expect(try db.rows(Operand.all.select { -$0.r }) == [[-7.5], [7.5], [.real(-.infinity)], [-1e308]])
    #expect(try db.fetchAll(Operand.where { $0.id == 1 }.select { $0.r * 2 + $0.s * 0.25 }) == [15.5])
  }

  @Test(arguments: BackendKind.allCases)
  func stringConcatenation(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Word.self)
    try db.insert(Word.samples)
    let shout = try db.fetchAll(Word.where { $0.id <= 3 }.select { $0.text + "!" })
    #expect(shout == ["Milk!", "  oat milk  !", "École!"])
    let joined = try db.fetchAll(Word.all.select { $0.text + " " + $0.text })
    #expect(joined[0] == "Milk Milk")
    // Concatenating NULL gives NULL.
    let notes = try db.fetchAll(Word.all.select { $0.note + "?" })
    #expect(notes == [nil, "fresh?", "ÉCOLE?", nil, "?", "b_c?"])
    #expect(try db.fetchAll(Word.all.select { $0.note + $0.text }) == [nil, "fresh  oat milk  ", "ÉCOLEÉcole", nil, "1000", "b_cstraße"])
    // Text and then optional text is optional text too.
    let appended: Select<Word, String?> = Word.all.select { $0.text + $0.note }
    #expect(try db.fetchAll(appended) == [nil, "  oat milk  fresh", "ÉcoleÉCOLE", nil, "1000", "straßeb_c"])
    let spaced: Select<Word, String?> = Word.all.select { $0.text + " " + $0.note + "." }
    #expect(try db.fetchAll(spaced) == [nil, "  oat milk   fresh.", "École ÉCOLE.", nil, "1000 .", "straße b_c."])
  }
}
