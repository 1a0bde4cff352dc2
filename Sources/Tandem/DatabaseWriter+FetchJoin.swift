import TandemCore

extension DatabaseWriter {
  /// Every row of a join, as a tuple of its sources' records (optional for the right side of a
  /// `leftJoin`): the join with `select { ($0, $1) }` implied.
  ///
  /// ```swift
  /// let pairs = try db.fetchAll(WorkTask.join(WorkList.self) { $0.listID == $1.id })    // [(WorkTask, WorkList)]
  /// let lists = try db.fetchAll(WorkList.leftJoin(WorkTask.self) { $0.id == $1.listID })  // [(WorkList, WorkTask?)]
  /// ```
  @inlinable
  public func fetchAll<First, each Source: ResultSelection>(
    _ query: JoinSelect<First, (repeat each Source)>, parameters: [String: SqliteValue] = [:]
  ) throws -> [(repeat (each Source).Decoded)] {
    try fetchAll(query.selectingSources(), parameters: parameters)
  }

  /// The first row of a join, as a tuple of its sources' records, or `nil`.
  ///
  /// ```swift
  /// let first = try db.fetchOne(WorkTask.join(WorkList.self) { $0.listID == $1.id })   // (WorkTask, WorkList)?
  /// ```
  @inlinable
  public func fetchOne<First, each Source: ResultSelection>(
    _ query: JoinSelect<First, (repeat each Source)>, parameters: [String: SqliteValue] = [:]
  ) throws -> (repeat (each Source).Decoded)? {
    try fetchOne(query.selectingSources(), parameters: parameters)
  }

  /// The number of rows of a join: exactly as many as ``fetchAll(_:parameters:)-(JoinSelect<First,(repeat each Source)>,_)``
  /// returns, and the same error where it fails.
  ///
  /// ```swift
  /// let n = try db.fetchCount(WorkTask.join(WorkList.self) { $0.listID == $1.id }.where { _, l in l.name == "Home" })
  /// ```
  public func fetchCount<First, each Source: ResultSelection>(
    _ query: JoinSelect<First, (repeat each Source)>, parameters: [String: SqliteValue] = [:]
  ) throws -> Int {
    try fetchCount(query.selectingSources(), parameters: parameters)
  }
}
