/// An engine that can say how it runs a statement, in the words of SQLite's
/// `EXPLAIN QUERY PLAN`: one line per step, indented by two spaces per level.
///
/// ```swift
/// try backend.queryPlan(for: .select(statement), parameters: [:])
/// // ["SEARCH items USING INTEGER PRIMARY KEY (rowid>?)", "USE TEMP B-TREE FOR ORDER BY"]
/// ```
public protocol QueryPlanDescribing {
  /// The plan of `statement` run with `parameters` (which matter only where SQLite reads a bound
  /// value while planning: a LIKE or GLOB pattern).
  func queryPlan(for statement: Statement, parameters: [String: SqliteValue]) throws -> [String]
}

extension Statement {
  /// The lines of a plan of this statement that both engines describe: how the loop reads the
  /// table (`SCAN`, `SEARCH`, a `MULTI-INDEX OR` and its branches) and, for a select without
  /// aggregates or DISTINCT, whether its ORDER BY needs sorting. Tandem mode and the
  /// differential fuzzer compare these; the other lines (sorters for GROUP BY or DISTINCT, the
  /// scan of a subquery SQLite adds) are SQLite's own. A statement that joins tables or holds a
  /// subquery has no lines both engines describe.
  ///
  /// ```swift
  /// statement.comparablePlanLines(["SCAN items", "USE TEMP B-TREE FOR GROUP BY"])  // ["SCAN items"]
  /// ```
  package func comparablePlanLines(_ lines: [String]) -> [String] {
    // A join's or subquery's loops are the memory engine's own (it follows SQLite's answers,
    // not its plan, there): no line is compared.
    if isRelational { return [] }
    var sorts = false
    if case .select(let select) = self, !select.isAggregate, !select.distinct { sorts = true }
    let table = self.table
    var lines = lines
    if case .select = self {} else { lines = Self.withoutForeignKeyPrograms(lines) }
    return lines.filter { line in
      let text = line.trimmingCharacters(in: .whitespaces)
      for verb in ["SCAN ", "SEARCH "] where text.hasPrefix(verb) {
        let rest = text.dropFirst(verb.count)
        return rest == table || rest.hasPrefix(table + " USING ")
      }
      if text == "MULTI-INDEX OR" || text.hasPrefix("INDEX ") { return true }
      return sorts && (text == "USE TEMP B-TREE FOR ORDER BY" || text == "USE TEMP B-TREE FOR RIGHT PART OF ORDER BY")
    }
  }

  /// A write's plan without what follows its loop: the programs of its foreign-key checks and
  /// actions, one loop per referencing table (this table's own, when it references itself).
  private static func withoutForeignKeyPrograms(_ lines: [String]) -> [String] {
    func isLoop(_ line: String) -> Bool {
      line.hasPrefix("SCAN ") || line.hasPrefix("SEARCH ") || line == "MULTI-INDEX OR"
    }
    guard let loop = lines.firstIndex(where: isLoop) else { return lines }
    let end = lines[(loop + 1)...].firstIndex { $0.first != " " } ?? lines.endIndex
    return Array(lines[..<end])
  }
}
