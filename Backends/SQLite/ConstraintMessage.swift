import Foundation
import TandemCore

/// Reads table and column names out of SQLite's constraint messages.
///
/// SQLite writes `UNIQUE constraint failed: t.a, t.b`, `NOT NULL constraint failed: t.a` and
/// `cannot store TEXT value in INTEGER column t.a`, with names unquoted. When the failing table is
/// the statement's own, its known column names are matched (ASCII case-insensitively, as SQLite
/// compares identifiers), so names containing `.` or `, ` come out right; otherwise the list is
/// split at `, ` and each entry at its first `.`.
enum ConstraintMessage {
  /// The constraint a message of SQLite's reports, for a failure whose extended code does not
  /// say (`nil` when the message does not say either).
  static func constraint(in message: String) -> TandemError.Constraint? {
    if message.hasPrefix("FOREIGN KEY constraint failed") { return .foreignKey }
    if message.hasPrefix("UNIQUE constraint failed") { return .unique }
    if message.hasPrefix("NOT NULL constraint failed") { return .notNull }
    if message.hasPrefix("CHECK constraint failed") { return .check }
    if message.hasPrefix("cannot store ") { return .datatype }
    return nil
  }

  /// The table and columns named after `marker` in `message`; `(nil, [])` when there are none
  /// (for example `UNIQUE constraint failed: index 'ia'` of an expression index).
  static func qualifiedNames(
    after marker: String, in message: String, context: ConstraintContext?
  ) -> (table: String?, columns: [String]) {
    guard let range = message.range(of: marker) else { return (nil, []) }
    let list = Array(message[range.upperBound...].utf8)
    if list.starts(with: "index '".utf8) { return (nil, []) }
    if let context, let names = matchKnownNames(list, context: context) { return names }
    return splitNames(list)
  }

  /// Matches `T.c1, T.c2, …` where T is the context's table and each c one of its columns.
  private static func matchKnownNames(
    _ list: [UInt8], context: ConstraintContext
  ) -> (table: String?, columns: [String])? {
    let table = Array(context.table.utf8)
    // The longest column name first, so that `a, t.b` is not read as column `a`.
    let candidates = (context.columns + ["rowid"]).map { Array($0.utf8) }.sorted { $0.count > $1.count }
    var position = 0
    var tableText: String?
    var columns: [String] = []
    while true {
      guard hasPrefix(list, at: position, table + [UInt8(ascii: ".")]) else { return nil }
      if tableText == nil { tableText = String(decoding: list[position..<position + table.count], as: UTF8.self) }
      position += table.count + 1
      let separator = Array(", ".utf8) + table + [UInt8(ascii: ".")]
      let match = candidates.first { column in
        guard hasPrefix(list, at: position, column) else { return false }
        let end = position + column.count
        return end == list.count || hasPrefix(list, at: end, separator)
      }
      guard let match else { return nil }
      columns.append(String(decoding: list[position..<position + match.count], as: UTF8.self))
      position += match.count
      if position == list.count { return (tableText, columns) }
      position += 2
    }
  }

  /// Splits `t.a, t.b` at `, ` and each entry at its first `.`.
  private static func splitNames(_ list: [UInt8]) -> (table: String?, columns: [String]) {
    let text = String(decoding: list, as: UTF8.self)
    var table: String?
    var columns: [String] = []
    for entry in text.components(separatedBy: ", ") {
      guard let dot = entry.firstIndex(of: ".") else {
        columns.append(entry)
        continue
      }
      if table == nil { table = String(entry[..<dot]) }
      columns.append(String(entry[entry.index(after: dot)...]))
    }
    return (table, columns)
  }

  /// Whether `bytes[position...]` starts with `prefix`, ASCII letters compared case-insensitively.
  private static func hasPrefix(_ bytes: [UInt8], at position: Int, _ prefix: [UInt8]) -> Bool {
    guard position + prefix.count <= bytes.count else { return false }
    for (offset, expected) in prefix.enumerated() where lowercased(bytes[position + offset]) != lowercased(expected) {
      return false
    }
    return true
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }
}
