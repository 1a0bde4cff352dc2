import SwiftSyntax

/// A struct marked `@Table`, as its stored properties describe it.
struct TableModel {
  /// The struct's name as written (`Reminder`).
  var typeName: String
  /// The table's name in the database.
  var tableName: String
  /// The struct's access level, given to the generated protocol members.
  var access: AccessLevel
  /// The stored properties that are columns, in declaration order.
  var columns: [ColumnProperty]
  /// The indexes from `@Table(indexes:)`, in order.
  var indexes: [IndexDeclaration] = []

  /// The single integer primary key that SQLite may assign, which makes a `Draft` worth having.
  var draftKey: ColumnProperty? {
    let keys = columns.filter(\.isPrimaryKey)
    guard keys.count == 1, let key = keys.first, key.representation == nil,
      PropertyType.integerKeyNames.contains(key.type.trimmedDescription)
    else { return nil }
    return key
  }
}

/// One stored property that `@Table` maps to a column.
struct ColumnProperty {
  /// The property's name as written, backticks included (`` `default` ``).
  var identifier: String
  /// The property's name without backticks.
  var name: String
  /// The column's name.
  var columnName: String
  /// The property's Swift type, written or inferred from a literal default.
  var type: TypeSyntax
  /// The representation from `@Column(as:)`, if any, as written.
  var representation: TypeSyntax?
  /// The default value, if the property has one.
  var defaultValue: ExprSyntax?
  /// Whether the default value is a literal or enum case and so becomes the column `DEFAULT`.
  var hasConstantDefault: Bool
  /// Whether the property is the primary key, or one column of a composite key.
  var isPrimaryKey: Bool
  /// Whether `@Column(primaryKey:)` says so, rather than the `id` convention.
  var isExplicitKey: Bool
  /// The foreign key from `@Column(references:)`, if any.
  var reference: ColumnReference?
  /// Whether the column is `UNIQUE`.
  var isUnique: Bool
  /// The access level of members generated for this property: the property's own, capped by the
  /// struct's.
  var access: AccessLevel

  /// The `ColumnType` stored in the column: the representation (made optional for an optional
  /// property) or the property's own type.
  var storageType: TypeSyntax {
    guard let representation else { return type.trimmed }
    return PropertyType.storage(representation: representation, propertyType: type)
  }
}
