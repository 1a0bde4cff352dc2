/// The aliases of the queries whose closures are running, so that a query built inside one (a
/// subquery) names its source differently and a correlated reference stays unambiguous.
///
/// ```swift
/// Reminder.where { outer in
///   Reminder.where { $0.listID == outer.listID }.exists()  // FROM "reminders" AS "reminders_2"
/// }
/// ```
@usableFromInline enum SourceAliases {
  /// The aliases taken by the queries around the code running now, outermost first (a list:
  /// a few names, searched rarely, where a set would hash every name on every closure run).
  @TaskLocal static var enclosing: [String] = []

  /// The alias a new query over `table` takes: `nil` (the table's name) unless a query around
  /// it already uses that name.
  @usableFromInline static func alias(for table: String) -> String? {
    let taken = enclosing
    guard !taken.isEmpty else { return nil }
    return alias(for: table, avoiding: taken)
  }

  /// `aliases` and the aliases of the queries around the code running now: `aliases` itself
  /// outside any other query's closure (the common case), without a copy.
  static func taken(with aliases: [String]) -> [String] {
    let enclosing = enclosing
    return enclosing.isEmpty ? aliases : enclosing + aliases
  }

  /// `table`, or the first of `table_2`, `table_3`, … that `taken` does not hold, as `nil` for
  /// `table` itself.
  static func alias(for table: String, avoiding taken: [String]) -> String? {
    guard taken.contains(table) else { return nil }
    var number = 2
    while taken.contains("\(table)_\(number)") { number += 1 }
    return "\(table)_\(number)"
  }

  /// Runs a query's closure with the query's aliases taken.
  @usableFromInline static func inside<Result>(_ aliases: [String], _ body: () throws -> Result) rethrows -> Result {
    try $enclosing.withValue(taken(with: aliases)) { try body() }
  }
}
