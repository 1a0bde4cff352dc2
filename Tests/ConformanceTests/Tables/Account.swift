import Tandem

/// A table with a UNIQUE column besides its key.
@Table struct Account: Equatable {
  let id: Int
  @Column(unique: true) var email: String
  var name = ""
}
