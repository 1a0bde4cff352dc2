import Foundation
import Tandem

/// Decimal amounts: fixed point in hundredths (compared, ordered and summed as numbers) and the
/// default exact text (equality only).
@Table struct Payment: Equatable {
  let id: Int
  @Column(as: Decimal.FixedPointRepresentation<Hundredths>.self) var amount: Decimal
  @Column(as: Decimal.FixedPointRepresentation<Hundredths>?.self) var fee: Decimal?
  var exact: Decimal = 0
}
