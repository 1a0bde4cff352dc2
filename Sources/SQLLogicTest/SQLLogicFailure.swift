/// A record that did not give the expected outcome.
///
/// ```swift
/// print(failure)  // select1.test:120: wrong result\n  SELECT …\n  expected: …\n  actual: …
/// ```
public struct SQLLogicFailure: Sendable, Hashable, CustomStringConvertible {
  /// The file the record is in.
  public var file: String
  /// The record's first line.
  public var line: Int
  /// The record's SQL.
  public var sql: String
  /// What went wrong (`wrong result`, `statement failed: …`).
  public var reason: String
  /// The expected result lines (empty for statements).
  public var expected: [String]
  /// The lines the engine's result rendered to (values or the hash line).
  public var actual: [String]

  /// A failure.
  ///
  /// ```swift
  /// SQLLogicFailure(file: "a.test", line: 3, sql: "SELECT 1", reason: "wrong result", expected: ["2"], actual: ["1"])
  /// ```
  public init(file: String, line: Int, sql: String, reason: String, expected: [String] = [], actual: [String] = []) {
    self.file = file
    self.line = line
    self.sql = sql
    self.reason = reason
    self.expected = expected
    self.actual = actual
  }

  /// The failure as the CLI prints it, long results shortened.
  public var description: String {
    var text = "\(file):\(line): \(reason)\n"
    text += sql.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    if !expected.isEmpty || !actual.isEmpty {
      text += "\n  expected: " + Self.shortened(expected)
      text += "\n  actual:   " + Self.shortened(actual)
    }
    return text
  }

  private static func shortened(_ lines: [String]) -> String {
    let shown = lines.prefix(24).joined(separator: " | ")
    return lines.count > 24 ? shown + " | … (\(lines.count) lines)" : shown
  }
}
