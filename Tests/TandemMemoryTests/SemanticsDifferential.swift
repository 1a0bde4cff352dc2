import Foundation
import TandemCore

@testable import TandemMemory

/// Runs one statement on real SQLite for each input and compares its row with what the memory
/// engine's value layer computes; returns descriptions of the first mismatches.
func mismatchesAgainstSQLite(
  _ oracle: SQLiteOracle, _ sql: String, _ inputs: [[SqliteValue]], limit: Int = 8,
  _ compute: ([SqliteValue]) throws -> [SqliteValue]
) throws -> [String] {
  var mismatches: [String] = []
  for input in inputs {
    let expected = try oracle.evaluate(sql, input)
    let actual: SQLiteOracle.Outcome
    do {
      actual = .row(try compute(input))
    } catch let error as TandemError {
      actual = .error(error.message)
    }
    if expected != actual {
      mismatches.append("\(sql) with \(input): SQLite \(expected), memory \(actual)")
      if mismatches.count >= limit { break }
    }
  }
  return mismatches
}

/// The 0/1/NULL result of a comparison whose operands were already prepared.
func comparisonResult(_ x: SqliteValue, _ y: SqliteValue, collation: Collation, _ test: (Int) -> Bool) -> SqliteValue {
  if x.isNull || y.isNull { return .null }
  return .integer(test(ValueOrder.compare(x, y, collation: collation)) ? 1 : 0)
}
