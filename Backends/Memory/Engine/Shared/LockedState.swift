import Foundation

/// A value shared between threads, reachable only while its lock is held.
///
/// The engine's process-wide caches (``SchemaRegistry``, ``SharedPlanCache``) keep their
/// dictionaries in one of these, so databases used on different threads can share them.
///
/// ```swift
/// let counter = LockedState(0)
/// counter.withLock { $0 += 1 }
/// ```
final class LockedState<State>: @unchecked Sendable {
  // @unchecked: `state` is read and written only inside `withLock`, under `lock`.
  private let lock = NSLock()
  private var state: State

  /// Shares `state`.
  init(_ state: State) { self.state = state }

  /// Runs `body` with exclusive access to the state.
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}
