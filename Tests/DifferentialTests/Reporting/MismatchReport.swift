import Tandem

/// A mismatch written for people: where to reproduce it, the schema, the data, the statement,
/// and both engines' answers.
enum MismatchReport {
  static func text(_ mismatch: Mismatch, settings: FuzzSettings, minimized: Mismatch?) -> String {
    let fuzzCase = mismatch.fuzzCase
    var text = "=== Tandem differential mismatch: seed 0x\(String(fuzzCase.seed, radix: 16, uppercase: true)), "
    text += "case \(fuzzCase.index), operation \(mismatch.path)\n"
    text += "reproduce: \(settings.reproduction(index: fuzzCase.index))\n"
    if let minimized {
      text += "\n--- minimized reproduction\n" + body(minimized)
      text += "\n--- original case\n"
    }
    text += body(mismatch)
    return text
  }

  /// Schema, script, data before the step, the step, both answers.
  static func body(_ mismatch: Mismatch) -> String {
    let fuzzCase = mismatch.fuzzCase
    var text = "-- script (sqlite3 shell), up to the failing step:\n"
    text += CaseScript.sql(fuzzCase, upTo: mismatch.path) + "\n"
    text += "-- SQLite's table contents before the step (rowid first):\n"
    for schema in fuzzCase.schemas {
      let rows = mismatch.contentsBefore[schema.name] ?? []
      text += "--   \(ReadableSQL.identifier(schema.name)): \(rows.count) row(s)\n"
      for row in rows.prefix(30) {
        text += "--     (" + row.map(ReadableSQL.typedValue).joined(separator: ", ") + ")\n"
      }
    }
    text += "-- failing step: \(describe(mismatch.step, schemas: fuzzCase.schemas))\n"
    text += "   sqlite: \(mismatch.sqlite)\n"
    text += "   memory: \(mismatch.memory)\n"
    return text
  }

  static func describe(_ step: Mismatch.Step, schemas: [TableSchema]) -> String {
    switch step {
    case .create(let schema): "create " + CaseScript.ddl(schema).joined(separator: "; ")
    case .statement(let statement, let parameters):
      CaseScript.statementLines(statement, parameters, schemas: schemas).joined(separator: " ")
    case .queryPlan(let statement, let parameters):
      "EXPLAIN QUERY PLAN " + CaseScript.statementLines(statement, parameters, schemas: schemas).joined(separator: " ")
    case .tableContents(let table, let label):
      "contents of \(ReadableSQL.identifier(table)) (SELECT rowid, * ORDER BY rowid) after \(label)"
    case .savepoint: "savepoint machinery"
    }
  }
}
