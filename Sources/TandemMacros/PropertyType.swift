import SwiftSyntax

/// What `@Table` can tell about a property's type from its spelling alone.
enum PropertyType {
  /// The type of an integer primary key that lets SQLite assign the key (and so gets a `Draft`).
  static let integerKeyNames: Set<String> = [
    "Int", "Int64", "Int32", "Int16", "Int8",
    "Swift.Int", "Swift.Int64", "Swift.Int32", "Swift.Int16", "Swift.Int8",
  ]

  /// The wrapped type when `type` is spelled as an optional (`T?`, `T!`, `Optional<T>`).
  static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
    if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
    if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return implicit.wrappedType }
    if let name = genericName(type), name == "Optional" || name == "Swift.Optional",
      let arguments = genericArguments(type), arguments.count == 1,
      case .type(let wrapped) = arguments.first?.argument
    {
      return wrapped
    }
    return nil
  }

  /// `type` spelled so that it can start an expression (`Swift.Optional<Date>.self` rather than
  /// `Date?.self`, whose `?` would read as optional chaining).
  static func expressionSpelling(_ type: TypeSyntax) -> TypeSyntax {
    guard type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self),
      let wrapped = optionalWrapped(type)
    else { return type.trimmed }
    return "Swift.Optional<\(expressionSpelling(wrapped))>"
  }

  /// `representation` as the storage type of a property of type `propertyType`: an optional
  /// property stores an optional representation.
  static func storage(representation: TypeSyntax, propertyType: TypeSyntax) -> TypeSyntax {
    let representation = representation.trimmed
    guard optionalWrapped(propertyType) != nil, optionalWrapped(representation) == nil else {
      return representation
    }
    return TypeSyntax(OptionalTypeSyntax(wrappedType: representation))
  }

  /// Why a type can never be a `ColumnType`, and what to do instead, for the types that the
  /// spelling gives away: collections, tuples and functions. `nil` when nothing is known.
  static func nonColumnAdvice(_ type: TypeSyntax) -> (advice: String, json: TypeSyntax?)? {
    let base = optionalWrapped(type) ?? type
    if let array = base.as(ArrayTypeSyntax.self) {
      let element = array.element.trimmedDescription
      if element == "UInt8" || element == "Swift.UInt8" { return nil }
      return jsonAdvice(base)
    }
    if base.is(DictionaryTypeSyntax.self) { return jsonAdvice(base) }
    if let name = genericName(base), ["Array", "Set", "Dictionary"].contains(name.replacingSwiftPrefix) {
      return jsonAdvice(base)
    }
    if let tuple = base.as(TupleTypeSyntax.self), tuple.elements.count != 1 {
      return ("store its parts in separate properties, or mark it @Ignored and give it a default value", nil)
    }
    if base.is(FunctionTypeSyntax.self) || base.as(AttributedTypeSyntax.self)?.baseType.is(FunctionTypeSyntax.self) == true {
      return ("mark it @Ignored and give it a default value", nil)
    }
    return nil
  }

  private static func jsonAdvice(_ base: TypeSyntax) -> (advice: String, json: TypeSyntax?) {
    let json: TypeSyntax = "JSONRepresentation<\(base.trimmed)>"
    return ("store it with @Column(as: \(json).self)", json)
  }

  private static func genericName(_ type: TypeSyntax) -> String? {
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause != nil {
      return identifier.name.text
    }
    if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause != nil {
      return member.baseType.trimmedDescription + "." + member.name.text
    }
    return nil
  }

  private static func genericArguments(_ type: TypeSyntax) -> GenericArgumentListSyntax? {
    type.as(IdentifierTypeSyntax.self)?.genericArgumentClause?.arguments
      ?? type.as(MemberTypeSyntax.self)?.genericArgumentClause?.arguments
  }
}

extension String {
  fileprivate var replacingSwiftPrefix: String {
    hasPrefix("Swift.") ? String(dropFirst("Swift.".count)) : self
  }
}
