/// The one rule both engines follow for aggregates and DISTINCT over joins: whether the answer
/// can depend on the order the joined rows are visited in.
///
/// When it can — a floating-point sum, a group_concat(), a min() or max() beside other columns, a column that
/// differs between the rows of a group, DISTINCT or GROUP BY over values that compare equal while
/// stored differently — the SQLite backend pins SQLite to one visiting order (the sources in FROM
/// order, each in rowid order: `CROSS JOIN`, `NOT INDEXED`) and the memory engine visits rows in
/// that order. When it cannot, SQLite plans the join freely (with its indexes) and the memory
/// engine checks at run time what only the values can tell (an integer sum that overflows in some
/// orders only).
///
/// ```swift
/// // SELECT "lists"."name", count("reminders"."id") … GROUP BY "lists"."id": order-free
/// statement.answerDependsOnVisitOrder { table, column in traits[table]?[column] }  // false
/// ```
public struct ColumnTraits: Sendable, Hashable {
  /// The column's declared type (nullability ignored).
  public var type: SqliteTypeName
  /// Whether the column is the table's rowid (`INTEGER PRIMARY KEY`).
  public var isRowidAlias: Bool
  /// Whether the column never holds NULL (`NOT NULL`, or the rowid alias).
  public var isNotNull: Bool

  /// A column's traits.
  public init(type: SqliteTypeName, isRowidAlias: Bool, isNotNull: Bool = false) {
    self.type = type.storage
    self.isRowidAlias = isRowidAlias
    self.isNotNull = isNotNull || isRowidAlias
  }
}

extension TableSchema {
  /// Each column's traits, by name.
  ///
  /// ```swift
  /// Reminder.schema.columnTraits["id"]  // ColumnTraits(type: .integer, isRowidAlias: true, isNotNull: true)
  /// ```
  public var columnTraits: [String: ColumnTraits] {
    let rowid = rowidColumn?.name
    var traits: [String: ColumnTraits] = [:]
    for column in columns {
      traits[column.name] = ColumnTraits(
        type: column.type, isRowidAlias: column.name == rowid, isNotNull: !column.type.isNullable)
    }
    return traits
  }
}

extension SelectStatement {
  /// Whether this select joins tables and its answer can depend on the order its rows are
  /// visited in (see ``ColumnTraits``). `traits` describes a column of a table by name, `nil`
  /// when there is none.
  public func answerDependsOnVisitOrder(_ traits: (_ table: String, _ column: String) -> ColumnTraits?) -> Bool {
    guard !joins.isEmpty else { return false }
    return answerOfAnySourcesDependsOnVisitOrder(traits)
  }

  /// Whether this select's answer can depend on the order its rows are visited in, whatever
  /// its number of sources (one table's aggregate too: SQLite may scan it through an index).
  ///
  /// ```swift
  /// // SELECT total("price") FROM "items": a floating-point sum depends on the order
  /// statement.answerOfAnySourcesDependsOnVisitOrder { table, column in traits[table]?[column] }  // true
  /// ```
  ///
  /// With `distinctRowsChecked`, the caller checks at run time that the rows DISTINCT drops are
  /// identical to the ones it keeps, so which one it keeps cannot matter.
  public func answerOfAnySourcesDependsOnVisitOrder(
    distinctRowsChecked: Bool = false, _ traits: (_ table: String, _ column: String) -> ColumnTraits?
  ) -> Bool {
    // A select without FROM visits its one row, in no order.
    guard isAggregate || distinct, hasFromClause else { return false }
    return withoutActuallyEscaping(traits) { traits in
      dependsOnVisitOrder(VisitOrderResolver(statement: self, traits: traits), distinctRowsChecked: distinctRowsChecked)
    }
  }

  private func dependsOnVisitOrder(_ resolver: VisitOrderResolver, distinctRowsChecked: Bool) -> Bool {
    let outputs = groupOutputs
    // A subquery may read any column of any row: no claim is made about it.
    if outputs.contains(where: \.containsSubquery) || groupBy.contains(where: \.containsSubquery) { return true }

    // An aggregate's DISTINCT chooses between groups, which come in the order of their keys
    // whatever the plan (the rules below decide whether each group's row can depend on it).
    if distinct && !isAggregate {
      if !distinctRowsChecked && !columns.allSatisfy(resolver.isCanonical) { return true }
      // A sort key outside the result columns reads the row DISTINCT kept.
      if !isAggregate && orderBy.contains(where: { !columns.contains($0.expression) }) { return true }
    }
    guard isAggregate else { return false }
    if !groupBy.allSatisfy(resolver.isCanonical) { return true }

    var hasExtremum = false
    var bare: [SQLExpression] = []
    func walk(_ expression: SQLExpression) -> Bool {
      // A value the same in every row reads no row, whichever columns it names.
      if groupBy.contains(expression) || resolver.isConstant(expression) { return true }
      switch expression {
      case .aggregate(let function, let argument, _, _):
        guard let argument else { return true }  // count(*)
        switch function {
        // Values joined in the order they are visited.
        case .groupConcat: return false
        case .count: return true
        case .sum, .total, .avg:
          // A sum of one value repeated is the same in any order.
          if case .literal = argument { return true }
          return resolver.isCanonical(argument) && resolver.traits(of: argument)?.type == .integer
        case .min, .max:
          hasExtremum = true
          return resolver.isCanonical(argument)
        }
      case .column, .qualifiedColumn, .rowid, .qualifiedRowid:
        bare.append(expression)
        return true
      default:
        return expression.children.allSatisfy(walk)
      }
    }
    guard outputs.allSatisfy(walk) else { return true }
    if bare.isEmpty { return false }
    // A column outside aggregates reads one row of its group: the same value in every row only
    // when its source's rowid is a group key.
    if hasExtremum || groupBy.isEmpty { return true }
    let keySources = Set(groupBy.compactMap { resolver.rowidSource($0) })
    return !bare.allSatisfy { reference in resolver.source(of: reference).map(keySources.contains) ?? false }
  }
}

/// Column references of one select, resolved to their source and traits.
private struct VisitOrderResolver {
  let statement: SelectStatement
  let traits: (String, String) -> ColumnTraits?

  /// The source alias a column reference reads.
  func source(of expression: SQLExpression) -> String? {
    let sources = statement.sources
    switch expression {
    case .qualifiedColumn(let source, _), .qualifiedRowid(let source):
      return sources.first { $0.alias == source }?.alias
    case .column(let name):
      return sources.first { traits($0.table, name) != nil }?.alias
    default:
      return nil
    }
  }

  /// The traits of a column reference (the rowid's are an integer rowid alias).
  func traits(of expression: SQLExpression) -> ColumnTraits? {
    let sources = statement.sources
    switch expression {
    case .rowid, .qualifiedRowid:
      return ColumnTraits(type: .integer, isRowidAlias: true)
    case .qualifiedColumn(let source, let name):
      guard let table = sources.first(where: { $0.alias == source })?.table else { return nil }
      return traits(table, name)
    case .column(let name):
      return sources.lazy.compactMap { traits($0.table, name) }.first
    default:
      return nil
    }
  }

  /// Whether equal values of the expression are identical: a column of INTEGER or TEXT type, or
  /// a rowid (SQLite stores no REAL in such a column that equals an integer, and compares its
  /// text by bytes). One exception: an INTEGER column keeps the REAL -2⁶³ as a REAL, equal to the
  /// INTEGER -2⁶³; the memory engine checks at run time that rows it merged under this rule are
  /// identical, and refuses otherwise.
  func isCanonical(_ expression: SQLExpression) -> Bool {
    // The same value in every row.
    if isConstant(expression) { return true }
    guard let traits = traits(of: expression) else { return false }
    return traits.type == .integer || traits.type == .text
  }

  /// Whether the expression has the same value in every row: a literal or parameter, or
  /// operators, casts and (deterministic) functions of such values. `coalesce()` and `ifnull()`
  /// stop at their first argument that is never NULL, so `coalesce(29, t.a)` is constant too.
  ///
  /// ```swift
  /// isConstant(.function(.coalesce, [.literal(.integer(29)), .column("a")]))  // true
  /// ```
  func isConstant(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .literal, .parameter:
      return true
    case .column, .rowid, .qualifiedColumn, .qualifiedRowid, .subquery, .exists, .inSubquery, .resultColumn,
      .excluded, .aggregate:
      return false
    case .function(.coalesce, let arguments), .function(.ifnull, let arguments):
      for argument in arguments {
        guard isConstant(argument) else { return false }
        if Self.isNeverNull(argument) { return true }
      }
      return true
    default:
      let children = expression.children
      return !children.isEmpty && children.allSatisfy(isConstant)
    }
  }

  /// Whether a constant is never NULL: a literal other than NULL, signed or not, or a
  /// `coalesce()` or `ifnull()` with such an argument.
  private static func isNeverNull(_ expression: SQLExpression) -> Bool {
    switch expression {
    case .literal(let value): return !value.isNull
    case .unary(.negate, let operand), .unary(.plus, let operand): return isNeverNull(operand)
    case .function(.coalesce, let arguments), .function(.ifnull, let arguments): return arguments.contains(where: isNeverNull)
    default: return false
    }
  }

  /// The source whose rowid the expression is (its rowid or its INTEGER PRIMARY KEY column).
  func rowidSource(_ expression: SQLExpression) -> String? {
    guard let traits = traits(of: expression), traits.isRowidAlias else { return nil }
    if case .rowid = expression { return statement.sources.count == 1 ? statement.sources[0].alias : nil }
    return source(of: expression)
  }
}
