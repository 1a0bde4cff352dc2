import Tandem

/// Operands for arithmetic: ordinary values, zero divisors, the integer limits and infinities.
@Table struct Operand: Equatable {
  let id: Int
  var x = 0
  var y = 0
  var r = 0.0
  var s = 0.0
  var n: Int?
}

extension Operand {
  static let samples = [
    Operand(id: 1, x: 7, y: 2, r: 7.5, s: 2.0, n: nil),
    Operand(id: 2, x: -7, y: 3, r: -7.5, s: 0.0, n: 1),
    Operand(id: 3, x: Int.max, y: 0, r: .infinity, s: .infinity, n: nil),
    Operand(id: 4, x: Int.min, y: -1, r: 1e308, s: 10, n: nil),
  ]
}
