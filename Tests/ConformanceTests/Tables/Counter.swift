import Tandem

/// A shared counter that concurrent writers read and increment.
@Table struct Counter: Equatable {
  let id: Int
  var value = 0
}

/// One increment of a ``Counter``: who made it, its number among that writer's increments, and
/// the counter value it read before writing `seen + 1`.
@Table struct CounterTick: Equatable {
  let id: Int
  var writer = ""
  var sequence = 0
  var seen = 0
}
