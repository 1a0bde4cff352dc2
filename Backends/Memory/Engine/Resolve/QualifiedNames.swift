import TandemCore

/// Column references qualified by the name of a statement's only table (or its alias), written
/// as the plain references the single-table planner reads (`"t"."a"` as `"a"`, `"t".rowid` as
/// the rowid).
///
/// The planner recognizes a column only in its plain form; without this, `WHERE "t"."a" = 1`
/// would be planned as an opaque expression, and a min/max shortcut or a column decode skipped.
/// References inside subqueries stay as written: they belong to another query level.
///
/// ```swift
/// QualifiedNames.unqualified(.qualifiedColumn(source: "t", name: "a"), table: "t")  // .column("a")
/// ```
enum QualifiedNames {
  static func unqualified(_ expression: SQLExpression, table: String) -> SQLExpression {
    let key = NameKey(table)
    return expression.unqualifyingColumns { NameKey($0) == key }
  }

  static func unqualified(_ expression: SQLExpression?, table: String) -> SQLExpression? {
    expression.map { unqualified($0, table: table) }
  }

  /// A single-table select with its own table's references plain (those qualified by its
  /// alias, when it has one).
  static func unqualified(_ select: SelectStatement) -> SelectStatement {
    var select = select
    let table = select.alias ?? select.table
    select.columns = select.columns.map { unqualified($0, table: table) }
    select.filter = unqualified(select.filter, table: table)
    select.groupBy = select.groupBy.map { unqualified($0, table: table) }
    select.having = unqualified(select.having, table: table)
    select.orderBy = select.orderBy.map { term in
      var term = term
      term.expression = unqualified(term.expression, table: table)
      return term
    }
    return select
  }

  /// An UPDATE with its table's references plain.
  static func unqualified(_ update: UpdateStatement) -> UpdateStatement {
    var update = update
    update.assignments = update.assignments.map { Assignment(column: $0.column, value: unqualified($0.value, table: update.table)) }
    update.filter = unqualified(update.filter, table: update.table)
    return update
  }

  /// A DELETE with its table's references plain.
  static func unqualified(_ delete: DeleteStatement) -> DeleteStatement {
    var delete = delete
    delete.filter = unqualified(delete.filter, table: delete.table)
    return delete
  }
}
