import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Table`: writes a struct's columns, schema and encoder (and `Draft`, for a single integer
/// primary key) into its body (member role), and adds the `TandemCore.Table` conformance with
/// `init(row:)` (extension role), which must stay out of the body to keep the memberwise initializer.
///
/// Problems with the properties are reported once, by the extension role; the member role reports
/// only a declaration that is not a struct.
public enum TableMacro {}

extension TableMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard let structDecl = declaration.as(StructDeclSyntax.self) else { return [] }
    let analysis = TableAnalysis(attribute: node, structDecl: structDecl)
    analysis.diagnostics.forEach(context.diagnose)
    guard analysis.isValid, let model = analysis.model else { return [] }
    let source = TableExpansion(model: model).conformance(
      of: type.trimmedDescription, addsConformance: !protocols.isEmpty)
    guard let extensionDecl = DeclSyntax(stringLiteral: source).as(ExtensionDeclSyntax.self) else { return [] }
    return [extensionDecl]
  }
}

extension TableMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let structDecl = declaration.as(StructDeclSyntax.self) else {
      context.diagnose(Diagnostic(node: node, message: TableDiagnostic.notAStruct(kindName(of: declaration))))
      return []
    }
    let analysis = TableAnalysis(attribute: node, structDecl: structDecl)
    guard analysis.isValid, let model = analysis.model else { return [] }
    let expansion = TableExpansion(model: model)
    return (expansion.members() + [expansion.draft()].compactMap { $0 }).map(DeclSyntax.init(stringLiteral:))
  }

  private static func kindName(of declaration: some DeclGroupSyntax) -> String {
    switch declaration.kind {
    case .classDecl: "a class"
    case .enumDecl: "an enum"
    case .actorDecl: "an actor"
    case .protocolDecl: "a protocol"
    case .extensionDecl: "an extension"
    default: "this declaration"
    }
  }
}
