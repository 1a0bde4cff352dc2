import Tandem
import SeededRandomness

/// Builds the relational ``FuzzCase`` numbered `index` of the campaign `seed`: 2–4 tables linked
/// by foreign keys, rows that mostly reference existing keys, then joins, subqueries, and
/// UPDATEs and DELETEs whose conditions and values hold subqueries. Always the same case for the
/// same two numbers, and a stream of its own (``CaseGenerator``'s cases stay as they were).
///
/// ```swift
/// let fuzzCase = RelationalCaseGenerator.generate(seed: 0x7A4D, index: 12)
/// ```
enum RelationalCaseGenerator {
  /// Mixed into the seed so that relational case `i` is unrelated to single-table case `i`.
  static let streamSalt: UInt64 = 0x5245_4C41_5449_4F4E

  static func generate(seed: UInt64, index: UInt64) -> FuzzCase {
    var random = SplitMix64(seed: seed ^ streamSalt, stream: index)
    var schemaGenerator = SchemaGenerator(random: random)
    let schemas = schemaGenerator.relationalSchemas()
    random = schemaGenerator.random
    let writers = schemas.map { WriteGenerator(expressions: ExpressionGenerator(random: random, table: $0)) }
    var state = State(random: random, schemas: schemas, writers: writers)

    var operations: [FuzzOperation] = []
    for tableIndex in schemas.indices {
      for _ in 0..<state.random.int(2...4) {
        operations.append(state.insert(into: tableIndex, plain: true))
      }
    }
    for _ in 0..<state.random.int(4...14) {
      operations.append(state.operation(nesting: 0))
    }
    return FuzzCase(seed: seed, index: index, schemas: schemas, operations: operations)
  }

  private struct State {
    var random: SplitMix64
    let schemas: [TableSchema]
    var writers: [WriteGenerator]

    mutating func operation(nesting: Int) -> FuzzOperation {
      switch random.weighted([(10, 0), (3, 1), (3, 2), (2, 3), (nesting < 2 ? 1 : 0, 4)]) {
      case 0: return select()
      case 1: return insert(into: tableIndex(), plain: false)
      case 2: return write(tableIndex(), subqueries: random.chance(0.6)) { .update($0.update()) }
      case 3: return write(tableIndex(), subqueries: random.chance(0.6)) { .delete($0.delete()) }
      default:
        let body = (0..<random.int(1...5)).map { _ in operation(nesting: nesting + 1) }
        return .savepoint(body, rollback: random.chance(0.4))
      }
    }

    mutating func tableIndex() -> Int { random.int(0...(schemas.count - 1)) }

    mutating func select() -> FuzzOperation {
      var generator = RelationalSelectGenerator(random: random, schemas: schemas, outer: [], nesting: 0)
      let statement = generator.select()
      random = generator.expressions.random
      return .statement(.select(statement), parameters: generator.expressions.parameters)
    }

    /// An insert whose referencing columns mostly take keys the referenced table was given.
    mutating func insert(into tableIndex: Int, plain: Bool) -> FuzzOperation {
      let operation = write(tableIndex, subqueries: false) { .insert($0.insert(plain: plain)) }
      guard case .statement(.insert(var insert), let parameters) = operation else { return operation }
      let schema = schemas[tableIndex]
      for (position, name) in insert.columns.enumerated() {
        guard let column = schema.columns.first(where: { $0.name == name }), let key = column.references else { continue }
        let keys = knownKeys(key)
        guard !keys.isEmpty else { continue }
        for row in insert.rows.indices where position < insert.rows[row].count && random.chance(0.75) {
          insert.rows[row][position] = .literal(random.pick(keys))
        }
      }
      return .statement(.insert(insert), parameters: parameters)
    }

    /// Values the referenced column was given (small integers too, for a rowid alias).
    private func knownKeys(_ key: ForeignKey) -> [SqliteValue] {
      guard let parent = schemas.firstIndex(where: { SchemaGenerator.fold($0.name) == SchemaGenerator.fold(key.table) })
      else { return [] }
      var keys = (writers[parent].knownValues[key.column] ?? []).filter { !$0.isNull }
      if schemas[parent].rowidColumn?.name == key.column { keys += (1...4).map { SqliteValue.integer($0) } }
      return keys
    }

    /// Runs one write generator on the shared random stream, with fresh parameters; `subqueries`
    /// lets its conditions and values hold subqueries (mostly of the other tables).
    mutating func write(
      _ tableIndex: Int, subqueries: Bool, _ make: (inout WriteGenerator) -> Statement
    ) -> FuzzOperation {
      var generator = writers[tableIndex]
      generator.expressions.random = random
      generator.expressions.parameters = [:]
      if subqueries {
        generator.expressions.subquery = RelationalSelectGenerator.subqueryMaker(
          schemas: schemas, nesting: 0, avoiding: schemas[tableIndex].name)
        generator.expressions.subqueryRate = 0.2
      }
      let statement = make(&generator)
      generator.expressions.subquery = nil
      random = generator.expressions.random
      let parameters = generator.expressions.parameters
      writers[tableIndex] = generator
      return .statement(statement, parameters: parameters)
    }
  }
}

extension SqliteValue {
  /// Whether the value is NULL.
  fileprivate var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}
