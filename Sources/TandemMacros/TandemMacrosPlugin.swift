import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides Tandem's macros.
@main
struct TandemMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    TableMacro.self,
    ColumnMacro.self,
    IgnoredMacro.self,
  ]
}
