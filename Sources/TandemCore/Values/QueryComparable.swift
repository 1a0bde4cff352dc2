/// A ``ColumnType`` whose stored SQLite order is its Swift order, so that `<`, `between`,
/// `order { }`, `min()` and `max()` compile for it.
///
/// Tandem's integers, `Bool` (`false < true`), `Double`, `Float`, `String` (by Unicode scalars,
/// which is Swift's `<` for NFC text), `Date` in every representation and
/// ``Decimal/FixedPointRepresentation`` conform, and so does `Optional` of any of them. `Data`,
/// `UUID`, `URL`, `Decimal` (stored as exact text, where `"10" < "9.99"`) and
/// ``JSONRepresentation`` do not: ordering their stored text would not be their Swift order.
///
/// Declare it for your own type when its stored order is the order you mean, and for a
/// `RawRepresentable` enum to order by its raw value:
///
/// ```swift
/// enum Priority: Int, ColumnType, QueryComparable { case low = 1, medium, high }
/// Reminder.order { $0.priority.desc() }   // ORDER BY "priority" DESC
/// ```
public protocol QueryComparable: ColumnType {}

extension Int: QueryComparable {}
extension Int8: QueryComparable {}
extension Int16: QueryComparable {}
extension Int32: QueryComparable {}
extension Int64: QueryComparable {}
extension UInt8: QueryComparable {}
extension UInt16: QueryComparable {}
extension UInt32: QueryComparable {}
/// `false` sorts before `true`, as SQLite stores them as 0 and 1.
extension Bool: QueryComparable {}
extension Double: QueryComparable {}
extension Float: QueryComparable {}
/// SQLite compares UTF-8 bytes, which is Unicode scalar order: Swift's `<` for NFC text.
extension String: QueryComparable {}
extension Optional: QueryComparable where Wrapped: QueryComparable {}
