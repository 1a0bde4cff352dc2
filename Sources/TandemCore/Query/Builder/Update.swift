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

  init() {}

  /// The column's current value (for expressions such as `$0.stock + 1`).
  public subscript<Value>(dynamicMember keyPath: KeyPath<Root.Columns, ColumnExpression<Value>>) -> ColumnExpression<Value> {
    Root.columns[keyPath: keyPath]
  }

  /// `SET column = value` (bound).
  public mutating func set<Value>(_ column: KeyPath<Root.Columns, ColumnExpression<Value>>, to value: Value) {
    assign(Root.columns[keyPath: column].name, .literal(value.sqliteValue))
  }

  /// `SET column = expression`.
  public mutating func set<Value, E: QueryExpression>(_ column: KeyPath<Root.Columns, ColumnExpression<Value>>, to value: E)
  where E.QueryValue == Value {
    assign(Root.columns[keyPath: column].name, value.expression)
  }

  /// `SET column = value` for a column stored through a representation.
  public mutating func set<Value: ColumnRepresentation>(
    _ column: KeyPath<Root.Columns, ColumnExpression<Value>>, to value: Value.Represented
  ) {
    assign(Root.columns[keyPath: column].name, .literal(Value(value).sqliteValue))
  }

  private mutating func assign(_ column: String, _ value: SQLExpression) {
    assignments.removeAll { $0.column == column }
    assignments.append(Assignment(column: column, value: value))
  }
}

extension Select {
  /// An UPDATE of the rows this query selects (its WHERE clause; order and limit are ignored).
  ///
  /// ```swift
  /// let statement = Reminder.where { $0.isCompleted }.update { $0.set(\.title, to: "done") }
  /// ```
  public func update(_ assignments: (inout Updates<Root>) -> Void) -> UpdateStatement {
    var updates = Updates<Root>()
    assignments(&updates)
    return UpdateStatement(table: Root.tableName, assignments: updates.assignments, filter: base.filter)
  }

  /// A DELETE of the rows this query selects (its WHERE clause).
  public var deleteStatement: DeleteStatement {
    DeleteStatement(table: Root.tableName, filter: base.filter)
  }
}
