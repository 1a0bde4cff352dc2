import Tandem

/// Identifiers that are SQL keywords or contain quotes.
@Table("order") struct Order: Equatable {
  let id: Int
  @Column("group") var group: String
  @Column(#"a "quoted" name"#) var quoted: Int
}

/// A table named like a keyword whose key is text and that has a column named `rowid`, so the
/// table's real rowid must be spelled another way.
@Table("select") struct Keyword: Equatable {
  @Column(primaryKey: true) let key: String
  @Column("rowid") var rowNumber: Int
}
