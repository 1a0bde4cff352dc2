/// Makes a struct a ``TandemCore/Table``: one column per stored property, plus `Draft` when the
/// primary key is a single integer.
///
/// The table is named after the type (first letter lowercased, last word pluralized:
/// `RemindersList` → `remindersLists`) unless you pass a name. A property named `id` is the
/// primary key, unless another is marked `@Column(primaryKey: true)`; two or more marked
/// properties make a composite key. A literal default value becomes the column's `DEFAULT`.
///
/// ```swift
/// @Table struct Reminder {
///   let id: Int
///   var title = ""
///   @Column("is_completed") var isCompleted = false
///   var dueDate: Date?
/// }
/// Reminder.schema.createTableSQL()
/// // CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '',
/// //   "is_completed" INTEGER NOT NULL DEFAULT 0, "dueDate" TEXT)
/// ```
@attached(
  member,
  names: named(Columns), named(columns), named(tableName), named(schema), named(encode(to:)), named(Draft)
)
@attached(extension, conformances: TandemCore.Table, names: named(init(row:)))
public macro Table(_ name: String? = nil) = #externalMacro(module: "TandemMacros", type: "TableMacro")

/// Makes a struct a ``TandemCore/Table`` (see ``Table(_:)``) with indexes on its columns.
///
/// Each index is written with literals: its optional name (`<table>_on_<columns>` when there is
/// none), its column names, and whether it is unique. `@Table` checks that the columns exist.
///
/// ```swift
/// @Table(indexes: [.index(on: ["listID", "title"]), .index("by_slug", on: ["slug"], unique: true)])
/// struct Reminder {
///   let id: Int
///   var listID: Int
///   var title = ""
///   var slug = ""
/// }
/// Reminder.schema.createIndexSQL()
/// // CREATE INDEX "reminders_on_listID_title" ON "reminders" ("listID", "title")
/// // CREATE UNIQUE INDEX "by_slug" ON "reminders" ("slug")
/// ```
@attached(
  member,
  names: named(Columns), named(columns), named(tableName), named(schema), named(encode(to:)), named(Draft)
)
@attached(extension, conformances: TandemCore.Table, names: named(init(row:)))
public macro Table(_ name: String? = nil, indexes: [IndexSchema]) =
  #externalMacro(module: "TandemMacros", type: "TableMacro")

/// Customizes the column a stored property of a `@Table` struct is stored in.
///
/// ```swift
/// @Column("is_completed") var isCompleted = false     // column name
/// @Column(primaryKey: true) let code: String          // primary key other than `id`
///                                                     // (on two or more: a composite key)
/// @Column(primaryKey: false) var id: String           // `id` that is not the key
/// @Column(unique: true) var slug: String               // UNIQUE
/// ```
@attached(peer)
public macro Column(_ name: String? = nil, primaryKey: Bool? = nil, unique: Bool = false) =
  #externalMacro(module: "TandemMacros", type: "ColumnMacro")

/// Stores a stored property of a `@Table` struct through a ``TandemCore/ColumnRepresentation``.
///
/// An optional property uses the optional representation by itself.
///
/// ```swift
/// @Column(as: Date.UnixTimeRepresentation.self) var startsAt: Date      // INTEGER seconds
/// @Column(as: JSONRepresentation<[String]>.self) var tags: [String] = []  // JSON TEXT
/// ```
@attached(peer)
public macro Column<Representation: ColumnRepresentation>(
  _ name: String? = nil, primaryKey: Bool? = nil, as representation: Representation.Type, unique: Bool = false
) = #externalMacro(module: "TandemMacros", type: "ColumnMacro")

/// Makes a stored property of a `@Table` struct a foreign key to another table's primary key
/// (`references: Parent.self`, whose key must be one column) or to the column of one of its
/// properties (`references: \Parent.code`, which must be its primary key or unique).
///
/// The actions say what happens to this row when the referenced row is deleted, or when its
/// referenced key changes. Two tables that reference each other must name the referenced
/// property on at least one side: building either schema then needs no other schema first.
///
/// ```swift
/// @Column(references: RemindersList.self, onDelete: .cascade, onUpdate: .cascade) var listID: Int
/// // "listID" INTEGER NOT NULL REFERENCES "remindersLists" ("id") ON DELETE CASCADE ON UPDATE CASCADE
/// @Column(references: \RemindersList.code, onDelete: .setNull) var listCode: String?
/// // "listCode" TEXT REFERENCES "remindersLists" ("code") ON DELETE SET NULL
/// ```
@attached(peer)
public macro Column<Parent: Table>(
  _ name: String? = nil, primaryKey: Bool? = nil, unique: Bool = false, references parent: Parent.Type,
  onDelete: ForeignKey.Action = .noAction, onUpdate: ForeignKey.Action = .noAction
) = #externalMacro(module: "TandemMacros", type: "ColumnMacro")

/// A foreign key to the column of one of the referenced table's properties (see the
/// `references: Parent.self` form above).
///
/// ```swift
/// @Column(references: \RemindersList.code, onUpdate: .cascade) var listCode: String
/// ```
@attached(peer)
public macro Column<Parent: Table, Value>(
  _ name: String? = nil, primaryKey: Bool? = nil, unique: Bool = false, references column: KeyPath<Parent, Value>,
  onDelete: ForeignKey.Action = .noAction, onUpdate: ForeignKey.Action = .noAction
) = #externalMacro(module: "TandemMacros", type: "ColumnMacro")

/// A foreign key stored through a ``TandemCore/ColumnRepresentation``.
///
/// ```swift
/// @Column(as: Date.UnixTimeRepresentation.self, references: Day.self) var day: Date  // Day's key is a date
/// ```
@attached(peer)
public macro Column<Representation: ColumnRepresentation, Parent: Table>(
  _ name: String? = nil, primaryKey: Bool? = nil, as representation: Representation.Type, unique: Bool = false,
  references parent: Parent.Type, onDelete: ForeignKey.Action = .noAction, onUpdate: ForeignKey.Action = .noAction
) = #externalMacro(module: "TandemMacros", type: "ColumnMacro")

/// A foreign key stored through a ``TandemCore/ColumnRepresentation``, to the column of one of
/// the referenced table's properties.
///
/// ```swift
/// @Column(as: Date.UnixTimeRepresentation.self, references: \Event.startsAt) var eventStart: Date
/// ```
@attached(peer)
public macro Column<Representation: ColumnRepresentation, Parent: Table, Value>(
  _ name: String? = nil, primaryKey: Bool? = nil, as representation: Representation.Type, unique: Bool = false,
  references column: KeyPath<Parent, Value>, onDelete: ForeignKey.Action = .noAction,
  onUpdate: ForeignKey.Action = .noAction
) = #externalMacro(module: "TandemMacros", type: "ColumnMacro")

/// Keeps a stored property of a `@Table` struct out of the table; it must have a default value,
/// which records decoded from a row get.
///
/// ```swift
/// @Ignored var isExpanded = false
/// ```
@attached(peer)
public macro Ignored() = #externalMacro(module: "TandemMacros", type: "IgnoredMacro")
