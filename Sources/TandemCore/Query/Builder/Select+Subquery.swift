extension Select {
  /// `EXISTS (SELECT …)`: whether the query returns a row. Negate it with `!`.
  ///
  /// ```swift
  /// RemindersList.where { list in Reminder.where { $0.listID == list.id && $0.priority == .high }.exists() }
  /// // WHERE EXISTS (SELECT … FROM "reminders" WHERE (("listID" = "remindersLists"."id") AND …))
  /// ```
  public func exists() -> TypedExpression<Bool> {
    TypedExpression(.exists(base, negated: false))
  }
}

extension QueryExpression where QueryValue: ColumnType, QueryValue._QueryEquality: _EqualityMatchesSwift {
  /// `expr IN (SELECT …)`: whether the value is among the query's one result column.
  ///
  /// ```swift
  /// Reminder.where { $0.listID.in(RemindersList.where { $0.isArchived }.select { $0.id }) }
  /// // WHERE ("listID" IN (SELECT "id" FROM "remindersLists" WHERE "isArchived"))
  /// ```
  public func `in`<Root>(_ query: Select<Root, QueryValue>) -> TypedExpression<Bool> {
    TypedExpression(.inSubquery(expression, query.base, negated: false))
  }

  /// `expr NOT IN (SELECT …)`: true when the value is not among the query's results (NULL when
  /// it is not but the results hold a NULL).
  public func notIn<Root>(_ query: Select<Root, QueryValue>) -> TypedExpression<Bool> {
    TypedExpression(.inSubquery(expression, query.base, negated: true))
  }
}

extension QueryExpression
where
  QueryValue: _OptionalQueryValue & ColumnType, QueryValue._Wrapped: ColumnType,
  QueryValue._QueryEquality: _EqualityMatchesSwift
{
  /// `expr IN (SELECT …)` for an optional value and a query of the wrapped type (a nullable
  /// foreign key against the parent's keys).
  ///
  /// ```swift
  /// Reminder.where { $0.listID.in(RemindersList.where { $0.isArchived }.select { $0.id }) }  // listID: Int?
  /// ```
  public func `in`<Root>(_ query: Select<Root, QueryValue._Wrapped>) -> TypedExpression<Bool> {
    TypedExpression(.inSubquery(expression, query.base, negated: false))
  }

  /// `expr NOT IN (SELECT …)` for an optional value and a query of the wrapped type.
  public func notIn<Root>(_ query: Select<Root, QueryValue._Wrapped>) -> TypedExpression<Bool> {
    TypedExpression(.inSubquery(expression, query.base, negated: true))
  }
}
