import Tandem

/// A case written out as a `sqlite3` shell script: DDL, then each statement with its parameters
/// set by `.parameter set`, savepoints as SAVEPOINT / RELEASE / ROLLBACK TO.
enum CaseScript {
  /// The script of `fuzzCase`, up to and including the operation at `path` (everything when `nil`).
  static func sql(_ fuzzCase: FuzzCase, upTo path: [Int]? = nil) -> String {
    var lines: [String] = []
    for schema in fuzzCase.schemas {
      lines += ddl(schema).map { $0 + ";" }
    }
    var savepoints = 0
    write(fuzzCase.operations, schemas: fuzzCase.schemas, path: path, into: &lines, savepoints: &savepoints)
    return lines.joined(separator: "\n")
  }

  /// The schema's CREATE statements, with any NUL character shown as `\0` (it would cut the
  /// SQL text short, and a report is text).
  static func ddl(_ schema: TableSchema) -> [String] {
    schema.createStatements().map { $0.replacingOccurrences(of: "\u{0}", with: "\\0") }
  }

  /// One statement with its parameters, as shell lines.
  static func statementLines(_ statement: Statement, _ parameters: [String: SqliteValue], schemas: [TableSchema])
    -> [String]
  {
    let schema = schemas.first { $0.name == statement.table }
    var lines = parameters.keys.sorted().compactMap { name in
      parameters[name].map { ".parameter set :\(name) \(ReadableSQL.literal($0))" }
    }
    lines.append(ReadableSQL(schema: schema).statement(statement) + ";")
    return lines
  }

  private static func write(
    _ operations: [FuzzOperation], schemas: [TableSchema], path: [Int]?, into lines: inout [String],
    savepoints: inout Int
  ) {
    for (index, operation) in operations.enumerated() {
      if let path, let first = path.first, index > first { return }
      let innerPath: [Int]? = path.flatMap { $0.first == index ? Array($0.dropFirst()) : nil }
      switch operation {
      case .statement(let statement, let parameters):
        lines += statementLines(statement, parameters, schemas: schemas)
      case .savepoint(let body, let rollback):
        savepoints += 1
        let name = "sp\(savepoints)"
        lines.append("SAVEPOINT \(name);")
        let stopsInside = innerPath.map { !$0.isEmpty } ?? false
        write(body, schemas: schemas, path: stopsInside ? innerPath : nil, into: &lines, savepoints: &savepoints)
        if stopsInside { return }
        lines.append(rollback ? "ROLLBACK TO \(name); RELEASE \(name);" : "RELEASE \(name);")
      }
    }
  }
}
