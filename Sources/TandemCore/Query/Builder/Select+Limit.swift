// LIMIT and OFFSET given as named parameters, so that one prepared query pages through results.

extension Select {
  /// `LIMIT :count [OFFSET :offset]` with named parameters supplied when the query runs.
  ///
  /// ```swift
  /// let page = Reminder.order { $0.title }.limit(Parameter("size"), offset: Parameter("start"))
  /// try db.fetchAll(page, parameters: ["size": 10, "start": 20])   // LIMIT ? OFFSET ?
  /// ```
  public func limit(_ count: Parameter<Int>, offset: Parameter<Int>? = nil) -> Select {
    var copy = self
    copy.base.limit = count.expression
    copy.base.offset = offset?.expression
    return copy
  }

  /// `LIMIT count OFFSET :offset`: a fixed page size and a named parameter for where the page starts.
  ///
  /// ```swift
  /// let page = Reminder.order { $0.title }.limit(10, offset: Parameter("start"))
  /// try db.fetchAll(page, parameters: ["start": 20])
  /// ```
  public func limit(_ count: Int, offset: Parameter<Int>) -> Select {
    var copy = limit(count)
    copy.base.offset = offset.expression
    return copy
  }

  /// `LIMIT :count OFFSET offset`: a named parameter for the page size and a fixed start.
  public func limit(_ count: Parameter<Int>, offset: Int) -> Select {
    var copy = limit(count)
    copy.base.offset = .literal(.integer(Int64(offset)))
    return copy
  }
}
