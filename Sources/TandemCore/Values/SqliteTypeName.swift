/// The storage type of a column, as SQLite declares it, with nullability written as `.null(inner)`.
///
/// A column is `NOT NULL` unless its type name is `.null(inner)`:
///
/// ```swift
/// String.sqliteTypeName              // .text       → "title" TEXT NOT NULL
/// Optional<Date>.sqliteTypeName      // .null(.text) → "dueDate" TEXT
/// SqliteTypeName.notNull(.null(.integer)) == .integer
/// ```
public enum SqliteTypeName: Sendable, Hashable {
  /// A signed 64-bit integer column (`INTEGER`).
  case integer
  /// An IEEE-754 double column (`REAL`).
  case real
  /// A UTF-8 text column (`TEXT`).
  case text
  /// A byte-string column (`BLOB`).
  case blob
  /// A nullable column whose non-null values have the wrapped type.
  indirect case null(SqliteTypeName)

  /// The same type with every level of nullability removed.
  ///
  /// ```swift
  /// SqliteTypeName.notNull(.null(.text)) // .text
  /// SqliteTypeName.notNull(.real)        // .real
  /// ```
  public static func notNull(_ typeName: SqliteTypeName) -> SqliteTypeName {
    if case .null(let inner) = typeName { return notNull(inner) }
    return typeName
  }

  /// Whether the column accepts `NULL`.
  ///
  /// ```swift
  /// SqliteTypeName.null(.integer).isNullable // true
  /// ```
  public var isNullable: Bool {
    if case .null = self { return true }
    return false
  }

  /// The storage type without nullability (`.null(.text).storage == .text`).
  public var storage: SqliteTypeName { Self.notNull(self) }

  /// The type name as it appears in `CREATE TABLE`: `INTEGER`, `REAL`, `TEXT` or `BLOB`.
  ///
  /// ```swift
  /// SqliteTypeName.null(.real).declaredName // "REAL"
  /// ```
  public var declaredName: String {
    switch storage {
    case .integer: "INTEGER"
    case .real: "REAL"
    case .text: "TEXT"
    case .blob: "BLOB"
    case .null: "BLOB"  // unreachable: `storage` strips nullability
    }
  }
}
