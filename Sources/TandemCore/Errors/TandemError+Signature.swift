extension TandemError {
  /// The parts of an error every engine must report alike — kind, constraint, table, columns,
  /// message and SQLite code — and not the statement text, which each engine writes its own way.
  /// Tandem mode, the fuzzers and the conformance tests compare errors by it.
  ///
  /// ```swift
  /// TandemError.Signature(sqliteError) == TandemError.Signature(memoryError)
  /// ```
  public struct Signature: Hashable, Sendable, CustomStringConvertible {
    /// The error's kind; `nil` for an error that is not a ``TandemError``.
    public var kind: Kind?
    public var constraint: Constraint?
    public var table: String?
    public var columns: [String]
    public var message: String
    public var sqliteCode: Int32?

    public init(
      kind: Kind?, constraint: Constraint? = nil, table: String? = nil, columns: [String] = [], message: String,
      sqliteCode: Int32? = nil
    ) {
      self.kind = kind
      self.constraint = constraint
      self.table = table
      self.columns = columns
      self.message = message
      self.sqliteCode = sqliteCode
    }

    /// The signature of any error (one that is not a ``TandemError`` has no kind, and its
    /// description for a message).
    public init(_ error: any Error) {
      guard let error = error as? TandemError else {
        self.init(kind: nil, message: "\(type(of: error)): \(error)")
        return
      }
      self.init(
        kind: error.kind, constraint: error.constraint, table: error.table, columns: error.columns,
        message: error.message, sqliteCode: error.sqliteCode)
    }

    /// The same without table and columns, which errors of SQL text do not name.
    public var withoutNames: Signature {
      Signature(kind: kind, constraint: constraint, message: message, sqliteCode: sqliteCode)
    }

    public var description: String {
      var text = kind.map(String.init(describing:)) ?? "non-Tandem error"
      if let constraint { text += " (\(constraint))" }
      if let table { text += " table: \(table)" }
      if !columns.isEmpty { text += " columns: \(columns)" }
      if let sqliteCode { text += " code: \(sqliteCode)" }
      return text + " message: \"\(message)\""
    }
  }

  /// The parts of this error every engine must report alike.
  public var signature: Signature { Signature(self) }
}
