import TandemCore

/// Compiled plans shared by every memory database in the process, keyed by the schema
/// fingerprint (``Catalog/fingerprint``) and the statement.
///
/// Plans are immutable and name their table by position, so a database with the same schema
/// as the one that compiled a plan runs it on its own storage: a test suite that opens a fresh
/// database per test compiles each statement once. The cache is bounded (it is emptied when
/// full) and locked, so databases on different threads can share it.
///
/// ```swift
/// if let plan = SharedPlanCache.select(statement, fingerprint: catalog.fingerprint) { … }
/// ```
enum SharedPlanCache {
  /// A statement compiled under one schema fingerprint; names compare by their exact bytes.
  struct Key<Statement: Hashable & Sendable & ExactSpelling>: Hashable, Sendable {
    let fingerprint: Int
    let statement: Statement

    static func == (lhs: Key, rhs: Key) -> Bool {
      lhs.fingerprint == rhs.fingerprint && lhs.statement == rhs.statement
        && lhs.statement.hasSameSpelling(as: rhs.statement)
    }
  }

  /// A select's key, hashed by a cheap digest of the statement: its table, filter, limit and
  /// the sizes of its lists, not every result column and ordering term (hashing those costs more
  /// than the rest of a small lookup). Equality still compares the whole statement.
  struct SelectKey: Hashable, Sendable {
    let fingerprint: Int
    let statement: SelectStatement

    static func == (lhs: SelectKey, rhs: SelectKey) -> Bool {
      lhs.fingerprint == rhs.fingerprint && lhs.statement.isExactly(rhs.statement)
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(fingerprint)
      hasher.combine(statement.table)
      hasher.combine(statement.columns.count)
      hasher.combine(statement.filter)
      hasher.combine(statement.orderBy.count)
      hasher.combine(statement.groupBy.count)
      hasher.combine(statement.limit)
      hasher.combine(statement.distinct)
    }
  }

  private struct State {
    var selects: [SelectKey: SelectPlan] = [:]
    /// UPDATE and DELETE plans, keyed by their statement.
    var writes: [Key<Statement>: any WritePlan] = [:]
    var inserts: [Key<InsertPlan.Shape>: InsertPlan] = [:]
  }

  /// How many plans of each kind are kept before that kind is emptied and refilled.
  static let limit = 2048
  private static let state = LockedState(State())

  static func select(_ statement: SelectStatement, fingerprint: Int) -> SelectPlan? {
    let key = SelectKey(fingerprint: fingerprint, statement: statement)
    return state.withLock { $0.selects[key] }
  }

  static func store(_ plan: SelectPlan, for statement: SelectStatement, fingerprint: Int) {
    let key = SelectKey(fingerprint: fingerprint, statement: statement)
    state.withLock { store(plan, key, in: &$0.selects) }
  }

  /// The plan of an UPDATE or DELETE.
  static func write(_ statement: Statement, fingerprint: Int) -> (any WritePlan)? {
    let key = Key(fingerprint: fingerprint, statement: statement)
    return state.withLock { $0.writes[key] }
  }

  static func store(_ plan: any WritePlan, for statement: Statement, fingerprint: Int) {
    let key = Key(fingerprint: fingerprint, statement: statement)
    state.withLock { store(plan, key, in: &$0.writes) }
  }

  static func insert(_ shape: InsertPlan.Shape, fingerprint: Int) -> InsertPlan? {
    let key = Key(fingerprint: fingerprint, statement: shape)
    return state.withLock { $0.inserts[key] }
  }

  static func store(_ plan: InsertPlan, for shape: InsertPlan.Shape, fingerprint: Int) {
    let key = Key(fingerprint: fingerprint, statement: shape)
    state.withLock { store(plan, key, in: &$0.inserts) }
  }

  private static func store<K, Plan>(_ plan: Plan, _ key: K, in plans: inout [K: Plan]) {
    if plans.count >= limit { plans.removeAll() }
    plans[key] = plan
  }
}
