import Foundation
import Tandem

/// One column of each storage class, for values that must survive the round trip exactly.
@Table struct Sample: Equatable {
  let id: Int
  var text: String = ""
  var data: Data = Data()
  var integer: Int64 = 0
  var real: Double = 0
}
