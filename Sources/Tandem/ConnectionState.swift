@_spi(TandemBackend) import TandemCore

/// The state the connections of one database share: the open savepoints' depth, and caches built
/// once per table type. Touched only while the database's lock is held.
final class ConnectionState {
  var savepointDepth = 0
  /// `find`'s key lookup per table type, built once: see ``Connection/keyLookup(for:)``.
  var keyLookups: [ObjectIdentifier: Connection.KeyLookup] = [:]
  /// The key lookup used last, checked before `keyLookups`: `find` in a loop compares one pointer.
  /// Read on every `find` under the database's lock, never across a call: the runtime's
  /// exclusivity check is left out.
  @exclusivity(unchecked) var lastKeyLookup: (type: ObjectIdentifier, lookup: Connection.KeyLookup)?
  /// The one-value array `find` binds its key with, overwritten by each lookup, so that `find`
  /// in a loop allocates none (it holds the last key until the next lookup). Written under the
  /// database's lock, never across a call: the runtime's exclusivity check is left out.
  @exclusivity(unchecked) var keyValues: [SqliteValue] = [.null]
  /// Each table type's column names, made once: the same array every time, which engines can
  /// recognize without comparing its strings.
  var columnNamesByType: [ObjectIdentifier: [String]] = [:]
  /// The statement a typed insert runs, per table type and conflict clause: see
  /// ``Connection/insertStatement(for:conflict:)``.
  var insertStatements: [InsertKey: PreparedStatement] = [:]

  /// A table type with the conflict clause of its insert.
  struct InsertKey: Hashable {
    let type: ObjectIdentifier
    let conflict: InsertStatement.ConflictResolution
  }
}
