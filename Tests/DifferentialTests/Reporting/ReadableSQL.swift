import Foundation
import Tandem

/// SQL text for people: statements of the query model with their values written inline, so a
/// failing case can be read, and pasted into the `sqlite3` shell.
///
/// The engines never see this text (the SQLite backend binds every value); it is only for reports.
///
/// ```swift
/// ReadableSQL(schema: schema).statement(.delete(DeleteStatement(table: "t", filter: .binary(.equal, .column("a"), .literal(1)))))
/// // DELETE FROM "t" WHERE ("a" = 1)
/// ```
struct ReadableSQL {
  /// How the rowid is spelled for the table (a column may take a spelling).
  let rowidName: String

  init(schema: TableSchema?) {
    let taken = Set((schema?.columns ?? []).map { SchemaGenerator.fold($0.name) })
    rowidName = ["rowid", "_rowid_", "oid"].first { !taken.contains($0) } ?? "rowid"
  }

  /// The whole statement on one line.
  func statement(_ statement: Statement) -> String {
    switch statement {
    case .select(let select): self.select(select)
    case .insert(let insert): self.insert(insert)
    case .update(let update):
      "UPDATE \(Self.identifier(update.table)) SET \(assignments(update.assignments))"
        + (update.filter.map { " WHERE " + expression($0) } ?? "")
    case .delete(let delete):
      "DELETE FROM \(Self.identifier(delete.table))" + (delete.filter.map { " WHERE " + expression($0) } ?? "")
    }
  }

  private func select(_ select: SelectStatement) -> String {
    var sql = ""
    if let with = select.with {
      sql += with.recursive ? "WITH RECURSIVE " : "WITH "
      sql += with.tables.map { table in
        Self.identifier(table.name) + "(" + table.columns.map(Self.identifier).joined(separator: ", ") + ") AS ("
          + self.select(table.select) + ")"
      }.joined(separator: ", ") + " "
    }
    sql += core(select)
    for term in select.compound { sql += " " + term.operator.rawValue + " " + core(term.select) }
    if !select.orderBy.isEmpty {
      sql +=
        " ORDER BY "
        + select.orderBy.map { term in
          expression(term.expression) + (term.descending ? " DESC" : "") + (term.nulls.map { " " + $0.rawValue } ?? "")
        }.joined(separator: ", ")
    }
    if let limit = select.limit {
      sql += " LIMIT " + expression(limit)
    } else if select.offset != nil {
      sql += " LIMIT -1"
    }
    if let offset = select.offset { sql += " OFFSET " + expression(offset) }
    return sql
  }

  /// A select up to its HAVING clause: what a compound's members are.
  private func core(_ select: SelectStatement) -> String {
    var sql = select.distinct ? "SELECT DISTINCT " : "SELECT "
    sql += select.columns.map(expression).joined(separator: ", ")
    if select.hasFromClause {
      sql += " FROM " + Self.identifier(select.table) + (select.alias.map { " AS " + Self.identifier($0) } ?? "")
    }
    for join in select.joins {
      sql += " " + join.kind.rawValue + " " + Self.identifier(join.table)
      if let alias = join.alias { sql += " AS " + Self.identifier(alias) }
      if let condition = join.condition { sql += " ON " + expression(condition) }
    }
    if let filter = select.filter { sql += " WHERE " + expression(filter) }
    if !select.groupBy.isEmpty { sql += " GROUP BY " + select.groupBy.map(expression).joined(separator: ", ") }
    if let having = select.having { sql += " HAVING " + expression(having) }
    return sql
  }

  private func insert(_ insert: InsertStatement) -> String {
    var sql = "INSERT "
    switch insert.conflict {
    case .replace: sql += "OR REPLACE "
    case .ignore: sql += "OR IGNORE "
    default: break
    }
    sql += "INTO " + Self.identifier(insert.table)
    if insert.columns.isEmpty { return sql + " DEFAULT VALUES" }
    sql += " (" + insert.columns.map(Self.identifier).joined(separator: ", ") + ") VALUES "
    sql += insert.rows.map { "(" + $0.map(expression).joined(separator: ", ") + ")" }.joined(separator: ", ")
    switch insert.conflict {
    case .nothing(let target): sql += conflictTarget(target) + " DO NOTHING"
    case .update(let target, let list): sql += conflictTarget(target) + " DO UPDATE SET " + assignments(list)
    default: break
    }
    return sql
  }

  private func conflictTarget(_ target: [String]) -> String {
    target.isEmpty ? " ON CONFLICT" : " ON CONFLICT (" + target.map(Self.identifier).joined(separator: ", ") + ")"
  }

  private func assignments(_ list: [Assignment]) -> String {
    list.map { Self.identifier($0.column) + " = " + expression($0.value) }.joined(separator: ", ")
  }

  /// One expression, every operator parenthesized (as the SQLite backend renders it).
  func expression(_ expression: SQLExpression) -> String {
    switch expression {
    case .column(let name): return Self.identifier(name)
    case .rowid: return rowidName
    case .excluded(let name): return "excluded." + Self.identifier(name)
    case .qualifiedColumn(let source, let name): return Self.identifier(source) + "." + Self.identifier(name)
    case .qualifiedRowid(let source): return Self.identifier(source) + "." + rowidName
    case .resultColumn(let position): return String(position)
    case .subquery(let query): return "(" + select(query) + ")"
    case .exists(let query, let negated): return "(" + (negated ? "NOT " : "") + "EXISTS (" + select(query) + "))"
    case .inSubquery(let operand, let query, let negated):
      return "(" + self.expression(operand) + (negated ? " NOT IN (" : " IN (") + select(query) + "))"
    case .literal(let value): return Self.literal(value)
    case .parameter(let name): return ":" + name
    case .unary(let op, let operand): return "(" + (op == .not ? "NOT " : op.rawValue) + self.expression(operand) + ")"
    case .binary(let op, let left, let right):
      return "(" + self.expression(left) + " " + op.rawValue + " " + self.expression(right) + ")"
    case .function(let function, let arguments):
      return function.rawValue + "(" + arguments.map(self.expression).joined(separator: ", ") + ")"
    case .aggregate(let function, let argument, let distinct, let separator):
      guard let argument else { return function.rawValue + "(*)" }
      return function.rawValue + "(" + (distinct ? "DISTINCT " : "") + self.expression(argument)
        + (separator.map { ", " + self.expression($0) } ?? "") + ")"
    case .cast(let operand, let type): return "CAST(" + self.expression(operand) + " AS " + type.rawValue + ")"
    case .inList(let operand, let list, let negated):
      return "(" + self.expression(operand) + (negated ? " NOT IN (" : " IN (")
        + list.map(self.expression).joined(separator: ", ") + "))"
    case .between(let operand, let low, let high, let negated):
      return "(" + self.expression(operand) + (negated ? " NOT BETWEEN " : " BETWEEN ") + self.expression(low) + " AND "
        + self.expression(high) + ")"
    case .like(let operand, let pattern, let escape, let negated):
      return "(" + self.expression(operand) + (negated ? " NOT LIKE " : " LIKE ") + self.expression(pattern)
        + (escape.map { " ESCAPE " + self.expression($0) } ?? "") + ")"
    case .glob(let operand, let pattern, let negated):
      return "(" + self.expression(operand) + (negated ? " NOT GLOB " : " GLOB ") + self.expression(pattern) + ")"
    case .isNull(let operand, let negated):
      return "(" + self.expression(operand) + (negated ? " IS NOT NULL)" : " IS NULL)")
    case .caseWhen(let base, let branches, let otherwise):
      var sql = "CASE"
      if let base { sql += " " + self.expression(base) }
      for branch in branches {
        sql += " WHEN " + self.expression(branch.when) + " THEN " + self.expression(branch.then)
      }
      if let otherwise { sql += " ELSE " + self.expression(otherwise) }
      return sql + " END"
    case .collate(let operand, let collation):
      return "(" + self.expression(operand) + " COLLATE " + collation.rawValue + ")"
    }
  }

  static func identifier(_ name: String) -> String { SQLQuoting.identifier(name) }

  /// A value as SQL text that reads back as the same value (NUL-holding text goes through a blob).
  static func literal(_ value: SqliteValue) -> String {
    if case .text(let text) = value, text.utf8.contains(0) {
      return "CAST(" + SqliteValue.blob(Data(text.utf8)).sqlLiteral + " AS TEXT)"
    }
    if case .real(let real) = value, real.isNaN { return "(0.0/0.0)" }
    let literal = value.sqlLiteral
    return literal.hasPrefix("-") ? "(" + literal + ")" : literal
  }

  /// A value with its storage class, and the UTF-8 bytes of non-ASCII text (so that `é` and
  /// `e\u{301}` can be told apart in a report).
  static func typedValue(_ value: SqliteValue) -> String {
    var text = value.storageClass + " " + literal(value)
    if case .text(let string) = value, string.utf8.contains(where: { $0 >= 0x80 || $0 < 0x20 }) {
      text += " [utf8 " + string.utf8.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ") + "]"
    }
    if case .real(let real) = value { text += " [bits 0x" + String(real.bitPattern, radix: 16) + "]" }
    return text
  }
}
