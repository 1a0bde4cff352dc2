import TandemCore

/// How one sort term orders values: SQLite's ORDER BY rules (Docs/SQLiteSemantics.md §10).
struct SortTerm: Sendable {
  let descending: Bool
  /// Explicit NULLS FIRST / LAST; `nil` puts NULLs first ascending and last descending.
  let nulls: OrderingTerm.NullsOrder?
  let collation: Collation

  /// An ascending term (GROUP BY, DISTINCT) under `collation`.
  static func ascending(_ collation: Collation) -> SortTerm {
    SortTerm(descending: false, nulls: nil, collation: collation)
  }
}

/// Sorting and de-duplication over rows of values with SQLite's ordering and equality (Docs/SQLiteSemantics.md §3.1, §12).
enum Ordering {
  /// Compares two key lists term by term.
  static func compare(_ a: [SqliteValue], _ b: [SqliteValue], _ terms: [SortTerm]) -> Int {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        guard let a = a.baseAddress, let b = b.baseAddress else { return 0 }
        return compare(a, b, terms)
      }
    }
  }

  /// Compares two keys of `terms.count` values each, stored at `a` and `b`, term by term.
  static func compare(_ a: UnsafePointer<SqliteValue>, _ b: UnsafePointer<SqliteValue>, _ terms: [SortTerm]) -> Int {
    for index in terms.indices {
      let term = terms[index]
      let x = a[index]
      let y = b[index]
      let xNull = x.isNull
      let yNull = y.isNull
      if xNull || yNull {
        if xNull && yNull { continue }
        let nullsFirst = term.nulls.map { $0 == .first } ?? !term.descending
        return xNull == nullsFirst ? -1 : 1
      }
      let order = ValueOrder.compare(x, y, collation: term.collation)
      if order != 0 { return term.descending ? -order : order }
    }
    return 0
  }

  /// The positions of `keys` in sorted order; equal keys keep their original order (stable).
  static func sortedIndices(_ keys: [[SqliteValue]], _ terms: [SortTerm]) -> [Int] {
    sortedIndices(count: keys.count) { compare(keys[$0], keys[$1], terms) }
  }

  /// The positions `0..<count` in the order `order` (how the keys at two positions compare)
  /// gives them; equal keys keep their original order (stable). Keys that came in order are not
  /// sorted again.
  static func sortedIndices(count: Int, _ order: (Int, Int) -> Int) -> [Int] {
    var indices = Array(0..<count)
    if indices.dropFirst().allSatisfy({ order($0 - 1, $0) <= 0 }) { return indices }
    indices.sort { left, right in
      let compared = order(left, right)
      return compared != 0 ? compared < 0 : left < right
    }
    return indices
  }

  /// Runs of equal keys ordered by `terms`; each run lists its members in original order.
  static func groups(_ keys: [[SqliteValue]], terms: [SortTerm]) -> [[Int]] {
    var result: [[Int]] = []
    for index in sortedIndices(keys, terms) {
      if let head = result.last?.first, compare(keys[head], keys[index], terms) == 0 {
        result[result.count - 1].append(index)
      } else {
        result.append([index])
      }
    }
    return result
  }
}
