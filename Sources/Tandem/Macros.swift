/// Makes a struct a ``TandemCore/Table``: one column per stored property, plus `Draft` when the
/// primary key is a single integer.
///
/// The table is named after the type (first letter lowercased, last word pluralized:
/// `RemindersList` → `remindersLists`) unless you pass a name. A property named `id` is the
/// primary key; a literal default value becomes the column's `DEFAULT`.
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

/// Customizes the column a stored property of a `@Table` struct is stored in.
///
/// ```swift
/// @Column("is_completed") var isCompleted = false     // column name
/// @Column(primaryKey: true) let code: String          // primary key other than `id`
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

/// Keeps a stored property of a `@Table` struct out of the table; it must have a default value,
/// which records decoded from a row get.
///
/// ```swift
/// @Ignored var isExpanded = false
/// ```
@attached(peer)
public macro Ignored() = #externalMacro(module: "TandemMacros", type: "IgnoredMacro")
