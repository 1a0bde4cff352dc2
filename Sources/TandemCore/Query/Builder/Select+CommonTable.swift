extension Select {
  /// `WITH "table"(columns) AS (query)`: the query's rows, readable as the `@Table` type `table`
  /// by this query and the queries inside it. The table type describes the rows (its columns
  /// name the query's result columns, in order); it is never created in the database.
  ///
  /// Rows of a common table have no rowid: a query reading one is ordered by its result columns.
  ///
  /// ```swift
  /// @Table struct BusyList { let id: Int }
  /// let busy = BusyList.all.with(BusyList.self, as: WorkTask.where { !$0.isDone }.select { $0.listID })
  /// // WITH "busyLists"("id") AS (SELECT "listID" FROM "workTasks" WHERE …) SELECT "id" FROM "busyLists" ORDER BY "id"
  /// ```
  public func with<T: Table, R, O>(_ table: T.Type, as query: Select<R, O>) -> Select {
    adding(CommonTableExpression(name: T.tableName, columns: T.schema.columns.map(\.name), select: query.base), recursive: false)
  }

  /// `WITH RECURSIVE "table"(columns) AS (start UNION [ALL] step)`: the rows of `start`, then
  /// for each row found, the rows `step` finds reading `table` as that one row.
  ///
  /// ```swift
  /// @Table struct Counter { let n: Int }
  /// let upToFive = Counter.all.withRecursive(
  ///   Counter.self, start: Counter.all.select { _ in TypedExpression.constant(1) },
  ///   step: Counter.where { $0.n < 5 }.select { $0.n + 1 })
  /// ```
  public func withRecursive<T: Table, R1, O1, R2, O2>(
    _ table: T.Type, start: Select<R1, O1>, step: Select<R2, O2>, unionAll: Bool = true
  ) -> Select {
    var statement = start.base
    statement.compound.append(CompoundTerm(unionAll ? .unionAll : .union, step.base))
    return adding(
      CommonTableExpression(name: T.tableName, columns: T.schema.columns.map(\.name), select: statement), recursive: true)
  }

  private func adding(_ table: CommonTableExpression, recursive: Bool) -> Select {
    var copy = self
    var clause = base.with ?? WithClause(recursive: false, tables: [])
    clause.recursive = clause.recursive || recursive
    clause.tables.append(table)
    copy.base.with = clause
    return copy
  }
}
