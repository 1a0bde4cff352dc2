import SwiftSyntax
import SwiftSyntaxMacros

/// `@Column(...)`: a marker read by `@Table`; it generates nothing itself.
public enum ColumnMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}

/// `@Ignored`: a marker read by `@Table` that keeps a stored property out of the table.
public enum IgnoredMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
