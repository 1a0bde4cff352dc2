import Tandem

/// Runs a case on one `Database(.tandem)`, the user-facing form of the differential check, and
/// reports the first divergence error it throws.
struct TandemRunner {
  /// How one case ended.
  enum Verdict: Sendable {
    case agreed
    /// The memory engine refused a feature (tandem reports that as a divergence too); the case
    /// stopped if the statement was a write.
    case unsupported(feature: String)
    /// A divergence error, with the operation's path and description.
    case divergence(path: [Int], statement: String, error: TandemError)
  }

  /// The text tandem mode puts in a divergence message when the memory engine refused a feature.
  static let unsupportedMarker = "failed with unsupported: "

  var statements = 0
  var unsupported: [String: Int] = [:]
  private var schemas: [TableSchema] = []

  mutating func run(_ fuzzCase: FuzzCase) -> Verdict {
    schemas = fuzzCase.schemas
    do {
      let db = try Database(.tandem)
      for schema in fuzzCase.schemas {
        if let verdict = check(path: [], statement: "create \(schema.name)", { try db.create(schema) }) {
          return verdict
        }
      }
      return try run(fuzzCase.operations, path: [], on: db) ?? .agreed
    } catch {
      return .divergence(path: [], statement: "Database(.tandem)", error: TandemError.misuse("\(error)"))
    }
  }

  private mutating func run(_ operations: [FuzzOperation], path: [Int], on db: any DatabaseWriter) throws -> Verdict? {
    for (index, operation) in operations.enumerated() {
      let here = path + [index]
      switch operation {
      case .statement(let statement, let parameters):
        statements += 1
        var verdict = check(path: here, statement: String(describing: statement)) {
          try db.execute(statement, parameters: parameters)
        }
        if case .unsupported = verdict, !statement.isWrite { continue }
        if verdict == nil && statement.isWrite { verdict = readBack(path: here, db) }
        if case .divergence = verdict, case .insert = statement,
          schemas.first(where: { $0.name == statement.table })?.rowidColumn?.primaryKey != .autoincrement,
          Self.rowidSpaceExhausted(statement.table, db)
        {
          // SQLite picks rowids at random once the largest is taken: not a divergence to report.
          return .agreed
        }
        if let verdict { return verdict }
      case .savepoint(let body, let rollback):
        var inner: Verdict?
        do {
          try db.transaction { connection in
            inner = try run(body, path: here, on: connection)
            if inner == nil && rollback { throw RollbackRequest() }
          }
        } catch is RollbackRequest {
        } catch let error as TandemError where error.kind == .divergence {
          return .divergence(path: here, statement: "savepoint", error: error)
        } catch {
          // Both engines failed the transaction alike (tandem mode reports any difference as a
          // divergence), e.g. one the database ended on its own: compare what is left.
        }
        if let inner { return inner }
        if let verdict = readBack(path: here, db) { return verdict }
      }
    }
    return nil
  }

  /// Whether `table`'s largest rowid is 9223372036854775807 (both engines hold it, or the read fails).
  static func rowidSpaceExhausted(_ table: String, _ db: any DatabaseWriter) -> Bool {
    let largest = SelectStatement(table: table, columns: [.aggregate(.max, .rowid, distinct: false)])
    guard let result = try? db.execute(.select(largest)) else { return true }
    return result.rows.first?.first == .integer(.max)
  }

  /// Reads every table back in rowid order (tandem compares those answers too).
  private mutating func readBack(path: [Int], _ db: any DatabaseWriter) -> Verdict? {
    for schema in schemas {
      let dump = Statement.select(
        SelectStatement(
          table: schema.name, columns: [.rowid] + schema.columns.map { .column($0.name) },
          orderBy: [OrderingTerm(.rowid)]))
      if let verdict = check(path: path, statement: "contents of \(schema.name)", { try db.execute(dump) }) {
        return verdict
      }
    }
    return nil
  }

  /// Runs `body`; a divergence error becomes a verdict, any other error is an agreed failure.
  private mutating func check(path: [Int], statement: String, _ body: () throws -> Void) -> Verdict? {
    do {
      try body()
      return nil
    } catch let error as TandemError where error.kind == .divergence {
      if let range = error.message.range(of: Self.unsupportedMarker) {
        let feature = String(error.message[range.upperBound...])
        unsupported[feature, default: 0] += 1
        return .unsupported(feature: feature)
      }
      return .divergence(path: path, statement: statement, error: error)
    } catch {
      return nil
    }
  }
}
