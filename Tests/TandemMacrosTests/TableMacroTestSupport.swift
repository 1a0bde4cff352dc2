import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import TandemMacros

/// The macros as the `Tandem` module declares them; `Table` adds the `Table` conformance.
let tandemMacros: [String: MacroSpec] = [
  "Table": MacroSpec(type: TableMacro.self, conformances: ["Table"]),
  "Column": MacroSpec(type: ColumnMacro.self),
  "Ignored": MacroSpec(type: IgnoredMacro.self),
]

/// The macros for a struct that already declares `Table`: the compiler then asks for no conformance.
let tandemMacrosWithoutConformance: [String: MacroSpec] = [
  "Table": MacroSpec(type: TableMacro.self),
  "Column": MacroSpec(type: ColumnMacro.self),
  "Ignored": MacroSpec(type: IgnoredMacro.self),
]

/// `assertMacroExpansion` with Tandem's macros and the project's two-space indentation.
func assertTableExpansion(
  _ source: String,
  expandedSource: String,
  diagnostics: [DiagnosticSpec] = [],
  macros: [String: MacroSpec] = tandemMacros,
  applyFixIts: [String]? = nil,
  fixedSource: String? = nil,
  file: StaticString = #filePath,
  line: UInt = #line
) {
  assertMacroExpansion(
    source,
    expandedSource: expandedSource,
    diagnostics: diagnostics,
    macroSpecs: macros,
    applyFixIts: applyFixIts,
    fixedSource: fixedSource,
    indentationWidth: .spaces(2),
    file: file,
    line: line)
}
