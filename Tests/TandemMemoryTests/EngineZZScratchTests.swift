import Foundation
import Testing
import TandemCore
@testable import TandemMemory

@Suite struct EngineZZScratchTests {
  @Test func overflowAtFinalize() {
    let schema = TableSchema("t", columns: [.column("n", .integer), .column("p", .null(.text))])
    let db = EngineTandem(schema)
    db.write(Q.insert("t", ["n", "p"], [[.integer(.max), "a"], [1, "a"], [1, "xx"]]))
    let sum = SQLExpression.aggregate(.sum, .column("n"), distinct: false)
    let like = SQLExpression.aggregate(.max, .like(.literal("a"), pattern: .literal("a"), escape: .column("p"), negated: false), distinct: false)
    db.run(Q.select("t", [sum, like]))
    db.run(Q.select("t", [like, sum]))
    db.run(Q.select("t", [sum], having: .literal(0)))
  }
}
