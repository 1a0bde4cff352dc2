extension ForeignKey {
  /// A reference to the primary key of `parent`'s table, which must be one column (`@Table`
  /// writes this for `@Column(references: RemindersList.self)`).
  ///
  /// When the parent's key is not one column the reference names no column, and creating the
  /// table throws ``TandemError/Kind/misuse``: name the column with ``table(_:column:onDelete:onUpdate:)``.
  ///
  /// ```swift
  /// .column("listID", .integer, references: .table(RemindersList.self, onDelete: .cascade))
  /// // "listID" INTEGER NOT NULL REFERENCES "remindersLists" ("id") ON DELETE CASCADE
  /// ```
  public static func table<Parent: Table>(
    _ parent: Parent.Type, onDelete: Action = .noAction, onUpdate: Action = .noAction
  ) -> ForeignKey {
    let keys = Parent.schema.primaryKeyColumns
    return ForeignKey(
      table: Parent.tableName, column: keys.count == 1 ? keys[0].name : "", onDelete: onDelete, onUpdate: onUpdate)
  }
}
