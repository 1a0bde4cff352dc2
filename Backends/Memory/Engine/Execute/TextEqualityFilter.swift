import Foundation
import TandemCore

/// A loop's first condition when it is `column = 'text'` (or `column = :parameter` holding text)
/// under BINARY collation on a column whose affinity leaves the text as it is: tested on the
/// stored record's bytes, before the row is decoded, so that a scan skips the rows it rejects
/// without building their values. The condition itself is still tested on the rows it lets
/// through.
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
  /// The slot of the parameter that holds the text, when it is not known before the run
  /// (``resolved(_:)`` makes the filter for the value bound).
  private let parameterSlot: Int?

  init(column: Int, text: String) {
    self.column = column
    bytes = Array(text.utf8)
    serialType = bytes.count * 2 + 13
    parameterSlot = nil
  }

  private init(column: Int, parameterSlot: Int) {
    self.column = column
    bytes = []
    serialType = 0
    self.parameterSlot = parameterSlot
  }

  /// The filter for this run: itself, or for a parameter the filter for the text bound to it
  /// (`nil`, no filter, when the value bound is not TEXT: the condition alone then decides).
  func resolved(_ context: EvaluationContext) -> TextEqualityFilter? {
    guard let parameterSlot else { return self }
    guard case .text(let text)? = context.parameters?[parameterSlot] else { return nil }
    return TextEqualityFilter(column: column, text: text)
  }

  /// The filter for `term` on `source` of `scope`, if the term has its shape.
  static func forTerm(
    _ term: SQLExpression?, source: Int, scope: SourceScope, compiler: ExpressionCompiler
  ) -> TextEqualityFilter? {
    guard case .binary(.equal, let lhs, let rhs)? = term else { return nil }
    for (column, other) in [(lhs, rhs), (rhs, lhs)] {
      let text: String?
      switch other {
      case .literal(.text(let value)): text = value
      case .parameter: text = nil
      default: continue
      }
      guard let reference = scope.reference(to: column), reference.depth == 0, reference.source == source,
        let position = reference.column, !reference.isRowid,
        reference.affinity == .text || reference.affinity == .blob || reference.affinity == .none,
        let compiled = try? compiler.compile(column), compiled.collation == nil || compiled.collation == .binary
      else { continue }
      if let text { return TextEqualityFilter(column: position, text: text) }
      guard case .parameter(let name) = other else { continue }
      return TextEqualityFilter(column: position, parameterSlot: compiler.parameterSlot(name))
    }
    return nil
  }

  /// Whether the record (of `count` values) holds this text at the column.
  func matches(_ record: UnsafeRawPointer, count: Int) -> Bool {
    // One pass over the header: the column's offset in the body, its serial type, and where
    // the body starts (after the last type).
    var header = 0
    var offset = 0
    var type = 0
    var index = 0
    while index < count {
      let next = Record.readVarint(record, &header)
      if index < column {
        offset += Record.bodyLength(next)
      } else if index == column {
        type = next
      }
      index += 1
    }
    guard type == serialType else { return false }
    return bytes.withUnsafeBytes { expected in
      guard let base = expected.baseAddress, expected.count > 0 else { return true }  // the empty text
      let stored = record + header + offset
      // The last byte first: texts of one length often share a prefix ('List 0001', 'List 0002').
      let last = expected.count - 1
      guard stored.load(fromByteOffset: last, as: UInt8.self) == expected[last] else { return false }
      return memcmp(stored, base, last) == 0
    }
  }
}
