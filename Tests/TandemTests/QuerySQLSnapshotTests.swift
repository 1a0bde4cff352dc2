import Foundation
import Tandem
import Testing

// What SQL the typed layer produces, shown inline so a reviewer reads the output.

enum SnapshotPriority: Int, ColumnType, QueryComparable { case low = 1, medium, high }

@Table("reminders") struct SnapshotReminder {
  let id: Int
  var title = ""
  @Column("is_completed") var isCompleted = false
  var dueDate: Date?
  var priority: SnapshotPriority?
}

@Table("items") struct SnapshotItem {
  let id: Int
  var name = ""
  var note: String?
  var stock = 0
  var reorderLevel = 0
  var discount: Int?
}

@Suite struct QuerySQLSnapshotTests {
  typealias R = SnapshotReminder
  static let columns = #""id", "title", "is_completed", "dueDate", "priority""#

  func sql<O>(_ query: Select<R, O>) throws -> (String, [SQLBinding]) {
    let rendered = try query.renderedSQL()
    return (rendered.sql, rendered.bindings)
  }

  @Test func allIsOrderedByRowid() throws {
    let (text, bindings) = try sql(R.all)
    #expect(text == #"SELECT \#(Self.columns) FROM "reminders" ORDER BY rowid ASC"#)
    #expect(bindings.isEmpty)
  }

  @Test func whereBindsValuesAndNilIsIsNull() throws {
    let (text, bindings) = try sql(R.where { $0.title == "'); DROP TABLE reminders; --" && $0.dueDate == nil })
    #expect(text == #"SELECT \#(Self.columns) FROM "reminders" WHERE (("title" = ?) AND ("dueDate" IS NULL)) ORDER BY rowid ASC"#)
    #expect(bindings == [.value(.text("'); DROP TABLE reminders; --"))])
  }

  @Test func orderGetsTheRowidTieBreaker() throws {
    let (text, _) = try sql(R.where { !$0.isCompleted }.order { ($0.priority.desc(nulls: .last), $0.title) }.limit(10, offset: 5))
    #expect(
      text
        == #"SELECT \#(Self.columns) FROM "reminders" WHERE (NOT "is_completed") ORDER BY "priority" DESC NULLS LAST, "title" ASC, rowid ASC LIMIT ? OFFSET ?"#
    )
  }

  @Test func projectionGroupingAndAggregates() throws {
    let query = R.group { $0.priority }.having { $0.id.count() > 1 }.select { ($0.priority, $0.id.count(), $0.title.max()) }
    let (text, bindings) = try sql(query)
    #expect(
      text
        == #"SELECT "priority", count("id"), max("title") FROM "reminders" NOT INDEXED GROUP BY "priority" HAVING (count("id") > ?) ORDER BY "priority" ASC"#
    )
    #expect(bindings == [.value(.integer(1))])
  }

  @Test func operatorsAndFunctions() throws {
    let query = R.where {
      $0.title.lower().like("%milk%", escape: "!") || $0.id.in([1, 2]) || $0.id.between(5, and: 9)
        || ($0.id + 1) * 2 > 10 || $0.priority == .high
    }
    let (text, bindings) = try sql(query)
    #expect(
      text
        == #"SELECT \#(Self.columns) FROM "reminders" WHERE (((((lower("title") LIKE ? ESCAPE ?) OR ("id" IN (?, ?))) OR ("id" BETWEEN ? AND ?)) OR ((("id" + ?) * ?) > ?)) OR ("priority" = ?)) ORDER BY rowid ASC"#
    )
    // .high is bound as its raw value, 3.
    #expect(bindings == [
      .value(.text("%milk%")), .value(.text("!")), .value(.integer(1)), .value(.integer(2)), .value(.integer(5)),
      .value(.integer(9)), .value(.integer(1)), .value(.integer(2)), .value(.integer(10)), .value(.integer(3)),
    ])
  }

  @Test func namedParameters() throws {
    let (text, bindings) = try sql(R.where { $0.title == Parameter<String>("title") })
    #expect(text.contains(#"WHERE ("title" = ?)"#))
    #expect(bindings == [.parameter("title")])
  }

  @Test func distinctIsOrderedByItsColumns() throws {
    let (text, _) = try sql(R.all.select { $0.title }.distinct())
    #expect(text == #"SELECT DISTINCT "title" FROM "reminders" NOT INDEXED ORDER BY "title" ASC"#)
  }

  @Test func updateAndDelete() throws {
    let update = R.where { $0.id == 1 }.update {
      $0.set(\.title, to: "Oat milk")
      $0.set(\.id, to: $0.id + 100)
    }
    let rendered = try Statement.update(update).renderedSQL()
    #expect(rendered.sql == #"UPDATE "reminders" SET "title" = ?, "id" = ("id" + ?) WHERE ("id" = ?)"#)
    #expect(rendered.bindings == [.value(.text("Oat milk")), .value(.integer(100)), .value(.integer(1))])
    #expect(try Statement.delete(R.all.deleteStatement).renderedSQL().sql == #"DELETE FROM "reminders""#)
  }

  @Test func expressionsWhereValuesWereAndOptionalMixes() throws {
    let query = SnapshotItem.where {
      $0.stock < $0.discount && $0.discount == $0.stock + 1 && $0.stock.in([$0.reorderLevel, $0.reorderLevel * 2])
        && $0.stock.between($0.reorderLevel, and: $0.reorderLevel + 5) && $0.discount.is($0.stock)
    }
    let rendered = try query.renderedSQL()
    #expect(
      rendered.sql.contains(
        #"WHERE ((((("stock" < "discount") AND ("discount" = ("stock" + ?))) AND ("stock" IN ("reorderLevel", ("reorderLevel" * ?)))) AND ("stock" BETWEEN "reorderLevel" AND ("reorderLevel" + ?))) AND ("discount" IS "stock")) ORDER BY"#
      ))
    #expect(rendered.bindings == [.value(.integer(1)), .value(.integer(2)), .value(.integer(5))])
  }

  @Test func valuesOnTheLeftOfOperators() throws {
    let query = SnapshotItem.all.select { (1 + $0.stock, 2 - $0.discount, 3 * $0.stock, 4 / $0.discount, 5 % $0.stock, "#" + $0.name) }
    let rendered = try query.renderedSQL()
    #expect(
      rendered.sql.hasPrefix(
        #"SELECT (? + "stock"), (? - "discount"), (? * "stock"), (? / "discount"), (? % "stock"), (? || "name") FROM "items""#
      ))
    #expect(
      rendered.bindings == [
        .value(.integer(1)), .value(.integer(2)), .value(.integer(3)), .value(.integer(4)), .value(.integer(5)), .value(.text("#")),
      ])
  }

  @Test func functionsOfExpressionsConstantsAndCount() throws {
    let query = SnapshotItem.group { $0.stock }.select {
      (
        least($0.stock, 5), greatest($0.stock, $0.reorderLevel + 1), Case(else: $0.stock).when($0.stock < 0, then: 0),
        TypedExpression.constant(7), $0.name + $0.note, .count()
      )
    }
    let rendered = try query.renderedSQL()
    #expect(
      rendered.sql.hasPrefix(
        #"SELECT min("stock", ?), max("stock", ("reorderLevel" + ?)), CASE WHEN ("stock" < ?) THEN ? ELSE "stock" END, ?, ("name" || "note"), count(*) FROM "items""#
      ))
    #expect(rendered.bindings == [.value(.integer(5)), .value(.integer(1)), .value(.integer(0)), .value(.integer(0)), .value(.integer(7))])
  }

  @Test func limitAndOffsetParameters() throws {
    let (text, bindings) = try sql(R.order { $0.title }.limit(Parameter("size"), offset: Parameter("start")))
    #expect(text.hasSuffix(#"ORDER BY "title" ASC, rowid ASC LIMIT ? OFFSET ?"#))
    #expect(bindings == [.parameter("size"), .parameter("start")])
    let (_, mixed) = try sql(R.all.limit(10, offset: Parameter("start")))
    #expect(mixed == [.value(.integer(10)), .parameter("start")])
  }

  @Test func optionalColumnSetToAnExpression() throws {
    let update = SnapshotItem.all.update { $0.set(\.discount, to: $0.stock) }
    #expect(try Statement.update(update).renderedSQL().sql == #"UPDATE "items" SET "discount" = "stock""#)
  }

  @Test func traceReceivesTheSQL() throws {
    let db = try Database(.sqliteInMemory)
    let seen = TraceLog()
    db.trace { seen.append($0) }
    try db.create(R.self)
    _ = try db.fetchAll(R.where { $0.title == "secret" })
    #expect(seen.lines.contains { $0.contains(#"WHERE ("title" = ?)"#) })
    #expect(!seen.lines.contains { $0.contains("secret") })  // values are never traced
  }
}

final class TraceLog: @unchecked Sendable {
  // @unchecked: `lines` is only touched while `lock` is held.
  private let lock = NSLock()
  private var storage: [String] = []
  func append(_ line: String) { lock.withLock { storage.append(line) } }
  var lines: [String] { lock.withLock { storage } }
}

@Suite struct SingleColumnSelectTests {
  @Test func singleColumnResultsCompareDirectly() throws {
    let db = try Database(.memory)
    try db.create(SnapshotReminder.self)
    try db.insert([SnapshotReminder(id: 1, title: "a"), SnapshotReminder(id: 2, title: "b")])
    #expect(try db.fetchAll(SnapshotReminder.all.select { $0.title }) == ["a", "b"])
    #expect(try db.fetchOne(SnapshotReminder.all.select { $0.id.sum() }) == 3)
    #expect(try db.fetchAll(SnapshotReminder.all.select { $0.id.max() }) == [2])
    #expect(try db.fetchAll(SnapshotReminder.all.select { ($0.id, $0.title) }).map(\.1) == ["a", "b"])
  }
}
