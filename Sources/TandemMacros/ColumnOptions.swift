import SwiftDiagnostics
import SwiftSyntax

/// The arguments of one `@Column(...)` attribute.
struct ColumnOptions {
  /// The column name, when it differs from the property name.
  var name: String?
  /// `true` or `false` when written; `nil` leaves the decision to the `id` convention.
  var primaryKey: Bool?
  /// The representation type from `as: Rep.self`, as written.
  var representation: TypeSyntax?
  /// Whether the column is `UNIQUE`.
  var unique = false
  /// The foreign key from `references:`, with its actions.
  var reference: ColumnReference?

  /// Reads the attribute's arguments, reporting any that are not literals.
  init(attribute: AttributeSyntax, diagnostics: inout [Diagnostic]) {
    guard let arguments = attribute.arguments?.as(LabeledExprListSyntax.self) else { return }
    // The actions belong to the reference, which may come after them.
    var actions: [(label: String, expression: ExprSyntax)] = []
    for argument in arguments {
      let expression = argument.expression
      switch argument.label?.text {
      case nil:
        if expression.is(NilLiteralExprSyntax.self) { continue }
        guard let name = StringLiteralText.plainValue(of: expression) else {
          diagnostics.append(
            Diagnostic(
              node: expression,
              message: TableDiagnostic.invalidColumnArgument("name", expected: "a plain string literal")))
          continue
        }
        self.name = name
      case "primaryKey":
        if expression.is(NilLiteralExprSyntax.self) { continue }
        guard let value = expression.as(BooleanLiteralExprSyntax.self) else {
          diagnostics.append(
            Diagnostic(
              node: expression,
              message: TableDiagnostic.invalidColumnArgument("primaryKey", expected: "true or false")))
          continue
        }
        primaryKey = value.literal.tokenKind == .keyword(.true)
      case "unique":
        guard let value = expression.as(BooleanLiteralExprSyntax.self) else {
          diagnostics.append(
            Diagnostic(
              node: expression,
              message: TableDiagnostic.invalidColumnArgument("unique", expected: "true or false")))
          continue
        }
        unique = value.literal.tokenKind == .keyword(.true)
      case "as":
        guard let access = expression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "self",
          let base = access.base
        else {
          diagnostics.append(
            Diagnostic(
              node: expression,
              message: TableDiagnostic.invalidColumnArgument(
                "representation", expected: "a type written 'Representation.self'")))
          continue
        }
        representation = TypeSyntax(stringLiteral: base.trimmedDescription)
      case "references":
        reference = ColumnReference(expression, diagnostics: &diagnostics)
      case "onDelete", "onUpdate":
        actions.append((argument.label?.text ?? "", expression))
      default:
        continue
      }
    }
    for (label, expression) in actions {
      guard let action = ColumnReference.action(expression, label: label, diagnostics: &diagnostics) else { continue }
      if label == "onDelete" { reference?.onDelete = action } else { reference?.onUpdate = action }
    }
  }

  init() {}
}

/// Reads the text of string literals that have no interpolation and no escapes.
enum StringLiteralText {
  /// The literal's text, or `nil` when `expression` is not a plain string literal.
  static func plainValue(of expression: ExprSyntax) -> String? {
    guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
    var text = ""
    for segment in literal.segments {
      guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
      text += plain.content.text
    }
    // Escapes would need the compiler's rules to read; a raw string (`#"a\b"#`) has none.
    if literal.openingPounds == nil && text.contains("\\") { return nil }
    return text
  }

  /// Whether `literal` is a constant: no interpolated segments.
  static func isConstant(_ literal: StringLiteralExprSyntax) -> Bool {
    literal.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
  }
}
