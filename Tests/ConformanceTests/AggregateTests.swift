import Tandem
import Testing

/// count, sum, total, avg, min, max — over rows, NULLs and empty sets — and GROUP BY / HAVING.
@Suite struct AggregateTests {
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Item.self)
    try db.insert(Item.samples)
    return db
  }

  @Test(arguments: BackendKind.allCases)
  func aggregatesOverRows(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let stock = try db.rows(
      Item.all.select {
        (TypedExpression<Int>.countAll, $0.stock.count(), $0.stock.sum(), $0.stock.total(), $0.stock.avg(), $0.stock.min(), $0.stock.max())
      })
    #expect(stock == [[4, 4, 35, 35.0, 8.75, 0, 20]])
    // A nullable column: NULLs are skipped by everything but count(*).
    let discount = try db.rows(
      Item.all.select {
        (
          TypedExpression<Int>.countAll, $0.discount.count(), $0.discount.sum(), $0.discount.total(), $0.discount.avg(),
          $0.discount.min(), $0.discount.max()
        )
      })
    #expect(discount == [[4, 2, 10, 10.0, 5.0, 0, 10]])
    // A REAL column sums to a REAL.
    #expect(try db.rows(Item.all.select { ($0.price.sum(), $0.price.min(), $0.price.max()) }) == [[16.75, 0.25, 12.0]])
    #expect(try db.rows(Item.all.select { ($0.name.min(), $0.name.max(), $0.name.count()) }) == [["apple", "date", 4]])

    // The sum of an optional column is `Int?`, not `Int??`.
    let discounts: Select<Item, Int?> = Item.all.select { $0.discount.sum() }
    #expect(try db.fetchAll(discounts) == [10])
    #expect(try db.fetchAll(Item.where { $0.discount == nil }.select { $0.discount.sum(distinct: true) }) == [nil])

    let sum: Int? = try db.fetchSingle(Item.all.select { $0.stock.sum() })
    let average: Double? = try db.fetchSingle(Item.all.select { $0.stock.avg() })
    let maximum: Int? = try db.fetchSingle(Item.all.select { $0.discount.max() })
    let lastName: String? = try db.fetchSingle(Item.all.select { $0.name.max() })
    #expect(sum == 35)
    #expect(average == 8.75)
    #expect(maximum == 10)
    #expect(lastName == "date")
    #expect(try db.fetchSingle(Item.where { $0.stock > 5 }.select { _ in TypedExpression<Int>.countAll }) == 2)
  }

  @Test(arguments: BackendKind.allCases)
  func aggregatesOverNoRows(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let none = Item.where { $0.id > 100 }
    let empty = try db.rows(
      none.select {
        (TypedExpression<Int>.countAll, $0.stock.count(), $0.stock.sum(), $0.stock.total(), $0.stock.avg(), $0.stock.min(), $0.stock.max())
      })
    // One row: count 0, sum NULL, total 0.0, avg/min/max NULL.
    #expect(empty == [[0, 0, nil, 0.0, nil, nil, nil]])
    // Only NULL inputs behave the same for everything but count(*).
    let onlyNulls = try db.rows(
      Item.where { $0.discount == nil }.select {
        (TypedExpression<Int>.countAll, $0.discount.count(), $0.discount.sum(), $0.discount.total(), $0.discount.avg(), $0.discount.max())
      })
    #expect(onlyNulls == [[2, 0, nil, 0.0, nil, nil]])

    let emptySum: Int? = try db.fetchSingle(none.select { $0.stock.sum() })
    #expect(emptySum == nil)
    #expect(try db.fetchSingle(none.select { $0.stock.total() }) == 0)
    #expect(try db.fetchSingle(none.select { _ in TypedExpression<Int>.countAll }) == 0)
    #expect(try db.fetchCount(none) == 0)
    // Grouped, no rows means no groups.
    #expect(try db.fetchAll(none.group { $0.reorderLevel }.select { _ in TypedExpression<Int>.countAll }) == [] as [Int])
  }

  @Test(arguments: BackendKind.allCases)
  func distinctAggregates(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let results = try db.rows(
      Item.all.select {
        (
          $0.reorderLevel.count(distinct: true), $0.reorderLevel.sum(distinct: true), $0.reorderLevel.avg(distinct: true),
          $0.reorderLevel.total(distinct: true)
        )
      })
    #expect(results == [[2, 15, 7.5, 15.0]])
  }

  @Test(arguments: BackendKind.allCases)
  func sumOverflowIsAnError(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Operand.self)
    try db.insert(Operand.samples)
    // 7 - 7 + INT64_MAX + INT64_MIN never leaves the range…
    let sum: Int? = try db.fetchSingle(Operand.all.select { $0.x.sum() })
    #expect(sum == -1)
    // …but 7 + INT64_MAX does, and sum() reports it (total() does not).
    let error = try #require(throws: TandemError.self) {
      try db.fetchAll(Operand.where { $0.id.in([1, 3]) }.select { $0.x.sum() })
    }
    #expect(error.signature == .sqlite(code: 1, message: "integer overflow"))
    #expect(try db.rows(Operand.where { $0.id.in([1, 3]) }.select { $0.x.total() }) == [[.real(9_223_372_036_854_775_808.0)]])
  }

  @Test(arguments: BackendKind.allCases)
  func groupByAndHaving(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    try db.insert([
      Reminder(id: 1, title: "a", priority: .low), Reminder(id: 2, title: "b"),
      Reminder(id: 3, title: "c", isCompleted: true, priority: .high), Reminder(id: 4, title: "d", priority: .low),
      Reminder(id: 5, title: "e", isCompleted: true), Reminder(id: 6, title: "f", isCompleted: true, priority: .low),
    ])

    // Groups come in key order (NULL first) when there is no ORDER BY.
    let counts = try db.fetchAll(Reminder.group { $0.priority }.select { ($0.priority, TypedExpression<Int>.countAll) })
    #expect(counts.map(\.0) == [nil, .low, .high])
    #expect(counts.map(\.1) == [2, 3, 1])

    let busy = try db.fetchAll(
      Reminder.group { $0.priority }.having { _ in TypedExpression<Int>.countAll > 1 }.select { $0.priority })
    #expect(busy == [nil, .low])

    let byCount = try db.fetchAll(
      Reminder.group { $0.priority }.order { _ in TypedExpression<Int>.countAll.desc() }.select { ($0.priority, $0.title.max()) })
    #expect(byCount.map(\.0) == [.low, nil, .high])
    #expect(byCount.map(\.1) == ["f", "e", "c"])

    let twoKeys = try db.rows(
      Reminder.group { ($0.isCompleted, $0.priority) }.select { ($0.isCompleted, $0.priority, TypedExpression<Int>.countAll) })
    #expect(twoKeys == [[0, nil, 1], [0, 1, 2], [1, nil, 1], [1, 1, 1], [1, 3, 1]])

    let filtered = try db.rows(
      Reminder.where { $0.title != "a" }.group { $0.isCompleted }
        .having { $0.id.sum() > 6 }.select { ($0.isCompleted, $0.id.sum(), $0.title.min()) })
    #expect(filtered == [[1, 14, "c"]])

    // `.count()` is count(*), wherever an expression is expected.
    let natural = try db.fetchAll(Reminder.group { $0.priority }.select { ($0.priority, .count()) })
    #expect(natural.map(\.0) == [nil, .low, .high])
    #expect(natural.map(\.1) == [2, 3, 1])
    #expect(try db.fetchAll(Reminder.group { $0.priority }.having { _ in .count() > 1 }.select { $0.priority }) == [nil, .low])
    #expect(try db.fetchSingle(Reminder.where { $0.isCompleted }.select { _ in .count() }) == 3)

    // HAVING without GROUP BY filters the single aggregate row.
    let count = Reminder.all.select { _ in TypedExpression<Int>.countAll }
    #expect(try db.fetchAll(count.having { _ in TypedExpression<Int>.countAll > 10 }) == [] as [Int])
    #expect(try db.fetchAll(count.having { _ in TypedExpression<Int>.countAll > 5 }) == [6] as [Int])
  }

  @Test(arguments: BackendKind.allCases)
  func groupByExpression(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let groups = try db.rows(
      Item.group { $0.stock > 5 }.select { ($0.stock > 5, TypedExpression<Int>.countAll, $0.stock.sum()) })
    #expect(groups == [[0, 2, 5], [1, 2, 30]])
    let levels = try db.fetchAll(
      Item.group { $0.reorderLevel }.select { ($0.reorderLevel, $0.stock.sum(), $0.name.max(), $0.price.avg()) })
    #expect(levels.map(\.0) == [5, 10])
    #expect(levels.map(\.1) == [0, 35])
    #expect(levels.map(\.2) == ["date", "cherry"])
    #expect(levels.map(\.3) == [12.0, 4.75 / 3])
    #expect(try db.fetchCount(Item.group { $0.reorderLevel }) == 2)
  }

  @Test(arguments: BackendKind.allCases)
  func bareColumnsComeFromTheExtremeRow(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // With one max() or min(), the other columns come from the row that holds the extreme.
    let richest = try db.fetchAll(Item.group { $0.reorderLevel }.select { ($0.name, $0.stock.max()) })
    #expect(richest.map(\.0) == ["date", "banana"])
    let poorest = try db.fetchAll(Item.group { $0.reorderLevel }.select { ($0.name, $0.stock.min()) })
    #expect(poorest.map(\.0) == ["date", "apple"])
    let overall = try db.fetchAll(Item.all.select { ($0.name, $0.price.max()) })
    #expect(overall.map(\.0) == ["date"])
  }

  /// Statement fuzzer seed 0xD1FF0043 case 6795: `(sum(k) IN ()) COLLATE RTRIM` is the parser's
  /// constant 0 under COLLATE, which SQLite does not mark always false, so `havingToWhere` moves
  /// it into the WHERE clause, tested before the loop: no row is read, and the `abs()` that
  /// would overflow on the only row never runs.
  @Test(arguments: BackendKind.allCases)
  func aFoldedHavingUnderCollateMovesToWhere(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(TableSchema("g", columns: [.column("k", .integer), .column("w", .blob)]))
    _ = try db.insertRaw(into: "g", columns: ["k", "w"], values: [.integer(.min), 1.5])
    let k = SQLExpression.column("k")
    let select = SelectStatement(
      table: "g", columns: [.aggregate(.sum, .column("w"), distinct: false)], filter: .function(.abs, [k]),
      groupBy: [.rowid, .column("w")],
      having: .collate(.inList(.aggregate(.sum, k, distinct: false), [], negated: false), .rtrim))
    #expect(try db.execute(.select(select)).rows.isEmpty)
  }
}
