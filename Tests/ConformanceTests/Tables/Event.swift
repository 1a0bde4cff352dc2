import Foundation
import Tandem

/// A Codable value stored as JSON.
struct Venue: Codable, Sendable, Equatable {
  var name: String
  var seats: Int
}

/// Columns stored through representations: Unix time integers and JSON text.
@Table struct Event: Equatable {
  let id: Int
  @Column(as: Date.UnixTimeRepresentation.self) var startsAt: Date
  @Column(as: Date.UnixTimeRepresentation.self) var endsAt: Date?
  @Column(as: JSONRepresentation<[String]>.self) var tags: [String] = []
  @Column(as: JSONRepresentation<Venue>.self) var venue: Venue
}
