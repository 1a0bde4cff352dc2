/// How SQL equality of a column type's stored values relates to Swift's `==`; Tandem's own
/// types choose it, yours keep the default.
public protocol _QueryEqualityKind {}
/// Stored values are equal exactly when the Swift values are `==`, so `==`, `in` and `group`
/// compile.
public protocol _EqualityMatchesSwift: _QueryEqualityKind {}
/// The default: stored equality is Swift's `==`.
public enum _SwiftEquality: _EqualityMatchesSwift {}
/// Stored text equality is not Swift's `==` (JSON of a `Set` is written in any order), so `==`,
/// `in` and `group` do not compile.
public enum _JSONTextIsNotSwiftEquality: _QueryEqualityKind {}
