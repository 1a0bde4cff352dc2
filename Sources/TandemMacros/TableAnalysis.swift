import SwiftDiagnostics
import SwiftSyntax

/// Reads a `@Table` struct into a ``TableModel``, collecting every problem as a diagnostic.
struct TableAnalysis {
  /// The table, when the struct could be read.
  private(set) var model: TableModel?
  /// The problems found, each naming the property and the fix.
  private(set) var diagnostics: [Diagnostic] = []

  /// Whether the model may be expanded.
  var isValid: Bool { model != nil && diagnostics.allSatisfy { $0.diagMessage.severity != .error } }

  init(attribute: AttributeSyntax, structDecl: StructDeclSyntax) {
    let typeName = structDecl.name.text.strippingBackticks
    var tableName = TableNaming.tableName(forTypeNamed: typeName)
    var indexes: [IndexDeclaration] = []
    for argument in attribute.arguments?.as(LabeledExprListSyntax.self) ?? [] {
      switch argument.label?.text {
      case nil:
        if argument.expression.is(NilLiteralExprSyntax.self) { continue }
        if let name = StringLiteralText.plainValue(of: argument.expression) {
          tableName = name
        } else {
          diagnostics.append(Diagnostic(node: argument.expression, message: TableDiagnostic.tableNameNotLiteral))
        }
      case "indexes":
        indexes = IndexDeclaration.read(argument.expression, diagnostics: &diagnostics)
      default:
        continue
      }
    }

    let structAccess = AccessLevel(structDecl.modifiers)
    var columns: [ColumnProperty] = []
    var keyDeclarations: [String: VariableDeclSyntax] = [:]
    var columnNodes: [String: Syntax] = [:]
    for member in structDecl.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
      for column in readColumns(variable, structAccess: structAccess) {
        columns.append(column.property)
        columnNodes[column.property.name] = column.node
        if column.property.isPrimaryKey { keyDeclarations[column.property.name] = variable }
      }
    }
    checkPrimaryKeys(columns, keyDeclarations: keyDeclarations, nodes: columnNodes)
    checkColumnNames(columns, nodes: columnNodes)
    if columns.isEmpty && diagnostics.isEmpty {
      diagnostics.append(Diagnostic(node: attribute, message: TableDiagnostic.noColumns))
    }
    checkIndexes(indexes, columns: columns, tableName: tableName)
    checkSelfReferences(columns, typeName: typeName, nodes: columnNodes)

    model = TableModel(
      typeName: typeName, tableName: tableName, access: structAccess, columns: columns, indexes: indexes)
  }

  // MARK: - Properties

  private mutating func readColumns(
    _ variable: VariableDeclSyntax, structAccess: AccessLevel
  ) -> [(property: ColumnProperty, node: Syntax)] {
    let columnAttribute = Self.attribute(named: "Column", in: variable)
    let ignoredAttribute = Self.attribute(named: "Ignored", in: variable)
    let isMarked = columnAttribute != nil || ignoredAttribute != nil
    let isStatic = variable.modifiers.contains {
      $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
    }
    let isLazy = variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
    let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)

    var options = ColumnOptions()
    if let columnAttribute { options = ColumnOptions(attribute: columnAttribute, diagnostics: &diagnostics) }

    var result: [(ColumnProperty, Syntax)] = []
    let bindings = Array(variable.bindings)
    for (index, binding) in bindings.enumerated() {
      guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
        if !isStatic && !Self.isComputed(binding) {
          diagnostics.append(Diagnostic(node: binding.pattern, message: TableDiagnostic.unnamedBinding))
        }
        continue
      }
      let identifier = pattern.identifier.text
      let name = identifier.strippingBackticks
      if isStatic || isLazy || Self.isComputed(binding) {
        if isMarked {
          diagnostics.append(Diagnostic(node: pattern, message: TableDiagnostic.columnNotStored(name)))
        }
        continue
      }
      let initializer = binding.initializer?.value
      if ignoredAttribute != nil {
        if columnAttribute != nil {
          diagnostics.append(Diagnostic(node: pattern, message: TableDiagnostic.ignoredColumn(name)))
        }
        if initializer == nil && !Self.isImplicitlyNil(binding, bindings: bindings, index: index) {
          diagnostics.append(Diagnostic(node: pattern, message: TableDiagnostic.ignoredWithoutDefault(name)))
        }
        continue
      }
      if isLet, initializer != nil {
        diagnostics.append(
          Diagnostic(
            node: variable.bindingSpecifier,
            message: TableDiagnostic.letWithDefault(name),
            fixIt: FixIt(
              message: TableFixIt.useVar,
              changes: [
                .replace(
                  oldNode: Syntax(variable.bindingSpecifier),
                  newNode: Syntax(variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))))
              ])))
        continue
      }

      let literal = initializer.map(DefaultLiteral.init(expression:))
      guard let type = Self.declaredType(bindings: bindings, index: index) ?? literal?.inferredType else {
        diagnostics.append(Diagnostic(node: pattern, message: TableDiagnostic.missingType(name)))
        continue
      }
      if options.representation == nil, let problem = PropertyType.nonColumnAdvice(type) {
        diagnostics.append(nonColumnDiagnostic(variable, pattern: pattern, type: type, problem: problem))
        continue
      }

      let isPrimaryKey = options.primaryKey ?? (name == "id")
      let property = ColumnProperty(
        identifier: identifier,
        name: name,
        columnName: options.name ?? name,
        type: type,
        representation: options.representation,
        defaultValue: initializer?.trimmed,
        hasConstantDefault: literal?.isConstant ?? false,
        isPrimaryKey: isPrimaryKey,
        isExplicitKey: options.primaryKey == true,
        reference: options.reference,
        isUnique: options.unique,
        access: min(AccessLevel(variable.modifiers), structAccess))
      result.append((property, Syntax(pattern)))
    }
    return result
  }

  private func nonColumnDiagnostic(
    _ variable: VariableDeclSyntax, pattern: IdentifierPatternSyntax, type: TypeSyntax,
    problem: (advice: String, json: TypeSyntax?)
  ) -> Diagnostic {
    let name = pattern.identifier.text.strippingBackticks
    let message = TableDiagnostic.notColumnType(name, type: type.trimmedDescription, advice: problem.advice)
    guard let json = problem.json else { return Diagnostic(node: pattern, message: message) }
    let attribute: AttributeSyntax = "@Column(as: \(json).self)"
    return Diagnostic(
      node: pattern, message: message,
      fixIt: FixIt(
        message: TableFixIt.storeAsJSON(json.trimmedDescription),
        changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(Self.adding(attribute, to: variable)))]))
  }

  // MARK: - Keys and names

  private mutating func checkPrimaryKeys(
    _ columns: [ColumnProperty], keyDeclarations: [String: VariableDeclSyntax], nodes: [String: Syntax]
  ) {
    let keys = columns.filter(\.isPrimaryKey)
    // Keys marked `@Column(primaryKey: true)` make a composite key; a conventional `id` beside
    // them is ambiguous, so it carries the error and the fix-it.
    guard keys.count > 1 else { return }
    if let id = keys.first(where: { $0.name == "id" && !$0.isExplicitKey }),
      let other = keys.first(where: { $0.name != "id" }), let node = nodes[id.name]
    {
      var fixIts: [FixIt] = []
      if let declaration = keyDeclarations[id.name], Self.attribute(named: "Column", in: declaration) == nil {
        fixIts.append(
          FixIt(
            message: TableFixIt.notPrimaryKey(id.name),
            changes: [
              .replace(
                oldNode: Syntax(declaration),
                newNode: Syntax(Self.adding("@Column(primaryKey: false)", to: declaration)))
            ]))
      }
      diagnostics.append(
        Diagnostic(node: node, message: TableDiagnostic.duplicatePrimaryKey(other.name, id.name), fixIts: fixIts))
    }
  }

  private mutating func checkIndexes(
    _ indexes: [IndexDeclaration], columns: [ColumnProperty], tableName: String
  ) {
    let columnNames = Set(columns.map(\.columnName))
    for index in indexes {
      if index.columns.isEmpty {
        diagnostics.append(Diagnostic(node: index.node, message: TableDiagnostic.emptyIndex))
      }
      for (column, node) in zip(index.columns, index.columnNodes) where !columnNames.contains(column) {
        let property = columns.first { $0.name == column }
        diagnostics.append(
          Diagnostic(
            node: node,
            message: TableDiagnostic.unknownIndexColumn(column, table: tableName, storedIn: property?.columnName)))
      }
    }
  }

  /// A reference to the struct itself is resolved from its own columns: reading its own schema
  /// while building it would never finish.
  private mutating func checkSelfReferences(_ columns: [ColumnProperty], typeName: String, nodes: [String: Syntax]) {
    for column in columns {
      guard let reference = column.reference, let node = nodes[column.name] else { continue }
      if case .primaryKey = reference.target, !reference.isSelfReference(typeName: typeName),
        reference.parentType.split(separator: ".").last.map({ String($0).strippingBackticks }) == typeName
      {
        // `Outer.Node.self` inside `Node` would read the schema being built; another type of the
        // same name cannot be told apart from the spelling.
        diagnostics.append(
          Diagnostic(node: node, message: TableDiagnostic.qualifiedSelfReference(reference.parentType, typeName: typeName)))
        continue
      }
      guard reference.isSelfReference(typeName: typeName) else { continue }
      switch reference.target {
      case .primaryKey:
        if columns.filter(\.isPrimaryKey).count != 1 {
          diagnostics.append(Diagnostic(node: node, message: TableDiagnostic.selfReferenceNeedsOneKey(typeName)))
        }
      case .property(let identifier):
        let property = identifier.strippingBackticks
        if !columns.contains(where: { $0.name == property }) {
          diagnostics.append(
            Diagnostic(node: node, message: TableDiagnostic.unknownReferencedProperty(property, type: typeName)))
        }
      }
    }
  }

  private mutating func checkColumnNames(_ columns: [ColumnProperty], nodes: [String: Syntax]) {
    var seen: [String: ColumnProperty] = [:]
    for column in columns {
      if let earlier = seen[column.columnName], let node = nodes[column.name] {
        diagnostics.append(
          Diagnostic(
            node: node,
            message: TableDiagnostic.duplicateColumnName(earlier.name, column.name, column: column.columnName)))
      } else {
        seen[column.columnName] = column
      }
    }
  }

  // MARK: - Syntax questions

  static func attribute(named name: String, in variable: VariableDeclSyntax) -> AttributeSyntax? {
    for element in variable.attributes {
      guard let attribute = element.as(AttributeSyntax.self) else { continue }
      let written = attribute.attributeName.trimmedDescription
      if written == name || written == "Tandem." + name { return attribute }
    }
    return nil
  }

  /// A binding with a getter (not just observers) stores nothing.
  static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
    switch binding.accessorBlock?.accessors {
    case nil:
      return false
    case .getter:
      return true
    case .accessors(let accessors):
      return accessors.contains {
        $0.accessorSpecifier.tokenKind != .keyword(.willSet) && $0.accessorSpecifier.tokenKind != .keyword(.didSet)
      }
    }
  }

  /// The type written for the binding, or for the group it ends (`var a, b: Int`).
  static func declaredType(bindings: [PatternBindingSyntax], index: Int) -> TypeSyntax? {
    if let type = bindings[index].typeAnnotation?.type { return type.trimmed }
    guard bindings[index].initializer == nil else { return nil }
    for later in bindings[(index + 1)...] {
      if let type = later.typeAnnotation?.type { return type.trimmed }
      if later.initializer != nil { return nil }
    }
    return nil
  }

  /// A `var` of sugared optional type without a default starts out `nil`.
  static func isImplicitlyNil(_ binding: PatternBindingSyntax, bindings: [PatternBindingSyntax], index: Int) -> Bool {
    guard let type = declaredType(bindings: bindings, index: index),
      let parent = binding.parent?.parent?.as(VariableDeclSyntax.self),
      parent.bindingSpecifier.tokenKind == .keyword(.var)
    else { return false }
    return type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
  }

  /// `variable` with `attribute` written in front of it.
  static func adding(_ attribute: AttributeSyntax, to variable: VariableDeclSyntax) -> VariableDeclSyntax {
    let leading = variable.leadingTrivia
    var attributes = Array(variable.with(\.leadingTrivia, []).attributes)
    attributes.insert(.attribute(attribute.with(\.trailingTrivia, .space)), at: 0)
    return variable.with(\.leadingTrivia, []).with(\.attributes, AttributeListSyntax(attributes))
      .with(\.leadingTrivia, leading)
  }
}

extension String {
  /// The identifier without the backticks that escape a keyword.
  var strippingBackticks: String {
    hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
  }
}
