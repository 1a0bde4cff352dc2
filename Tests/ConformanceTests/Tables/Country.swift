import Tandem

/// A table whose primary key is text, so its rowid is not the key.
@Table("countries") struct Country: Equatable {
  @Column(primaryKey: true) let code: String
  var name = ""
}
