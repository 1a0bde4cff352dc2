import TandemCore

/// The parameters of one statement, numbered as SQLite numbers them (`sqlite3ExprAssignVarNumber`).
///
/// ```swift
/// var list = ParameterList()
/// try list.index(of: "?")   // 1
/// try list.index(of: ":a")  // 2
/// try list.index(of: "?5")  // 5
/// try list.index(of: ":a")  // 2
/// list.names                // [nil, ":a", nil, nil, "?5"]
/// ```
struct ParameterList: Sendable, Hashable {
  /// The largest index given so far.
  private(set) var count = 0
  /// The name of each index that has one.
  private var namesByIndex: [Int: String] = [:]

  /// The names by index (element 0 is parameter 1), `nil` for an index without a name.
  var names: [String?] { (0..<count).map { namesByIndex[$0 + 1] } }

  /// The index of the parameter written `text` (`?`, `?NNN`, `:name`, `@name`, `$name`).
  mutating func index(of text: String) throws -> Int {
    if text == "?" {
      count += 1
      return count
    }
    if text.hasPrefix("?") {
      guard let number = Int(text.dropFirst()), number >= 1, number <= 250000 else {
        throw TandemError.sqlite(code: 1, message: "variable number must be between ?1 and ?250000", sql: nil)
      }
      if number > count { count = number }
      if namesByIndex[number] == nil { namesByIndex[number] = text }
      return number
    }
    if let known = namesByIndex.first(where: { $0.value == text })?.key { return known }
    count += 1
    namesByIndex[count] = text
    return count
  }
}
