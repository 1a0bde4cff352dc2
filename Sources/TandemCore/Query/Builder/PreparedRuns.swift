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
  @usableFromInline func forAll(_ make: () -> SelectStatement) -> PreparedStatement { prepared(\.all, make) }

  /// The statement of the first row, made by `make` the first time.
  @usableFromInline func forFirst(_ make: () -> SelectStatement) -> PreparedStatement { prepared(\.first, make) }

  /// The statement kept at `slot`, made by `make` the first time.
  private func prepared(
    _ slot: ReferenceWritableKeyPath<PreparedRuns, PreparedStatement?>, _ make: () -> SelectStatement
  ) -> PreparedStatement {
    lock.lock()
    defer { lock.unlock() }
    if let kept = self[keyPath: slot] { return kept }
    let made = PreparedStatement(make())
    self[keyPath: slot] = made
    return made
  }
}
