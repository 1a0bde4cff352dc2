/// A seeded generator of SQLite SELECTs over ``ParserFixture``'s tables, written the way the
/// sqllogictest corpus writes them (unary signs, spaces inside parentheses, aliases, ALL).
struct StatementGenerator {
  /// SplitMix64.
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  private mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  private mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  private mutating func pick<T>(_ options: [T]) -> T { options[int(0...options.count - 1)] }

  private mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

  /// A value expression over `columns` (each already qualified as it should be written).
  mutating func expression(_ columns: [String], depth: Int = 0) -> String {
    if depth > 2 || chance(25) {
      switch int(0...5) {
      case 0, 1, 2: return pick(columns)
      case 3: return "\(int(-5...20))"
      case 4: return pick(["NULL", "2.5", "'1'", "'abc'", "0x10", "- 7", "1e1"])
      default: return pick(["+ ", "- ", "~ "].dropLast()) + pick(columns)
      }
    }
    let a = expression(columns, depth: depth + 1)
    let b = expression(columns, depth: depth + 1)
    switch int(0...18) {
    case 0, 1, 2:
      return "\(a) \(pick(["+", "-", "*", "/", "%", "||"])) \(b)"
    case 3, 4:
      return "\(a) \(pick(["=", "==", "<>", "!=", "<", "<=", ">", ">=", "IS", "IS NOT"])) \(b)"
    case 5:
      return "\(a) \(pick(["AND", "OR"])) \(b)"
    case 6:
      return "\(pick(["NOT", "-", "+"])) ( \(a) )"
    case 7:
      return "\(a) \(pick(["", "NOT "]))BETWEEN \(b) AND \(expression(columns, depth: depth + 1))"
    case 8:
      let list = (0..<int(0...3)).map { _ in expression(columns, depth: 3) }.joined(separator: ", ")
      return "\(a) \(pick(["", "NOT "]))IN ( \(list) )"
    case 9:
      return "\(a) \(pick(["", "NOT "]))IN ( SELECT x FROM t2 )"
    case 10:
      return "CASE WHEN \(a) THEN \(b) ELSE \(expression(columns, depth: depth + 1)) END"
    case 11:
      return "CASE \(a) WHEN \(b) THEN 1 WHEN 3 THEN 'three' END"
    case 12:
      return "CAST ( \(a) AS \(pick(["INTEGER", "TEXT", "REAL", "VARCHAR(3)", "BLOB", "int"])) )"
    case 13:
      return pick(["abs", "length", "lower", "upper", "typeof", "round"]) + "(\(a))"
    case 14:
      return pick(["coalesce", "ifnull", "nullif", "min", "max", "instr"]) + "(\(a), \(b))"
    case 15:
      return "\(a) \(pick(["IS NULL", "IS NOT NULL", "ISNULL", "NOTNULL", "NOT NULL"]))"
    case 16:
      return "\(a) \(pick(["LIKE", "NOT LIKE", "GLOB"])) \(pick(["'%1%'", "'1*'", "'_'", "b"].dropLast()))"
    case 17:
      return "( SELECT \(pick(["max(x)", "count(*)", "min(x) + 1"])) FROM t2 WHERE x \(pick(["<", ">", "="])) \(a) )"
    default:
      return "\(pick(["", "NOT "]))EXISTS ( SELECT 1 FROM t2 WHERE x = \(a) )"
    }
  }

  /// One SELECT.
  mutating func select() -> String {
    let t1 = ["a", "b", "c", "d", "e"]
    switch int(0...5) {
    case 0, 1:
      let count = int(1...3)
      var columns: [String] = []
      for index in 0..<count {
        let e = expression(t1)
        columns.append(chance(40) ? "\(e) AS col\(index)" : e)
      }
      var sql = "SELECT \(pick(["", "ALL ", "DISTINCT "]))\(columns.joined(separator: ", ")) FROM t1"
      if chance(60) { sql += " WHERE \(chance(30) && columns[0].contains(" AS col0") ? "col0 > 2" : expression(t1))" }
      if chance(50) {
        sql +=
          " ORDER BY "
          + pick(["1", "\(count)", columns[0].contains(" AS col0") ? "col0 DESC" : "1 DESC", "a, b, c, d, e"])
      }
      return sql
    case 2:
      let e = expression(t1)
      let aggregates = [
        "count(*)", "count(\(e))", "sum(\(e))", "min(\(e))", "max(\(e))", "total(\(e))", "count(DISTINCT \(e))",
        "sum(DISTINCT b)", "avg(a)",
      ]
      var sql = "SELECT \(pick(aggregates)), \(pick(aggregates))"
      let grouped = chance(50)
      if grouped { sql = "SELECT b, " + sql.dropFirst(7) }
      sql += " FROM t1"
      if chance(50) { sql += " WHERE \(expression(t1))" }
      if grouped {
        sql += pick([" GROUP BY b", " GROUP BY 1"])
        if chance(50) { sql += " HAVING \(pick(["count(*) > 1", "b > 2", "sum(a) IS NOT NULL"]))" }
      }
      return sql
    case 3:
      let columns = ["cor0.col0", "cor0.col1", "cor0.col2", "tab1.col0", "tab1.col1", "tab1.col2"]
      var sql = "SELECT \(pick(["", "DISTINCT ", "ALL "]))\(expression(columns)) AS col0, \(expression(columns))"
      sql += " FROM tab0 AS cor0 \(pick(["CROSS JOIN", ",", "JOIN", "LEFT JOIN", "LEFT OUTER JOIN"])) tab1"
      if sql.contains("LEFT") || chance(40) { sql += " ON \(expression(columns))" }
      if chance(60) { sql += " WHERE \(expression(columns))" }
      return sql
    case 4:
      let op = pick(["UNION", "UNION ALL", "INTERSECT", "EXCEPT"])
      var sql = "SELECT \(expression(t1)) AS v FROM t1 \(op) SELECT \(expression(["x"])) FROM t2"
      if chance(60) { sql += " ORDER BY \(pick(["1", "v", "1 DESC"]))" }
      if chance(30) { sql += " LIMIT \(int(0...3))" + (chance(50) ? " OFFSET 1" : "") }
      return sql
    default:
      let inner = "SELECT a + b AS s, \(expression(t1)) AS w FROM t1"
      return
        "SELECT \(pick(["s", "q.w", "*", "s * 2"])) FROM ( \(inner) ) AS q WHERE \(pick(["s > 3", "w IS NOT NULL", "1"]))"
    }
  }
}
