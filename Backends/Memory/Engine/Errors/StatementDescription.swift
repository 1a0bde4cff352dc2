import TandemCore

/// Readable one-line descriptions of statements and expressions for ``MemoryBackend/setTrace(_:)``.
///
/// These are for people reading a trace or an error, not SQL: the memory engine never produces
/// SQL. Like the SQLite backend's SQL text, they never show a value: a literal is written `?`.
///
/// ```swift
/// StatementDescription.describe(.delete(DeleteStatement(table: "t", filter: .binary(.equal, .column("id"), .literal(7)))))
/// // memory: delete from t where id = ?
/// ```
enum StatementDescription {
  /// A statement as one line.
  static func describe(_ statement: Statement) -> String {
    "memory: " + body(statement)
  }

  private static func body(_ statement: Statement) -> String {
    switch statement {
    case .select(let s):
      var text = "select " + (s.distinct ? "distinct " : "") + s.columns.map(describe).joined(separator: ", ")
      text += " from \(s.table)" + (s.alias.map { " as \($0)" } ?? "")
      for join in s.joins {
        text += " " + join.kind.rawValue.lowercased() + " \(join.table)" + (join.alias.map { " as \($0)" } ?? "")
        if let condition = join.condition { text += " on " + describe(condition) }
      }
      if let filter = s.filter { text += " where " + describe(filter) }
      if !s.groupBy.isEmpty { text += " group by " + s.groupBy.map(describe).joined(separator: ", ") }
      if let having = s.having { text += " having " + describe(having) }
      if !s.orderBy.isEmpty {
        text += " order by " + s.orderBy.map { term in
          describe(term.expression) + (term.descending ? " desc" : "") + (term.nulls.map { " " + $0.rawValue.lowercased() } ?? "")
        }.joined(separator: ", ")
      }
      if let limit = s.limit { text += " limit " + describe(limit) }
      if let offset = s.offset { text += " offset " + describe(offset) }
      return text
    case .insert(let s):
      var text = "insert"
      switch s.conflict {
      case .abort: break
      case .replace: text += " or replace"
      case .ignore: text += " or ignore"
      case .update, .nothing: break
      }
      text += " into \(s.table)(" + s.columns.joined(separator: ", ") + ") values "
      text += s.rows.map { "(" + $0.map(describe).joined(separator: ", ") + ")" }.joined(separator: ", ")
      switch s.conflict {
      case .update(let target, let assignments):
        text += " on conflict(" + target.joined(separator: ", ") + ") do update set " + describe(assignments)
      case .nothing(let target):
        text += " on conflict(" + target.joined(separator: ", ") + ") do nothing"
      default: break
      }
      return text
    case .update(let s):
      var text = "update \(s.table) set " + describe(s.assignments)
      if let filter = s.filter { text += " where " + describe(filter) }
      return text
    case .delete(let s):
      var text = "delete from \(s.table)"
      if let filter = s.filter { text += " where " + describe(filter) }
      return text
    }
  }

  private static func describe(_ assignments: [Assignment]) -> String {
    assignments.map { "\($0.column) = " + describe($0.value) }.joined(separator: ", ")
  }

  /// An expression in infix form; values as `?`, parameters as `:name`.
  static func describe(_ expression: SQLExpression) -> String {
    switch expression {
    case .column(let name): return name
    case .rowid: return "rowid"
    case .excluded(let name): return "excluded.\(name)"
    case .qualifiedColumn(let source, let name): return "\(source).\(name)"
    case .qualifiedRowid(let source): return "\(source).rowid"
    case .resultColumn(let position): return "\(position)"
    case .subquery(let query): return "(" + describe(.select(query)) + ")"
    case .exists(let query, let negated): return (negated ? "not exists (" : "exists (") + describe(.select(query)) + ")"
    case .inSubquery(let e, let query, let negated):
      return nested(e) + (negated ? " not in (" : " in (") + describe(.select(query)) + ")"
    case .literal: return "?"
    case .parameter(let name): return ":\(name)"
    case .unary(let op, let e):
      return op == .not ? "not " + nested(e) : op.rawValue + nested(e)
    case .binary(let op, let a, let b):
      return nested(a) + " " + op.rawValue.lowercased() + " " + nested(b)
    case .function(let f, let arguments):
      return f.rawValue + "(" + arguments.map(describe).joined(separator: ", ") + ")"
    case .aggregate(let f, let argument, let distinct, let separator):
      return f.rawValue + "(" + (distinct ? "distinct " : "") + (argument.map(describe) ?? "*")
        + (separator.map { ", " + describe($0) } ?? "") + ")"
    case .cast(let e, let type):
      return "cast(" + describe(e) + " as " + type.rawValue.lowercased() + ")"
    case .inList(let e, let list, let negated):
      return nested(e) + (negated ? " not in (" : " in (") + list.map(describe).joined(separator: ", ") + ")"
    case .between(let e, let low, let high, let negated):
      return nested(e) + (negated ? " not between " : " between ") + nested(low) + " and " + nested(high)
    case .like(let e, let pattern, let escape, let negated):
      return nested(e) + (negated ? " not like " : " like ") + nested(pattern)
        + (escape.map { " escape " + nested($0) } ?? "")
    case .glob(let e, let pattern, let negated):
      return nested(e) + (negated ? " not glob " : " glob ") + nested(pattern)
    case .isNull(let e, let negated):
      return nested(e) + (negated ? " is not null" : " is null")
    case .caseWhen(let base, let branches, let otherwise):
      var text = "case" + (base.map { " " + describe($0) } ?? "")
      for branch in branches { text += " when " + describe(branch.when) + " then " + describe(branch.then) }
      if let otherwise { text += " else " + describe(otherwise) }
      return text + " end"
    case .collate(let e, let collation):
      return nested(e) + " collate " + collation.rawValue.lowercased()
    }
  }

  private static func nested(_ expression: SQLExpression) -> String {
    switch expression {
    case .column, .rowid, .excluded, .literal, .parameter, .function, .aggregate, .cast, .qualifiedColumn,
      .qualifiedRowid, .subquery:
      return describe(expression)
    default:
      return "(" + describe(expression) + ")"
    }
  }
}
