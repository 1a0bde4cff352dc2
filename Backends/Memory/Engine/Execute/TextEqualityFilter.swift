import Foundation
import TandemCore

/// A loop's first condition when it is `column = 'text'` under BINARY collation on a column whose
/// affinity leaves the text as it is: tested on the stored record's bytes, before the row is
/// decoded, so that a scan skips the rows it rejects without building their values.
///
/// It is exact: the comparison is true only for a TEXT value with the same bytes (a number, a
/// BLOB or NULL is never equal to text that no affinity converts). Only the first condition is
/// tested this way, so no other condition that SQLite would evaluate first is skipped.
///
/// ```swift
/// // SELECT … FROM lists JOIN reminders … WHERE lists.name = 'Work'
/// TextEqualityFilter(column: 1, text: "Work").matches(record, count: 2)
/// ```
struct TextEqualityFilter {
  /// The column's position in its table's records.
  let column: Int
  /// The serial type of the text (its length is in it).
  private let serialType: Int
  private let bytes: [UInt8]

  init(column: Int, text: String) {
    self.column = column
    bytes = Array(text.utf8)
    serialType = bytes.count * 2 + 13
  }

  /// The filter for `term` on `source` of `scope`, if the term has its shape.
  static func forTerm(
    _ term: SQLExpression?, source: Int, scope: SourceScope, compiler: ExpressionCompiler
  ) -> TextEqualityFilter? {
    guard case .binary(.equal, let lhs, let rhs)? = term else { return nil }
    for (column, other) in [(lhs, rhs), (rhs, lhs)] {
      guard case .literal(.text(let text)) = other,
        let reference = scope.reference(to: column), reference.depth == 0, reference.source == source,
        let position = reference.column, !reference.isRowid,
        reference.affinity == .text || reference.affinity == .blob || reference.affinity == .none,
        let compiled = try? compiler.compile(column), compiled.collation == nil || compiled.collation == .binary
      else { continue }
      return TextEqualityFilter(column: position, text: text)
    }
    return nil
  }

  /// Whether the record (of `count` values) holds this text at the column.
  func matches(_ record: UnsafeRawPointer, count: Int) -> Bool {
    var header = 0
    var body = Record.headerSize(record, count: count)
    var index = 0
    while index < column {
      body += Record.bodyLength(Record.readVarint(record, &header))
      index += 1
    }
    guard Record.readVarint(record, &header) == serialType else { return false }
    return bytes.withUnsafeBytes { expected in
      guard let base = expected.baseAddress else { return true }  // the empty text
      return memcmp(record + body, base, expected.count) == 0
    }
  }
}
