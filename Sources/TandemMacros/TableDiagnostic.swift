import SwiftDiagnostics

/// An error `@Table` reports about the declaration it is attached to; each names the property and
/// says how to fix it.
struct TableDiagnostic: DiagnosticMessage {
  let id: String
  let message: String
  var severity: DiagnosticSeverity { .error }
  var diagnosticID: MessageID { MessageID(domain: "Tandem", id: id) }

  static func notAStruct(_ kind: String) -> Self {
    Self(id: "notAStruct", message: "@Table can only be applied to a struct, not \(kind)")
  }

  static let tableNameNotLiteral = Self(
    id: "tableNameNotLiteral",
    message: "@Table's name must be a plain string literal, such as @Table(\"reminders\")")

  static func missingType(_ property: String) -> Self {
    Self(
      id: "missingType",
      message: "property '\(property)' needs an explicit type: @Table infers a type only from a "
        + "string, integer, float or boolean literal; write 'var \(property): <Type> = …'")
  }

  static func notColumnType(_ property: String, type: String, advice: String) -> Self {
    Self(
      id: "notColumnType",
      message: "property '\(property)' of type '\(type)' is not a ColumnType; \(advice)")
  }

  static func duplicatePrimaryKey(_ first: String, _ second: String) -> Self {
    Self(
      id: "duplicatePrimaryKey",
      message: "'\(first)' is a primary key, and so is '\(second)' by its name; mark '\(second)' with "
        + "@Column(primaryKey: false), or with @Column(primaryKey: true) for a composite key")
  }

  static func duplicateColumnName(_ first: String, _ second: String, column: String) -> Self {
    Self(
      id: "duplicateColumnName",
      message: "properties '\(first)' and '\(second)' are both stored in column '\(column)'; "
        + "give one another name with @Column(\"name\")")
  }

  static func letWithDefault(_ property: String) -> Self {
    Self(
      id: "letWithDefault",
      message: "'let' property '\(property)' has a default value, so a row cannot set it; "
        + "declare it with 'var', or mark it @Ignored to keep it out of the table")
  }

  static func ignoredWithoutDefault(_ property: String) -> Self {
    Self(
      id: "ignoredWithoutDefault",
      message: "@Ignored property '\(property)' needs a default value: records read from a row get it")
  }

  static func ignoredColumn(_ property: String) -> Self {
    Self(
      id: "ignoredColumn",
      message: "property '\(property)' is marked both @Column and @Ignored; keep one of them")
  }

  static func columnNotStored(_ property: String) -> Self {
    Self(
      id: "columnNotStored",
      message: "@Column and @Ignored apply only to stored instance properties; '\(property)' is not one")
  }

  static let unnamedBinding = Self(
    id: "unnamedBinding",
    message: "@Table needs each stored property declared by name, not with a tuple pattern; "
      + "declare one property per name")

  static let noColumns = Self(
    id: "noColumns",
    message: "@Table needs at least one stored property to make a column")

  static let invalidIndex = Self(
    id: "invalidIndex",
    message: "@Table's indexes must be an array literal of indexes written with literals, such as "
      + "[.index(\"by_title\", on: [\"title\"], unique: true)]")

  static let emptyIndex = Self(
    id: "emptyIndex",
    message: "an index needs at least one column, such as .index(on: [\"title\"])")

  static func unknownIndexColumn(_ column: String, table: String, storedIn: String?) -> Self {
    let hint = storedIn.map { "; property '\(column)' is stored in column '\($0)'" } ?? ""
    return Self(
      id: "unknownIndexColumn",
      message: "index column '\(column)' is not a column of '\(table)'\(hint)")
  }

  static func unknownReferencedProperty(_ property: String, type: String) -> Self {
    Self(
      id: "unknownReferencedProperty",
      message: "'\(type)' has no column '\(property)' to reference")
  }

  static func selfReferenceNeedsOneKey(_ type: String) -> Self {
    Self(
      id: "selfReferenceNeedsOneKey",
      message: "'\(type)' references itself by its primary key, which is not one column; "
        + "name the referenced property, such as @Column(references: \\\(type).id)")
  }

  static func qualifiedSelfReference(_ written: String, typeName: String) -> Self {
    Self(
      id: "qualifiedSelfReference",
      message: "write 'references: Self.self' to reference '\(typeName)' itself; for another type named "
        + "'\(written)', reference its key property, such as '\\\(written).id'")
  }

  static func invalidColumnArgument(_ label: String, expected: String) -> Self {
    Self(id: "invalidColumnArgument", message: "@Column's \(label) must be \(expected)")
  }
}

/// The text of a fix-it `@Table` offers.
struct TableFixIt: FixItMessage {
  let id: String
  let message: String
  var fixItID: MessageID { MessageID(domain: "Tandem", id: id) }

  static let useVar = Self(id: "useVar", message: "replace 'let' with 'var'")

  static func storeAsJSON(_ representation: String) -> Self {
    Self(id: "storeAsJSON", message: "store it with @Column(as: \(representation).self)")
  }

  static func notPrimaryKey(_ property: String) -> Self {
    Self(id: "notPrimaryKey", message: "mark '\(property)' with @Column(primaryKey: false)")
  }
}
