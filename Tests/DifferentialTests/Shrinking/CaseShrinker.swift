import Foundation
import Tandem

/// Makes a failing case small: drops the operations after the failure, then greedily removes
/// operations, unwraps savepoints, simplifies statements and trims the schema, keeping each
/// change only while the engines still disagree in the same way.
struct CaseShrinker {
  /// Wall-clock budget for one shrink.
  var seconds: Double
  private var runner = PairRunner()

  init(seconds: Double) {
    self.seconds = seconds
  }

  /// The smallest failing version of `mismatch`'s case found within the budget.
  mutating func shrink(_ mismatch: Mismatch) -> Mismatch {
    let deadline = Date().addingTimeInterval(seconds)
    var best = mismatch
    best.fuzzCase.operations = Self.truncated(best.fuzzCase.operations, through: best.path)
    if let rerun = failure(best.fuzzCase, like: mismatch) { best = rerun } else { return mismatch }
    var improved = true
    while improved && Date() < deadline {
      improved = false
      for candidate in candidates(best.fuzzCase) {
        guard Date() < deadline else { break }
        if var smaller = failure(candidate, like: mismatch) {
          smaller.fuzzCase.operations = Self.truncated(smaller.fuzzCase.operations, through: smaller.path)
          best = smaller
          improved = true
          break
        }
      }
    }
    return best
  }

  private mutating func failure(_ fuzzCase: FuzzCase, like original: Mismatch) -> Mismatch? {
    guard case .mismatch(let found) = runner.run(fuzzCase), found.signature == original.signature else { return nil }
    return found
  }

  /// Variants of the case, roughly biggest cut first.
  private func candidates(_ fuzzCase: FuzzCase) -> [FuzzCase] {
    var result: [FuzzCase] = []
    let paths = Self.paths(fuzzCase.operations)
    for path in paths {
      var copy = fuzzCase
      copy.operations = Self.replacing(fuzzCase.operations, at: path) { _ in [] }
      result.append(copy)
    }
    for path in paths {
      guard case .savepoint(let body, _)? = Self.operation(fuzzCase.operations, at: path) else { continue }
      var copy = fuzzCase
      copy.operations = Self.replacing(fuzzCase.operations, at: path) { _ in body }
      result.append(copy)
    }
    result += schemaCandidates(fuzzCase)
    for path in paths {
      guard case .statement(let statement, let parameters)? = Self.operation(fuzzCase.operations, at: path) else {
        continue
      }
      for smaller in statement.simplifications {
        var copy = fuzzCase
        copy.operations = Self.replacing(fuzzCase.operations, at: path) { _ in
          [.statement(smaller, parameters: parameters)]
        }
        result.append(copy)
      }
    }
    return result
  }

  private func schemaCandidates(_ fuzzCase: FuzzCase) -> [FuzzCase] {
    var result: [FuzzCase] = []
    let statements = Self.statements(fuzzCase.operations)
    func add(_ change: (inout [TableSchema]) -> Void) {
      var copy = fuzzCase
      change(&copy.schemas)
      result.append(copy)
    }
    for (tableIndex, schema) in fuzzCase.schemas.enumerated() {
      let used = statements.filter { $0.tablesRead.contains(schema.name) }
      let referencedElsewhere = fuzzCase.schemas.contains { other in
        other.columns.contains { $0.references?.table == schema.name }
      }
      if used.isEmpty && !referencedElsewhere && fuzzCase.schemas.count > 1 {
        add { $0.remove(at: tableIndex) }
      }
      let mentioned = used.reduce(into: Set<String>()) { $0.formUnion($1.mentionedColumns) }
      for (columnIndex, column) in schema.columns.enumerated() {
        let isReferenced = fuzzCase.schemas.contains { other in
          other.columns.contains { $0.references?.table == schema.name && $0.references?.column == column.name }
        }
        if schema.columns.count > 1 && !mentioned.contains(column.name) && !isReferenced {
          add {
            $0[tableIndex].columns.remove(at: columnIndex)
            $0[tableIndex].indexes.removeAll { $0.columns.contains(column.name) }
          }
        }
        if column.isUnique { add { $0[tableIndex].columns[columnIndex].isUnique = false } }
        if column.defaultValue != nil { add { $0[tableIndex].columns[columnIndex].defaultValue = nil } }
        if column.primaryKey == .autoincrement { add { $0[tableIndex].columns[columnIndex].primaryKey = .plain } }
        if column.references != nil { add { $0[tableIndex].columns[columnIndex].references = nil } }
        if column.primaryKey != nil && !isReferenced {
          add { $0[tableIndex].columns[columnIndex].primaryKey = nil }
        }
      }
      for index in schema.indexes.indices {
        add { $0[tableIndex].indexes.remove(at: index) }
        if schema.indexes[index].isUnique { add { $0[tableIndex].indexes[index].isUnique = false } }
      }
    }
    return result
  }

  // MARK: - Operations by path

  static func paths(_ operations: [FuzzOperation], prefix: [Int] = []) -> [[Int]] {
    operations.enumerated().flatMap { index, operation -> [[Int]] in
      let here = prefix + [index]
      if case .savepoint(let body, _) = operation { return [here] + paths(body, prefix: here) }
      return [here]
    }
  }

  static func operation(_ operations: [FuzzOperation], at path: [Int]) -> FuzzOperation? {
    guard let first = path.first, operations.indices.contains(first) else { return nil }
    if path.count == 1 { return operations[first] }
    guard case .savepoint(let body, _) = operations[first] else { return nil }
    return operation(body, at: Array(path.dropFirst()))
  }

  /// The operations with the one at `path` replaced by zero or more operations.
  static func replacing(
    _ operations: [FuzzOperation], at path: [Int], with make: (FuzzOperation) -> [FuzzOperation]
  ) -> [FuzzOperation] {
    guard let first = path.first, operations.indices.contains(first) else { return operations }
    var copy = operations
    if path.count == 1 {
      copy.replaceSubrange(first...first, with: make(operations[first]))
    } else if case .savepoint(let body, let rollback) = operations[first] {
      copy[first] = .savepoint(replacing(body, at: Array(path.dropFirst()), with: make), rollback: rollback)
    }
    return copy
  }

  /// Everything up to and including the operation at `path` (a savepoint holding it keeps only
  /// its part up to there).
  static func truncated(_ operations: [FuzzOperation], through path: [Int]) -> [FuzzOperation] {
    guard let first = path.first, operations.indices.contains(first) else { return operations }
    var copy = Array(operations[...first])
    if path.count > 1, case .savepoint(let body, let rollback) = operations[first] {
      copy[first] = .savepoint(truncated(body, through: Array(path.dropFirst())), rollback: rollback)
    }
    return copy
  }

  static func statements(_ operations: [FuzzOperation]) -> [Statement] {
    operations.flatMap { operation -> [Statement] in
      switch operation {
      case .statement(let statement, _): [statement]
      case .savepoint(let body, _): statements(body)
      }
    }
  }
}
