import Foundation
import Tandem
import Testing

/// The seeded differential fuzzer for relational statements: 2–4 tables linked by foreign keys,
/// joins (inner, left, cross, self-joins, up to four sources), aggregates over them, scalar,
/// EXISTS and IN subqueries — correlated or not — in SELECTs, UPDATEs and DELETEs, compound
/// selects, and common table expressions (some recursive); every answer of the memory engine
/// must be SQLite's.
///
/// `swift test --filter RelationalFuzzTests` runs the CI budget; `TANDEM_REL_FUZZ_CASES` sets the
/// number of cases, and the other variables of ``FuzzSettings`` (seed, first case, …) apply.
@Suite("Relational differential fuzzing")
struct RelationalFuzzTests {
  @Test("The memory engine answers every generated join and subquery exactly as SQLite does")
  func memoryEngineAnswersRelationalStatementsLikeSQLite() {
    DifferentialFuzzTests.campaign(FuzzSettings.relational, generate: RelationalCaseGenerator.generate)
  }
}
