import Foundation
import Tandem

/// Floating-point values in every kind of column, some of which cannot hold NaN.
@Table struct Reading: Equatable {
  let id: Int
  var ratio: Float = 0
  var score: Double?
  @Column(as: JSONRepresentation<[Double]>.self) var samples: [Double] = []
}
