import TandemCore

/// Accumulates SQL text and its bindings while a statement is rendered.
struct SQLTextWriter {
  /// The UTF-8 bytes of the SQL written so far (one String is made at the end: much faster
  /// than growing a String piece by piece).
  private var bytes: [UInt8] = []
  private(set) var bindings: [SQLBinding] = []
  let rowidName: String?
  /// The rowid spelling of every other table the statement may read, by table name.
  let otherRowidNames: [String: String?]
  /// The sources of each query level being written, innermost last: alias to table.
  var scopes: [[String: String]] = []
  /// The names of the common table expressions in scope (ASCII-lowercased), innermost last.
  var commonTableNames: [Set<String>] = []

  /// The traits of the columns the statement may read, by table and column name.
  let columnTraits: [String: [String: ColumnTraits]]
  /// Whether a join's select may be written over a subquery that fixes the order of its rows
  /// (see ``writeSelect(_:)``); off, every select is written as the statement says.
  var writesOrderedSubqueries = true
  /// Whether a join ordered by its sources' rowids alone may be written without its ORDER BY,
  /// its rowids as the last result columns, for the caller to sort its rows by
  /// (see ``writeSelect(_:)``).
  var leavesRowidOrderToCaller = false
  /// The number of trailing result columns the caller sorts the rows by and then drops: the
  /// rowids a join was written with when ``leavesRowidOrderToCaller`` allowed it, else 0.
  var rowidSortKeyCount = 0

  init(rowidName: String?, otherRowidNames: [String: String?] = [:], columnTraits: [String: [String: ColumnTraits]] = [:]) {
    self.rowidName = rowidName
    self.otherRowidNames = otherRowidNames
    self.columnTraits = columnTraits
    bytes.reserveCapacity(256)
  }

  /// The SQL text written so far.
  var sql: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends SQL text.
  static func += (writer: inout SQLTextWriter, text: StaticString) {
    text.withUTF8Buffer { writer.bytes.append(contentsOf: $0) }
  }

  /// Appends SQL text.
  static func += (writer: inout SQLTextWriter, text: String) {
    var text = text
    text.withUTF8 { writer.bytes.append(contentsOf: $0) }
  }

  /// Writes a double-quoted identifier; a NUL would end SQLite's reading of the SQL text.
  mutating func writeIdentifier(_ name: String) throws {
    var utf8Name = name
    try utf8Name.withUTF8 { utf8 in
      if utf8.contains(0) { try SQLName.check(name) }
      if utf8.contains(UInt8(ascii: "\"")) {
        self += SQLQuoting.identifier(name)
      } else {
        // The same text SQLQuoting.identifier produces, without its Foundation string search.
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
      }
    }
  }

  /// `name` double-quoted, or a misuse error when it contains a NUL character.
  static func quotedIdentifier(_ name: String) throws -> String {
    try SQLName.check(name)
    return SQLQuoting.identifier(name)
  }

  /// Writes the elements separated by `, `.
  mutating func writeList<Element>(
    _ elements: [Element], _ writeElement: (inout SQLTextWriter, Element) throws -> Void
  ) throws {
    for (index, element) in elements.enumerated() {
      if index > 0 { self += ", " }
      try writeElement(&self, element)
    }
  }

  /// Makes room for `count` more bindings at once.
  mutating func reserveBindings(_ count: Int) {
    bindings.reserveCapacity(bindings.count + count)
  }

  /// Writes a placeholder bound to `binding`.
  mutating func writePlaceholder(_ binding: SQLBinding) {
    self += "?"
    bindings.append(binding)
  }

  /// Writes `text` (a parenthesized list of `?`) and binds the row's values, when every
  /// expression of the row is a literal or a parameter; returns `false`, writing nothing, otherwise.
  mutating func writePlaceholderRow(_ row: [SQLExpression], text: String) -> Bool {
    let start = bindings.count
    for expression in row {
      switch expression {
      case .literal(let value): bindings.append(.value(value))
      case .parameter(let name): bindings.append(.parameter(name))
      default:
        bindings.removeSubrange(start...)
        return false
      }
    }
    self += text
    return true
  }

  /// Writes one expression. Atoms (columns, placeholders, calls, CAST, CASE) are written bare;
  /// every operator expression is wrapped in parentheses.
  mutating func write(_ expression: SQLExpression) throws {
    switch expression {
    case .column(let name):
      try writeIdentifier(name)
    case .rowid:
      // In a query level over one table (a subquery's), that table's spelling.
      if let innermost = scopes.last, innermost.count == 1, let alias = innermost.keys.first {
        self += try rowidSpelling(ofSource: alias)
        return
      }
      guard let rowidName else {
        throw TandemError.unsupported(
          "the rowid of a table whose columns are named rowid, _rowid_ and oid", backend: "sqlite")
      }
      self += rowidName
    case .excluded(let name):
      self += "excluded."
      try writeIdentifier(name)
    case .qualifiedColumn(let source, let name):
      try writeIdentifier(source)
      self += "."
      try writeIdentifier(name)
    case .qualifiedRowid(let source):
      try writeIdentifier(source)
      self += "."
      self += try rowidSpelling(ofSource: source)
    case .resultColumn:
      throw TandemError.misuse("a result column position appears only in the ORDER BY of a compound select")
    case .subquery(let query):
      self += "("
      try writeSelect(query)
      self += ")"
    case .exists(let query, let negated):
      self += negated ? "(NOT EXISTS (" : "(EXISTS ("
      try writeSelect(query)
      self += "))"
    case .inSubquery(let operand, let query, let negated):
      self += "("
      try write(operand)
      self += negated ? " NOT IN (" : " IN ("
      try writeSelect(query)
      self += "))"
    case .literal(let value):
      writePlaceholder(.value(value))
    case .parameter(let name):
      writePlaceholder(.parameter(name))
    case .unary(let op, let operand):
      self += "("
      if op == .not {
        self += "NOT "
      } else {
        self += op.rawValue
      }
      try write(operand)
      self += ")"
    case .binary(let op, let left, let right):
      self += "("
      try write(left)
      self += " "
      self += op.rawValue
      self += " "
      try write(right)
      self += ")"
    case .function(let function, let arguments):
      guard function.arity.contains(arguments.count) else {
        throw TandemError.misuse(
          "function \(function.rawValue) does not take \(arguments.count) argument\(arguments.count == 1 ? "" : "s")")
      }
      self += function.rawValue
      self += "("
      try writeList(arguments) { try $0.write($1) }
      self += ")"
    case .aggregate(let function, let argument, let distinct, let separator):
      try writeAggregate(function, argument, distinct: distinct, separator: separator)
    case .cast(let operand, let type):
      self += "CAST("
      try write(operand)
      self += " AS "
      self += type.rawValue
      self += ")"
    case .inList(let operand, let list, let negated):
      self += "("
      try write(operand)
      self += negated ? " NOT IN (" : " IN ("
      try writeList(list) { try $0.write($1) }
      self += "))"
    case .between(let operand, let low, let high, let negated):
      self += "("
      try write(operand)
      self += negated ? " NOT BETWEEN " : " BETWEEN "
      try write(low)
      self += " AND "
      try write(high)
      self += ")"
    case .like(let operand, let pattern, let escape, let negated):
      self += "("
      try write(operand)
      self += negated ? " NOT LIKE " : " LIKE "
      try write(pattern)
      if let escape {
        self += " ESCAPE "
        try write(escape)
      }
      self += ")"
    case .glob(let operand, let pattern, let negated):
      self += "("
      try write(operand)
      self += negated ? " NOT GLOB " : " GLOB "
      try write(pattern)
      self += ")"
    case .isNull(let operand, let negated):
      self += "("
      try write(operand)
      self += negated ? " IS NOT NULL)" : " IS NULL)"
    case .caseWhen(let base, let branches, let otherwise):
      guard !branches.isEmpty else {
        throw TandemError.misuse("a CASE expression needs at least one WHEN branch")
      }
      self += "CASE"
      if let base {
        self += " "
        try write(base)
      }
      for branch in branches {
        self += " WHEN "
        try write(branch.when)
        self += " THEN "
        try write(branch.then)
      }
      if let otherwise {
        self += " ELSE "
        try write(otherwise)
      }
      self += " END"
    case .collate(let operand, let collation):
      self += "("
      try write(operand)
      self += " COLLATE "
      self += collation.rawValue
      self += ")"
    }
  }

  private mutating func writeAggregate(
    _ function: AggregateFunction, _ argument: SQLExpression?, distinct: Bool, separator: SQLExpression?
  ) throws {
    if separator != nil, function != .groupConcat || argument == nil {
      throw TandemError.misuse("only group_concat takes a separator")
    }
    self += function.rawValue
    self += "("
    if let argument {
      if distinct { self += "DISTINCT " }
      try write(argument)
      if let separator {
        self += ", "
        try write(separator)
      }
    } else {
      guard function == .count, !distinct else {
        throw TandemError.misuse(
          distinct ? "\(function.rawValue)(DISTINCT *) is not an aggregate" : "aggregate \(function.rawValue) needs an argument")
      }
      self += "*"
    }
    self += ")"
  }
}
