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

extension Select where Output: ColumnType {
  /// `(SELECT …)` as a value: the query's one result column in its first row (in the query's
  /// deterministic order), `nil` when it returns no row.
  ///
  /// ```swift
  /// Invoice.where { invoice in
  ///   invoice.total > Invoice.where { $0.customerID == invoice.customerID }.select { $0.total.avg() }.value()
  /// }
  /// // WHERE ("total" > (SELECT avg("total") FROM "invoices" AS "invoices_2" WHERE …))
  /// ```
  public func value() -> TypedExpression<Output?> {
    TypedExpression(.subquery(statement))
  }
}

extension Select where Output: ColumnType & _OptionalQueryValue {
  /// `(SELECT …)` as a value, for a query whose column is already optional: `nil` when it returns
  /// no row or its value is NULL.
  ///
  /// ```swift
  /// RemindersList.all.select { list in Reminder.where { $0.listID == list.id }.select { $0.dueDate.max() }.value() }
  /// ```
  public func value() -> TypedExpression<Output> {
    TypedExpression(.subquery(statement))
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
