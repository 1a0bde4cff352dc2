import Foundation
import Tandem

/// Random INSERTs (plain, OR REPLACE, OR IGNORE, upserts), UPDATEs and DELETEs that often hit
/// existing rows and often violate constraints.
struct WriteGenerator {
  var expressions: ExpressionGenerator
  /// Values already written per column, reused so that keys collide.
  var history: [String: [SqliteValue]] = [:]

  init(expressions: ExpressionGenerator) {
    self.expressions = expressions
  }

  private var table: TableSchema { expressions.table }

  /// The values written so far, by column name.
  var knownValues: [String: [SqliteValue]] {
    var values: [String: [SqliteValue]] = [:]
    for column in table.columns {
      if let written = history[table.name + "\u{0}" + column.name] { values[column.name] = written }
    }
    return values
  }

  // MARK: - INSERT

  /// An insert into `expressions.table`; `plain` forces the ABORT policy with literal rows.
  mutating func insert(plain: Bool = false) -> InsertStatement {
    if !plain && expressions.random.chance(0.07) {
      let conflict: InsertStatement.ConflictResolution = expressions.random.pick([.abort, .replace, .ignore])
      return InsertStatement(table: table.name, columns: [], rows: [[]], conflict: conflict)
    }
    var columns = expressions.random.sample(table.columns, count: 1...table.columns.count)
    if expressions.random.chance(0.4) {
      columns = table.columns
    } else if expressions.random.chance(0.8) {
      // Mostly give the NOT NULL columns without a default a value, so that most rows get in.
      let required = table.columns.filter { !$0.type.isNullable && $0.defaultValue == nil && table.rowidColumn != $0 }
      columns += required.filter { column in !columns.contains { $0.name == column.name } }
    }
    let names = columns.map(\.name)
    let rowCount = expressions.random.weighted([(5, 1), (3, 2), (2, 3), (1, 5)])
    var rows = (0..<rowCount).map { _ in columns.map { value(for: $0, plain: plain) } }
    if rowCount > 1, expressions.random.chance(0.4), let run = consecutiveRun(columns, rowCount) {
      for (row, value) in run.values.enumerated() { rows[row][run.position] = .literal(value) }
    }
    let conflict: InsertStatement.ConflictResolution =
      plain ? .abort : conflictPolicy()
    return InsertStatement(table: table.name, columns: names, rows: rows, conflict: conflict)
  }

  private mutating func conflictPolicy() -> InsertStatement.ConflictResolution {
    switch expressions.random.weighted([(5, 0), (2, 1), (2, 2), (3, 3), (1, 4)]) {
    case 0: .abort
    case 1: .replace
    case 2: .ignore
    case 3: upsert(doNothing: false)
    default: upsert(doNothing: true)
    }
  }

  private mutating func upsert(doNothing: Bool) -> InsertStatement.ConflictResolution {
    var targets = uniquenessKeys()
    if targets.isEmpty || expressions.random.chance(0.05) {
      targets.append([expressions.random.pick(table.columns).name])
    }
    var target = expressions.random.pick(targets)
    if expressions.random.chance(0.04) { target = [] }
    if doNothing { return .nothing(target: target) }
    expressions.allowsExcluded = true
    defer { expressions.allowsExcluded = false }
    let assigned = expressions.random.sample(table.columns, count: 1...min(3, table.columns.count))
    let assignments = assigned.map { column in
      Assignment(
        column: column.name,
        value: expressions.random.chance(0.4)
          ? .excluded(column.name) : expressions.expression(depth: expressions.random.int(0...2)))
    }
    return .update(target: target, assignments: assignments)
  }

  /// The column lists of the table's primary key, UNIQUE columns and unique indexes.
  func uniquenessKeys() -> [[String]] {
    var keys: [[String]] = []
    let primaryKey = table.primaryKeyColumns.map(\.name)
    if !primaryKey.isEmpty { keys.append(primaryKey) }
    keys += table.columns.filter { $0.isUnique && $0.primaryKey == nil }.map { [$0.name] }
    keys += table.indexes.filter(\.isUnique).map(\.columns)
    return keys
  }

  /// A value for one column of an inserted row.
  private mutating func value(for column: ColumnSchema, plain: Bool) -> SQLExpression {
    let key = table.name + "\u{0}" + column.name
    let previous = history[key] ?? []
    let choice = expressions.random.weighted([
      (55, 0), (15, 1), (previous.isEmpty ? 0 : 14, 2), (plain ? 0 : 7, 3), (plain ? 0 : 6, 4), (4, 5),
    ])
    let value: SqliteValue
    switch choice {
    case 0 where table.rowidColumn == column && expressions.random.chance(0.7):
      // A rowid alias takes integers (or NULL for a new rowid); other values mostly fail.
      value = expressions.random.chance(0.3) ? .null : .integer(NastyValues.integer(&expressions.random))
    case 0: value = NastyValues.any(&expressions.random, preferring: column.type)
    case 1: value = NastyValues.any(&expressions.random)
    case 2: value = expressions.random.pick(previous)
    case 3: return expressions.parameter(NastyValues.any(&expressions.random, preferring: column.type))
    case 4:
      let saved = expressions.mode
      expressions.mode = .constant
      defer { expressions.mode = saved }
      return expressions.expression(depth: expressions.random.int(1...2))
    default: value = .null
    }
    if previous.count < 12 { history[key, default: []].append(value) }
    return .literal(avoidingRandomRowid(value, for: column))
  }

  /// Once a rowid alias holds 9223372036854775807, SQLite picks later rowids at random (its
  /// documented fallback), which no other engine can match; with AUTOINCREMENT the next insert
  /// fails with "database or disk is full" and SQLite rolls back the whole transaction, taking
  /// the caller's savepoints with it (pinned by a regression test, but not something a
  /// `transaction { }` survives). Keep that value out of rowid aliases.
  private func avoidingRandomRowid(_ value: SqliteValue, for column: ColumnSchema) -> SqliteValue {
    guard table.rowidColumn == column else { return value }
    // Stay far enough below the maximum that later automatic rowids cannot reach it either.
    switch value {
    case .integer(let key) where key > .max - 1_000_000: return .integer(key - 1_000_000)
    case .text(let text) where text.trimmingCharacters(in: .whitespaces).hasPrefix("922337203685477"):
      return .text("9223372036854000000")
    default: return value
    }
  }

  /// Consecutive integers, shuffled, for one of `columns` that must be unique: rows whose rowid
  /// order is not their value order, for UPDATEs that shift the values.
  private mutating func consecutiveRun(_ columns: [ColumnSchema], _ count: Int) -> (position: Int, values: [SqliteValue])? {
    let candidates = table.uniqueIntegerColumns.compactMap { column in columns.firstIndex(of: column) }
    guard !candidates.isEmpty else { return nil }
    let position = expressions.random.pick(candidates)
    let column = columns[position]
    let key = table.name + "\u{0}" + column.name
    let known = (history[key] ?? []).compactMap { value -> Int64? in
      if case .integer(let n) = value, n < 1_000_000, n > -1_000_000 { return n }
      return nil
    }
    let start = (known.max() ?? Int64(expressions.random.int(-2...3))) + Int64(expressions.random.int(0...1))
    var values = (0..<Int64(count)).map { SqliteValue.integer(start + $0) }
    values.shuffle(using: &expressions.random)
    for value in values where (history[key]?.count ?? 0) < 12 { history[key, default: []].append(value) }
    return (position, values)
  }

  // MARK: - UPDATE and DELETE

  /// An update of 1–3 columns, usually filtered; sometimes one that shifts a unique column's
  /// values or fails on some rows, whose answer depends on the order SQLite visits rows in.
  mutating func update() -> UpdateStatement {
    expressions.knownValues = knownValues
    if expressions.random.chance(0.12), let shifted = uniqueShift() { return shifted }
    let assigned = expressions.random.sample(table.columns, count: 1...min(3, table.columns.count))
    var assignments = assigned.map { column -> Assignment in
      let key = table.name + "\u{0}" + column.name
      let value: SQLExpression
      if let previous = history[key], !previous.isEmpty, expressions.random.chance(0.2) {
        value = .literal(avoidingRandomRowid(expressions.random.pick(previous), for: column))
      } else if expressions.random.chance(0.3) {
        value = .literal(
          avoidingRandomRowid(NastyValues.any(&expressions.random, preferring: column.type), for: column))
      } else {
        value = expressions.expression(depth: expressions.random.int(0...2))
      }
      return Assignment(column: column.name, value: value)
    }
    if expressions.random.chance(0.12) {
      // A value that fails on some rows: which error comes first depends on the visiting order.
      let column = expressions.random.pick(table.columns).name
      assignments.removeAll { $0.column == column }
      assignments.append(Assignment(column: column, value: expressions.overflowHazard()))
    }
    return UpdateStatement(table: table.name, assignments: assignments, filter: writeFilter(0.8))
  }

  /// `SET u = u + d` over a column that must be unique, filtered by a term SQLite may answer
  /// through an index (whose order decides whether a transient duplicate appears), by a
  /// plan-dependent filter, or not at all.
  private mutating func uniqueShift() -> UpdateStatement? {
    guard !table.uniqueIntegerColumns.isEmpty else { return nil }
    let column = expressions.random.pick(table.uniqueIntegerColumns).name
    let step = SQLExpression.literal(.integer(expressions.random.pick([1, 1, -1, 2])))
    var assignments = [Assignment(column: column, value: .binary(.add, .column(column), step))]
    if expressions.random.chance(0.3) {
      let other = expressions.random.pick(table.columns).name
      if other != column { assignments.append(Assignment(column: other, value: expressions.expression(depth: 1))) }
    }
    let filter: SQLExpression? =
      switch expressions.random.weighted([(4, 0), (2, 1), (2, 2)]) {
      case 0: expressions.seekableTerm()
      case 1: expressions.plannedFilter()
      default: nil
      }
    return UpdateStatement(table: table.name, assignments: assignments, filter: filter)
  }

  /// A delete, usually filtered.
  mutating func delete() -> DeleteStatement {
    expressions.knownValues = knownValues
    return DeleteStatement(table: table.name, filter: writeFilter(0.85))
  }

  /// A write's filter (present with probability `rate`): sometimes one whose answer depends on
  /// the plan.
  private mutating func writeFilter(_ rate: Double) -> SQLExpression? {
    guard expressions.random.chance(rate) else { return nil }
    if expressions.random.chance(0.25) { return expressions.plannedFilter() }
    return expressions.predicate(depth: expressions.random.int(0...2))
  }
}
