/// The one error type both engines throw.
///
/// It is a struct over a private code so that new kinds can be added without breaking a `switch`;
/// match on ``kind`` and read the fields that kind fills.
///
/// ```swift
/// do {
///   try db.insert(Reminder(id: 1, title: "Milk"))
/// } catch let error as TandemError where error.kind == .constraintViolation {
///   print(error.constraint, error.table, error.columns)  // unique reminders ["id"]
/// }
/// ```
public struct TandemError: Error, Sendable, Hashable {
  /// The broad category of an error.
  public struct Kind: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Code: Hashable {
      case decoding, encoding, constraint, sqlite, schemaMismatch, unsupported, misuse, divergence
    }
    fileprivate let code: Code

    /// A stored value could not be decoded into the requested Swift type.
    public static let decodingFailure = Kind(code: .decoding)
    /// A Swift value has no stored form that reads back (`Double.nan`, a date past year 9999…);
    /// nothing was written.
    public static let encodingFailure = Kind(code: .encoding)
    /// A constraint (unique, not null, primary key, check, foreign key) rejected a write.
    public static let constraintViolation = Kind(code: .constraint)
    /// SQLite reported an error that has no more specific kind.
    public static let sqlite = Kind(code: .sqlite)
    /// The database's tables do not match the schema the code declares.
    public static let schemaMismatch = Kind(code: .schemaMismatch)
    /// The query uses something a backend cannot do exactly as SQLite does.
    public static let unsupported = Kind(code: .unsupported)
    /// The API was used incorrectly (for example a missing parameter value).
    public static let misuse = Kind(code: .misuse)
    /// In tandem mode, the two engines answered differently.
    public static let divergence = Kind(code: .divergence)

    public var description: String {
      switch code {
      case .decoding: "decoding failure"
      case .encoding: "encoding failure"
      case .constraint: "constraint violation"
      case .sqlite: "SQLite error"
      case .schemaMismatch: "schema mismatch"
      case .unsupported: "unsupported"
      case .misuse: "misuse"
      case .divergence: "divergence"
      }
    }
  }

  /// Which constraint a ``Kind/constraintViolation`` broke.
  public enum Constraint: String, Sendable, Hashable {
    case unique, notNull, primaryKey, check, foreignKey
    /// A STRICT table refused a value of the wrong type, or a rowid alias a non-integer.
    case datatype
  }

  /// The error's category.
  public let kind: Kind
  /// A human-readable explanation, as specific as the engine can make it.
  public internal(set) var message: String
  /// The table involved, when known.
  public var table: String?
  /// The columns involved, when known.
  public var columns: [String] = []
  /// For a constraint violation, which constraint.
  public var constraint: Constraint?
  /// For a decoding failure, the stored value that did not decode (never part of ``message`` or
  /// ``description``).
  public var value: SqliteValue?
  /// For a decoding failure while fetching, the position of the row in the result (0 for the
  /// first row).
  public var rowIndex: Int?
  /// For a decoding failure while fetching records, the primary key values of the row, in column
  /// order (never part of ``message`` or ``description``, except the rowid of an
  /// `INTEGER PRIMARY KEY`); `nil` when the table has none or the result is a projection.
  public var primaryKey: [SqliteValue]?
  /// For a decoding failure, the Swift type that was requested; for an encoding failure, the
  /// Swift type whose value could not be stored.
  public var swiftType: String?
  /// For a SQLite error, its primary result code.
  public var sqliteCode: Int32?
  /// The statement (SQL text, or a description of the query) that failed, when known.
  public var statement: String?
  /// For an unsupported feature, the backend that refused it.
  public var backend: String?
  /// For an encoding failure, what is wrong with the value (kept to name another column later).
  var reason: String?

  init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  /// A stored value that the Swift type cannot represent. The message names the value's storage
  /// class, not the value, which only ``value`` holds.
  ///
  /// ```swift
  /// TandemError.decodingFailure(table: "reminders", column: "priority", value: .integer(9), swiftType: "Priority")
  /// // message: cannot decode Priority from an integer value in column reminders.priority
  /// ```
  public static func decodingFailure(table: String?, column: String, value: SqliteValue, swiftType: String) -> TandemError {
    let storageClass = value.storageClass
    let article = storageClass == "integer" ? "an" : "a"
    var error = TandemError(
      kind: .decodingFailure,
      message: "cannot decode \(swiftType) from \(article) \(storageClass) value in column \(table.map { "\($0)." } ?? "")\(column)")
    error.table = table
    error.columns = [column]
    error.value = value
    error.swiftType = swiftType
    return error
  }

  /// A Swift value that has no stored form Tandem can read back, so it is not written.
  ///
  /// The value itself stays out of the message; `reason` says what is wrong with it.
  ///
  /// ```swift
  /// TandemError.encodingFailure(table: "events", column: "startsAt", swiftType: "Date",
  ///   reason: "its year is outside 0000-9999")
  /// // encoding failure: cannot store Date in column events.startsAt: its year is outside 0000-9999
  /// ```
  public static func encodingFailure(table: String?, column: String?, swiftType: String, reason: String) -> TandemError {
    let place = column.map { " in column \(table.map { "\($0)." } ?? "")\($0)" } ?? table.map { " in a statement on \($0)" } ?? ""
    var error = TandemError(kind: .encodingFailure, message: "cannot store \(swiftType)\(place): \(reason)")
    error.table = table
    error.columns = column.map { [$0] } ?? []
    error.swiftType = swiftType
    error.reason = reason
    return error
  }

  /// The encoding failure a value of `swiftType` reported from
  /// ``ColumnType/validateForStorage()``, naming the table and column it was meant for.
  ///
  /// ```swift
  /// TandemError.unstorable(error, swiftType: "Date", table: "events", column: "startsAt")
  /// ```
  public static func unstorable(_ error: any Error, swiftType: String, table: String?, column: String?) -> TandemError {
    if let error = error as? TandemError, error.kind == .encodingFailure {
      return .encodingFailure(
        table: table ?? error.table, column: column ?? error.columns.first, swiftType: error.swiftType ?? swiftType,
        reason: error.reason ?? error.message)
    }
    return .encodingFailure(table: table, column: column, swiftType: swiftType, reason: "\(error)")
  }

  /// A write rejected by a constraint.
  public static func constraintViolation(
    _ constraint: Constraint, table: String?, columns: [String], message: String
  ) -> TandemError {
    var error = TandemError(kind: .constraintViolation, message: message)
    error.constraint = constraint
    error.table = table
    error.columns = columns
    return error
  }

  /// An error reported by SQLite, with its result code, message and SQL.
  public static func sqlite(code: Int32, message: String, sql: String?) -> TandemError {
    var error = TandemError(kind: .sqlite, message: message)
    error.sqliteCode = code
    error.statement = sql
    return error
  }

  /// The database does not match the declared schema.
  public static func schemaMismatch(table: String?, message: String) -> TandemError {
    var error = TandemError(kind: .schemaMismatch, message: message)
    error.table = table
    return error
  }

  /// A feature a backend cannot reproduce exactly.
  public static func unsupported(_ feature: String, backend: String) -> TandemError {
    var error = TandemError(kind: .unsupported, message: "\(feature) is not supported by the \(backend) backend")
    error.backend = backend
    return error
  }

  /// The API was used in a way it cannot serve.
  public static func misuse(_ message: String) -> TandemError {
    TandemError(kind: .misuse, message: message)
  }

  /// The two engines of a tandem database disagreed.
  public static func divergence(statement: String, message: String) -> TandemError {
    var error = TandemError(kind: .divergence, message: message)
    error.statement = statement
    return error
  }

  /// A decoding failure of the row at `index` of a result, naming it: its position, and for a
  /// record (`values` in the columns of `recordSchema`) its primary key, in ``primaryKey`` — in
  /// the message only when it is the rowid (`INTEGER PRIMARY KEY`). Any other error, or one that
  /// names its row already, is returned as it is.
  ///
  /// ```swift
  /// error.inResult(row: 2, values: row, recordSchema: Item.schema).message
  /// // cannot decode Int from a text value in column items.stock (result row 2, rowid 17)
  /// ```
  package func inResult(row index: Int, values: [SqliteValue], recordSchema: TableSchema?) -> TandemError {
    guard kind == .decodingFailure, rowIndex == nil else { return self }
    var key: [SqliteValue]?
    var place = "result row \(index)"
    if let schema = recordSchema, values.count == schema.columns.count {
      let positions = schema.columns.indices.filter { schema.columns[$0].primaryKey != nil }
      if !positions.isEmpty { key = positions.map { values[$0] } }
      if let rowid = schema.rowidColumn, let position = schema.columnIndex(named: rowid.name),
        case .integer(let number) = values[position]
      {
        place += ", rowid \(number)"
      }
    }
    var located = self
    located.message = "\(message) (\(place))"
    located.rowIndex = index
    located.primaryKey = key
    return located
  }

  /// A copy naming the statement that failed.
  public func with(statement: String) -> TandemError {
    var copy = self
    if copy.statement == nil { copy.statement = statement }
    return copy
  }
}

extension TandemError: CustomStringConvertible {
  public var description: String {
    var text = "\(kind): \(message)"
    if let statement, kind != .divergence { text += " (statement: \(statement))" }
    return text
  }
}
