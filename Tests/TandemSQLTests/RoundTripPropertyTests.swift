import TandemCore
import TandemSQL
import TandemSQLite
import Testing

/// Parse → render with the SQLite renderer → run on SQLite gives the rows the original text gives.
struct RoundTripPropertyTests {
  @Test func renderedStatementsReturnTheOriginalRows() throws {
    let db = try ParserFixture.database()
    var generator = StatementGenerator(seed: 0x7A4D_3E11)
    var compared = 0
    for _ in 0..<400 {
      let sql = generator.select()
      let original = db.rows(sql)
      let parsed: ParsedSQL?
      do {
        parsed = try db.parse(sql)
      } catch let error as TandemError where error.kind == .sqlite {
        // Text SQLite refuses too, with the same message.
        #expect(db.prepareError(sql) == error.message, "\(sql)")
        continue
      } catch {
        Issue.record("\(sql): \(error)")
        continue
      }
      guard case .query(let statement, _)? = parsed?.statement else {
        Issue.record("not a query: \(sql)")
        continue
      }
      let rendered = try db.render(statement)
      let values = try rendered.bindings.map { try $0.value(in: [:]) }
      let roundTrip = db.rows(rendered.sql, values)
      switch (original, roundTrip) {
      case (.success(let expected), .success(let actual)):
        let ordered = sql.contains("ORDER BY")
        #expect(
          ordered ? actual == expected : actual.sorted { "\($0)" < "\($1)" } == expected.sorted { "\($0)" < "\($1)" },
          "\(sql)\n  rendered: \(rendered.sql)")
        compared += 1
      case (.failure, .failure):
        break
      default:
        Issue.record("\(sql)\n  original: \(original)\n  rendered: \(rendered.sql) → \(roundTrip)")
      }
    }
    #expect(compared > 300)
  }

  @Test func bitwiseOperatorsOnIntegerConstantsAreFolded() throws {
    let db = try ParserFixture.database()
    let operands = [
      "0", "1", "-1", "5", "63", "64", "-64", "-65", "9223372036854775807", "-9223372036854775808", "NULL",
    ]
    var terms: [String] = []
    for a in operands {
      terms.append("~ \(a)")
      for b in operands { terms += ["<<", ">>", "&", "|"].map { "(\(a)) \($0) (\(b))" } }
    }
    let sql = "SELECT " + terms.joined(separator: ", ") + " FROM t2 WHERE x = 1"
    guard case .query(let statement, _)? = try db.parse(sql)?.statement else {
      Issue.record("not a query")
      return
    }
    let rendered = try db.render(statement)
    let values = try rendered.bindings.map { try $0.value(in: [:]) }
    #expect(try db.rows(rendered.sql, values).get() == db.rows(sql).get())
  }
}
