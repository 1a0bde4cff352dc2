import Foundation

/// Types whose expressions support arithmetic (`+ - * / %`, `abs`, `sum`, `avg`).
/// Conformances are Tandem's; don't add your own.
public protocol _NumericQueryValue {}
/// Types whose expressions are text (`+` concatenates, `lower`, `like`, …).
public protocol _TextQueryValue {}
/// `Bool` and `Bool?`: what a `where` or `having` predicate evaluates to.
public protocol _BooleanQueryValue {}
/// `Optional`: lets aggregates such as `max()` avoid returning a doubly optional type.
public protocol _OptionalQueryValue { associatedtype _Wrapped }

extension Int: _NumericQueryValue {}
extension Int8: _NumericQueryValue {}
extension Int16: _NumericQueryValue {}
extension Int32: _NumericQueryValue {}
extension Int64: _NumericQueryValue {}
extension UInt8: _NumericQueryValue {}
extension UInt16: _NumericQueryValue {}
extension UInt32: _NumericQueryValue {}
extension Double: _NumericQueryValue {}
extension Float: _NumericQueryValue {}
extension Decimal: _TextQueryValue {}
extension String: _TextQueryValue {}
extension Bool: _BooleanQueryValue {}

extension Optional: _NumericQueryValue where Wrapped: _NumericQueryValue {}
extension Optional: _TextQueryValue where Wrapped: _TextQueryValue {}
extension Optional: _BooleanQueryValue where Wrapped: _BooleanQueryValue {}
extension Optional: _OptionalQueryValue { public typealias _Wrapped = Wrapped }
