import Foundation
import Tandem
import Testing

/// Columns stored through representations (Unix time, JSON) store the same values, compare and
/// order the same on every backend; the default ISO-8601 dates sort chronologically.
@Suite struct RepresentationTests {
  static let venue = Venue(name: "Hall", seats: 100)
  static let events = [
    Event(id: 1, startsAt: Date(timeIntervalSince1970: 60), endsAt: nil, tags: ["a", "b"], venue: venue),
    Event(
      id: 2, startsAt: Date(timeIntervalSince1970: -86_400), endsAt: Date(timeIntervalSince1970: 0), tags: [],
      venue: Venue(name: "Park", seats: 0)),
    Event(id: 3, startsAt: Date(timeIntervalSince1970: 1_700_000_000), endsAt: nil, tags: ["b"], venue: venue),
  ]

  @Test(arguments: BackendKind.allCases)
  func unixTimeAndJSONColumns(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Event.self)
    try db.insert(Self.events)
    #expect(try db.fetchAll(Event.all) == Self.events)
    #expect(
      try db.storedRows(of: "events", columns: ["startsAt", "endsAt", "tags", "venue"])
        == [
          [60, nil, #"["a","b"]"#, #"{"name":"Hall","seats":100}"#],
          [-86_400, 0, "[]", #"{"name":"Park","seats":0}"#],
          [1_700_000_000, nil, #"["b"]"#, #"{"name":"Hall","seats":100}"#],
        ])

    #expect(try db.fetchAll(Event.where { $0.startsAt < Date(timeIntervalSince1970: 100) }).map(\.id) == [1, 2])
    #expect(try db.fetchAll(Event.where { $0.startsAt == Date(timeIntervalSince1970: 60) }).map(\.id) == [1])
    #expect(try db.fetchAll(Event.where { $0.endsAt.isNull() }).map(\.id) == [1, 3])
    // JSON columns offer no `==` (equal values may be written as different text); see
    // CompileTimeRejectionTests.
    #expect(try db.fetchAll(Event.order { $0.startsAt.desc() }).map(\.id) == [3, 1, 2])
    #expect(try db.fetchAll(Event.all.select { $0.startsAt }).map(\.represented) == Self.events.map(\.startsAt))

    try db.update(Event.where { $0.id == 1 }) {
      $0.set(\.startsAt, to: Date(timeIntervalSince1970: 120.9))
      $0.set(\.tags, to: ["c"])
    }
    // Unix time keeps whole seconds.
    #expect(try db.fetchOne(Event.where { $0.id == 1 })?.startsAt == Date(timeIntervalSince1970: 120))
    #expect(try db.fetchOne(Event.where { $0.id == 1 })?.tags == ["c"])
  }

  @Test(arguments: BackendKind.allCases)
  func isoDatesSortChronologically(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Reminder.self)
    let dates = [1_700_000_000.5, -1_000_000.0, 0.001, 253_402_300_799.0].map(Date.init(timeIntervalSince1970:))
    try db.insert(dates.enumerated().map { Reminder(id: $0.offset + 1, dueDate: $0.element) } + [Reminder(id: 5)])
    #expect(try db.fetchAll(Reminder.all.select { $0.dueDate }) == dates + [nil])
    #expect(try db.fetchAll(Reminder.order { $0.dueDate.desc() }).map(\.id) == [4, 1, 3, 2, 5])
    #expect(try db.fetchAll(Reminder.where { $0.dueDate > Date(timeIntervalSince1970: 0) }).map(\.id) == [1, 3, 4])
    #expect(
      try db.storedRows(of: "reminders", columns: ["dueDate"]).map { $0[0] }
        == ["2023-11-14T22:13:20.500Z", "1969-12-20T10:13:20.000Z", "1970-01-01T00:00:00.001Z", "9999-12-31T23:59:59.000Z", nil])
  }
}
