import TandemCore

/// An index (or the rowid b-tree) as SQLite's planner sees it: its columns and the estimates it
/// makes without `ANALYZE` data (`sqlite3DefaultRowEst`, `estimateIndexWidth`).
struct IndexProbe: Sendable {
  /// The index's position in the table's index list; `nil` for the rowid b-tree.
  let position: Int?
  /// The table columns of the index, then -1 for the rowid that ends every index entry. The
  /// rowid alias column appears as itself (SQLite's `aiColumn`).
  let columns: [Int]
  /// The number of key columns (without the trailing rowid).
  let keyCount: Int
  /// Whether the index enforces uniqueness.
  let isUnique: Bool
  /// Unique, with every key column NOT NULL (SQLite's `uniqNotNull`).
  let isUniqueNotNull: Bool
  /// The index of a PRIMARY KEY constraint.
  let isPrimaryKey: Bool
  /// The estimated number of rows for a prefix of 0, 1, 2… equal columns (`aiRowLogEst`).
  let rowEstimates: [LogEst]
  /// The estimated size of an index entry (`szIdxRow`).
  let entrySize: LogEst
  /// The table columns the index does not hold (`colNotIdxed`); bit 63 stands for columns 63
  /// and above, and is always set.
  let columnsNotIndexed: UInt64
  /// The index's name.
  let name: String

  /// Whether this is the rowid b-tree.
  var isRowid: Bool { position == nil }

  /// The column at `position` of the index, as a column reference: -1 for the rowid or its alias.
  func column(at index: Int, in table: TableDefinition) -> Int {
    let column = columns[index]
    return column == table.rowidColumn ? -1 : column
  }

  /// The rowid b-tree as a one-column index on the rowid.
  static func rowid(_ table: TableDefinition, statistics: TableStatistics) -> IndexProbe {
    IndexProbe(
      position: nil, columns: [-1], keyCount: 1, isUnique: true, isUniqueNotNull: true, isPrimaryKey: false,
      rowEstimates: [statistics.rowEstimate, 0], entrySize: statistics.rowSize, columnsNotIndexed: 0, name: "")
  }

  /// The index at `position` of the table's index list.
  static func index(_ position: Int, of table: TableDefinition, statistics: TableStatistics) -> IndexProbe {
    let definition = table.indexes[position]
    let keyCount = definition.columns.count
    var estimates = [LogEst](repeating: 0, count: keyCount + 2)
    estimates[0] = max(statistics.rowEstimate, 99)
    let defaults: [LogEst] = [33, 32, 30, 28, 26]
    for column in 1...keyCount { estimates[column] = column <= defaults.count ? defaults[column - 1] : 23 }
    if definition.isUnique { estimates[keyCount] = 0 }
    var width = 1
    var indexed: UInt64 = 0
    for column in definition.columns {
      width += TableStatistics.columnWidth(table, column)
      if column >= 0 && column < 63 { indexed |= UInt64(1) << UInt64(column) }
    }
    let notNull = definition.columns.allSatisfy { $0 == table.rowidColumn || table.notNull[$0] }
    return IndexProbe(
      position: position, columns: definition.columns + [-1], keyCount: keyCount, isUnique: definition.isUnique,
      isUniqueNotNull: definition.isUnique && notNull, isPrimaryKey: definition.isPrimaryKey, rowEstimates: estimates, entrySize: LogEst(UInt64(width * 4)),
      columnsNotIndexed: ~indexed, name: definition.name)
  }
}

/// What SQLite's planner assumes about a table without `ANALYZE` data: about a million rows
/// (`nRowLogEst` 200) and a row size from the declared column types (`estimateTableWidth`).
struct TableStatistics: Sendable {
  let rowEstimate: LogEst
  let rowSize: LogEst

  init(_ table: TableDefinition) {
    rowEstimate = 200
    var width = table.rowidColumn == nil ? 1 : 0
    for column in 0..<table.columnCount { width += Self.columnWidth(table, column) }
    rowSize = LogEst(UInt64(width * 4))
  }

  /// A column's estimated size (`szEst`): 5 for TEXT and BLOB, 1 otherwise.
  static func columnWidth(_ table: TableDefinition, _ column: Int) -> Int {
    switch table.affinities[column] {
    case .text, .blob: 5
    default: 1
    }
  }

  /// The bit of a used column in SQLite's `colUsed` mask (columns past 62 share bit 63).
  static func usedBit(_ column: Int) -> UInt64 {
    column < 0 ? 0 : UInt64(1) << UInt64(min(column, 63))
  }
}
