import Tandem

/// Names of the query-model features a generated case uses, to prove the generator reaches them all.
enum Coverage {
  /// Every feature the generator is expected to produce over a few hundred cases.
  static let expected: Set<String> = {
    var names: Set<String> = [
      "type integer", "type real", "type text", "type blob", "nullable", "not null", "unique", "default",
      "integer primary key", "autoincrement", "text or real key", "composite key", "index", "unique index",
      "foreign key", "hostile name",
      "select", "distinct", "aggregate", "group by", "having", "order by desc", "nulls first", "nulls last",
      "limit", "offset", "insert", "insert or replace", "insert or ignore", "upsert update", "upsert nothing",
      "default values", "excluded", "update", "delete", "savepoint release", "savepoint rollback", "parameter",
      "rowid", "in empty list", "in with null", "escape", "case with base", "case without base",
      "count(*)", "aggregate distinct", "unary -", "unary +", "unary NOT", "isNull", "isNotNull",
      "between", "not between", "glob", "not like",
    ]
    names.formUnion(ScalarFunction.allCases.map { "function \($0.rawValue)" })
    names.formUnion(AggregateFunction.allCases.map { "aggregate \($0.rawValue)" })
    names.formUnion(["INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC"].map { "cast \($0)" })
    names.formUnion(["BINARY", "NOCASE", "RTRIM"].map { "collate \($0)" })
    names.formUnion(
      ["=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT", "AND", "OR", "+", "-", "*", "/", "%", "||"].map {
        "operator \($0)"
      })
    names.formUnion(["null", "integer", "real", "text", "blob"].map { "value \($0)" })
    return names
  }()

  static func features(of schema: TableSchema) -> Set<String> {
    var names: Set<String> = []
    if schema.columns.contains(where: { SchemaGenerator.hostileColumnNames.contains($0.name) }) {
      names.insert("hostile name")
    }
    for column in schema.columns {
      names.insert("type " + column.type.declaredName.lowercased())
      names.insert(column.type.isNullable ? "nullable" : "not null")
      if column.isUnique { names.insert("unique") }
      if column.defaultValue != nil { names.insert("default") }
      if column.references != nil { names.insert("foreign key") }
      if column.primaryKey == .autoincrement { names.insert("autoincrement") }
    }
    let keys = schema.primaryKeyColumns
    if keys.count > 1 { names.insert("composite key") }
    if schema.rowidColumn != nil { names.insert("integer primary key") }
    if keys.count == 1 && schema.rowidColumn == nil { names.insert("text or real key") }
    for index in schema.indexes { names.insert(index.isUnique ? "unique index" : "index") }
    return names
  }

  static func collect(_ operations: [FuzzOperation], into names: inout Set<String>) {
    for operation in operations {
      switch operation {
      case .savepoint(let body, let rollback):
        names.insert(rollback ? "savepoint rollback" : "savepoint release")
        collect(body, into: &names)
      case .statement(let statement, _):
        names.formUnion(features(of: statement))
      }
    }
  }

  static func features(of statement: Statement) -> Set<String> {
    var names: Set<String> = []
    switch statement {
    case .select(let select):
      names.insert("select")
      if select.distinct { names.insert("distinct") }
      if select.isAggregate { names.insert("aggregate") }
      if !select.groupBy.isEmpty { names.insert("group by") }
      if select.having != nil { names.insert("having") }
      if select.limit != nil { names.insert("limit") }
      if select.offset != nil { names.insert("offset") }
      for term in select.orderBy {
        if term.descending { names.insert("order by desc") }
        if term.nulls == .first { names.insert("nulls first") }
        if term.nulls == .last { names.insert("nulls last") }
      }
    case .insert(let insert):
      if insert.columns.isEmpty { names.insert("default values") }
      switch insert.conflict {
      case .abort: names.insert("insert")
      case .replace: names.insert("insert or replace")
      case .ignore: names.insert("insert or ignore")
      case .update: names.insert("upsert update")
      case .nothing: names.insert("upsert nothing")
      }
    case .update: names.insert("update")
    case .delete: names.insert("delete")
    }
    for node in statement.expressions.flatMap(\.allNodes) {
      names.formUnion(features(of: node))
    }
    return names
  }

  static func features(of node: SQLExpression) -> Set<String> {
    switch node {
    case .column: return []
    case .rowid: return ["rowid"]
    case .excluded: return ["excluded"]
    case .literal(let value): return ["value \(value.storageClass)"]
    case .parameter: return ["parameter"]
    case .unary(let op, _): return ["unary \(op.rawValue)"]
    case .binary(let op, _, _): return ["operator \(op.rawValue)"]
    case .function(let function, _): return ["function \(function.rawValue)"]
    case .aggregate(let function, let argument, let distinct):
      var names: Set<String> = ["aggregate \(function.rawValue)"]
      if argument == nil { names.insert("count(*)") }
      if distinct { names.insert("aggregate distinct") }
      return names
    case .cast(_, let type): return ["cast \(type.rawValue)"]
    case .inList(_, let list, _):
      if list.isEmpty { return ["in empty list"] }
      return list.contains(.literal(.null)) ? ["in with null"] : []
    case .between(_, _, _, let negated): return [negated ? "not between" : "between"]
    case .like(_, _, let escape, let negated):
      var names: Set<String> = negated ? ["not like"] : []
      if escape != nil { names.insert("escape") }
      return names
    case .glob: return ["glob"]
    case .isNull(_, let negated): return [negated ? "isNotNull" : "isNull"]
    case .caseWhen(let base, _, _): return [base == nil ? "case without base" : "case with base"]
    case .collate(_, let collation): return ["collate \(collation.rawValue)"]
    }
  }

  /// The parameters that go with `statement` in `operations`.
  static func parameters(in operations: [FuzzOperation], for statement: Statement) -> [String: SqliteValue] {
    for operation in operations {
      switch operation {
      case .statement(let candidate, let parameters) where candidate == statement: return parameters
      case .savepoint(let body, _):
        let found = parameters(in: body, for: statement)
        if !found.isEmpty { return found }
      default: continue
      }
    }
    return [:]
  }
}
