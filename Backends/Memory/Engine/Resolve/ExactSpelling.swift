import Foundation
import TandemCore

/// Whether two values that are already `==` also spell every name with the same bytes.
///
/// The query model and `TableSchema` compare names with Swift's `String` equality, which treats
/// canonically equivalent text as equal (`"é"` precomposed and `"e\u{301}"`), while SQLite tells
/// such names apart. Plan and schema caches therefore ask this as well before they share an
/// entry, or a statement naming one spelling could run the plan compiled for the other.
///
/// ```swift
/// let a = SQLExpression.column("\u{E9}"), b = SQLExpression.column("e\u{301}")
/// a == b                        // true
/// a.hasSameSpelling(as: b)      // false
/// ```
protocol ExactSpelling {
  /// Whether every name in `self` has the same UTF-8 bytes as the matching name in `other`;
  /// meaningful only when `self == other`.
  func hasSameSpelling(as other: Self) -> Bool
}

extension String: ExactSpelling {
  func hasSameSpelling(as other: String) -> Bool { UTF8Bytes.equal(self, other) }
}

extension Array: ExactSpelling where Element: ExactSpelling {
  func hasSameSpelling(as other: [Element]) -> Bool {
    // The same storage holds the same names (a query built once and run again).
    if isBitwiseIdentical(self, other) { return true }
    return count == other.count && indices.allSatisfy { self[$0].hasSameSpelling(as: other[$0]) }
  }
}

extension Optional: ExactSpelling where Wrapped: ExactSpelling {
  func hasSameSpelling(as other: Wrapped?) -> Bool {
    switch (self, other) {
    case (let a?, let b?): a.hasSameSpelling(as: b)
    case (nil, nil): true
    default: false
    }
  }
}

extension SQLExpression: ExactSpelling {
  func hasSameSpelling(as other: SQLExpression) -> Bool {
    if isBitwiseIdentical(self, other) { return true }
    switch (self, other) {
    case (.column(let a), .column(let b)), (.excluded(let a), .excluded(let b)), (.parameter(let a), .parameter(let b)):
      return a.hasSameSpelling(as: b)
    case (.qualifiedColumn(let aSource, let aName), .qualifiedColumn(let bSource, let bName)):
      return aSource.hasSameSpelling(as: bSource) && aName.hasSameSpelling(as: bName)
    case (.qualifiedRowid(let a), .qualifiedRowid(let b)):
      return a.hasSameSpelling(as: b)
    case (.rowid, .rowid), (.literal, .literal), (.resultColumn, .resultColumn):
      return true
    case (.unary(_, let a), .unary(_, let b)), (.cast(let a, _), .cast(let b, _)),
      (.isNull(let a, _), .isNull(let b, _)), (.collate(let a, _), .collate(let b, _)):
      return a.hasSameSpelling(as: b)
    case (.binary(_, let a1, let a2), .binary(_, let b1, let b2)), (.glob(let a1, let a2, _), .glob(let b1, let b2, _)):
      return a1.hasSameSpelling(as: b1) && a2.hasSameSpelling(as: b2)
    case (.function(_, let a), .function(_, let b)):
      return a.hasSameSpelling(as: b)
    case (.aggregate(_, let a, _, let aSeparator), .aggregate(_, let b, _, let bSeparator)):
      return a.hasSameSpelling(as: b) && aSeparator.hasSameSpelling(as: bSeparator)
    case (.inList(let a, let aList, _), .inList(let b, let bList, _)):
      return a.hasSameSpelling(as: b) && aList.hasSameSpelling(as: bList)
    case (.between(let a1, let a2, let a3, _), .between(let b1, let b2, let b3, _)):
      return a1.hasSameSpelling(as: b1) && a2.hasSameSpelling(as: b2) && a3.hasSameSpelling(as: b3)
    case (.like(let a1, let a2, let a3, _), .like(let b1, let b2, let b3, _)):
      return a1.hasSameSpelling(as: b1) && a2.hasSameSpelling(as: b2) && a3.hasSameSpelling(as: b3)
    case (.caseWhen(let aBase, let aBranches, let aElse), .caseWhen(let bBase, let bBranches, let bElse)):
      return aBase.hasSameSpelling(as: bBase) && aElse.hasSameSpelling(as: bElse)
        && aBranches.count == bBranches.count
        && zip(aBranches, bBranches).allSatisfy {
          $0.when.hasSameSpelling(as: $1.when) && $0.then.hasSameSpelling(as: $1.then)
        }
    default:
      return false
    }
  }
}

extension OrderingTerm: ExactSpelling {
  func hasSameSpelling(as other: OrderingTerm) -> Bool { expression.hasSameSpelling(as: other.expression) }
}

extension Assignment: ExactSpelling {
  func hasSameSpelling(as other: Assignment) -> Bool {
    column.hasSameSpelling(as: other.column) && value.hasSameSpelling(as: other.value)
  }
}

extension JoinClause: ExactSpelling {
  func hasSameSpelling(as other: JoinClause) -> Bool {
    table.hasSameSpelling(as: other.table) && alias.hasSameSpelling(as: other.alias)
      && condition.hasSameSpelling(as: other.condition)
  }
}

extension SelectStatement: ExactSpelling {
  /// Compound members and common tables are not compared: a statement with either is never
  /// taken for another (plans of such statements are not cached).
  func hasSameSpelling(as other: SelectStatement) -> Bool {
    compound.isEmpty && other.compound.isEmpty && with == nil && other.with == nil
      && alias.hasSameSpelling(as: other.alias) && joins.hasSameSpelling(as: other.joins)
      && table.hasSameSpelling(as: other.table) && columns.hasSameSpelling(as: other.columns)
      && filter.hasSameSpelling(as: other.filter) && groupBy.hasSameSpelling(as: other.groupBy)
      && having.hasSameSpelling(as: other.having) && orderBy.hasSameSpelling(as: other.orderBy)
      && limit.hasSameSpelling(as: other.limit) && offset.hasSameSpelling(as: other.offset)
  }
}

extension UpdateStatement: ExactSpelling {
  func hasSameSpelling(as other: UpdateStatement) -> Bool {
    table.hasSameSpelling(as: other.table) && assignments.hasSameSpelling(as: other.assignments)
      && filter.hasSameSpelling(as: other.filter)
  }
}

extension DeleteStatement: ExactSpelling {
  func hasSameSpelling(as other: DeleteStatement) -> Bool {
    table.hasSameSpelling(as: other.table) && filter.hasSameSpelling(as: other.filter)
  }
}

extension InsertStatement.ConflictResolution: ExactSpelling {
  func hasSameSpelling(as other: InsertStatement.ConflictResolution) -> Bool {
    switch (self, other) {
    case (.update(let aTarget, let aSet), .update(let bTarget, let bSet)):
      return aTarget.hasSameSpelling(as: bTarget) && aSet.hasSameSpelling(as: bSet)
    case (.nothing(let aTarget), .nothing(let bTarget)):
      return aTarget.hasSameSpelling(as: bTarget)
    default:
      return true
    }
  }
}

extension TableSchema: ExactSpelling {
  func hasSameSpelling(as other: TableSchema) -> Bool {
    func names(_ schema: TableSchema) -> [String] {
      var names = [schema.name]
      for column in schema.columns {
        names.append(column.name)
        if let reference = column.references { names += [reference.table, reference.column] }
      }
      for index in schema.indexes { names += [index.name ?? ""] + index.columns }
      return names
    }
    return names(self).hasSameSpelling(as: names(other))
  }
}

extension InsertPlan.Shape: ExactSpelling {
  func hasSameSpelling(as other: InsertPlan.Shape) -> Bool {
    table.hasSameSpelling(as: other.table) && columns.hasSameSpelling(as: other.columns)
      && conflict.hasSameSpelling(as: other.conflict)
  }
}

extension Statement: ExactSpelling {
  func hasSameSpelling(as other: Statement) -> Bool {
    switch (self, other) {
    case (.select(let a), .select(let b)): a.hasSameSpelling(as: b)
    case (.update(let a), .update(let b)): a.hasSameSpelling(as: b)
    case (.delete(let a), .delete(let b)): a.hasSameSpelling(as: b)
    case (.insert(let a), .insert(let b)):
      a.table.hasSameSpelling(as: b.table) && a.columns.hasSameSpelling(as: b.columns)
        && a.rows.hasSameSpelling(as: b.rows) && a.conflict.hasSameSpelling(as: b.conflict)
    default: false
    }
  }
}

/// Whether two values have the same bits: the same inline bytes and the same references, so
/// necessarily equal and spelled alike (the converse does not hold). A query built once and run
/// many times hands the plan cache the very same expression trees each time, which this finds
/// without walking them.
@inline(__always)
func isBitwiseIdentical<T>(_ a: T, _ b: T) -> Bool {
  withUnsafeBytes(of: a) { x in
    withUnsafeBytes(of: b) { y in
      guard let p = x.baseAddress, let q = y.baseAddress else { return x.count == y.count }
      return memcmp(p, q, x.count) == 0
    }
  }
}

extension SelectStatement {
  /// Whether `other` is this statement with every name spelled with the same bytes (what a
  /// cached plan requires): each part by identity first, by value only when that fails.
  /// A statement with compound members or common tables is never exactly another.
  func isExactly(_ other: SelectStatement) -> Bool {
    func same<T: Equatable & ExactSpelling>(_ a: T, _ b: T) -> Bool {
      isBitwiseIdentical(a, b) || (a == b && a.hasSameSpelling(as: b))
    }
    return distinct == other.distinct && hasFromClause == other.hasFromClause && notIndexed == other.notIndexed
      && compound.isEmpty && other.compound.isEmpty && with == nil && other.with == nil
      && same(alias, other.alias) && same(joins, other.joins)
      && same(table, other.table) && same(filter, other.filter)
      && same(columns, other.columns) && same(limit, other.limit) && same(offset, other.offset)
      && same(groupBy, other.groupBy) && same(having, other.having) && orderBy.count == other.orderBy.count
      && zip(orderBy, other.orderBy).allSatisfy { same($0, $1) }
  }
}
