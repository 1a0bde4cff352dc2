/// The assignments of an UPDATE, collected by the closure given to `update`.
///
/// Read columns through dynamic members, set them with ``set(_:to:)-(_,QueryValue)``:
///
/// ```swift
/// try db.update(Reminder.where { $0.id == 1 }) {
///   $0.set(\.title, to: "Buy milk")
///   $0.set(\.priority, to: .high)
/// }
/// try db.update(Item.all) { $0.set(\.stock, to: $0.stock + 1) }
/// ```
@dynamicMemberLookup
public struct Updates<Root: Table> {
  /// The assignments made so far, in order.
  public private(set) var assignments: [Assignment] = []
  /// The encoding failure of the first value assigned that has no stored form (`Double.nan`, a
  /// date past year 9999…), naming its table and column; `nil` when every value has one.
  public private(set) var encodingFailure: TandemError?

  init() {}

  /// The column's current value (for expressions such as `$0.stock + 1`).
  public subscript<Value>(dynamicMember keyPath: KeyPath<Root.Columns, ColumnExpression<Value>>) -> ColumnExpression<Value> {
    Root.columns[keyPath: keyPath]
  }

  /// `SET column = value` (bound).
  public mutating func set<Value>(_ column: KeyPath<Root.Columns, ColumnExpression<Value>>, to value: Value) {
    assign(value, to: Root.columns[keyPath: column].name)
  }

  /// `SET column = expression`.
  public mutating func set<Value, E: QueryExpression>(_ column: KeyPath<Root.Columns, ColumnExpression<Value>>, to value: E)
  where E.QueryValue == Value {
    assign(Root.columns[keyPath: column].name, value.expression)
  }

  /// `SET column = expression` for an optional column and an expression of its wrapped type.
  ///
  /// ```swift
  /// try db.update(Item.all) { $0.set(\.discount, to: $0.stock) }   // SET "discount" = "stock"
  /// ```
  public mutating func set<Value, E: QueryExpression>(_ column: KeyPath<Root.Columns, ColumnExpression<Value?>>, to value: E)
  where E.QueryValue == Value {
    assign(Root.columns[keyPath: column].name, value.expression)
  }

  /// `SET column = value` for a column stored through a representation.
  public mutating func set<Value: ColumnRepresentation>(
    _ column: KeyPath<Root.Columns, ColumnExpression<Value>>, to value: Value.Represented
  ) {
    assign(Value(value), to: Root.columns[keyPath: column].name)
  }

  /// Assigns a Swift value, noting the first one that has no stored form.
  private mutating func assign<Value: ColumnType>(_ value: Value, to column: String) {
    let bound = SQLExpression.bound(value, for: .column(column))
    if encodingFailure == nil, case .parameter = bound {
      do {
        try value.validateForStorage()
      } catch {
        encodingFailure = .unstorable(error, swiftType: "\(Value.self)", table: Root.tableName, column: column)
      }
    }
    assign(column, bound)
  }

  private mutating func assign(_ column: String, _ value: SQLExpression) {
    assignments.removeAll { $0.column == column }
    assignments.append(Assignment(column: column, value: value))
  }
}

extension Select {
  /// An UPDATE of the rows this query selects (its WHERE clause; order and limit are ignored).
  ///
  /// A value with no stored form becomes a placeholder that makes the statement fail with an
  /// encoding failure when it runs; ``validatedUpdate(_:)`` throws it at once.
  ///
  /// ```swift
  /// let statement = Reminder.where { $0.isCompleted }.update { $0.set(\.title, to: "done") }
  /// ```
  public func update(_ assignments: (inout Updates<Root>) -> Void) -> UpdateStatement {
    var updates = Updates<Root>()
    assignments(&updates)
    return UpdateStatement(table: Root.tableName, assignments: updates.assignments, filter: base.filter)
  }

  /// The UPDATE of the rows this query selects, or the error that keeps it from running: a
  /// ``TandemError/Kind/misuse`` when the closure sets no column, an
  /// ``TandemError/Kind/encodingFailure`` when it assigns a value with no stored form.
  ///
  /// ```swift
  /// try Reminder.all.validatedUpdate { _ in }
  /// // misuse: update of reminders sets no column
  /// ```
  public func validatedUpdate(_ assignments: (inout Updates<Root>) -> Void) throws -> UpdateStatement {
    var updates = Updates<Root>()
    assignments(&updates)
    if let failure = updates.encodingFailure { throw failure }
    guard !updates.assignments.isEmpty else { throw TandemError.misuse("update of \(Root.tableName) sets no column") }
    return UpdateStatement(table: Root.tableName, assignments: updates.assignments, filter: base.filter)
  }

  /// A DELETE of the rows this query selects (its WHERE clause).
  public var deleteStatement: DeleteStatement {
    DeleteStatement(table: Root.tableName, filter: base.filter)
  }
}
