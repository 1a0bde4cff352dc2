/// What happens to a parent row that runs its foreign keys' actions: SQLite's action triggers
/// fire after a parent row is deleted, or after an UPDATE that assigns its key.
enum ForeignKeyChange {
  /// The parent row was deleted: its ON DELETE actions run.
  case delete
  /// The parent row's key was assigned: its ON UPDATE actions run for the keys whose value
  /// changed.
  case update
}
