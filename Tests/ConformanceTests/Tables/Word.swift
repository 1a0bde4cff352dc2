import Tandem

/// Text for the string functions: ASCII, spaces, non-ASCII letters, LIKE wildcards.
@Table struct Word: Equatable {
  let id: Int
  var text = ""
  var note: String?
}

extension Word {
  static let samples = [
    Word(id: 1, text: "Milk", note: nil),
    Word(id: 2, text: "  oat milk  ", note: "fresh"),
    Word(id: 3, text: "École", note: "ÉCOLE"),
    Word(id: 4, text: "100%", note: nil),
    Word(id: 5, text: "1000", note: ""),
    Word(id: 6, text: "straße", note: "b_c"),
  ]
}
