import TandemCore

/// The `IS [NOT] NULL` tests of a query whose LEFT JOINs the renderer writes as the inner joins
/// SQLite plans them as, kept as SQLite answers them with the LEFT JOIN.
///
/// SQLite's resolver answers `x IS NULL` of a NOT NULL column (or the rowid) up front, unless a
/// LEFT JOIN can make the column NULL. Written as `CROSS JOIN`, the joined table's columns lose
/// that mark, and the test would be answered `false` where an aggregate over no row reads the
/// column as NULL. Written `x COLLATE BINARY IS NULL`, the test is made at run time, as with the
/// LEFT JOIN: the collation changes nothing else about it.
///
/// ```swift
/// // SELECT … FROM a LEFT JOIN b ON … WHERE b.k = 1 HAVING b.e IS NOT NULL
/// // is written  … FROM a CROSS JOIN b ON … WHERE … HAVING "b"."e" COLLATE BINARY IS NOT NULL
/// ```
struct NullTestsOfJoinedTables {
  /// The aliases, in the query's own level, of the tables joined by the rewritten LEFT JOINs.
  let joined: [String]
  /// The renderer's column traits, by lowercased table and column name.
  let columnTraits: [String: [String: ColumnTraits]]
  /// The common tables in scope (lowercased): their columns are not known here.
  let commonTables: Set<String>

  /// The query with its tests (and those of its subqueries) of the joined tables kept.
  func keptFromFolding(_ select: SelectStatement) -> SelectStatement {
    kept(select, levels: [select.sources])
  }

  /// One expression of the query level whose sources `levels` ends with.
  func keptFromFolding(_ expression: SQLExpression, _ levels: [[(table: String, alias: String)]]) -> SQLExpression {
    expression.mapped { node in
      switch node {
      case .isNull(let operand, let negated) where readsJoinedTable(Self.withoutSign(operand), levels):
        return .isNull(.collate(operand, .binary), negated: negated)
      case .subquery(let query):
        return .subquery(kept(query, levels: levels + [query.sources]))
      case .exists(let query, let negated):
        return .exists(kept(query, levels: levels + [query.sources]), negated: negated)
      case .inSubquery(let operand, let query, let negated):
        return .inSubquery(operand, kept(query, levels: levels + [query.sources]), negated: negated)
      default:
        return node
      }
    }
  }

  private func kept(_ select: SelectStatement, levels: [[(table: String, alias: String)]]) -> SelectStatement {
    var select = select
    func keep(_ expression: SQLExpression) -> SQLExpression { keptFromFolding(expression, levels) }
    select.columns = select.columns.map(keep)
    select.filter = select.filter.map(keep)
    select.joins = select.joins.map { join in
      var join = join
      join.condition = join.condition.map(keep)
      return join
    }
    select.groupBy = select.groupBy.map(keep)
    select.having = select.having.map(keep)
    select.orderBy = select.orderBy.map { term in
      var term = term
      term.expression = keep(term.expression)
      return term
    }
    // A subquery's compound members are query levels of their own beside it.
    if levels.count > 1 {
      select.compound = select.compound.map { term in
        CompoundTerm(term.operator, kept(term.select, levels: levels.dropLast() + [term.select.sources]))
      }
    }
    return select
  }

  /// Whether the reference is to a column or the rowid of a joined table: the innermost level
  /// with a source of that alias (or with a table of that column) is the query's own, and the
  /// source found there is a joined one.
  private func readsJoinedTable(_ reference: SQLExpression, _ levels: [[(table: String, alias: String)]]) -> Bool {
    func columns(of table: String) -> [String: ColumnTraits]? {
      let name = SQLRenderer.asciiLowercased(table)
      return commonTables.contains(name) ? nil : columnTraits[name]
    }
    let alias: String
    switch reference {
    case .qualifiedColumn(let source, let name):
      // A source of that alias without the column leaves the name to the levels around it.
      let key = SQLRenderer.asciiLowercased(name)
      guard
        let level = levels.lastIndex(where: { level in
          level.contains { SQLName.same($0.alias, source) && (columns(of: $0.table).map { $0[key] != nil } ?? true) }
        }), level == 0
      else { return false }
      alias = source
    case .qualifiedRowid(let source):
      guard let level = levels.lastIndex(where: { $0.contains { SQLName.same($0.alias, source) } }), level == 0 else {
        return false
      }
      alias = source
    case .column(let name):
      let key = SQLRenderer.asciiLowercased(name)
      // A level whose tables are not all known may hold the column: no rewrite.
      guard
        let level = levels.lastIndex(where: { level in
          level.contains { columns(of: $0.table)?[key] != nil || columns(of: $0.table) == nil }
        }), level == 0
      else { return false }
      let holders = levels[0].filter { columns(of: $0.table)?[key] != nil }
      guard holders.count == 1 else { return false }
      alias = holders[0].alias
    default:
      return false
    }
    return joined.contains { SQLName.same($0, alias) }
  }

  private static func withoutSign(_ expression: SQLExpression) -> SQLExpression {
    switch expression {
    case .unary(.plus, let inner), .unary(.negate, let inner): withoutSign(inner)
    default: expression
    }
  }
}
