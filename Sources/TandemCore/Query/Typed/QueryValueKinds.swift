import Foundation

/// Types whose expressions add and subtract exactly as Swift does (`+`, `-`, prefix `-`, `abs`,
/// `sum`). Conformances are Tandem's; don't add your own.
public protocol _AdditiveQueryValue {}
/// Types whose expressions support all arithmetic (`*`, `/`, `avg`, `total`, `round` too).
/// Conformances are Tandem's; don't add your own.
public protocol _NumericQueryValue: _AdditiveQueryValue {}
/// Integer types: `%` is an integer remainder in SQLite (it truncates reals first), so only these
/// offer it. Conformances are Tandem's; don't add your own.
public protocol _IntegerQueryValue: _NumericQueryValue {}
/// Types whose expressions are text (`+` concatenates, `lower`, `like`, …).
public protocol _TextQueryValue {}
/// `Bool` and `Bool?`: what a `where` or `having` predicate evaluates to.
public protocol _BooleanQueryValue {}
/// `Optional`: lets aggregates such as `max()` avoid returning a doubly optional type.
public protocol _OptionalQueryValue { associatedtype _Wrapped }

extension Int: _IntegerQueryValue {}
extension Int8: _IntegerQueryValue {}
extension Int16: _IntegerQueryValue {}
extension Int32: _IntegerQueryValue {}
extension Int64: _IntegerQueryValue {}
extension UInt8: _IntegerQueryValue {}
extension UInt16: _IntegerQueryValue {}
extension UInt32: _IntegerQueryValue {}
extension Double: _NumericQueryValue {}
extension Float: _NumericQueryValue {}
extension Decimal.FixedPointRepresentation: _AdditiveQueryValue {}
extension String: _TextQueryValue {}
extension Bool: _BooleanQueryValue {}

extension Optional: _AdditiveQueryValue where Wrapped: _AdditiveQueryValue {}
extension Optional: _NumericQueryValue where Wrapped: _NumericQueryValue {}
extension Optional: _IntegerQueryValue where Wrapped: _IntegerQueryValue {}
extension Optional: _TextQueryValue where Wrapped: _TextQueryValue {}
extension Optional: _BooleanQueryValue where Wrapped: _BooleanQueryValue {}
extension Optional: _OptionalQueryValue { public typealias _Wrapped = Wrapped }
