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
  // Guarded by `lock`: copies of one query may run on several threads. The lock makes the
  // accesses exclusive, so the runtime's exclusivity checks (a call on every run) are left out.
  private let lock = NSLock()
  @exclusivity(unchecked) private var all: PreparedStatement?
  @exclusivity(unchecked) private var first: PreparedStatement?

  @usableFromInline init() {}

  /// The statement of every row, made by `make` the first time.
  @_spi(TandemBackend) @usableFromInline func forAll(_ make: () -> SelectStatement) -> PreparedStatement {
    lock.lock()
    defer { lock.unlock() }
    return Self.kept(in: &all, make)
  }

  /// The statement of the first row, made by `make` the first time.
  @_spi(TandemBackend) @usableFromInline func forFirst(_ make: () -> SelectStatement) -> PreparedStatement {
    lock.lock()
    defer { lock.unlock() }
    return Self.kept(in: &first, make)
  }

  /// The statement kept in `slot`, made by `make` the first time.
  private static func kept(in slot: inout PreparedStatement?, _ make: () -> SelectStatement) -> PreparedStatement {
    if let slot { return slot }
    let made = PreparedStatement(make())
    slot = made
    return made
  }
}
