import Foundation

/// The statements a ``Select`` runs for `fetchAll` and `fetchOne`, each made once and shared by
/// the query's copies, so that an engine recognizes a query run again by identity instead of
/// building and comparing its statement on every call.
///
/// ```swift
/// let query = Reminder.where { $0.id == Parameter<Int>("id") }
/// query.preparedForFirst === query.preparedForFirst  // true
/// ```
@usableFromInline
final class PreparedRuns: @unchecked Sendable {
  // Guarded by `lock`: copies of one query may run on several threads.
  private let lock = NSLock()
  private var all: PreparedStatement?
  private var first: PreparedStatement?

  @usableFromInline init() {}

  /// The statement of every row, made by `make` the first time.
  @usableFromInline func forAll(_ make: () -> SelectStatement) -> PreparedStatement {
    lock.lock()
    defer { lock.unlock() }
    if let all { return all }
    let made = PreparedStatement(make())
    all = made
    return made
  }

  /// The statement of the first row, made by `make` the first time.
  @usableFromInline func forFirst(_ make: () -> SelectStatement) -> PreparedStatement {
    lock.lock()
    defer { lock.unlock() }
    if let first { return first }
    let made = PreparedStatement(make())
    first = made
    return made
  }
}
