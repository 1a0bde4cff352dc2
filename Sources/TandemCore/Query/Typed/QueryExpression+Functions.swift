import Foundation

extension QueryExpression where QueryValue: _TextQueryValue {
  /// `expr LIKE pattern [ESCAPE escape]`: `%` any run, `_` one character, ASCII case-insensitive.
  ///
  /// ```swift
  /// Reminder.where { $0.title.like("%milk%") }
  /// Reminder.where { $0.title.like("100!%", escape: "!") }
  /// ```
  public func like(_ pattern: String, escape: Unicode.Scalar? = nil) -> TypedExpression<Bool> {
    TypedExpression(.like(expression, pattern: .literal(.text(pattern)), escape: escape.map { .literal(.text(String($0))) }, negated: false))
  }

  /// `expr NOT LIKE pattern`.
  public func notLike(_ pattern: String, escape: Unicode.Scalar? = nil) -> TypedExpression<Bool> {
    TypedExpression(.like(expression, pattern: .literal(.text(pattern)), escape: escape.map { .literal(.text(String($0))) }, negated: true))
  }

  /// `expr GLOB pattern`: `*`, `?`, `[a-z]`, case-sensitive.
  ///
  /// ```swift
  /// File.where { $0.name.glob("*.swift") }
  /// ```
  public func glob(_ pattern: String) -> TypedExpression<Bool> {
    TypedExpression(.glob(expression, pattern: .literal(.text(pattern)), negated: false))
  }

  /// `expr NOT GLOB pattern`.
  public func notGlob(_ pattern: String) -> TypedExpression<Bool> {
    TypedExpression(.glob(expression, pattern: .literal(.text(pattern)), negated: true))
  }

  /// `lower(expr)`: ASCII letters only, as SQLite does.
  public func lower() -> TypedExpression<QueryValue> { TypedExpression(.function(.lower, [expression])) }
  /// `upper(expr)`: ASCII letters only.
  public func upper() -> TypedExpression<QueryValue> { TypedExpression(.function(.upper, [expression])) }
  /// `trim(expr [, characters])`.
  public func trim(_ characters: String? = nil) -> TypedExpression<QueryValue> {
    TypedExpression(.function(.trim, [expression] + (characters.map { [.literal(.text($0))] } ?? [])))
  }
  /// `ltrim(expr [, characters])`.
  public func ltrim(_ characters: String? = nil) -> TypedExpression<QueryValue> {
    TypedExpression(.function(.ltrim, [expression] + (characters.map { [.literal(.text($0))] } ?? [])))
  }
  /// `rtrim(expr [, characters])`.
  public func rtrim(_ characters: String? = nil) -> TypedExpression<QueryValue> {
    TypedExpression(.function(.rtrim, [expression] + (characters.map { [.literal(.text($0))] } ?? [])))
  }
  /// `substr(expr, start [, length])`, 1-based like SQLite.
  ///
  /// ```swift
  /// Reminder.select { $0.title.substr(1, 3) }
  /// ```
  public func substr(_ start: Int, _ length: Int? = nil) -> TypedExpression<QueryValue> {
    var arguments: [SQLExpression] = [expression, .literal(.integer(Int64(start)))]
    if let length { arguments.append(.literal(.integer(Int64(length)))) }
    return TypedExpression(.function(.substr, arguments))
  }
  /// `replace(expr, target, replacement)`.
  public func replace(_ target: String, with replacement: String) -> TypedExpression<QueryValue> {
    TypedExpression(.function(.replace, [expression, .literal(.text(target)), .literal(.text(replacement))]))
  }
  /// `instr(expr, needle)`: 1-based position of the first occurrence, 0 when absent.
  public func instr(_ needle: String) -> TypedExpression<Int> {
    TypedExpression(.function(.instr, [expression, .literal(.text(needle))]))
  }
  /// `expr COLLATE NOCASE` (or another collation) for comparisons and ordering.
  ///
  /// ```swift
  /// Reminder.order { $0.title.collate(.nocase) }
  /// ```
  public func collate(_ collation: Collation) -> TypedExpression<QueryValue> {
    TypedExpression(.collate(expression, collation))
  }
}

extension QueryExpression where QueryValue: _AdditiveQueryValue {
  /// `abs(expr)` (an `integer overflow` error for the least `Int64`).
  ///
  /// ```swift
  /// Item.all.select { ($0.stock - 10).abs() }   // SELECT abs(("stock" - ?))
  /// ```
  public func abs() -> TypedExpression<QueryValue> { TypedExpression(.function(.abs, [expression])) }
}

extension QueryExpression where QueryValue: _NumericQueryValue {
  /// `round(expr [, digits])`, always a `REAL`.
  public func round(_ digits: Int? = nil) -> TypedExpression<Double> {
    TypedExpression(.function(.round, [expression] + (digits.map { [.literal(.integer(Int64($0)))] } ?? [])))
  }
}

extension QueryExpression {
  /// `length(expr)`: characters for text, bytes for blobs.
  public func length() -> TypedExpression<Int?> { TypedExpression(.function(.length, [expression])) }

  /// `typeof(expr)`: `"integer"`, `"real"`, `"text"`, `"blob"` or `"null"`.
  public func typeof() -> TypedExpression<String> { TypedExpression(.function(.typeof, [expression])) }

  /// `CAST(expr AS type)`, typed as the Swift type you name.
  ///
  /// ```swift
  /// Reminder.select { $0.id.cast(as: .text, to: String.self) }
  /// ```
  public func cast<T>(as type: CastType, to swiftType: T.Type = T.self) -> TypedExpression<T> {
    TypedExpression(.cast(expression, as: type))
  }

  /// `coalesce(expr, fallback)`.
  ///
  /// ```swift
  /// Reminder.select { $0.priority ?? .low }
  /// ```
  public func coalesce(_ fallback: QueryValue._Wrapped) -> TypedExpression<QueryValue._Wrapped>
  where QueryValue: _OptionalQueryValue, QueryValue._Wrapped: ColumnType {
    TypedExpression(.function(.coalesce, [expression, .bound(fallback, for: expression)]))
  }

  /// `ifnull(expr, fallback)` for two expressions.
  public func ifNull<E: QueryExpression>(_ fallback: E) -> TypedExpression<E.QueryValue> {
    TypedExpression(.function(.ifnull, [expression, fallback.expression]))
  }

  /// `nullif(expr, value)`: NULL when equal, else expr.
  ///
  /// ```swift
  /// Item.all.select { $0.discount.nullIf(0) }   // SELECT nullif("discount", ?)
  /// ```
  public func nullIf(_ value: QueryValue) -> TypedExpression<QueryValue?>
  where QueryValue: ColumnType, QueryValue._QueryEquality: _EqualityMatchesSwift {
    TypedExpression(.function(.nullif, [expression, .bound(value, for: expression)]))
  }
}

/// `coalesce(lhs, rhs)`: the optional expression's value, or `rhs` when it is NULL.
///
/// ```swift
/// Reminder.select { $0.priority ?? .low }
/// ```
public func ?? <L: QueryExpression>(lhs: L, rhs: L.QueryValue._Wrapped) -> TypedExpression<L.QueryValue._Wrapped>
where L.QueryValue: _OptionalQueryValue, L.QueryValue._Wrapped: ColumnType {
  lhs.coalesce(rhs)
}

// `least` and `greatest` take two arguments at least: SQLite's `min(x)` and `max(x)` with one
// argument are the aggregates. The arguments after the first are all expressions or all values;
// the expressions are existentials so that `least($0.n, $0.n + 1)` mixes a column with a computed
// expression and type-checks at once.

/// Scalar `min(a, b, …)` of expressions of one type: NULL if any argument is NULL.
///
/// ```swift
/// Item.all.select { least($0.stock, $0.reorderLevel) }       // SELECT min("stock", "reorderLevel")
/// Item.all.select { least($0.stock, $0.reorderLevel * 2) }   // SELECT min("stock", ("reorderLevel" * ?))
/// ```
public func least<E: QueryExpression>(
  _ first: E, _ second: any QueryExpression<E.QueryValue>, _ rest: any QueryExpression<E.QueryValue>...
) -> TypedExpression<E.QueryValue>
where E.QueryValue: QueryComparable {
  TypedExpression(.function(.min, [first.expression, second.expression] + rest.map(\.expression)))
}

/// Scalar `min(expr, value, …)` of an expression and values of its type (bound).
///
/// ```swift
/// Item.all.select { least($0.stock, 5) }   // SELECT min("stock", ?)
/// ```
public func least<E: QueryExpression>(_ first: E, _ second: E.QueryValue, _ rest: E.QueryValue...) -> TypedExpression<E.QueryValue>
where E.QueryValue: QueryComparable {
  TypedExpression(.function(.min, [first.expression] + ([second] + rest).map { .bound($0, for: first.expression) }))
}

/// Scalar `max(a, b, …)` of expressions of one type: NULL if any argument is NULL.
///
/// ```swift
/// Item.all.select { greatest($0.stock, $0.reorderLevel - 1) }   // SELECT max("stock", ("reorderLevel" - ?))
/// ```
public func greatest<E: QueryExpression>(
  _ first: E, _ second: any QueryExpression<E.QueryValue>, _ rest: any QueryExpression<E.QueryValue>...
) -> TypedExpression<E.QueryValue>
where E.QueryValue: QueryComparable {
  TypedExpression(.function(.max, [first.expression, second.expression] + rest.map(\.expression)))
}

/// Scalar `max(expr, value, …)` of an expression and values of its type (bound).
///
/// ```swift
/// Item.all.select { greatest($0.stock, 0) }   // SELECT max("stock", ?)
/// ```
public func greatest<E: QueryExpression>(_ first: E, _ second: E.QueryValue, _ rest: E.QueryValue...) -> TypedExpression<E.QueryValue>
where E.QueryValue: QueryComparable {
  TypedExpression(.function(.max, [first.expression] + ([second] + rest).map { .bound($0, for: first.expression) }))
}
