import SwiftSyntax

/// Writes the code `@Table` generates for a ``TableModel``: members, `Draft`, and the `Table`
/// conformance.
///
/// Every type is fully qualified and every member `nonisolated`, so the code compiles the same in
/// any module and under any default isolation.
struct TableExpansion {
  let model: TableModel

  // MARK: - Members

  /// The members written into the struct's body, where its types are in scope: `Columns`,
  /// `columns`, `tableName`, `schema` and `encode(to:)`. No initializer, so the struct keeps its
  /// memberwise one.
  func members() -> [String] {
    let access = model.access.modifier
    let columnProperties = model.columns.map { "\($0.access.modifier)let \($0.identifier) = \(columnExpression($0))" }
    return [
      """
      \(access)nonisolated struct Columns: TandemCore.TableColumns {
      \(columnProperties.joined(separator: "\n"))
      }
      """,
      "\(access)nonisolated static let columns = Columns()",
      "\(access)nonisolated static let tableName = \(Self.literal(model.tableName))",
      """
      \(access)nonisolated static let schema = TandemCore.TableSchema(
      \(Self.literal(model.tableName)),
      columns: [
      \(model.columns.map(columnSchema).joined(separator: ",\n"))
      ],
      indexes: [\(model.indexes.map(Self.indexSchema).joined(separator: ", "))]
      )
      """,
      """
      \(access)nonisolated func encode(to row: inout TandemCore.RowEncoder) {
      \(model.columns.map(encodeStatement).joined(separator: "\n"))
      }
      """,
    ]
  }

  // MARK: - The conformance

  /// `extension Reminder: TandemCore.Table { init(row:) }`.
  ///
  /// An extension sits at file scope, where a type declared beside a nested struct is not in
  /// scope, so `init(row:)` names no property type: it lets each value's type be inferred, and
  /// takes a representation from the column's own `ColumnExpression<Representation>`.
  func conformance(of type: String, addsConformance: Bool) -> String {
    let access = model.access.modifier
    let inheritance = addsConformance ? ": TandemCore.Table" : ""
    var body: [String] = []
    if model.columns.contains(where: { $0.representation != nil }) {
      body.append(
        """
        func represented<R: TandemCore.ColumnRepresentation>(_ column: TandemCore.ColumnExpression<R>) throws -> R.Represented {
        try row.decode(as: R.self)
        }
        """)
    }
    body += model.columns.map(decodeStatement)
    return """
      nonisolated extension \(type)\(inheritance) {
      \(access)nonisolated init(row: inout TandemCore.RowDecoder) throws {
      \(body.joined(separator: "\n"))
      }
      }
      """
  }

  private func columnExpression(_ column: ColumnProperty) -> String {
    "TandemCore.ColumnExpression<\(column.storageType)>(\(Self.literal(column.columnName)))"
  }

  private func columnSchema(_ column: ColumnProperty) -> String {
    let storage = PropertyType.expressionSpelling(column.storageType)
    var arguments = [Self.literal(column.columnName), "\(storage).sqliteTypeName"]
    if column.isPrimaryKey {
      arguments.append("primaryKey: true")
    } else if column.isUnique {
      arguments.append("unique: true")
    }
    if column.hasConstantDefault, let value = column.defaultValue {
      if column.representation != nil {
        arguments.append("default: \(storage)(\(value)).sqliteValue")
      } else {
        arguments.append("default: (\(value) as \(column.storageType)).sqliteValue")
      }
    }
    if let reference = column.reference {
      arguments.append("references: \(foreignKey(reference))")
    }
    return ".column(" + arguments.joined(separator: ", ") + ")"
  }

  /// The `ForeignKey` of a reference. The struct's own key and columns are written as literals
  /// (its schema is being built); another table's are read from its type.
  private func foreignKey(_ reference: ColumnReference) -> String {
    var actions = ""
    if reference.onDelete != "noAction" { actions += ", onDelete: .\(reference.onDelete)" }
    if reference.onUpdate != "noAction" { actions += ", onUpdate: .\(reference.onUpdate)" }
    let parent = reference.parentType
    if reference.isSelfReference(typeName: model.typeName) {
      let column: String? =
        switch reference.target {
        case .primaryKey: model.columns.first(where: \.isPrimaryKey)?.columnName
        case .property(let identifier): model.columns.first(where: { $0.name == identifier.strippingBackticks })?.columnName
        }
      return "TandemCore.ForeignKey.table(\(Self.literal(model.tableName)), column: \(Self.literal(column ?? ""))\(actions))"
    }
    switch reference.target {
    case .primaryKey:
      return "TandemCore.ForeignKey.table(\(parent).self\(actions))"
    case .property(let identifier):
      return "TandemCore.ForeignKey.table(\(parent).tableName, column: \(parent).columns.\(identifier).name\(actions))"
    }
  }

  private static func indexSchema(_ index: IndexDeclaration) -> String {
    var arguments: [String] = []
    if let name = index.name { arguments.append(literal(name)) }
    arguments.append("on: [" + index.columns.map(literal).joined(separator: ", ") + "]")
    if index.unique { arguments.append("unique: true") }
    return ".index(" + arguments.joined(separator: ", ") + ")"
  }

  private func decodeStatement(_ column: ColumnProperty) -> String {
    guard column.representation != nil else { return "self.\(column.identifier) = try row.decode()" }
    return "self.\(column.identifier) = try represented(Self.columns.\(column.identifier))"
  }

  private func encodeStatement(_ column: ColumnProperty) -> String {
    guard column.representation != nil else { return "row.encode(self.\(column.identifier))" }
    let storage = PropertyType.expressionSpelling(column.storageType)
    return "row.encode(self.\(column.identifier), as: \(storage).self)"
  }

  // MARK: - Draft

  /// `struct Draft: TandemCore.TableDraft { … }`, or `nil` when the table has no single integer key.
  func draft() -> String? {
    guard let key = model.draftKey else { return nil }
    let access = model.access.modifier
    // (declaration without default, default clause) per column; the key becomes optional.
    let properties = model.columns.map { column in
      column.name == key.name
        ? (declaration: "\(column.identifier): \(column.type)?", defaultClause: " = nil")
        : (declaration: "\(column.identifier): \(column.type)", defaultClause: column.defaultValue.map { " = \($0)" } ?? "")
    }
    var lines = [
      "\(access)nonisolated struct Draft: TandemCore.TableDraft, Swift.Sendable {",
      "\(access)typealias Record = \(model.typeName)",
    ]
    for (column, property) in zip(model.columns, properties) {
      lines.append("\(column.access.modifier)var \(property.declaration)\(property.defaultClause)")
    }
    // The memberwise initializer is at most internal: write it out when every property is public
    // (or package), with defaults as the memberwise one has them.
    if let initAccess = model.columns.map(\.access).min(), initAccess > .internal {
      let parameters = zip(model.columns, properties).map { column, property in
        let implicitNil = property.defaultClause.isEmpty && column.type.is(OptionalTypeSyntax.self)
        return property.declaration + (implicitNil ? " = nil" : property.defaultClause)
      }
      lines.append("\(initAccess.modifier)init(\(parameters.joined(separator: ", "))) {")
      lines += model.columns.map { "self.\($0.identifier) = \($0.identifier)" }
      lines.append("}")
    }
    lines.append("\(access)nonisolated func encode(to row: inout TandemCore.RowEncoder) {")
    lines += model.columns.map(encodeStatement)
    lines.append("}")
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// A Swift string literal for `text`.
  static func literal(_ text: String) -> String {
    StringLiteralExprSyntax(content: text).description
  }
}
