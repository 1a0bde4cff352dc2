import SwiftDiagnostics
import SwiftSyntax

/// One index of `@Table(indexes: [.index("by_title", on: ["title"], unique: true)])`, read from
/// its literals.
struct IndexDeclaration {
  /// The index name, when one is written.
  var name: String?
  /// The indexed column names, in order.
  var columns: [String]
  /// Whether the index is `UNIQUE`.
  var unique: Bool
  /// Each column's literal, for diagnostics.
  var columnNodes: [Syntax]
  /// The whole index, for diagnostics.
  var node: Syntax

  /// The indexes of an `indexes:` argument; each element that is not written with literals is
  /// reported and left out.
  static func read(_ expression: ExprSyntax, diagnostics: inout [Diagnostic]) -> [IndexDeclaration] {
    guard let array = expression.as(ArrayExprSyntax.self) else {
      diagnostics.append(Diagnostic(node: expression, message: TableDiagnostic.invalidIndex))
      return []
    }
    return array.elements.compactMap { element in
      guard let index = IndexDeclaration(element.expression) else {
        diagnostics.append(Diagnostic(node: element.expression, message: TableDiagnostic.invalidIndex))
        return nil
      }
      return index
    }
  }

  /// `.index("name", on: ["a", "b"], unique: true)` (or `IndexSchema.index(…)`), or `nil`.
  private init?(_ expression: ExprSyntax) {
    guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
      let callee = call.calledExpression.as(MemberAccessExprSyntax.self), callee.declName.baseName.text == "index",
      callee.base == nil || ["IndexSchema", "TandemCore.IndexSchema", "Tandem.IndexSchema"]
        .contains(callee.base?.trimmedDescription ?? "")
    else { return nil }
    var name: String?
    var columns: [String]?
    var nodes: [Syntax] = []
    var unique = false
    for argument in call.arguments {
      switch argument.label?.text {
      case nil:
        if argument.expression.is(NilLiteralExprSyntax.self) { continue }
        guard let text = StringLiteralText.plainValue(of: argument.expression) else { return nil }
        name = text
      case "on":
        guard let list = argument.expression.as(ArrayExprSyntax.self) else { return nil }
        var names: [String] = []
        for element in list.elements {
          guard let text = StringLiteralText.plainValue(of: element.expression) else { return nil }
          names.append(text)
          nodes.append(Syntax(element.expression))
        }
        columns = names
      case "unique":
        guard let value = argument.expression.as(BooleanLiteralExprSyntax.self) else { return nil }
        unique = value.literal.tokenKind == .keyword(.true)
      default:
        return nil
      }
    }
    guard let columns else { return nil }
    self.name = name
    self.columns = columns
    self.unique = unique
    self.columnNodes = nodes
    self.node = Syntax(expression)
  }
}
