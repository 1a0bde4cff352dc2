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
    names.formUnion(planShapes)
    return names
  }()

  /// The shapes whose answer depends on SQLite's plan (see ``planFeatures(of:)``).
  static let planShapes: Set<String> = [
    "seek rowid", "seek unique", "seek index", "seek =", "seek IN", "seek OR of =", "seek range", "seek GLOB prefix",
    "seek LIKE prefix", "seek IS NULL", "seek OR of two keys", "overflow beside a seek", "overflow column beside a seek",
    "overflow in a write beside a seek", "min/max of the rowid beside an overflow", "unique shift",
    "unique shift with a seek", "consecutive unique run",
  ]

  /// The plan-dependent shapes a case uses: seekable terms (by the key they seek and by their
  /// shape) beside an expression that fails on some rows (`abs()`), min/max of the rowid, and
  /// updates that shift a unique column holding consecutive values.
  static func planFeatures(of fuzzCase: FuzzCase) -> Set<String> {
    var names: Set<String> = []
    func visit(_ operations: [FuzzOperation]) {
      for operation in operations {
        switch operation {
        case .savepoint(let body, _): visit(body)
        case .statement(let statement, _):
          guard let schema = fuzzCase.schemas.first(where: { $0.name == statement.table }) else { continue }
          names.formUnion(planFeatures(of: statement, in: schema))
        }
      }
    }
    visit(fuzzCase.operations)
    return names
  }

  static func planFeatures(of statement: Statement, in schema: TableSchema) -> Set<String> {
    var names: Set<String> = []
    let keys = PlanKeys(schema)
    func hazard(_ expression: SQLExpression) -> Bool {
      expression.allNodes.contains { if case .function(.abs, _) = $0 { return true } else { return false } }
    }
    func seeks(_ filter: SQLExpression?) -> Bool {
      guard let filter else { return false }
      var found = false
      for conjunct in Self.conjuncts(filter) {
        let shape = keys.seekShape(conjunct)
        names.formUnion(shape)
        found = found || !shape.isEmpty
      }
      if found && Self.conjuncts(filter).contains(where: hazard) { names.insert("overflow beside a seek") }
      return found
    }
    switch statement {
    case .select(let select):
      let seeking = seeks(select.filter)
      if seeking && select.columns.contains(where: hazard) { names.insert("overflow column beside a seek") }
      if select.columns.count == 1, case .aggregate(let function, let argument?, _, _) = select.columns[0],
        function == .min || function == .max, keys.isRowid(argument), select.filter.map(hazard) == true
      {
        names.insert("min/max of the rowid beside an overflow")
      }
    case .update(let update):
      let seeking = seeks(update.filter)
      if seeking && update.assignments.contains(where: { hazard($0.value) }) { names.insert("overflow in a write beside a seek") }
      for assignment in update.assignments where keys.uniqueIntegers.contains(SchemaGenerator.fold(assignment.column)) {
        if case .binary(.add, .column(let name), .literal(.integer)) = assignment.value,
          SchemaGenerator.fold(name) == SchemaGenerator.fold(assignment.column)
        {
          names.insert(seeking ? "unique shift with a seek" : "unique shift")
        }
      }
    case .delete(let delete):
      _ = seeks(delete.filter)
    case .insert(let insert):
      for (position, column) in insert.columns.enumerated() where keys.uniqueIntegers.contains(SchemaGenerator.fold(column)) {
        let values = Set(insert.rows.compactMap { row -> Int64? in
          guard position < row.count, case .literal(.integer(let n)) = row[position] else { return nil }
          return n
        })
        if values.contains(where: { values.contains($0 &+ 1) }) { names.insert("consecutive unique run") }
      }
    }
    return names
  }

  /// The AND-connected terms of a filter.
  static func conjuncts(_ filter: SQLExpression) -> [SQLExpression] {
    if case .binary(.and, let lhs, let rhs) = filter { return conjuncts(lhs) + conjuncts(rhs) }
    return [filter]
  }

  /// The columns of a table SQLite can seek, by kind.
  struct PlanKeys {
    let schema: TableSchema
    /// Folded names of the seekable columns whose values are unique.
    let unique: Set<String>
    /// Folded names of the other seekable columns.
    let indexed: Set<String>
    /// Folded names of the integer columns whose values must be unique on their own.
    let uniqueIntegers: Set<String>

    init(_ schema: TableSchema) {
      self.schema = schema
      let keys = schema.seekableKeys
      unique = Set(keys.filter(\.isUnique).map { SchemaGenerator.fold($0.name) })
      indexed = Set(keys.filter { !$0.isUnique }.map { SchemaGenerator.fold($0.name) })
      uniqueIntegers = Set(schema.uniqueIntegerColumns.map { SchemaGenerator.fold($0.name) })
    }

    func isRowid(_ expression: SQLExpression) -> Bool {
      switch expression {
      case .rowid: return true
      case .column(let name): return schema.rowidColumn.map { SchemaGenerator.fold($0.name) == SchemaGenerator.fold(name) } ?? false
      default: return false
      }
    }

    /// "rowid", "unique" or "index" for a key SQLite can seek, else nil.
    func kind(_ expression: SQLExpression) -> String? {
      if isRowid(expression) { return "rowid" }
      guard case .column(let name) = expression else { return nil }
      let folded = SchemaGenerator.fold(name)
      if unique.contains(folded) { return "unique" }
      return indexed.contains(folded) ? "index" : nil
    }

    private static func isConstant(_ expression: SQLExpression) -> Bool {
      switch expression {
      case .literal, .parameter: true
      default: false
      }
    }

    /// The coverage names of a seekable term (empty when the term is not one).
    func seekShape(_ term: SQLExpression) -> Set<String> {
      switch term {
      case .binary(.or, let lhs, let rhs):
        let left = seekShape(lhs), right = seekShape(rhs)
        guard !left.isEmpty, !right.isEmpty else { return [] }
        if case .binary(.equal, let a, _) = lhs, case .binary(.equal, let b, _) = rhs, a == b { return left.union(["seek OR of ="]) }
        return left.union(right).union(["seek OR of two keys"])
      case .binary(.and, let lhs, let rhs):
        let shape = seekShape(lhs).union(seekShape(rhs))
        return shape.isEmpty ? [] : shape.union(["seek range"])
      case .binary(let op, let lhs, let rhs):
        let key = kind(lhs) != nil && Self.isConstant(rhs) ? lhs : (kind(rhs) != nil && Self.isConstant(lhs) ? rhs : nil)
        guard let key, let kind = kind(key) else { return [] }
        switch op {
        case .equal, .is: return ["seek \(kind)", "seek ="]
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return ["seek \(kind)", "seek range"]
        default: return []
        }
      case .inList(let key, let list, false) where !list.isEmpty && list.allSatisfy(Self.isConstant):
        return kind(key).map { ["seek \($0)", "seek IN"] } ?? []
      case .between(let key, let low, let high, false) where Self.isConstant(low) && Self.isConstant(high):
        return kind(key).map { ["seek \($0)", "seek range"] } ?? []
      case .glob(let key, let pattern, false) where Self.isConstant(pattern):
        return kind(key).map { ["seek \($0)", "seek GLOB prefix"] } ?? []
      case .like(let key, let pattern, nil, false) where Self.isConstant(pattern):
        return kind(key).map { ["seek \($0)", "seek LIKE prefix"] } ?? []
      case .isNull(let key, _):
        return kind(key).map { ["seek \($0)", "seek IS NULL"] } ?? []
      default:
        return []
      }
    }
  }

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
      for term in select.compound { names.insert("compound \(term.operator.rawValue)") }
      if let with = select.with {
        names.insert(with.recursive ? "with recursive" : "with")
        for table in with.tables { names.formUnion(features(of: .select(table.select)).map { "common table " + $0 }) }
      }
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
    for node in statement.expressions.flatMap(\.deepNodes) {
      names.formUnion(features(of: node))
      switch node {
      case .subquery(let query), .exists(let query, _), .inSubquery(_, let query, _):
        names.formUnion(features(of: .select(query)).map { "subquery " + $0 })
      default: break
      }
    }
    if case .select(let select) = statement {
      for join in select.joins {
        names.insert("join \(join.kind.rawValue)" + (join.condition == nil ? " without ON" : ""))
        if join.alias != nil { names.insert("join alias") }
      }
      if select.joins.count >= 2 { names.insert("\(select.joins.count + 1)-way join") }
      let tables = select.sources.map { SchemaGenerator.fold($0.table) }
      if Set(tables).count < tables.count { names.insert("self-join") }
    }
    return names
  }

  static func features(of node: SQLExpression) -> Set<String> {
    switch node {
    case .column: return []
    case .rowid: return ["rowid"]
    case .excluded: return ["excluded"]
    case .qualifiedColumn: return ["qualified column"]
    case .qualifiedRowid: return ["qualified rowid"]
    case .subquery: return ["scalar subquery"]
    case .exists: return ["exists"]
    case .inSubquery: return ["in subquery"]
    case .resultColumn: return ["result column position"]
    case .literal(let value): return ["value \(value.storageClass)"]
    case .parameter: return ["parameter"]
    case .unary(let op, _): return ["unary \(op.rawValue)"]
    case .binary(let op, _, _): return ["operator \(op.rawValue)"]
    case .function(let function, _): return ["function \(function.rawValue)"]
    case .aggregate(let function, let argument, let distinct, _):
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
