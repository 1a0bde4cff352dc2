/// One statement of the query model, as handed to a backend.
public enum Statement: Sendable, Hashable {
  case select(SelectStatement)
  case insert(InsertStatement)
  case update(UpdateStatement)
  case delete(DeleteStatement)

  /// The table the statement reads or writes.
  public var table: String {
    switch self {
    case .select(let s): s.table
    case .insert(let s): s.table
    case .update(let s): s.table
    case .delete(let s): s.table
    }
  }
}

/// `SELECT` over one table.
///
/// The query builder makes the order deterministic before a backend sees it: without ORDER BY the
/// rows come in rowid order (group-key order when grouped, result order when DISTINCT), and the
/// rowid ends every ORDER BY as the last tie-breaker.
public struct SelectStatement: Sendable, Hashable {
  public var table: String
  /// The result columns.
  public var columns: [SQLExpression]
  public var distinct: Bool = false
  public var filter: SQLExpression?
  public var groupBy: [SQLExpression] = []
  public var having: SQLExpression?
  public var orderBy: [OrderingTerm] = []
  public var limit: SQLExpression?
  public var offset: SQLExpression?

  public init(
    table: String, columns: [SQLExpression], distinct: Bool = false, filter: SQLExpression? = nil,
    groupBy: [SQLExpression] = [], having: SQLExpression? = nil, orderBy: [OrderingTerm] = [],
    limit: SQLExpression? = nil, offset: SQLExpression? = nil
  ) {
    self.table = table
    self.columns = columns
    self.distinct = distinct
    self.filter = filter
    self.groupBy = groupBy
    self.having = having
    self.orderBy = orderBy
    self.limit = limit
    self.offset = offset
  }

  /// Whether the result columns contain an aggregate (so the query returns one row per group).
  public var isAggregate: Bool {
    !groupBy.isEmpty || columns.contains(where: \.containsAggregate) || (having?.containsAggregate ?? false)
  }
}

/// One ORDER BY term.
public struct OrderingTerm: Sendable, Hashable {
  public var expression: SQLExpression
  public var descending: Bool
  /// Where NULLs go; `nil` is SQLite's default (first when ascending, last when descending).
  public var nulls: NullsOrder?

  public init(_ expression: SQLExpression, descending: Bool = false, nulls: NullsOrder? = nil) {
    self.expression = expression
    self.descending = descending
    self.nulls = nulls
  }

  /// NULLS FIRST or NULLS LAST.
  public enum NullsOrder: String, Sendable, Hashable {
    case first = "NULLS FIRST"
    case last = "NULLS LAST"
  }
}

/// `INSERT` of one or more rows.
public struct InsertStatement: Sendable, Hashable {
  public var table: String
  /// The columns given values; the others take their defaults (or a new rowid).
  public var columns: [String]
  /// One expression list per row, each as long as `columns`.
  public var rows: [[SQLExpression]]
  /// What to do when a row conflicts with a uniqueness constraint.
  public var conflict: ConflictResolution

  public init(table: String, columns: [String], rows: [[SQLExpression]], conflict: ConflictResolution = .abort) {
    self.table = table
    self.columns = columns
    self.rows = rows
    self.conflict = conflict
  }

  /// Conflict handling for inserts.
  public enum ConflictResolution: Sendable, Hashable {
    /// Fail the statement (the default).
    case abort
    /// `INSERT OR REPLACE`: delete the conflicting rows, then insert.
    case replace
    /// `INSERT OR IGNORE`: skip the conflicting row.
    case ignore
    /// `ON CONFLICT (target) DO UPDATE SET …` (an upsert); `excluded.x` names the proposed values.
    case update(target: [String], assignments: [Assignment])
    /// `ON CONFLICT (target) DO NOTHING`.
    case nothing(target: [String])
  }
}

/// `column = expression` in an UPDATE or an upsert.
public struct Assignment: Sendable, Hashable {
  public var column: String
  public var value: SQLExpression
  public init(column: String, value: SQLExpression) {
    self.column = column
    self.value = value
  }
}

/// `UPDATE table SET … [WHERE …]`.
public struct UpdateStatement: Sendable, Hashable {
  public var table: String
  public var assignments: [Assignment]
  public var filter: SQLExpression?
  public init(table: String, assignments: [Assignment], filter: SQLExpression? = nil) {
    self.table = table
    self.assignments = assignments
    self.filter = filter
  }
}

/// `DELETE FROM table [WHERE …]`.
public struct DeleteStatement: Sendable, Hashable {
  public var table: String
  public var filter: SQLExpression?
  public init(table: String, filter: SQLExpression? = nil) {
    self.table = table
    self.filter = filter
  }
}

extension SQLExpression {
  /// Whether an aggregate call appears anywhere in the expression.
  public var containsAggregate: Bool {
    switch self {
    case .aggregate: true
    case .column, .rowid, .excluded, .literal, .parameter: false
    case .unary(_, let e), .cast(let e, _), .isNull(let e, _), .collate(let e, _): e.containsAggregate
    case .binary(_, let a, let b): a.containsAggregate || b.containsAggregate
    case .function(_, let args): args.contains(where: \.containsAggregate)
    case .inList(let e, let list, _): e.containsAggregate || list.contains(where: \.containsAggregate)
    case .between(let a, let b, let c, _): a.containsAggregate || b.containsAggregate || c.containsAggregate
    case .like(let a, let b, let c, _): a.containsAggregate || b.containsAggregate || (c?.containsAggregate ?? false)
    case .glob(let a, let b, _): a.containsAggregate || b.containsAggregate
    case .caseWhen(let base, let branches, let otherwise):
      (base?.containsAggregate ?? false)
        || branches.contains { $0.when.containsAggregate || $0.then.containsAggregate }
        || (otherwise?.containsAggregate ?? false)
    }
  }
}
