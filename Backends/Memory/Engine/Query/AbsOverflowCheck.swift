import TandemCore

/// Proves, from the data, that no `abs()` of one query level can raise `integer overflow`.
///
/// `abs()` fails only on the INTEGER -9223372036854775808 (a REAL, TEXT or BLOB argument takes
/// its REAL path). In a join or beside a subquery, which rows SQLite evaluates an expression on
/// depends on its plan, so a query whose `abs()` could fail on some row is refused. This check
/// lets the others run: it bounds each argument by interval analysis over the hull of the
/// values each column it reads holds in its table, across every combination of rows, with
/// SQLite's arithmetic (an INTEGER `+`, `-` or `*` that overflows gives a REAL, so its INTEGER
/// results are the exact ones in range). Whatever it cannot bound (TEXT or BLOB in a column,
/// parameters, subqueries, common tables, `sum()`) counts as any value, and is refused.
///
/// ```swift
/// // t.a holds 1…10, u.b holds -3…7: abs(t.a - u.b) is within -6…13, it cannot fail.
/// var check = AbsOverflowCheck(scope: scope, catalog: catalog, resultColumns: statement.columns)
/// check.mayFail(onArgument: .binary(.subtract, .qualifiedColumn(source: "t", name: "a"),
///   .qualifiedColumn(source: "u", name: "b")))  // false
/// ```
struct AbsOverflowCheck {
  /// What an expression can evaluate to, as far as the proof needs: the hull of its INTEGER
  /// values and whether it can be a REAL. NULL needs no mark: no arithmetic makes an INTEGER of it.
  struct Bounds: Equatable {
    /// The smallest and largest INTEGER it can be; `nil` when it is never an INTEGER.
    var integers: ClosedRange<Int64>?
    /// Whether it can be a REAL (a CAST can make an INTEGER of it).
    var mayBeReal: Bool

    /// Any value at all (TEXT converts to any number in arithmetic).
    static let unknown = Bounds(integers: Int64.min...Int64.max, mayBeReal: true)
    /// NULL or a REAL, never an INTEGER.
    static let real = Bounds(integers: nil, mayBeReal: true)
    /// A truth value: 0, 1 or NULL.
    static let truth = Bounds(integers: 0...1, mayBeReal: false)
    /// A count or a length: a non-negative INTEGER or NULL.
    static let nonNegative = Bounds(integers: 0...Int64.max, mayBeReal: false)

    /// Whether it can be the one argument `abs()` fails on.
    var mayBeSmallestInteger: Bool { integers?.contains(Int64.min) ?? false }

    /// Either this or `other`.
    func union(_ other: Bounds) -> Bounds {
      let integers: ClosedRange<Int64>? =
        switch (self.integers, other.integers) {
        case (let a?, let b?): min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
        case (let a?, nil): a
        case (nil, let b): b
        }
      return Bounds(integers: integers, mayBeReal: mayBeReal || other.mayBeReal)
    }

    /// The INTEGER results of an operation whose exact results lie within `low...high`: those
    /// that fit in 64 bits (the others become REALs, as SQLite's `sqlite3AddInt64` and
    /// `sqlite3MulInt64` overflow to floating point).
    static func exact(_ low: Int128, _ high: Int128, mayBeReal: Bool) -> Bounds {
      let lowest = Swift.max(low, Int128(Int64.min))
      let highest = Swift.min(high, Int128(Int64.max))
      let overflows = low < Int128(Int64.min) || high > Int128(Int64.max)
      guard lowest <= highest else { return Bounds(integers: nil, mayBeReal: true) }
      return Bounds(integers: Int64(lowest)...Int64(highest), mayBeReal: mayBeReal || overflows)
    }
  }

  /// The query level the expressions belong to (its sources and the levels around it).
  let scope: SourceScope
  let catalog: Catalog
  /// The level's result columns, which `ORDER BY 1` (``SQLExpression/resultColumn(_:)``) names.
  let resultColumns: [SQLExpression]
  /// Each column's bounds, once read: by table and column (`nil` for the rowid).
  private var columnBounds: [ColumnKey: Bounds] = [:]

  private struct ColumnKey: Hashable {
    let table: ObjectIdentifier
    let column: Int?
  }

  init(scope: SourceScope, catalog: Catalog, resultColumns: [SQLExpression]) {
    self.scope = scope
    self.catalog = catalog
    self.resultColumns = resultColumns
  }

  /// Whether `abs(argument)` can fail on some combination of rows.
  mutating func mayFail(onArgument argument: SQLExpression) -> Bool {
    var visiting: Set<Int> = []
    return bounds(of: argument, visiting: &visiting).mayBeSmallestInteger
  }

  /// What `expression` can evaluate to; `visiting` holds the result columns being bounded.
  private mutating func bounds(of expression: SQLExpression, visiting: inout Set<Int>) -> Bounds {
    switch expression {
    case .literal(let value):
      return Self.bounds(of: value)
    case .column(let name):
      return columnBounds { try $0.resolve(column: name, source: nil, marking: false) }
    case .qualifiedColumn(let source, let name):
      return columnBounds { try $0.resolve(column: name, source: source, marking: false) }
    case .rowid:
      return columnBounds { try $0.resolveRowid(source: nil, marking: false) }
    case .qualifiedRowid(let source):
      return columnBounds { try $0.resolveRowid(source: source, marking: false) }
    case .resultColumn(let index):
      guard resultColumns.indices.contains(index), visiting.insert(index).inserted else { return .unknown }
      defer { visiting.remove(index) }
      return bounds(of: resultColumns[index], visiting: &visiting)
    case .collate(let inner, _), .unary(.plus, let inner):
      return bounds(of: inner, visiting: &visiting)
    case .unary(.negate, let inner):
      // 0 - x (`expr.c` codes it so): -(-9223372036854775808) overflows to a REAL.
      return Self.arithmetic(.subtract, Bounds(integers: 0...0, mayBeReal: false), bounds(of: inner, visiting: &visiting))
    case .unary(.not, _), .isNull, .inList, .between, .like, .glob, .exists, .inSubquery:
      return .truth
    case .binary(let op, let lhs, let rhs):
      switch op {
      case .add, .subtract, .multiply, .divide, .remainder:
        let left = bounds(of: lhs, visiting: &visiting)
        return Self.arithmetic(op, left, bounds(of: rhs, visiting: &visiting))
      case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .is, .isNot, .and, .or:
        return .truth
      case .concatenate:
        return .unknown
      }
    case .function(let function, let arguments):
      var each: [Bounds] = []
      for argument in arguments { each.append(bounds(of: argument, visiting: &visiting)) }
      return Self.function(function, each)
    case .aggregate(let function, let argument, _, _):
      switch function {
      case .count: return .nonNegative
      case .total, .avg: return .real
      case .min, .max:
        guard let argument else { return .unknown }
        return bounds(of: argument, visiting: &visiting)
      case .sum, .groupConcat: return .unknown
      }
    case .cast(let inner, let type):
      let operand = bounds(of: inner, visiting: &visiting)
      switch type {
      case .real: return .real
      case .integer, .numeric: return operand.mayBeReal ? .unknown : operand
      case .text, .blob: return .unknown
      }
    case .caseWhen(_, let branches, let otherwise):
      var result = otherwise.map { bounds(of: $0, visiting: &visiting) } ?? Bounds(integers: nil, mayBeReal: false)
      for branch in branches { result = result.union(bounds(of: branch.then, visiting: &visiting)) }
      return result
    case .subquery, .parameter, .excluded:
      return .unknown
    }
  }

  /// The bounds of a scalar function's result, from its arguments'.
  private static func function(_ function: ScalarFunction, _ arguments: [Bounds]) -> Bounds {
    switch function {
    case .abs:
      guard let argument = arguments.first else { return .unknown }
      guard let integers = argument.integers else { return .real }
      // abs() of the smallest integer fails (the caller checks that); every other |x| is in range.
      let low = Int128(integers.lowerBound)
      let high = Int128(integers.upperBound)
      let smallest = low > 0 ? low : high < 0 ? -high : 0
      return Bounds.exact(smallest, Swift.max(-low, high), mayBeReal: argument.mayBeReal)
    case .coalesce, .ifnull, .min, .max:
      return arguments.dropFirst().reduce(arguments.first ?? .unknown) { $0.union($1) }
    case .nullif:
      return arguments.first ?? .unknown
    case .instr, .length:
      return .nonNegative
    case .round:
      return .real
    case .lower, .upper, .ltrim, .rtrim, .trim, .replace, .substr, .typeof:
      return .unknown
    }
  }

  /// SQLite's INTEGER arithmetic (`OP_Add` … `OP_Remainder`) over two bounds: with a REAL
  /// operand the result is a REAL (TEXT counts as any INTEGER, so `unknown` covers it).
  private static func arithmetic(_ op: BinaryOperator, _ left: Bounds, _ right: Bounds) -> Bounds {
    let mayBeReal = left.mayBeReal || right.mayBeReal
    guard let a = left.integers, let b = right.integers else { return Bounds(integers: nil, mayBeReal: mayBeReal) }
    let (aLow, aHigh) = (Int128(a.lowerBound), Int128(a.upperBound))
    let (bLow, bHigh) = (Int128(b.lowerBound), Int128(b.upperBound))
    switch op {
    case .add:
      return .exact(aLow + bLow, aHigh + bHigh, mayBeReal: mayBeReal)
    case .subtract:
      return .exact(aLow - bHigh, aHigh - bLow, mayBeReal: mayBeReal)
    case .multiply:
      let corners = [aLow * bLow, aLow * bHigh, aHigh * bLow, aHigh * bHigh]
      return .exact(corners.min() ?? 0, corners.max() ?? 0, mayBeReal: mayBeReal)
    case .divide:
      // Division by 0 is NULL; -9223372036854775808 / -1 is a REAL. A quotient by any other
      // divisor lies between 0 and the dividend or its negation.
      guard b != 0...0 else { return Bounds(integers: nil, mayBeReal: mayBeReal) }
      return .exact(
        Swift.min(aLow, -aHigh, 0), Swift.max(aHigh, -aLow, 0),
        mayBeReal: mayBeReal || (a.lowerBound == Int64.min && b.contains(-1)))
    case .remainder:
      // The remainder takes the dividend's sign and is smaller than the divisor in magnitude.
      guard b != 0...0 else { return Bounds(integers: nil, mayBeReal: mayBeReal) }
      let limit = Swift.max(Int128(b.lowerBound.magnitude), Int128(b.upperBound.magnitude)) - 1
      return .exact(Swift.max(Swift.min(aLow, 0), -limit), Swift.min(Swift.max(aHigh, 0), limit), mayBeReal: mayBeReal)
    default:
      return .unknown
    }
  }

  /// One value's bounds. A REAL that is a whole number strictly inside the INTEGER range counts
  /// as that INTEGER too: SQLite may apply numeric affinity to a register in place
  /// (`sqlite3VdbeIntegerAffinity`, which keeps both ends REAL). TEXT and BLOB are `unknown`.
  private static func bounds(of value: SqliteValue) -> Bounds {
    switch value {
    case .integer(let integer):
      return Bounds(integers: integer...integer, mayBeReal: false)
    case .real(let real):
      guard real > -9.223372036854775808e18, real < 9.223372036854775807e18, real.rounded(.towardZero) == real else {
        return .real
      }
      let integer = Int64(real)
      return Bounds(integers: integer...integer, mayBeReal: true)
    case .null:
      return Bounds(integers: nil, mayBeReal: false)
    case .text, .blob:
      return .unknown
    }
  }

  /// The bounds of the column a reference resolves to, over every row of its table; `unknown`
  /// when it does not resolve, or reads a common table's rows.
  private mutating func columnBounds(_ resolve: (SourceScope) throws -> SourceScope.Reference) -> Bounds {
    guard let reference = try? resolve(scope) else { return .unknown }
    var level: SourceScope? = scope
    for _ in 0..<reference.depth { level = level?.parent }
    guard let sources = level?.sources, sources.indices.contains(reference.source) else { return .unknown }
    let definition = sources[reference.source].definition
    guard !definition.isEphemeral, let storage = catalog.table(definition.name), storage.definition === definition
    else { return .unknown }
    let key = ColumnKey(table: ObjectIdentifier(storage), column: reference.isRowid ? nil : reference.column)
    if let known = columnBounds[key] { return known }
    let found = Self.bounds(of: storage.data, column: key.column)
    columnBounds[key] = found
    return found
  }

  /// The hull of a column's values (`nil`: the rowid), `unknown` as soon as one is TEXT or BLOB.
  private static func bounds(of data: TableData, column: Int?) -> Bounds {
    guard let column else {
      guard let first = data.rows.first, let last = data.rows.last else { return Bounds(integers: nil, mayBeReal: false) }
      return Bounds(integers: data.rows.rowid(at: first)...data.rows.rowid(at: last), mayBeReal: false)
    }
    var result = Bounds(integers: nil, mayBeReal: false)
    data.scan { row, _ in
      result = result.union(bounds(of: row[column]))
      return result != .unknown
    }
    return result
  }
}
