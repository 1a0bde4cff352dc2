import CSQLite
import Foundation
import TandemCore

/// One compiled SQL statement: prepared in `init`, finalized in `deinit`.
///
/// Not `Sendable`: a statement belongs to its connection, which one thread uses at a time.
final class SQLiteStatement {
  /// The connection the statement was prepared on (kept alive until the statement is finalized).
  let connection: SQLiteConnection
  let handle: OpaquePointer
  /// The SQL text, as prepared.
  let sql: String
  /// The number of result columns.
  let resultColumnCount: Int32
  /// The number of `?` placeholders.
  let parameterCount: Int32
  /// The array ``forEachRow(_:context:_:)`` reads rows into, kept between runs so that a query
  /// run in a loop allocates none (taken out while a run uses it, so no access spans the row
  /// closure: the runtime's exclusivity check is left out).
  @exclusivity(unchecked) private var rowBuffer: [SqliteValue] = []
  /// The number of rows the last run sorted by rowids returned: the next run's first guess.
  private var lastSortedRowCount = 0
  /// Whether the last run sorted by rowids had a row out of order: the next run then reads its
  /// rows first, rather than hand some out, take them back and step the statement again.
  private var lastRunCameOutOfOrder = false

  /// Compiles `sql`, which must hold exactly one statement.
  ///
  /// `persistent` tells SQLite the statement will be reused many times (statement cache).
  init(connection: SQLiteConnection, sql: String, persistent: Bool) throws {
    let prepared = try Self.prepare(sql, on: connection, persistent: persistent)
    self.connection = connection
    self.sql = sql
    handle = prepared
    resultColumnCount = sqlite3_column_count(prepared)
    parameterCount = sqlite3_bind_parameter_count(prepared)
  }

  /// Compiles `sql` on `connection`, refusing text with no statement or more than one.
  private static func prepare(
    _ sql: String, on connection: SQLiteConnection, persistent: Bool
  ) throws -> OpaquePointer {
    var prepared: OpaquePointer?
    var hasTrailingStatement = false
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    let resultCode = sql.utf8CString.withUnsafeBufferPointer { text -> Int32 in
      guard let base = text.baseAddress else { return SQLITE_MISUSE }
      guard text.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
      var tail: UnsafePointer<CChar>?
      // `text.count` includes the terminating NUL, which SQLite is told about.
      let code = sqlite3_prepare_v3(connection.handle, base, Int32(text.count), flags, &prepared, &tail)
      if code == SQLITE_OK, let tail {
        hasTrailingStatement = containsStatement(tail)
      }
      return code
    }
    guard resultCode == SQLITE_OK else {
      sqlite3_finalize(prepared)
      try raiseSQLiteError(resultCode, connection: connection.handle, sql: sql)
    }
    guard let prepared else {
      throw TandemError.misuse("the SQL text holds no statement").with(statement: sql)
    }
    guard !hasTrailingStatement else {
      sqlite3_finalize(prepared)
      throw TandemError.misuse("the SQL text holds more than one statement").with(statement: sql)
    }
    return prepared
  }

  /// Wraps a statement SQLite has already compiled (one statement of a script).
  private init(connection: SQLiteConnection, compiled: OpaquePointer) {
    self.connection = connection
    handle = compiled
    sql = sqlite3_sql(compiled).map { String(cString: $0) } ?? ""
    resultColumnCount = sqlite3_column_count(compiled)
    parameterCount = sqlite3_bind_parameter_count(compiled)
  }

  /// Compiles the statements of `sql` one after the other, each only once the one before it has
  /// run in `body` (so that a table a statement creates exists for the next), as
  /// `sqlite3_exec` does.
  static func forEachStatement(
    in sql: String, on connection: SQLiteConnection, _ body: (SQLiteStatement) throws -> Void
  ) throws {
    try sql.utf8CString.withUnsafeBufferPointer { text in
      guard let base = text.baseAddress else { return }
      // The last element is the terminating NUL.
      let end = base + (text.count - 1)
      var cursor = base
      while cursor < end {
        var compiled: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let resultCode = sqlite3_prepare_v2(connection.handle, cursor, Int32(end - cursor), &compiled, &tail)
        guard resultCode == SQLITE_OK else {
          sqlite3_finalize(compiled)
          let rest = String(cString: cursor)
          try raiseSQLiteError(resultCode, connection: connection.handle, sql: rest)
        }
        guard let tail, tail > cursor else { return }
        cursor = tail
        // Only blanks, comments or a `;` were left: no statement.
        guard let compiled else { continue }
        try body(SQLiteStatement(connection: connection, compiled: compiled))
      }
    }
  }

  /// The names SQLite gives the result columns.
  var columnNames: [String] {
    (0..<resultColumnCount).map { column in
      sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }
  }

  /// Each parameter's name as `sqlite3_bind_parameter_name` gives it (`nil` for `?`).
  var parameterNames: [String?] {
    parameterCount == 0 ? [] : (1...parameterCount).map { index in
      sqlite3_bind_parameter_name(handle, index).map { String(cString: $0) }
    }
  }

  /// Whether the statement cannot change the database (a SELECT, or BEGIN/COMMIT and the like).
  var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Whether the rest of the SQL text after the first statement has anything but blanks and `;`.
  private static func containsStatement(_ tail: UnsafePointer<CChar>) -> Bool {
    var cursor = tail
    while cursor.pointee != 0 {
      switch UInt8(bitPattern: cursor.pointee) {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C,
        UInt8(ascii: ";"):
        cursor += 1
      default:
        return true
      }
    }
    return false
  }

  // MARK: - Running

  /// Binds `values`, steps to completion and returns the result rows; the statement is reset
  /// (bindings cleared) afterwards, whether it succeeded or failed.
  ///
  /// `context` names the table the statement writes, to read table and column names out of a
  /// constraint error message. With a `rowidSortKeyCount`, the rows are sorted by that many last
  /// columns, which are then dropped (``RenderedSQL/rowidSortKeyCount``).
  func run(
    _ values: [SqliteValue], context: ConstraintContext? = nil, rowidSortKeyCount: Int = 0
  ) throws -> [[SqliteValue]] {
    if rowidSortKeyCount > 0 {
      var rows: [[SqliteValue]] = []
      try forEachRowSortedByRowids(values, context: context, keyCount: rowidSortKeyCount) { rows.append($0) }
      return rows
    }
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    try bind(values, context: context)
    var rows: [[SqliteValue]] = []
    while true {
      let resultCode = sqlite3_step(handle)
      switch resultCode {
      case SQLITE_ROW:
        rows.append(try currentRow())
      case SQLITE_DONE:
        return rows
      default:
        try raiseSQLiteError(resultCode, connection: connection.handle, sql: sql, context: context)
      }
    }
  }

  /// Binds `values`, steps to completion and calls `body` with each result row; resets the
  /// statement (bindings cleared) afterwards.
  ///
  /// Every row is read into one array, overwritten in place for the next row when `body` kept
  /// no copy of it, so a select allocates no array per row. With a `rowidSortKeyCount`, the rows
  /// are handed out sorted by that many last columns, without them
  /// (``RenderedSQL/rowidSortKeyCount``): all read first, or, when the caller can take back the
  /// rows it was handed (`discard`), handed out as they come while they come in that order
  /// (``forEachRowInRowidOrder(_:context:keyCount:_:discard:)``).
  func forEachRow(
    _ values: [SqliteValue], context: ConstraintContext? = nil, rowidSortKeyCount: Int = 0,
    discard: (() -> Void)? = nil, _ body: ([SqliteValue]) throws -> Void
  ) throws {
    if rowidSortKeyCount > 0 {
      guard let discard, !lastRunCameOutOfOrder else {
        return try forEachRowSortedByRowids(values, context: context, keyCount: rowidSortKeyCount, body)
      }
      return try forEachRowInRowidOrder(values, context: context, keyCount: rowidSortKeyCount, body, discard: discard)
    }
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    try bind(values, context: context)
    var row = rowBuffer
    rowBuffer = []
    if row.count != Int(resultColumnCount) { row = [SqliteValue](repeating: .null, count: Int(resultColumnCount)) }
    // Kept for the next run; a body that held on to a row made this one a copy of its own.
    defer { rowBuffer = row }
    while true {
      let resultCode = sqlite3_step(handle)
      switch resultCode {
      case SQLITE_ROW:
        try readValues(into: &row)
        try body(row)
      case SQLITE_DONE:
        return
      default:
        try raiseSQLiteError(resultCode, connection: connection.handle, sql: sql, context: context)
      }
    }
  }

  /// Runs the statement once per row of `rows`, binding the row's values and then `trailing` to its
  /// placeholders, and returns the total number of rows changed (the sum of `sqlite3_changes`).
  ///
  /// Stops at the first failing row; the statement is reset (bindings cleared) afterwards.
  func runEach(_ rows: [[SqliteValue]], trailing: [SqliteValue], context: ConstraintContext?) throws -> Int {
    let width = Int(parameterCount) - trailing.count
    return try runEach(rowCount: rows.count, width: width, trailing: trailing, context: context) { row in
      guard rows[row].count == width else { return nil }
      return bindRow(rows[row], from: 0, count: width)
    }
  }

  /// ``runEach(_:trailing:context:)`` over rows stored one after another in `values`.
  func runEach(flattened values: [SqliteValue], trailing: [SqliteValue], context: ConstraintContext?) throws -> Int {
    let width = Int(parameterCount) - trailing.count
    guard width > 0, values.count.isMultiple(of: width) else {
      throw TandemError.misuse("\(values.count) values do not make rows of \(width) columns").with(statement: sql)
    }
    return try runEach(rowCount: values.count / width, width: width, trailing: trailing, context: context) { row in
      bindRow(values, from: row * width, count: width)
    }
  }

  /// Binds each row with `bindRow` (its first failing result code, or `nil` for a row of the
  /// wrong length), the trailing values once, and steps the statement once per row.
  private func runEach(
    rowCount: Int, width: Int, trailing: [SqliteValue], context: ConstraintContext?, bindRow: (Int) -> Int32?
  ) throws -> Int {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    for (offset, value) in trailing.enumerated() {
      let resultCode = bind(value, at: Int32(truncatingIfNeeded: width + offset + 1))
      if resultCode != SQLITE_OK {
        try raiseSQLiteError(resultCode, connection: connection.handle, sql: sql, context: context)
      }
    }
    var changes = 0
    for row in 0..<rowCount {
      if row > 0 { sqlite3_reset(handle) }
      guard let resultCode = bindRow(row) else {
        throw TandemError.misuse("a row's values do not match the \(width) placeholders of a row").with(statement: sql)
      }
      if resultCode != SQLITE_OK {
        try raiseSQLiteError(resultCode, connection: connection.handle, sql: sql, context: context)
      }
      var stepCode = sqlite3_step(handle)
      while stepCode == SQLITE_ROW { stepCode = sqlite3_step(handle) }
      guard stepCode == SQLITE_DONE else {
        try raiseSQLiteError(stepCode, connection: connection.handle, sql: sql, context: context)
      }
      changes += connection.changes
    }
    return changes
  }

  /// Binds `values[start..<start + count]` to placeholders 1, 2, …; returns the first failing
  /// result code, else `SQLITE_OK`.
  private func bindRow(_ values: [SqliteValue], from start: Int, count: Int) -> Int32 {
    for offset in 0..<count {
      let resultCode = bind(values[start + offset], at: Int32(truncatingIfNeeded: offset + 1))
      if resultCode != SQLITE_OK { return resultCode }
    }
    return SQLITE_OK
  }

  /// Binds one value per placeholder, in order.
  private func bind(_ values: [SqliteValue], context: ConstraintContext?) throws {
    guard values.count == Int(parameterCount) else {
      throw TandemError.misuse("\(values.count) values for \(parameterCount) placeholders").with(statement: sql)
    }
    for (offset, value) in values.enumerated() {
      let resultCode = bind(value, at: Int32(offset + 1))
      if resultCode != SQLITE_OK {
        try raiseSQLiteError(resultCode, connection: connection.handle, sql: sql, context: context)
      }
    }
  }

  private func bind(_ value: SqliteValue, at index: Int32) -> Int32 {
    switch value {
    case .null:
      return sqlite3_bind_null(handle, index)
    case .integer(let integer):
      return sqlite3_bind_int64(handle, index, integer)
    case .real(let real):
      return sqlite3_bind_double(handle, index, real)
    case .text(let text):
      var text = text
      return text.withUTF8 { bytes in
        // The byte count (not NUL termination) delimits the text, so NUL characters survive.
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
          return sqlite3_bind_text64(handle, index, "", 0, tandem_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
        return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
          sqlite3_bind_text64(
            handle, index, characters, UInt64(bytes.count), tandem_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
      }
    case .blob(let data):
      return data.withUnsafeBytes { bytes in
        // A NULL pointer would bind SQL NULL; an empty blob is a zero-length zeroblob.
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
          return sqlite3_bind_zeroblob(handle, index, 0)
        }
        return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), tandem_sqlite_transient())
      }
    }
  }

  /// Hands out the rows sorted by their last `keyCount` columns, as
  /// ``forEachRowSortedByRowids(_:context:keyCount:_:)`` does, without reading them all first
  /// while they come in that order: each row is handed out as SQLite steps it.
  ///
  /// The rows of a join whose outer loop matches one row come in rowid order, and most joins
  /// read through a foreign key do. When a row comes out of order, `discard` takes back the rows
  /// handed out and the statement runs again with every row read first and sorted, as its next
  /// run does, until one comes in order. What `body` is handed in the end, and the error it ends
  /// with, are those of the sorted run: an error of SQLite's on a later row takes back the rows
  /// too (SQLite would meet it before the first row came out of its sorter), and an error `body`
  /// throws stands only once every later row has come in order, after it.
  private func forEachRowInRowidOrder(
    _ values: [SqliteValue], context: ConstraintContext?, keyCount: Int, _ body: ([SqliteValue]) throws -> Void,
    discard: () -> Void
  ) throws {
    let cameInOrder = try forEachRowWhileInRowidOrder(
      values, context: context, keyCount: keyCount, body, discard: discard)
    if !cameInOrder {
      discard()
      try forEachRowSortedByRowids(values, context: context, keyCount: keyCount, body)
    }
  }

  /// Steps the statement and hands each row to `body` while the rows' last `keyCount` columns
  /// increase; returns `false` at the first row that does not come after the one before it.
  /// Calls `discard` before throwing an error of SQLite's once rows were handed out.
  private func forEachRowWhileInRowidOrder(
    _ values: [SqliteValue], context: ConstraintContext?, keyCount: Int, _ body: ([SqliteValue]) throws -> Void,
    discard: () -> Void
  ) throws -> Bool {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    try bind(values, context: context)
    let width = Int(resultColumnCount) - keyCount
    var row = rowBuffer
    rowBuffer = []
    if row.count != width { row = [SqliteValue](repeating: .null, count: width) }
    defer { rowBuffer = row }
    // One rowid (a join whose other sources' rows the first fixes) is kept without an array.
    var previousRowid: Int64?
    var previous = [Int64?](repeating: nil, count: keyCount == 1 ? 0 : keyCount)
    var current = previous
    var isFirst = true
    // The error `body` threw; the rows after it are still stepped, to check that none comes first.
    var failure: (any Error)?
    while true {
      let resultCode = sqlite3_step(handle)
      if resultCode == SQLITE_DONE { break }
      guard resultCode == SQLITE_ROW else {
        if !isFirst { discard() }
        try raiseSQLiteError(resultCode, connection: connection.handle, sql: sql, context: context)
      }
      if keyCount == 1 {
        let rowid = rowid(at: width)
        if !isFirst, Self.rowid(previousRowid, precedes: rowid) != true { return false }
        previousRowid = rowid
      } else {
        for key in 0..<keyCount { current[key] = rowid(at: width + key) }
        if !isFirst, !Self.keys(previous, precede: current) { return false }
        swap(&previous, &current)
      }
      do {
        try readValues(into: &row)
      } catch {
        // Out of memory: the sorted run would meet it before handing out a row.
        if !isFirst { discard() }
        throw error
      }
      if failure == nil {
        do { try body(row) } catch { failure = error }
      }
      isFirst = false
    }
    if let failure { throw failure }
    return true
  }

  /// Whether the rowids `first` come before the rowids `second` (NULL first).
  private static func keys(_ first: [Int64?], precede second: [Int64?]) -> Bool {
    for (key, other) in zip(first, second) {
      if let order = rowid(key, precedes: other) { return order }
    }
    return false
  }

  /// Whether rowid `first` comes before rowid `second` in an ORDER BY (NULL first); `nil` when
  /// they are equal.
  private static func rowid(_ first: Int64?, precedes second: Int64?) -> Bool? {
    switch (first, second) {
    case (let a?, let b?): return a == b ? nil : a < b
    case (nil, nil): return nil
    case (nil, _?): return true
    case (_?, nil): return false
    }
  }

  /// Steps to completion, then hands out the rows sorted by their last `keyCount` columns — the
  /// rowids of a join's sources: integers, or NULL for a LEFT JOIN's missing row, NULL first as
  /// in SQLite's ORDER BY — without those columns.
  ///
  /// The values are read into one flat array and the rowids into another, and a list of row
  /// numbers is sorted, unless the rows came in order (a join whose outer loop matched one row
  /// does): no array per row. A join's rows differ in at least one rowid, so no two compare
  /// equal and the order is the one SQLite's sorter would give. Each value is moved, not copied,
  /// from the flat array into the row handed out. The arrays start at the size of the last run.
  private func forEachRowSortedByRowids(
    _ values: [SqliteValue], context: ConstraintContext?, keyCount: Int, _ body: ([SqliteValue]) throws -> Void
  ) throws {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    try bind(values, context: context)
    let columns = Int(resultColumnCount)
    let width = columns - keyCount
    var cells: [SqliteValue] = []
    var keys: [Int64?] = []
    let expectedRows = min(lastSortedRowCount, Self.rowsReservedAtMost)
    cells.reserveCapacity(expectedRows * width)
    keys.reserveCapacity(expectedRows * keyCount)
    var rowCount = 0
    var isInOrder = true
    while true {
      let resultCode = sqlite3_step(handle)
      if resultCode == SQLITE_DONE { break }
      guard resultCode == SQLITE_ROW else {
        try raiseSQLiteError(resultCode, connection: connection.handle, sql: sql, context: context)
      }
      for column in 0..<width { cells.append(try value(at: Int32(truncatingIfNeeded: column))) }
      for column in width..<columns { keys.append(rowid(at: column)) }
      if isInOrder, rowCount > 0 {
        isInOrder = Self.keys(keys, row: rowCount - 1, precede: rowCount, keyCount: keyCount)
      }
      rowCount += 1
    }
    lastSortedRowCount = rowCount
    lastRunCameOutOfOrder = !isInOrder
    var order = Array(0..<rowCount)
    if !isInOrder {
      order.sort { first, second in Self.keys(keys, row: first, precede: second, keyCount: keyCount) }
    }
    var row = [SqliteValue](repeating: .null, count: width)
    for index in order {
      let start = index * width
      for column in 0..<width { swap(&row[column], &cells[start + column]) }
      try body(row)
    }
  }

  /// The most rows ``forEachRowSortedByRowids(_:context:keyCount:_:)`` reserves room for before
  /// it reads them (the arrays grow past it as needed): one large result does not make every
  /// later run of the statement start large.
  private static let rowsReservedAtMost = 4096

  /// Whether the rowids of row `first` come before those of row `second` (NULL first).
  private static func keys(_ keys: [Int64?], row first: Int, precede second: Int, keyCount: Int) -> Bool {
    var key = first * keyCount
    var other = second * keyCount
    for _ in 0..<keyCount {
      if let order = rowid(keys[key], precedes: keys[other]) { return order }
      key += 1
      other += 1
    }
    return false
  }

  /// The values of the current result row, each in the storage class SQLite reports.
  private func currentRow() throws -> [SqliteValue] {
    var row: [SqliteValue] = []
    row.reserveCapacity(Int(resultColumnCount))
    for column in 0..<resultColumnCount {
      row.append(try value(at: column))
    }
    return row
  }

  /// Reads the current row's first `row.count` values into `row`, in place.
  private func readValues(into row: inout [SqliteValue]) throws {
    try row.withUnsafeMutableBufferPointer { row in
      for column in row.indices { row[column] = try value(at: Int32(truncatingIfNeeded: column)) }
    }
  }

  /// The rowid in the current row's `column`: an integer, or `nil` for a LEFT JOIN's missing row.
  private func rowid(at column: Int) -> Int64? {
    let value = sqlite3_column_value(handle, Int32(truncatingIfNeeded: column))
    return sqlite3_value_type(value) == SQLITE_NULL ? nil : sqlite3_value_int64(value)
  }

  private func value(at column: Int32) throws -> SqliteValue {
    // One lookup of the column's value, then cheap reads of its type and contents. The value is
    // "unprotected" in SQLite's terms, which matters only for connections shared between
    // threads under SQLite's mutex; this one is used by one thread at a time (NOMUTEX).
    let columnValue = sqlite3_column_value(handle, column)
    switch sqlite3_value_type(columnValue) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_value_int64(columnValue))
    case SQLITE_FLOAT:
      return .real(sqlite3_value_double(columnValue))
    case SQLITE_TEXT:
      // Pointer first, then the byte count (SQLite's documented order).
      // A NULL pointer for a TEXT value means SQLite ran out of memory converting it.
      guard let text = sqlite3_value_text(columnValue) else {
        try raiseSQLiteError(SQLITE_NOMEM, connection: connection.handle, sql: sql)
      }
      let count = Int(sqlite3_value_bytes(columnValue))
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let bytes = sqlite3_value_blob(columnValue)
      let count = Int(sqlite3_value_bytes(columnValue))
      // An empty blob has no pointer; a missing pointer for a non-empty one means out of memory.
      guard let bytes else {
        if count == 0 { return .blob(Data()) }
        try raiseSQLiteError(SQLITE_NOMEM, connection: connection.handle, sql: sql)
      }
      return .blob(Data(bytes: bytes, count: count))
    default:
      return .null
    }
  }
}
