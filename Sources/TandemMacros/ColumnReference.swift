import SwiftDiagnostics
import SwiftSyntax

/// The foreign key of `@Column(references: Parent.self, onDelete: .cascade, onUpdate: .cascade)`,
/// or of `@Column(references: \Parent.code)`, as written.
struct ColumnReference {
  /// Which column of the parent table is referenced.
  enum Target {
    /// The parent's primary key (`references: Parent.self`).
    case primaryKey
    /// The column of one of the parent's properties (`references: \Parent.code`), by the
    /// property's identifier as written (backticks included).
    case property(String)
  }

  /// The foreign key actions, by their case names.
  static let actionNames: Set<String> = ["noAction", "restrict", "setNull", "setDefault", "cascade"]

  /// The parent type, as written (`RemindersList`, `Self`).
  var parentType: String
  /// The referenced column.
  var target: Target
  /// The case name of the ON DELETE action (`cascade`).
  var onDelete = "noAction"
  /// The case name of the ON UPDATE action.
  var onUpdate = "noAction"

  /// The parent of `references: Parent.self` or `references: \Parent.property`, or `nil` with a
  /// diagnostic when the argument is spelled otherwise.
  init?(_ expression: ExprSyntax, diagnostics: inout [Diagnostic]) {
    if let access = expression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "self",
      let base = access.base
    {
      parentType = base.trimmedDescription
      target = .primaryKey
      return
    }
    if let keyPath = expression.as(KeyPathExprSyntax.self), let root = keyPath.root, keyPath.components.count == 1,
      let component = keyPath.components.first?.component.as(KeyPathPropertyComponentSyntax.self),
      component.declName.argumentNames == nil
    {
      parentType = root.trimmedDescription
      target = .property(component.declName.baseName.text)
      return
    }
    diagnostics.append(
      Diagnostic(
        node: expression,
        message: TableDiagnostic.invalidColumnArgument(
          "references", expected: "a table type written 'Parent.self', or one property written '\\Parent.property'")))
    return nil
  }

  /// The case name of an action written `.cascade` (or `ForeignKey.Action.cascade`), or `nil`
  /// with a diagnostic naming the argument.
  static func action(_ expression: ExprSyntax, label: String, diagnostics: inout [Diagnostic]) -> String? {
    if let access = expression.as(MemberAccessExprSyntax.self), access.declName.argumentNames == nil,
      actionNames.contains(access.declName.baseName.text),
      access.base == nil || ["ForeignKey.Action", "TandemCore.ForeignKey.Action", "Tandem.ForeignKey.Action"]
        .contains(access.base?.trimmedDescription ?? "")
    {
      return access.declName.baseName.text
    }
    diagnostics.append(
      Diagnostic(
        node: expression,
        message: TableDiagnostic.invalidColumnArgument(
          label, expected: "one of .noAction, .restrict, .setNull, .setDefault or .cascade")))
    return nil
  }

  /// Whether the parent is the struct being expanded (`Self`, or its own name).
  func isSelfReference(typeName: String) -> Bool {
    parentType == "Self" || parentType.strippingBackticks == typeName
  }
}
