import SwiftSyntax

/// How visible a declaration is, as far as generated code cares: `private` and `fileprivate`
/// members are generated `internal`, which their type's own access caps.
enum AccessLevel: Int, Comparable {
  case `internal`, package, `public`

  /// The level written in `modifiers` (internal when none is).
  init(_ modifiers: DeclModifierListSyntax) {
    self = .internal
    for modifier in modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.open): self = .public
      case .keyword(.package): self = .package
      default: continue
      }
    }
  }

  /// The modifier to write before a generated declaration, with a trailing space, or `""`.
  var modifier: String {
    switch self {
    case .internal: ""
    case .package: "package "
    case .public: "public "
    }
  }

  static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
