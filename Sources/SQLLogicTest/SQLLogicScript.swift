import Foundation

/// A parsed sqllogictest file: its records in order.
///
/// Comment lines (`#` first) are removed before anything else, so they neither end a record nor
/// reach the SQL; records are separated by blank lines.
///
/// ```swift
/// let script = SQLLogicScript(parsing: """
///   statement ok
///   CREATE TABLE t1(a INTEGER)
///
///   query I nosort
///   SELECT count(*) FROM t1
///   ----
///   0
///   """)
/// script.records.count  // 2
/// ```
public struct SQLLogicScript: Sendable, Hashable {
  /// The records, in file order.
  public var records: [SQLLogicRecord]

  /// Parses a script's text.
  ///
  /// ```swift
  /// SQLLogicScript(parsing: "halt\n").records  // [SQLLogicRecord(kind: .halt, line: 1)]
  /// ```
  public init(parsing text: String) {
    var lines: [(number: Int, text: Substring)] = []
    var number = 0
    for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      number += 1
      let line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
      if line.first == UInt8(ascii: "#") { continue }
      lines.append((number, Substring(line)))
    }
    var records: [SQLLogicRecord] = []
    var block: [(number: Int, text: Substring)] = []
    for line in lines {
      if line.text.utf8.allSatisfy({ $0 == 0x20 || (0x09...0x0d).contains($0) }) {
        if !block.isEmpty { records.append(Self.record(from: block)) }
        block.removeAll(keepingCapacity: true)
      } else {
        block.append(line)
      }
    }
    if !block.isEmpty { records.append(Self.record(from: block)) }
    self.records = records
  }

  /// Reads and parses a script file.
  ///
  /// ```swift
  /// let script = try SQLLogicScript(contentsOf: URL(fileURLWithPath: "select1.test"))
  /// ```
  public init(contentsOf url: URL) throws {
    let data = try Data(contentsOf: url)
    self.init(parsing: String(decoding: data, as: UTF8.self))
  }

  /// One record from its non-comment lines.
  private static func record(from block: [(number: Int, text: Substring)]) -> SQLLogicRecord {
    var conditions: [SQLLogicRecord.Condition] = []
    var index = 0
    while index < block.count {
      let words = block[index].text.split(whereSeparator: \.isWhitespace)
      guard words.count >= 2, words[0] == "skipif" || words[0] == "onlyif" else { break }
      let engine = String(words[1])
      conditions.append(words[0] == "skipif" ? .skipIf(engine) : .onlyIf(engine))
      index += 1
    }
    let line = block[0].number
    guard index < block.count else {
      return SQLLogicRecord(kind: .invalid("a condition without a record"), conditions: conditions, line: line)
    }
    let words = block[index].text.split(whereSeparator: \.isWhitespace).map(String.init)
    let body = block[(index + 1)...].map { String($0.text) }
    let kind: SQLLogicRecord.Kind
    switch words.first ?? "" {
    case "statement":
      switch words.count > 1 ? words[1] : "" {
      case "ok": kind = .statement(expectsError: false, sql: body.joined(separator: "\n"))
      case "error": kind = .statement(expectsError: true, sql: body.joined(separator: "\n"))
      default: kind = .invalid("statement must be followed by ok or error: \(block[index].text)")
      }
    case "query":
      kind = query(words: words, body: body)
    case "hash-threshold":
      if words.count > 1, let threshold = Int(words[1]), threshold >= 0 {
        kind = .hashThreshold(threshold)
      } else {
        kind = .invalid("hash-threshold needs a count: \(block[index].text)")
      }
    case "halt":
      kind = .halt
    default:
      kind = .invalid("unknown record: \(block[index].text)")
    }
    return SQLLogicRecord(kind: kind, conditions: conditions, line: line)
  }

  /// A `query` record from its header words and the lines after the header.
  private static func query(words: [String], body: [String]) -> SQLLogicRecord.Kind {
    guard words.count > 1 else { return .invalid("query without a type string") }
    var types: [SQLLogicColumnType] = []
    for letter in words[1] {
      guard let type = SQLLogicColumnType(rawValue: letter) else {
        return .invalid("unknown type character \(letter) in \(words[1])")
      }
      types.append(type)
    }
    var sortMode = SQLLogicQuery.SortMode.noSort
    if words.count > 2 {
      guard let mode = SQLLogicQuery.SortMode(rawValue: words[2]) else {
        return .invalid("unknown sort mode \(words[2])")
      }
      sortMode = mode
    }
    let label = words.count > 3 ? words[3] : nil
    let separator = body.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "----" }
    let sql = body[..<(separator ?? body.endIndex)].joined(separator: "\n")
    let expected = separator.map { Array(body[($0 + 1)...]) } ?? []
    return .query(SQLLogicQuery(types: types, sortMode: sortMode, label: label, sql: sql, expected: expected))
  }
}
