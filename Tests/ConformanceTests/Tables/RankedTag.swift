import Tandem

/// A tag keyed by its name (a rowid table with an index on the key) with a UNIQUE rank, so an
/// UPDATE that shifts ranks meets a transient conflict or not depending on the order it visits rows.
@Table("tags") struct RankedTag: Equatable {
  @Column(primaryKey: true) let name: String
  @Column(unique: true) var rank: Int?
}
