import Foundation
import Tandem

/// One date in every representation.
@Table struct Moment: Equatable {
  let id: Int
  var iso: Date?
  @Column(as: Date.ReferenceTimeIntervalRepresentation?.self) var exact: Date?
  @Column(as: Date.UnixTimeRepresentation?.self) var unix: Date?
  @Column(as: Date.UnixTimeIntervalRepresentation?.self) var unixInterval: Date?
  @Column(as: Date.JulianDayRepresentation?.self) var julian: Date?
}
