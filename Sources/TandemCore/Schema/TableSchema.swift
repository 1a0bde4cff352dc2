/// The description of one table: its name, ordered columns and indexes.
///
/// `@Table` writes it for you; it can also be built by hand:
///
/// ```swift
/// let schema = TableSchema("reminders", columns: [
///   .column("id", .integer, primaryKey: .autoincrement),
///   .column("title", .text, default: ""),
///   .column("listID", .integer, references: .table("lists", column: "id", onDelete: .cascade)),
///   .column("dueDate", .null(.text)),
/// ], indexes: [
///   .index(on: ["title"], unique: true),
/// ])
/// schema.createTableSQL()
/// // CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL DEFAULT '', …)
/// ```
public struct TableSchema: Sendable, Hashable {
  /// The table's name.
  public var name: String
  /// The columns, in declaration order (the order of values in a row).
  public var columns: [ColumnSchema]
  /// Indexes created with the table.
  public var indexes: [IndexSchema]

  /// A schema from its name, columns and indexes.
  public init(_ name: String, columns: [ColumnSchema], indexes: [IndexSchema] = []) {
    self.name = name
    self.columns = columns
    self.indexes = indexes
  }

  /// The columns that form the primary key, in column order (empty when there is none).
  public var primaryKeyColumns: [ColumnSchema] { columns.filter { $0.primaryKey != nil } }

  /// The column that aliases SQLite's rowid (`INTEGER PRIMARY KEY`), if any.
  ///
  /// ```swift
  /// schema.rowidColumn?.name // "id"
  /// ```
  public var rowidColumn: ColumnSchema? {
    let keys = primaryKeyColumns
    guard keys.count == 1, keys[0].type.storage == .integer else { return nil }
    return keys[0]
  }

  /// The index of a column by name, or `nil`.
  public func columnIndex(named name: String) -> Int? {
    columns.firstIndex { $0.name == name }
  }
}

/// One column of a ``TableSchema``.
///
/// ```swift
/// ColumnSchema.column("email", .text, unique: true)
/// ColumnSchema.column("score", .null(.real), default: 0.0)
/// ```
public struct ColumnSchema: Sendable, Hashable {
  /// The column's name.
  public var name: String
  /// Its type; `.null(inner)` makes it nullable, anything else is `NOT NULL`.
  public var type: SqliteTypeName
  /// Whether (and how) the column is part of the primary key.
  public var primaryKey: PrimaryKey?
  /// Whether the column has a `UNIQUE` constraint.
  public var isUnique: Bool
  /// The `DEFAULT` value, if any.
  public var defaultValue: SqliteValue?
  /// A foreign key reference, if any.
  public var references: ForeignKey?

  /// A column from all its parts; most code reads better with ``column(_:_:primaryKey:unique:default:references:)``.
  public init(
    name: String, type: SqliteTypeName, primaryKey: PrimaryKey? = nil, isUnique: Bool = false,
    defaultValue: SqliteValue? = nil, references: ForeignKey? = nil
  ) {
    self.name = name
    self.type = type
    self.primaryKey = primaryKey
    self.isUnique = isUnique
    self.defaultValue = defaultValue
    self.references = references
  }

  /// A column named `name` of type `type`.
  ///
  /// ```swift
  /// .column("id", .integer, primaryKey: true)
  /// .column("title", .text, default: "")
  /// ```
  public static func column(
    _ name: String, _ type: SqliteTypeName, primaryKey: PrimaryKey? = nil, unique: Bool = false,
    default defaultValue: SqliteValue? = nil, references: ForeignKey? = nil
  ) -> ColumnSchema {
    ColumnSchema(
      name: name, type: type, primaryKey: primaryKey, isUnique: unique, defaultValue: defaultValue,
      references: references)
  }

  /// How a column takes part in the primary key.
  ///
  /// `true` is a plain key; `.autoincrement` (integer keys only) never reuses deleted numbers.
  public enum PrimaryKey: Sendable, Hashable, ExpressibleByBooleanLiteral {
    /// A primary key column.
    case plain
    /// An `INTEGER PRIMARY KEY AUTOINCREMENT` column.
    case autoincrement

    /// `primaryKey: true` means `.plain`.
    public init(booleanLiteral value: Bool) { self = .plain }
  }
}

/// A foreign key reference from a column to a column of another table.
///
/// ```swift
/// .column("listID", .integer, references: .table("lists", column: "id", onDelete: .cascade))
/// // "listID" INTEGER NOT NULL REFERENCES "lists" ("id") ON DELETE CASCADE
/// .column("listCode", .text, references: .table("lists", column: "code", onUpdate: .cascade))
/// // "listCode" TEXT NOT NULL REFERENCES "lists" ("code") ON UPDATE CASCADE
/// ```
public struct ForeignKey: Sendable, Hashable {
  /// The referenced table.
  public var table: String
  /// The referenced column.
  public var column: String
  /// What happens to this row when the referenced row is deleted.
  public var onDelete: Action
  /// What happens to this row when the referenced column of the referenced row changes.
  public var onUpdate: Action

  /// A reference to `table(column)`.
  public init(table: String, column: String, onDelete: Action = .noAction, onUpdate: Action = .noAction) {
    self.table = table
    self.column = column
    self.onDelete = onDelete
    self.onUpdate = onUpdate
  }

  /// A reference to `table(column)`.
  ///
  /// ```swift
  /// .table("lists", column: "id", onDelete: .cascade, onUpdate: .cascade)
  /// // REFERENCES "lists" ("id") ON DELETE CASCADE ON UPDATE CASCADE
  /// ```
  public static func table(
    _ table: String, column: String, onDelete: Action = .noAction, onUpdate: Action = .noAction
  ) -> ForeignKey {
    ForeignKey(table: table, column: column, onDelete: onDelete, onUpdate: onUpdate)
  }

  /// A foreign key action, as SQLite names them.
  ///
  /// ```swift
  /// ForeignKey.Action.setNull.rawValue // "SET NULL"
  /// ```
  public enum Action: String, Sendable, Hashable {
    /// Nothing happens to the child row; a child left without its parent fails the statement
    /// when it ends.
    case noAction = "NO ACTION"
    /// The change fails at once while any child row refers to the old key.
    case restrict = "RESTRICT"
    /// The child's column becomes NULL.
    case setNull = "SET NULL"
    /// The child's column takes its `DEFAULT` (NULL when it has none).
    case setDefault = "SET DEFAULT"
    /// The child row is deleted with its parent, or takes the parent's new key.
    case cascade = "CASCADE"
  }
}

/// An index over one or more columns of a table.
///
/// ```swift
/// .index(on: ["listID", "title"])                 // reminders_on_listID_title
/// .index("by_title", on: ["title"], unique: true)
/// .index("by_score", on: ["score", "title"], descending: ["score"])
/// // CREATE INDEX "by_score" ON "players" ("score" DESC, "title")
/// ```
public struct IndexSchema: Sendable, Hashable {
  /// The index name; `nil` means `<table>_on_<columns>`.
  public var name: String?
  /// The indexed columns, in order.
  public var columns: [String]
  /// Whether the index enforces uniqueness.
  public var isUnique: Bool
  /// The columns whose entries the index keeps in descending order (`"score" DESC`); the
  /// others ascend. Spelled as in ``columns``.
  public var descendingColumns: Set<String>

  /// An index from its parts.
  public init(name: String? = nil, columns: [String], isUnique: Bool = false, descendingColumns: Set<String> = []) {
    self.name = name
    self.columns = columns
    self.isUnique = isUnique
    self.descendingColumns = descendingColumns
  }

  /// An index on `columns`, some of them `descending`.
  public static func index(
    _ name: String? = nil, on columns: [String], unique: Bool = false, descending: Set<String> = []
  ) -> IndexSchema {
    IndexSchema(name: name, columns: columns, isUnique: unique, descendingColumns: descending)
  }

  /// Whether the column at `position` of ``columns`` is kept in descending order.
  public func isDescending(at position: Int) -> Bool {
    descendingColumns.contains(columns[position])
  }

  /// The index's name in `table`.
  public func name(in table: String) -> String {
    name ?? "\(table)_on_\(columns.joined(separator: "_"))"
  }
}
