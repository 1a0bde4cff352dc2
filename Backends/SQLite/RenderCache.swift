import TandemCore

/// Rendered SQL per statement shape, so that a statement repeated with other values (or other
/// parameters) is not rendered again: only its literals are collected and bound. An entry also
/// keeps its SQL's prepared statement once prepared, so a query built afresh for every call (the
/// common way to write one) finds it without hashing its SQL text again.
///
/// Entries depend on the tables' column names (the rowid's spelling), so the backend empties the
/// cache whenever a table is created or dropped. It holds at most `capacity` shapes and starts
/// over when full.
struct RenderCache {
  /// Where one placeholder's value comes from.
  enum Slot: Hashable {
    /// The statement's literal at this position, in rendering order.
    case literal(Int)
    /// A named parameter.
    case parameter(String)
  }

  /// The SQL text of a shape, where each of its placeholders takes its value from, and what
  /// running it needs besides. A class: a hit is one retain, and the prepared statement is kept
  /// in place once made.
  final class Entry {
    let sql: String
    let slots: [Slot]
    /// ``RenderedSQL/rowidSortKeyCount`` of the rendering.
    let rowidSortKeyCount: Int
    /// Names the statement's table and columns in constraint errors.
    let context: ConstraintContext
    /// The prepared statement of `sql`, once one prepared without error.
    var statement: SQLiteStatement?

    init(sql: String, slots: [Slot], rowidSortKeyCount: Int, context: ConstraintContext) {
      self.sql = sql
      self.slots = slots
      self.rowidSortKeyCount = rowidSortKeyCount
      self.context = context
    }

    /// What each placeholder binds: the statement's literals by position, named parameters
    /// as they are.
    func bindings(literals: [SqliteValue]) -> [SQLBinding] {
      slots.map { slot in
        switch slot {
        case .literal(let index): .value(literals[index])
        case .parameter(let name): .parameter(name)
        }
      }
    }
  }

  /// The most shapes kept at once.
  let capacity: Int
  private var entries: [StatementShape: Entry] = [:]

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The number of cached shapes.
  var count: Int { entries.count }

  /// The cached rendering of `shape`.
  func entry(for shape: StatementShape) -> Entry? { entries[shape] }

  /// Caches `rendered` as the SQL of `shape`, its errors named by `context`, when its bindings
  /// line up with `literals` (each literal bound once, in order, as the renderer does); returns
  /// the entry, or `nil` when it caches nothing.
  mutating func store(
    _ rendered: RenderedSQL, for shape: StatementShape, literals: [SqliteValue], context: ConstraintContext
  ) -> Entry? {
    var slots: [Slot] = []
    slots.reserveCapacity(rendered.bindings.count)
    var literalIndex = 0
    for binding in rendered.bindings {
      switch binding {
      case .value(let value):
        guard literalIndex < literals.count, literals[literalIndex] == value else { return nil }
        slots.append(.literal(literalIndex))
        literalIndex += 1
      case .parameter(let name):
        slots.append(.parameter(name))
      }
    }
    guard literalIndex == literals.count else { return nil }
    if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
    let entry = Entry(sql: rendered.sql, slots: slots, rowidSortKeyCount: rendered.rowidSortKeyCount, context: context)
    entries[shape] = entry
    return entry
  }

  /// Empties the cache.
  mutating func removeAll() { entries.removeAll() }
}
