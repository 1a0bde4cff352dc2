import TandemCore

/// Test-only rendering of the query model to SQL with `?` placeholders, for the oracle.
struct EngineSQLRenderer {
  private(set) var bindings: [SqliteValue] = []
  let parameters: [String: SqliteValue]
  /// How the rowid is written: `rowid`, `_rowid_` or `oid`, whichever no column takes.
  var rowidName = "rowid"

  init(parameters: [String: SqliteValue] = [:]) { self.parameters = parameters }

  static func render(_ statement: Statement, parameters: [String: SqliteValue], schema: TableSchema? = nil) -> (String, [SqliteValue]) {
    var renderer = EngineSQLRenderer(parameters: parameters)
    if let schema {
      let taken = Set(schema.columns.map { $0.name.lowercased() })
      renderer.rowidName = ["rowid", "_rowid_", "oid"].first { !taken.contains($0) } ?? "rowid"
    }
    let sql = renderer.statement(statement)
    return (sql, renderer.bindings)
  }

  private func name(_ identifier: String) -> String { SQLQuoting.identifier(identifier) }

  mutating func statement(_ statement: Statement) -> String {
    switch statement {
    case .select(let s):
      var sql = "SELECT " + (s.distinct ? "DISTINCT " : "") + s.columns.map { expression($0) }.joined(separator: ", ")
      sql += " FROM " + name(s.table)
      // As the SQLite backend: aggregates and DISTINCT read the table in rowid order.
      if s.isAggregate || s.distinct { sql += " NOT INDEXED" }
      if let filter = s.filter { sql += " WHERE " + expression(filter) }
      if !s.groupBy.isEmpty { sql += " GROUP BY " + s.groupBy.map { expression($0) }.joined(separator: ", ") }
      if let having = s.having { sql += " HAVING " + expression(having) }
      if !s.orderBy.isEmpty {
        sql += " ORDER BY " + s.orderBy.map { term in
          expression(term.expression) + (term.descending ? " DESC" : " ASC") + (term.nulls.map { " " + $0.rawValue } ?? "")
        }.joined(separator: ", ")
      }
      if let limit = s.limit {
        sql += " LIMIT " + expression(limit)
        if let offset = s.offset { sql += " OFFSET " + expression(offset) }
      } else if let offset = s.offset {
        sql += " LIMIT -1 OFFSET " + expression(offset)
      }
      return sql
    case .insert(let s):
      var sql = "INSERT "
      switch s.conflict {
      case .replace: sql += "OR REPLACE "
      case .ignore: sql += "OR IGNORE "
      default: break
      }
      sql += "INTO " + name(s.table)
      if !s.columns.isEmpty { sql += " (" + s.columns.map(name).joined(separator: ", ") + ")" }
      if s.rows.allSatisfy(\.isEmpty) {
        sql += " DEFAULT VALUES"
      } else {
        sql += " VALUES " + s.rows.map { row in "(" + row.map { expression($0) }.joined(separator: ", ") + ")" }.joined(separator: ", ")
      }
      switch s.conflict {
      case .update(let target, let assignments):
        sql += " ON CONFLICT" + (target.isEmpty ? "" : " (" + target.map(name).joined(separator: ", ") + ")")
        sql += " DO UPDATE SET " + assignments.map { name($0.column) + " = " + expression($0.value) }.joined(separator: ", ")
      case .nothing(let target):
        sql += " ON CONFLICT" + (target.isEmpty ? "" : " (" + target.map(name).joined(separator: ", ") + ")") + " DO NOTHING"
      default: break
      }
      return sql
    case .update(let s):
      var sql = "UPDATE " + name(s.table) + " SET "
      sql += s.assignments.map { name($0.column) + " = " + expression($0.value) }.joined(separator: ", ")
      if let filter = s.filter { sql += " WHERE " + expression(filter) }
      return sql
    case .delete(let s):
      var sql = "DELETE FROM " + name(s.table)
      if let filter = s.filter { sql += " WHERE " + expression(filter) }
      return sql
    }
  }

  mutating func expression(_ e: SQLExpression) -> String {
    switch e {
    case .column(let column): return name(column)
    case .rowid: return rowidName
    case .excluded(let column): return "excluded." + name(column)
    case .qualifiedColumn(let source, let column): return name(source) + "." + name(column)
    case .qualifiedRowid(let source): return name(source) + "." + rowidName
    case .subquery, .exists, .inSubquery: return "NULL /* subqueries are not rendered here */"
    case .resultColumn(let position): return String(position)
    case .literal(let value):
      bindings.append(value)
      return "?"
    case .parameter(let parameter):
      bindings.append(parameters[parameter] ?? .null)
      return "?"
    case .unary(let op, let operand):
      return "(" + op.rawValue + " " + expression(operand) + ")"
    case .binary(let op, let a, let b):
      return "(" + expression(a) + " " + op.rawValue + " " + expression(b) + ")"
    case .function(let f, let arguments):
      return f.rawValue + "(" + arguments.map { expression($0) }.joined(separator: ", ") + ")"
    case .aggregate(let f, let argument, let distinct, let separator):
      guard let argument else { return f.rawValue + "(*)" }
      return f.rawValue + "(" + (distinct ? "DISTINCT " : "") + expression(argument)
        + (separator.map { ", " + expression($0) } ?? "") + ")"
    case .cast(let operand, let type):
      return "CAST(" + expression(operand) + " AS " + type.rawValue + ")"
    case .inList(let operand, let list, let negated):
      return "(" + expression(operand) + (negated ? " NOT IN (" : " IN (") + list.map { expression($0) }.joined(separator: ", ") + "))"
    case .between(let operand, let low, let high, let negated):
      return "(" + expression(operand) + (negated ? " NOT BETWEEN " : " BETWEEN ") + expression(low) + " AND " + expression(high) + ")"
    case .like(let operand, let pattern, let escape, let negated):
      var sql = "(" + expression(operand) + (negated ? " NOT LIKE " : " LIKE ") + expression(pattern)
      if let escape { sql += " ESCAPE " + expression(escape) }
      return sql + ")"
    case .glob(let operand, let pattern, let negated):
      return "(" + expression(operand) + (negated ? " NOT GLOB " : " GLOB ") + expression(pattern) + ")"
    case .isNull(let operand, let negated):
      return "(" + expression(operand) + (negated ? " IS NOT NULL)" : " IS NULL)")
    case .caseWhen(let base, let branches, let otherwise):
      var sql = "CASE"
      if let base { sql += " " + expression(base) }
      for branch in branches { sql += " WHEN " + expression(branch.when) + " THEN " + expression(branch.then) }
      if let otherwise { sql += " ELSE " + expression(otherwise) }
      return sql + " END"
    case .collate(let operand, let collation):
      return "(" + expression(operand) + " COLLATE " + collation.rawValue + ")"
    }
  }
}
