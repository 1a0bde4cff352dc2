import Tandem

/// A table made only of its key, so an upsert has nothing to update.
@Table struct Tag: Equatable {
  @Column(primaryKey: true) let name: String
}
