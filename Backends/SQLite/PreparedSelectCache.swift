@_spi(TandemBackend) import TandemCore

/// The compiled form of each ``PreparedStatement`` select run before, found by the object's
/// identity: a prepared query run again binds its values and steps, without rendering, lifting
/// literals or hashing its SQL.
///
/// A ``PreparedStatement`` never changes, so its identity stands for its statement; each entry
/// holds the object, so the identity is not reused while the entry lives. Entries depend on the
/// tables' columns as the rendering does, so the backend empties the cache with its table facts.
/// It holds at most `capacity` entries and starts over when full.
///
/// Most selects are built afresh for each call and run once: a new entry is only the last one
/// used, and is kept when another takes its place, unless it ran once and the new one runs the
/// same SQL (the same query built again, whose next build finds its rendering by its shape
/// anyway). So a query built per call costs no dictionary entry, and holds no memory once the
/// next one ran.
struct PreparedSelectCache {
  /// Where one placeholder of the SQL takes its value from on each run.
  enum Slot {
    /// A value fixed in the statement.
    case value(SqliteValue)
    /// The named parameter at this position of ``PreparedStatement/parameterNames`` (its last
    /// listing, as ``PreparedStatement/parameters(_:)`` takes the last value of a repeated name).
    case position(Int, name: String)
    /// A named parameter that ``PreparedStatement/parameterNames`` does not list.
    case name(String)
  }

  /// One prepared select, ready to bind and step. A class: a run finds it with one retain,
  /// not one per field.
  final class Entry {
    /// The statement this entry compiled, held so that its identity is not reused.
    let prepared: PreparedStatement
    let statement: SQLiteStatement
    let slots: [Slot]
    let context: ConstraintContext
    /// The number of trailing rowid columns the rows are sorted by and then dropped
    /// (``RenderedSQL/rowidSortKeyCount``).
    let rowidSortKeyCount: Int
    /// Whether the placeholders take the positional values as given: one each, in order.
    let bindsPositionsInOrder: Bool
    /// Whether its statement ran again after compiling it: a query kept by its caller.
    fileprivate var ranAgain = false

    /// What `prepared` compiled to: its SQL's statement, the bindings of its rendering, the
    /// context its errors are named in and the rowid columns its rows are sorted by.
    init(
      _ prepared: PreparedStatement, statement: SQLiteStatement, bindings: [SQLBinding], context: ConstraintContext,
      rowidSortKeyCount: Int
    ) {
      self.prepared = prepared
      self.statement = statement
      self.context = context
      self.rowidSortKeyCount = rowidSortKeyCount
      slots = bindings.map { binding -> Slot in
        switch binding {
        case .value(let value): return .value(value)
        case .parameter(let name):
          return prepared.parameterNames.lastIndex(of: name).map { .position($0, name: name) } ?? .name(name)
        }
      }
      bindsPositionsInOrder =
        slots.count == prepared.parameterNames.count
        && slots.enumerated().allSatisfy { offset, slot in
          if case .position(offset, _) = slot { return true }
          return false
        }
    }

    /// The values to bind for a run with `bindings`; throws the errors the rendering path
    /// throws for bindings that do not fit (a value count that differs from the names, a
    /// parameter without a value).
    func values(_ bindings: StatementBindings) throws -> [SqliteValue] {
      if case .positional(let given) = bindings {
        try prepared.checkCount(of: given)
        if bindsPositionsInOrder { return given }
      }
      do {
        switch bindings {
        case .positional(let given):
          return try slots.map { slot in
            switch slot {
            case .value(let value): return value
            case .position(let index, _): return given[index]
            case .name(let name): return try SQLBinding.parameter(name).value(in: [:])
            }
          }
        case .named(let given):
          return try slots.map { slot in
            switch slot {
            case .value(let value): return value
            case .position(_, let name), .name(let name): return try SQLBinding.parameter(name).value(in: given)
            }
          }
        case .rows, .flattenedRows:
          throw StatementBindings.rowsWithoutInsert
        }
      } catch let error as TandemError {
        throw error.with(statement: statement.sql)
      }
    }
  }

  /// The most entries kept at once.
  let capacity: Int
  private var entries: [ObjectIdentifier: Entry] = [:]
  /// The entry used last, checked before `entries`: a query run in a loop compares one pointer.
  private var last: Entry?

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The number of entries kept for their statement's next run (the last entry used aside).
  var count: Int { entries.count }

  /// The entry compiled for `prepared`, if it was run before under the same tables.
  mutating func entry(for prepared: PreparedStatement) -> Entry? {
    if let last, last.prepared === prepared {
      last.ranAgain = true
      return last
    }
    guard let entry = entries[ObjectIdentifier(prepared)] else { return nil }
    makeLast(entry)
    return entry
  }

  /// Caches `entry` for its prepared statement, as the last entry used.
  mutating func store(_ entry: Entry) { makeLast(entry) }

  /// Makes `entry` the last one used; the one it replaces is kept unless it ran once and the new
  /// one runs the same SQL.
  private mutating func makeLast(_ entry: Entry) {
    if let last, last.ranAgain || last.statement !== entry.statement { keep(last) }
    last = entry
  }

  /// Adds `entry` to the dictionary (if not there yet), emptied first when full.
  private mutating func keep(_ entry: Entry) {
    let key = ObjectIdentifier(entry.prepared)
    if entries[key] == nil, entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
    entries[key] = entry
  }

  /// Empties the cache.
  mutating func removeAll() {
    entries.removeAll()
    last = nil
  }
}
