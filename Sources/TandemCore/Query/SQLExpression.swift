/// A backend-agnostic expression tree: what a query computes, with no SQL text in it.
///
/// The typed layer (``TypedExpression``, ``ColumnExpression``) builds these; the SQLite backend
/// renders them to SQL with bound values, the memory backend compiles them to Swift closures.
///
/// ```swift
/// // title LIKE '%milk%' AND NOT is_completed
/// let e: SQLExpression = .binary(.and,
///   .like(.column("title"), pattern: .literal("%milk%"), escape: nil, negated: false),
///   .unary(.not, .column("is_completed")))
/// ```
public indirect enum SQLExpression: Sendable, Hashable {
  /// A column found by name among the statement's sources (SQLite's name resolution: the
  /// innermost query first, then the queries around it).
  case column(String)
  /// The table's rowid (of the statement's only source).
  case rowid
  /// A column of one source, named by its alias: `"lists"."name"`.
  case qualifiedColumn(source: String, name: String)
  /// The rowid of one source, named by its alias: `"lists".rowid`.
  case qualifiedRowid(source: String)
  /// A scalar subquery, `(SELECT …)`: its first row's first column, NULL without rows.
  case subquery(SelectStatement)
  /// `[NOT] EXISTS (SELECT …)`.
  case exists(SelectStatement, negated: Bool)
  /// `expr [NOT] IN (SELECT …)`.
  case inSubquery(SQLExpression, SelectStatement, negated: Bool)
  /// The result column at a 1-based position, in the ORDER BY of a compound select
  /// (`ORDER BY 2`); nowhere else.
  case resultColumn(Int)
  /// A column of the row proposed for insertion, in an upsert's `DO UPDATE` (`excluded.name`).
  case excluded(String)
  /// A constant value (always bound, never spliced into SQL).
  case literal(SqliteValue)
  /// A named parameter whose value is supplied when the statement runs.
  case parameter(String)
  /// A prefix operator.
  case unary(UnaryOperator, SQLExpression)
  /// An infix operator.
  case binary(BinaryOperator, SQLExpression, SQLExpression)
  /// A scalar function call.
  case function(ScalarFunction, [SQLExpression])
  /// An aggregate call; `argument == nil` is `count(*)`. `separator` is `group_concat`'s second
  /// argument, evaluated per row (`nil` everywhere else, and for `group_concat(x)`'s `','`).
  ///
  /// ```swift
  /// // group_concat("title", ', ')
  /// SQLExpression.aggregate(.groupConcat, .column("title"), distinct: false, separator: .literal(.text(", ")))
  /// ```
  case aggregate(AggregateFunction, SQLExpression?, distinct: Bool, separator: SQLExpression? = nil)
  /// `CAST(expr AS type)`.
  case cast(SQLExpression, as: CastType)
  /// `expr [NOT] IN (list)`.
  case inList(SQLExpression, [SQLExpression], negated: Bool)
  /// `expr [NOT] BETWEEN low AND high`.
  case between(SQLExpression, SQLExpression, SQLExpression, negated: Bool)
  /// `expr [NOT] LIKE pattern [ESCAPE escape]`.
  case like(SQLExpression, pattern: SQLExpression, escape: SQLExpression?, negated: Bool)
  /// `expr [NOT] GLOB pattern`.
  case glob(SQLExpression, pattern: SQLExpression, negated: Bool)
  /// `expr IS [NOT] NULL`.
  case isNull(SQLExpression, negated: Bool)
  /// `CASE [base] WHEN … THEN … [ELSE …] END`.
  case caseWhen(base: SQLExpression?, branches: [CaseBranch], else: SQLExpression?)
  /// `expr COLLATE name`.
  case collate(SQLExpression, Collation)
}

/// One `WHEN … THEN …` of a CASE expression.
public struct CaseBranch: Sendable, Hashable {
  public var when: SQLExpression
  public var then: SQLExpression
  public init(when: SQLExpression, then: SQLExpression) {
    self.when = when
    self.then = then
  }
}

/// Prefix operators.
public enum UnaryOperator: String, Sendable, Hashable {
  /// Arithmetic negation, `-x`.
  case negate = "-"
  /// Unary plus, `+x` (returns x, drops column affinity).
  case plus = "+"
  /// Logical `NOT`.
  case not = "NOT"
}

/// Infix operators.
public enum BinaryOperator: String, Sendable, Hashable {
  case equal = "="
  case notEqual = "<>"
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  /// `IS`: equality where NULL is an ordinary value.
  case `is` = "IS"
  /// `IS NOT`.
  case isNot = "IS NOT"
  case and = "AND"
  case or = "OR"
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
  case remainder = "%"
  /// Text concatenation, `||`.
  case concatenate = "||"
}

/// The scalar functions both engines implement.
public enum ScalarFunction: String, Sendable, Hashable, CaseIterable {
  case abs, coalesce, ifnull, nullif, instr, length, lower, upper, ltrim, rtrim, trim, replace, round, substr, typeof
  /// Scalar `min(a, b, …)` with two or more arguments.
  case min
  /// Scalar `max(a, b, …)` with two or more arguments.
  case max

  /// The number of arguments the function accepts.
  public var arity: ClosedRange<Int> {
    switch self {
    case .abs, .length, .lower, .upper, .typeof: 1...1
    case .ifnull, .nullif, .instr: 2...2
    case .ltrim, .rtrim, .trim, .round: 1...2
    case .replace: 3...3
    case .substr: 2...3
    case .coalesce, .min, .max: 2...Int.max
    }
  }
}

/// The aggregate functions both engines implement.
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
  case count, sum, total, avg, min, max
  /// `group_concat(x [, separator])`: the non-NULL values as text, in the order rows are visited,
  /// joined by the separator (`','` when none is given; that row's separator before each value
  /// after the first).
  case groupConcat = "group_concat"
}

/// The type named by a CAST.
public enum CastType: String, Sendable, Hashable {
  case integer = "INTEGER"
  case real = "REAL"
  case text = "TEXT"
  case blob = "BLOB"
  case numeric = "NUMERIC"
}

/// A text collation.
public enum Collation: String, Sendable, Hashable {
  /// Byte-wise comparison of UTF-8 (the default).
  case binary = "BINARY"
  /// ASCII letters compared case-insensitively.
  case nocase = "NOCASE"
  /// Trailing spaces ignored.
  case rtrim = "RTRIM"
}
