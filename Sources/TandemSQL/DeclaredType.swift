import TandemCore

/// A declared column type or CAST type name, read by SQLite's affinity rules
/// (`sqlite3AffinityType`, §3.1 of SQLite's datatype page).
///
/// ```swift
/// DeclaredType("VARCHAR(10)").affinity  // .text
/// DeclaredType("").affinity             // .blob
/// DeclaredType("DECIMAL").affinity      // .numeric
/// ```
struct DeclaredType: Sendable, Hashable {
  /// The five affinities.
  enum Affinity: Sendable, Hashable {
    case integer, text, blob, real, numeric
  }

  /// The type name as written (without its size).
  var name: String

  init(_ name: String) { self.name = name }

  /// The affinity the name gives, by the first rule that applies.
  var affinity: Affinity {
    let upper = name.uppercased()
    if upper.contains("INT") { return .integer }
    if upper.contains("CHAR") || upper.contains("CLOB") || upper.contains("TEXT") { return .text }
    if upper.contains("BLOB") || upper.isEmpty { return .blob }
    if upper.contains("REAL") || upper.contains("FLOA") || upper.contains("DOUB") { return .real }
    return .numeric
  }

  /// The type a CAST to this name converts to.
  var castType: CastType {
    switch affinity {
    case .integer: .integer
    case .text: .text
    case .blob: .blob
    case .real: .real
    case .numeric: .numeric
    }
  }

  /// The storage of a column declared with this name, or `nil` for NUMERIC affinity, which the
  /// schema cannot express.
  var storage: SqliteTypeName? {
    switch affinity {
    case .integer: .integer
    case .text: .text
    case .blob: .blob
    case .real: .real
    case .numeric: nil
    }
  }

  /// Whether a `PRIMARY KEY` column of this type is an alias of the rowid (exactly `INTEGER`).
  var isRowidAlias: Bool { name.uppercased() == "INTEGER" }
}
