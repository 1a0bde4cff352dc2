/// How a query carries a Swift value that has no stored form (`Double.nan`, a date past year
/// 9999, a `Decimal` with more fraction digits than its column keeps) until it runs.
///
/// Operators cannot throw, and comparing with such a value would compare with something else
/// (`NULL`, a rounded number), so the value becomes a named parameter no caller can supply: the
/// statement fails on every engine before touching a row, and the facade reports that failure as
/// the ``TandemError/Kind/encodingFailure`` it stands for.
///
/// ```swift
/// let query = Item.where { $0.price > .nan }
/// try db.fetchAll(query)
/// // encoding failure: cannot store Double in column items.price: NaN has no stored form: …
/// ```
public enum UnstorableValue {
  /// Starts the name of every placeholder; no parameter of a caller's starts with it.
  static let prefix = "tandem.unstorable\u{1F}"
  static let separator: Character = "\u{1F}"

  /// The placeholder for a value whose ``ColumnType/validateForStorage()`` threw `error`.
  static func placeholder(_ error: any Error, swiftType: String, column: String?) -> SQLExpression {
    let failure = TandemError.unstorable(error, swiftType: swiftType, table: nil, column: column)
    let reason = failure.reason ?? failure.message
    return .parameter(prefix + (failure.swiftType ?? swiftType) + "\u{1F}" + reason + "\u{1F}" + (column ?? ""))
  }

  /// The encoding failure a placeholder stands for, when `error` is the missing-value error of
  /// one; `error` itself otherwise.
  ///
  /// ```swift
  /// catch { throw UnstorableValue.resolve(error, table: statement.table) }
  /// ```
  public static func resolve(_ error: any Error, table: String?) -> any Error {
    guard let error = error as? TandemError, error.kind == .misuse,
      let start = error.message.range(of: ":" + prefix)
    else { return error }
    let fields = error.message[start.upperBound...].split(separator: separator, maxSplits: 2, omittingEmptySubsequences: false)
    guard fields.count == 3 else { return error }
    return TandemError.encodingFailure(
      table: table, column: fields[2].isEmpty ? nil : String(fields[2]), swiftType: String(fields[0]),
      reason: String(fields[1]))
  }
}

extension SQLExpression {
  /// `value` as a bound literal or, when it has no stored form, a placeholder that fails the
  /// statement with an encoding failure naming `target`'s column.
  ///
  /// ```swift
  /// SQLExpression.bound(3, for: .column("stock"))         // .literal(.integer(3))
  /// SQLExpression.bound(Double.nan, for: .column("price")) // a placeholder: fails when run
  /// ```
  public static func bound<V: ColumnType>(_ value: V, for target: SQLExpression? = nil) -> SQLExpression {
    do {
      try value.validateForStorage()
    } catch {
      var column: String?
      if case .column(let name)? = target { column = name }
      if case .qualifiedColumn(_, let name)? = target { column = name }
      return UnstorableValue.placeholder(error, swiftType: "\(V.self)", column: column)
    }
    return .literal(value.sqliteValue)
  }
}
