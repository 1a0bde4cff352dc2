import TandemCore

/// The names one SELECT makes visible to its expressions: its sources' columns and, in WHERE,
/// GROUP BY, HAVING and ORDER BY, its result aliases (`resolve.c`'s name context).
///
/// ```swift
/// // SELECT a + 1 AS x FROM t WHERE x > 2   -- x is (a + 1)
/// SelectScope(sources: [.init(name: "t", table: "t", columns: ["a"])])
/// ```
struct SelectScope: Sendable {
  /// One source of the FROM clause.
  struct Source: Sendable {
    /// The name its columns are qualified by (its alias, else its table).
    var name: String
    /// The table (or common table) it reads.
    var table: String
    /// Its columns as declared; `nil` when the table is unknown.
    var columns: [String]?
    /// Its INTEGER PRIMARY KEY column, which names a result column reading its rowid.
    var rowidAlias: String? = nil

    /// The declared spelling of a column, matched case-insensitively.
    func column(named name: String) -> String? {
      let lower = name.lowercased()
      return columns?.first { $0.lowercased() == lower }
    }
  }

  var sources: [Source] = []
  /// The result columns with an `AS` alias, in order.
  var aliases: [(name: String, expression: SQLExpression)] = []
  /// Whether result aliases may stand for their expressions (not in the result list, ON or LIMIT).
  var aliasesVisible = false

  /// The source named `name` (case-insensitively).
  func source(named name: String) -> Source? {
    let lower = name.lowercased()
    return sources.first { $0.name.lowercased() == lower }
  }

  /// The declared spelling of an unqualified column, from the first source that has it.
  func column(named name: String) -> String? {
    for source in sources { if let found = source.column(named: name) { return found } }
    return nil
  }
}
