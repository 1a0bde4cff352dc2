import TandemCore

/// What changes when a statement comes from SQL text rather than the typed API.
///
/// The SQLite backend renders a typed statement with pins (`NOT INDEXED`, `CROSS JOIN`) that fix
/// the order SQLite visits rows in wherever that order changes the answer, and with rowid
/// tie-breakers in every ORDER BY. SQL text reaches SQLite as written: SQLite plans it freely.
/// For one table the memory engine follows SQLite's own plan (its aggregates and DISTINCT too,
/// which the typed API pins to a rowid-order scan). For joins and subqueries it answers only where
/// its answer cannot depend on SQLite's plan, and refuses (``TandemError/Kind/unsupported``) the
/// rest:
///
/// - an aggregate or DISTINCT whose answer depends on the visiting order
///   (``SelectStatement/answerOfAnySourcesDependsOnVisitOrder(_:)``), unless its sources are
///   tables without indexes joined by CROSS JOIN (SQLite then visits them in FROM order, each in
///   rowid order, as the engine does);
/// - unless the caller passed ``RowOrder/unordered``: a join or DISTINCT without ORDER BY, whose
///   rows come in the plan's order, and rows tying in a join's ORDER BY;
/// - with or without it: a LIMIT or OFFSET over rows whose order is open (it picks which rows).
///
/// The parser already refused what SQLite's own parser refuses, so the nesting budget of
/// ``StatementValidation`` (which guards SQL the renderer writes) does not apply.
///
/// ```swift
/// try SQLTextMode.$current.withValue(SQLTextMode(rowOrderIsFree: false)) { try backend.select(…) }
/// ```
struct SQLTextMode: Sendable {
  /// Whether the caller does not depend on the order of rows SQL leaves open.
  let rowOrderIsFree: Bool

  /// The mode of the statement being run; `nil` for the typed API.
  @TaskLocal static var current: SQLTextMode?

  /// Refuses a relational query whose answer depends on the visiting order (`dependsOnOrder`),
  /// unless SQLite visits its rows in the order the engine pins (``visitsInPinnedOrder(_:storages:)``).
  func checkVisitOrder(_ select: SelectStatement, storages: [TableStorage], dependsOnOrder: Bool) throws {
    // Without a source there is one row: no order to visit it in.
    guard dependsOnOrder, !storages.isEmpty else { return }
    if Self.visitsInPinnedOrder(select, storages: storages) { return }
    throw Self.visitOrderError
  }

  /// Whether SQLite, planning SQL text freely, still visits the rows in the order the engine pins
  /// (sources in FROM order, each in rowid order): it never reorders a CROSS JOIN, and over tables
  /// without indexes each loop visits its rows in rowid order (an automatic index finds one key's
  /// rows in rowid order too).
  static func visitsInPinnedOrder(_ select: SelectStatement, storages: [TableStorage]) -> Bool {
    storages.allSatisfy { !$0.definition.isEphemeral && $0.definition.indexes.isEmpty }
      && select.joins.allSatisfy { $0.kind == .cross }
  }

  /// Refuses rows whose order only SQLite's plan decides: unless the caller sorts them itself;
  /// with a LIMIT or OFFSET always, since the order picks which rows come.
  func checkOpenOrder(limited: Bool) throws {
    if rowOrderIsFree && !limited { return }
    throw EngineError.unsupported(
      "rows in an order only SQLite's plan decides (a join or DISTINCT without ORDER BY, or rows tying in ORDER BY)"
        + (limited ? " under LIMIT or OFFSET" : "; add ORDER BY, or fetch with rowOrder: .unordered"))
  }

  private static var visitOrderError: TandemError {
    EngineError.unsupported(
      "an aggregate or DISTINCT whose answer depends on the order SQLite's plan visits rows in (a floating-point "
        + "sum, a bare column, …) over an indexed table or a join")
  }

  /// A column's traits in a table's definition.
  static func traits(_ definition: TableDefinition, _ column: String) -> ColumnTraits? {
    guard let index = definition.columnIndex(column) else { return nil }
    return definition.schema.columnTraits[definition.columnNames[index]]
  }
}
