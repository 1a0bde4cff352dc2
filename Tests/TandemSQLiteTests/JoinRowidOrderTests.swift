@_spi(TandemBackend) import TandemCore
import Testing

@testable import TandemSQLite

/// A join ordered by its sources' rowids alone (the order Tandem gives a join without ORDER BY)
/// runs without SQLite's sorter: the backend reads the rowids as the last result columns, sorts
/// the rows by them and drops them. Its SQL for `renderedSQL()` still orders the rows itself.
@Suite("SQLite backend: a join's rowid order")
struct JoinRowidOrderTests {
  static let lists = TableSchema(
    "lists", columns: [.column("id", .integer, primaryKey: true), .column("name", .text)])
  static let tasks = TableSchema(
    "tasks",
    columns: [
      .column("id", .integer, primaryKey: true), .column("listID", .integer), .column("title", .text),
    ],
    indexes: [.index(on: ["listID", "title"])])

  private let renderer = SQLRenderer(
    tableColumns: ["id", "listID", "title"], otherTables: ["lists": ["id", "name"]],
    columnTraits: [
      "tasks": [
        "id": ColumnTraits(type: .integer, isRowidAlias: true), "listID": ColumnTraits(type: .integer, isRowidAlias: false),
        "title": ColumnTraits(type: .text, isRowidAlias: false),
      ],
      "lists": [
        "id": ColumnTraits(type: .integer, isRowidAlias: true), "name": ColumnTraits(type: .text, isRowidAlias: false),
      ],
    ])

  /// `SELECT t.title, l.name FROM tasks t JOIN lists l ON t.listID = l.id WHERE l.id IN (…)`,
  /// ordered as ``Select/statement`` orders a join: by each source's `+rowid`, in FROM order.
  private func join(
    lists: [Int64], kind: JoinClause.Kind = .inner, orderBy extra: [OrderingTerm] = [], limit: SQLExpression? = nil,
    bareRowids: Bool = false
  ) -> SelectStatement {
    func rowid(_ source: String) -> SQLExpression {
      bareRowids ? .qualifiedRowid(source: source) : .unary(.plus, .qualifiedRowid(source: source))
    }
    return SelectStatement(
      table: "tasks", alias: "t",
      joins: [
        JoinClause(
          kind, table: "lists", alias: "l",
          on: .binary(.equal, .qualifiedColumn(source: "t", name: "listID"), .qualifiedColumn(source: "l", name: "id")))
      ],
      columns: [.qualifiedColumn(source: "t", name: "title"), .qualifiedColumn(source: "l", name: "name")],
      filter: .inList(.qualifiedColumn(source: "l", name: "id"), lists.map { .literal(.integer($0)) }, negated: false),
      orderBy: extra + [OrderingTerm(rowid("t")), OrderingTerm(rowid("l"))],
      limit: limit)
  }

  @Test func theBackendsRenderingLeavesTheRowidOrderToIt() throws {
    let rendered = try renderer.render(
      .select(join(lists: [1])), writingOrderedSubqueries: true, leavingRowidOrderToCaller: true)
    // Each task has at most one list: the list's rowid is not read.
    #expect(
      rendered.sql
        == #"SELECT "t"."title", "l"."name", (+"t".rowid) FROM "tasks" AS "t" JOIN "lists" AS "l""#
        + #" ON ("t"."listID" = "l"."id") WHERE ("l"."id" IN (?))"#)
    #expect(rendered.rowidSortKeyCount == 1)
    // Rowids without `+` (as SQL text or the fuzzer writes them) order alike.
    let bare = try renderer.render(
      .select(join(lists: [1], bareRowids: true)), writingOrderedSubqueries: true, leavingRowidOrderToCaller: true)
    #expect(bare.sql.hasPrefix(#"SELECT "t"."title", "l"."name", "t".rowid FROM"#))
    #expect(bare.rowidSortKeyCount == 1)
    // What renderedSQL() shows orders the rows itself.
    let shown = try renderer.render(.select(join(lists: [1])))
    #expect(shown.sql.hasSuffix(#"ORDER BY "tandem_o0" ASC, "tandem_o1" ASC"#))
    #expect(shown.rowidSortKeyCount == 0)
  }

  /// A source's rowid is left out of the sort only when a condition every row meets ties it to
  /// the sources ordered before it, or to a value: the rows that tie on the rowids before it
  /// are then one row.
  @Test func aRowidIsLeftOutOnlyWhenTheRowsBeforeItFixIt() throws {
    func keys(_ select: SelectStatement) throws -> String {
      let rendered = try renderer.render(.select(select), writingOrderedSubqueries: true, leavingRowidOrderToCaller: true)
      let columns = rendered.sql.split(separator: " FROM ")[0]
      return columns.split(separator: ", ").filter { $0.contains("rowid") }.joined(separator: ", ")
        + " (\(rendered.rowidSortKeyCount))"
    }
    let tRowid = OrderingTerm(.unary(.plus, .qualifiedRowid(source: "t")))
    let lRowid = OrderingTerm(.unary(.plus, .qualifiedRowid(source: "l")))
    func column(_ source: String, _ name: String) -> SQLExpression { .qualifiedColumn(source: source, name: name) }
    // The list's rowid through its INTEGER PRIMARY KEY, either side of `=`.
    #expect(try keys(join(lists: [1])) == #"(+"t".rowid) (1)"#)
    var select = join(lists: [1])
    select.joins[0].condition = .binary(.equal, column("l", "id"), column("t", "listID"))
    #expect(try keys(select) == #"(+"t".rowid) (1)"#)
    // `IS`, and the condition in WHERE (the join's own condition holding something else).
    select.joins[0].condition = .binary(.is, .qualifiedRowid(source: "l"), column("t", "listID"))
    #expect(try keys(select) == #"(+"t".rowid) (1)"#)
    select.joins[0].condition = nil
    select.filter = .binary(.and, .binary(.greater, column("l", "id"), .literal(0)), .binary(.equal, column("t", "listID"), column("l", "id")))
    #expect(try keys(select) == #"(+"t".rowid) (1)"#)
    // Lists first: a list has many tasks, so both are read.
    select.orderBy = [lRowid, tRowid]
    #expect(try keys(select) == #"(+"l".rowid), (+"t".rowid) (2)"#)
    // A value fixes a rowid even ahead of every other source.
    select.filter = .binary(.equal, column("l", "id"), .parameter("list"))
    #expect(try keys(select) == #"(+"t".rowid) (1)"#)
    // Not a rowid (the task's title), or not `=`: both read.
    select = join(lists: [1])
    select.joins[0].condition = .binary(.equal, column("t", "title"), column("l", "name"))
    #expect(try keys(select) == #"(+"t".rowid), (+"l".rowid) (2)"#)
    select.joins[0].condition = .binary(.lessOrEqual, column("t", "listID"), column("l", "id"))
    #expect(try keys(select) == #"(+"t".rowid), (+"l".rowid) (2)"#)
    // A condition in OR, or in the ON of a LEFT JOIN of another source, holds for some rows only.
    select.joins[0].condition = .binary(
      .or, .binary(.equal, column("t", "listID"), column("l", "id")), .binary(.equal, column("l", "id"), .literal(2)))
    #expect(try keys(select) == #"(+"t".rowid), (+"l".rowid) (2)"#)
    select = join(lists: [1], kind: .left)
    #expect(try keys(select) == #"(+"t".rowid) (1)"#)
    // FROM t CROSS JOIN u LEFT JOIN l ON (u.id = t.listID): u's rowid is tied to t's row only
    // where l matched.
    select.joins = [
      JoinClause(.cross, table: "tasks", alias: "u"),
      JoinClause(.left, table: "lists", alias: "l", on: .binary(.equal, column("u", "id"), column("t", "listID"))),
    ]
    select.orderBy = [tRowid, lRowid, OrderingTerm(.unary(.plus, .qualifiedRowid(source: "u")))]
    #expect(try keys(select) == #"(+"t".rowid), (+"l".rowid), (+"u".rowid) (3)"#)
    select.joins[1].kind = .inner
    #expect(try keys(select) == #"(+"t".rowid), (+"l".rowid) (2)"#)
    // Two sources named alike (in any case): SQLite refuses the ambiguous rowid, so all stay.
    select = join(lists: [1])
    select.joins[0].alias = "T"
    select.joins[0].condition = .binary(.equal, column("t", "listID"), column("T", "id"))
    select.orderBy = [tRowid, OrderingTerm(.unary(.plus, .qualifiedRowid(source: "T")))]
    #expect(try keys(select) == #"(+"t".rowid), (+"T".rowid) (2)"#)
    // A rowid left out still raises the error writing it would: columns named after every
    // spelling of the lists' rowid leave none to write.
    let shadowed = SQLRenderer(
      tableColumns: ["id", "listID", "title"], otherTables: ["lists": ["id", "name", "rowid", "_rowid_", "oid"]],
      columnTraits: ["lists": ["id": ColumnTraits(type: .integer, isRowidAlias: true)]])
    #expect(throws: TandemError.self) {
      try shadowed.render(.select(join(lists: [1])), writingOrderedSubqueries: true, leavingRowidOrderToCaller: true)
    }
  }

  /// A WITHOUT ROWID table's INTEGER key, or an `INTEGER PRIMARY KEY DESC`, is not its rowid:
  /// an equality on it does not stand for one, and SQLite still refuses the rowid the order
  /// names.
  @Test func anIntegerKeyWithItsOwnIndexIsNotTheRowid() throws {
    for declaration in ["(id INTEGER PRIMARY KEY, name TEXT) WITHOUT ROWID", "(id INTEGER PRIMARY KEY DESC, name TEXT)"] {
      let backend = try SQLiteBackend.inMemory()
      try backend.create(Self.tasks, ifNotExists: false)
      _ = try backend.execute(sql: "CREATE TABLE lists " + declaration, arguments: [], rowOrder: .sqlite) { _ in }
      _ = try backend.execute(sql: "INSERT INTO lists VALUES (1, 'Home')", arguments: [], rowOrder: .sqlite) { _ in }
      _ = try backend.insert(into: "tasks", columns: ["id", "listID", "title"], values: [[1, 1, "Milk"]], conflict: .abort)
      let info = try backend.tableInfo("lists")
      #expect(info.traits["id"]?.isRowidAlias == false, "\(declaration)")
      let statement = Statement.select(join(lists: [1]))
      if declaration.hasSuffix("WITHOUT ROWID") {
        #expect(throws: TandemError.self) { try backend.execute(statement, parameters: [:]) }
      } else {
        #expect(try backend.execute(statement, parameters: [:]).rows == [["Milk", "Home"]])
      }
    }
  }

  @Test func aLimitOrAnOrderOfItsOwnLeavesTheSortToSQLite() throws {
    let limited = try renderer.render(
      .select(join(lists: [1], limit: .literal(1))), writingOrderedSubqueries: true,
      leavingRowidOrderToCaller: true)
    #expect(limited.rowidSortKeyCount == 0)
    #expect(limited.sql.contains("ORDER BY"))
    let ordered = try renderer.render(
      .select(join(lists: [1], orderBy: [OrderingTerm(.qualifiedColumn(source: "t", name: "title"))])),
      writingOrderedSubqueries: true, leavingRowidOrderToCaller: true)
    #expect(ordered.rowidSortKeyCount == 0)
    #expect(ordered.sql.contains("ORDER BY"))
  }

  /// SQLite looks the lists up by key and finds each one's tasks through the index on (listID,
  /// title): by list, then title.
  /// The backend hands them out in the tasks' rowid order, two columns wide.
  @Test func theBackendSortsTheRowsSQLiteFindsByList() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.lists, ifNotExists: false)
    try backend.create(Self.tasks, ifNotExists: false)
    _ = try backend.insert(
      into: "lists", columns: ["id", "name"], values: [[1, "Home"], [2, "Work"], [3, "Old"]], conflict: .abort)
    _ = try backend.insert(
      into: "tasks", columns: ["id", "listID", "title"],
      values: [[1, 2, "Report"], [2, 1, "Milk"], [3, 2, "Call"], [4, 3, "Archive"], [5, 1, "Bread"]],
      conflict: .abort)
    let statement = Statement.select(join(lists: [1, 2]))
    let plan = try backend.queryPlan(for: statement, parameters: [:])
    #expect(plan.contains { $0.contains("SEARCH t USING") })
    #expect(!plan.contains { $0.contains("TEMP B-TREE") })
    let expected: [[SqliteValue]] = [["Report", "Work"], ["Milk", "Home"], ["Call", "Work"], ["Bread", "Home"]]
    #expect(try backend.execute(statement, parameters: [:]).rows == expected)
    // A LEFT JOIN's missing row has a NULL rowid; the rows still come in the tasks' order.
    let left = Statement.select(join(lists: [1, 2, 3], kind: .left))
    #expect(try backend.execute(left, parameters: [:]).rows.map(\.[0]) == ["Report", "Milk", "Call", "Archive", "Bread"])
  }

  /// Rows are handed out as SQLite steps them while they come in rowid order; an error SQLite
  /// meets on a later row takes them back first (`onRestart`), since a run that reads every row
  /// before the first goes out hands out none before that error.
  @Test func anErrorOnALaterRowTakesBackTheRowsHandedOut() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.lists, ifNotExists: false)
    try backend.create(Self.tasks, ifNotExists: false)
    _ = try backend.insert(
      into: "lists", columns: ["id", "name"], values: [[1, "Home"], [2, "Work"], [.integer(.min), "Min"]],
      conflict: .abort)
    _ = try backend.insert(
      into: "tasks", columns: ["id", "listID", "title"],
      values: [[1, 2, "Report"], [2, 1, "Milk"], [3, .integer(.min), "Overflow"]], conflict: .abort)
    // SCAN t, SEARCH l by its rowid: tasks 1 and 2 come in order, then abs() overflows on task 3.
    var select = join(lists: [])
    select.filter = nil
    select.columns = [.function(.abs, [.qualifiedColumn(source: "l", name: "id")])]
    let query = PreparedStatement(.select(select))
    var handedOut: [[SqliteValue]] = []
    var restarts = 0
    #expect(throws: TandemError.self) {
      try backend.run(query, .named([:]), onRestart: { restarts += 1; handedOut.removeAll() }) { handedOut.append($0) }
    }
    #expect(restarts == 1)
    #expect(handedOut.isEmpty)
    // Without the failing row, the rows come once each.
    select.filter = .binary(.less, .qualifiedColumn(source: "t", name: "id"), .literal(3))
    restarts = 0
    _ = try backend.run(PreparedStatement(.select(select)), .named([:]), onRestart: { restarts += 1 }) {
      handedOut.append($0)
    }
    #expect(handedOut == [[2], [1]])
    #expect(restarts == 0)
  }

  /// A statement whose rows came out of order reads them all first on its next run, rather than
  /// hand some out, take them back and step again; once a run comes in order, it streams again.
  @Test func aStatementWhoseRowsCameOutOfOrderReadsThemFirstNextTime() throws {
    let backend = try SQLiteBackend.inMemory()
    try backend.create(Self.lists, ifNotExists: false)
    try backend.create(Self.tasks, ifNotExists: false)
    _ = try backend.insert(
      into: "lists", columns: ["id", "name"], values: [[1, "Home"], [2, "Work"]], conflict: .abort)
    // By title, list 1's tasks come in rowid order (Milk 2, Tea 4), list 2's do not (Call 3, Report 1).
    _ = try backend.insert(
      into: "tasks", columns: ["id", "listID", "title"],
      values: [[1, 2, "Report"], [2, 1, "Milk"], [3, 2, "Call"], [4, 1, "Tea"]], conflict: .abort)
    var select = join(lists: [])
    select.filter = .inList(
      .qualifiedColumn(source: "l", name: "id"), [.parameter("first"), .parameter("second")], negated: false)
    let query = PreparedStatement(.select(select), parameterNames: ["first", "second"])
    func run(_ first: Int64, _ second: Int64) throws -> (rows: [[SqliteValue]], restarts: Int) {
      var rows: [[SqliteValue]] = []
      var restarts = 0
      _ = try backend.run(
        query, .positional([.integer(first), .integer(second)]),
        onRestart: {
          restarts += 1
          rows.removeAll()
        }
      ) { rows.append($0) }
      return (rows, restarts)
    }
    let both: [[SqliteValue]] = [["Report", "Work"], ["Milk", "Home"], ["Call", "Work"], ["Tea", "Home"]]
    // Milk, Tea, then Call (3 after 4): the rows handed out are taken back once.
    #expect(try run(1, 2) == (both, 1))
    // The next run reads them all first.
    #expect(try run(1, 2) == (both, 0))
    // So does this one, whose rows come in order: the run after it streams again.
    #expect(try run(1, 1) == ([["Milk", "Home"], ["Tea", "Home"]], 0))
    #expect(try run(1, 2) == (both, 1))
  }
}
