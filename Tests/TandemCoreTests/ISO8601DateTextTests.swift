import Foundation
import TandemCore
import Testing
import SQLiteReference

/// The default `Date` column reads exactly the texts SQLite's date functions read (as the same
/// instant, to the millisecond), except those SQLite would silently change, and writes the text
/// SQLite itself formats for that instant. SQLite is the oracle: every candidate is also given
/// to `julianday()`.
@Suite struct ISO8601DateTextTests {
  /// Candidate texts: every combination of these parts, valid or not.
  static let dates = ["1969-03-01", "2024-02-29", "-0001-03-01", "0000-01-01", "9999-12-31", "2023-02-29", "1969-04-31", "1969-3-01", ""]
  static let separators = ["", " ", "T", "T ", "\t", "x"]
  static let times = [
    "", "10:20", "00:00:00", "10:20:30", "10:20:30.5", "10:20:30.123456", "23:59:59.9996", "24:00", "1:20", "10:20:3",
    "10:20:30.", "10:60",
  ]
  static let zones = ["", "Z", "z", "+02:00", " -02:30", "+14:59", "+15:00", "+2:00", "+0200", " Z"]
  static let endings = ["", " ", "x"]

  static var candidates: [String] {
    var texts: [String] = []
    for date in dates {
      for separator in separators {
        for time in times {
          for zone in zones {
            for ending in endings { texts.append(date + separator + time + zone + ending) }
          }
        }
      }
    }
    return texts
  }

  /// SQLite reads these, but Tandem refuses them: SQLite normalizes them into another instant
  /// (April 31 is May 1, 24:00 is the next day), or reads a bare number as a Julian day.
  static func tandemRefuses(_ text: String) -> Bool {
    text.contains("2023-02-29") || text.contains("1969-04-31") || text.contains("24:00")
      || Double(text.trimmingCharacters(in: .whitespaces)) != nil
  }

  @Test func decodesExactlyWhatSQLiteReads() throws {
    let sqlite = try SQLiteHandle()
    var accepted = 0
    for text in Self.candidates {
      let oracle = try sqlite.rows(
        "SELECT CAST(round((julianday(?) - 2440587.5) * 86400000.0) AS INTEGER)", bindings: [.text(text)])
      let decoded = Date.decode(sqliteValue: .text(text))
      switch (oracle.first?.first, decoded) {
      case (.integer(let milliseconds)?, let date?):
        accepted += 1
        #expect(Int64((date.timeIntervalSince1970 * 1000).rounded()) == milliseconds, "\(text.debugDescription)")
      case (.integer?, nil):
        #expect(Self.tandemRefuses(text), "SQLite reads \(text.debugDescription), Tandem does not")
      case (_, let date?):
        Issue.record("Tandem reads \(text.debugDescription) as \(date), SQLite does not")
      default:
        break
      }
    }
    // The corpus is not all rejections.
    #expect(accepted > 1000)
  }

  /// What Tandem writes is the text SQLite formats for the same instant, and reads back as it.
  @Test func writesTheTextSQLiteFormats() throws {
    let sqlite = try SQLiteHandle()
    var generator = SystemRandomNumberGenerator()
    let first = -62_167_219_200_000 as Int64
    let last = 253_402_300_799_999 as Int64
    let milliseconds = [first, last, 0, -1, 951_825_600_001] + (0..<500).map { _ in Int64.random(in: first...last, using: &generator) }
    for ms in milliseconds {
      let date = Date(timeIntervalSince1970: Double(ms) / 1000)
      guard case .text(let text) = date.sqliteValue else {
        Issue.record("no text for \(ms) ms")
        continue
      }
      let oracle = try sqlite.rows("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', ?)", bindings: [.text(text)])
      #expect(oracle == [[.text(text)]], "\(ms) ms")
      #expect(Date.decode(sqliteValue: .text(text)) == date)
      #expect((try? date.validateForStorage()) != nil)
    }
    // One millisecond outside years 0000-9999 is not written.
    for ms in [first - 1, last + 1] {
      #expect(throws: TandemError.self) { try Date(timeIntervalSince1970: Double(ms) / 1000).validateForStorage() }
    }
  }
}
