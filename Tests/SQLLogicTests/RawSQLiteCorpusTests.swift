import Foundation
import SQLLogicTest
import Testing

/// The corpus through real SQLite over the C API. SQLite passes every record of it, so any
/// failure here is a bug of the runner (parsing, conversions, printing, sorting or hashing).
@Suite(.enabled(if: Corpus.isPresent, "needs ../shared/sqllogictest"))
struct RawSQLiteCorpusTests {
  static var files: [URL] { Corpus.selectFiles + Corpus.files(under: "evidence") }

  @Test(arguments: files)
  func sqlitePassesEveryRecord(file: URL) throws {
    let report = try SQLLogicRunner().run(fileAt: file, named: file.lastPathComponent, on: try RawSQLiteLogicEngine())
    #expect(report.failed == 0, "\(report.summaryLine)\n\(report.failures.map(\.description).joined(separator: "\n"))")
    #expect(report.unsupported == 0)
    #expect(report.passed > 0)
  }

  /// The whole shared sample (`TANDEM_SLT_ALL=1`): the README's counts, exactly.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["TANDEM_SLT_ALL"] == "1", "set TANDEM_SLT_ALL=1"))
  func sqlitePassesTheWholeSample() throws {
    var total = SQLLogicReport(name: "total")
    for file in Corpus.files() {
      total.add(try SQLLogicRunner().run(fileAt: file, on: try RawSQLiteLogicEngine()))
    }
    #expect(total.failed == 0, "\(total.failures.map(\.description).joined(separator: "\n"))")
    #expect(total.passed == 386_941)
    #expect(total.skipped == 45_786)
  }
}
