import Tandem
import SeededRandomness

/// Builds the ``FuzzCase`` numbered `index` of the campaign `seed`: always the same case for the
/// same two numbers.
///
/// ```swift
/// let fuzzCase = CaseGenerator.generate(seed: 0x7A4D, index: 12)
/// ```
enum CaseGenerator {
  static func generate(seed: UInt64, index: UInt64) -> FuzzCase {
    var random = SplitMix64(seed: seed, stream: index)
    var schemaGenerator = SchemaGenerator(random: random)
    let schemas = schemaGenerator.schemas()
    random = schemaGenerator.random
    let writers = schemas.map { WriteGenerator(expressions: ExpressionGenerator(random: random, table: $0)) }
    var state = State(random: random, schemas: schemas, writers: writers)

    var operations: [FuzzOperation] = []
    // Fill every table first (these may fail too: NOT NULL columns without defaults, conflicts).
    for tableIndex in schemas.indices {
      for _ in 0..<state.random.int(1...3) {
        operations.append(state.insert(into: tableIndex, plain: true))
      }
    }
    for _ in 0..<state.random.int(4...18) {
      operations.append(state.operation(nesting: 0))
    }
    return FuzzCase(seed: seed, index: index, schemas: schemas, operations: operations)
  }

  /// The generators of one case, sharing one random stream.
  private struct State {
    var random: SplitMix64
    let schemas: [TableSchema]
    var writers: [WriteGenerator]

    mutating func operation(nesting: Int) -> FuzzOperation {
      switch random.weighted([(10, 0), (4, 1), (3, 2), (2, 3), (nesting < 2 ? 1 : 0, 4)]) {
      case 0: return select(from: tableIndex())
      case 1: return insert(into: tableIndex(), plain: false)
      case 2: return write(tableIndex()) { .update($0.update()) }
      case 3: return write(tableIndex()) { .delete($0.delete()) }
      default:
        let body = (0..<random.int(1...5)).map { _ in operation(nesting: nesting + 1) }
        return .savepoint(body, rollback: random.chance(0.4))
      }
    }

    mutating func tableIndex() -> Int { random.int(0...(schemas.count - 1)) }

    mutating func select(from tableIndex: Int) -> FuzzOperation {
      var expressions = ExpressionGenerator(random: random, table: schemas[tableIndex])
      expressions.knownValues = writers[tableIndex].knownValues
      var generator = SelectGenerator(expressions: expressions)
      let statement = generator.select()
      random = generator.expressions.random
      return .statement(.select(statement), parameters: generator.expressions.parameters)
    }

    mutating func insert(into tableIndex: Int, plain: Bool) -> FuzzOperation {
      write(tableIndex) { .insert($0.insert(plain: plain)) }
    }

    /// Runs one write generator on the shared random stream, with fresh parameters.
    mutating func write(_ tableIndex: Int, _ make: (inout WriteGenerator) -> Statement) -> FuzzOperation {
      var generator = writers[tableIndex]
      generator.expressions.random = random
      generator.expressions.parameters = [:]
      let statement = make(&generator)
      random = generator.expressions.random
      let parameters = generator.expressions.parameters
      writers[tableIndex] = generator
      return .statement(statement, parameters: parameters)
    }
  }
}
