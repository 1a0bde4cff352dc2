extension Select {
  /// `… UNION …`: the distinct rows of either query, ordered by their result columns.
  ///
  /// Both queries return the same Swift type. ORDER BY, LIMIT and OFFSET belong to the whole
  /// compound: a query with its own ORDER BY or LIMIT cannot be a member (it fails with
  /// ``TandemError/Kind/misuse``), and `limit` after `union` limits the compound.
  ///
  /// ```swift
  /// let names = WorkList.all.select { $0.name }.union(WorkTask.all.select { $0.title })
  /// // SELECT "name" FROM "workLists" UNION SELECT "title" FROM "workTasks" ORDER BY 1 ASC
  /// ```
  public func union<Other>(_ other: Select<Other, Output>) -> Select { combined(.union, other) }

  /// `… UNION ALL …`: every row of both queries, ordered by their result columns.
  public func unionAll<Other>(_ other: Select<Other, Output>) -> Select { combined(.unionAll, other) }

  /// `… INTERSECT …`: the distinct rows of this query that the other returns too.
  public func intersect<Other>(_ other: Select<Other, Output>) -> Select { combined(.intersect, other) }

  /// `… EXCEPT …`: the distinct rows of this query that the other does not return.
  public func except<Other>(_ other: Select<Other, Output>) -> Select { combined(.except, other) }

  private func combined<Other>(_ operator: CompoundTerm.Operator, _ other: Select<Other, Output>) -> Select {
    var copy = self
    copy.base.compound.append(CompoundTerm(`operator`, other.base))
    return copy
  }
}
