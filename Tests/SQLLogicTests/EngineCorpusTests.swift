// The corpus on Tandem's own engines, through the raw-SQL API (`DatabaseLogicEngine`).
import Foundation
import SQLLogicTest
import Tandem
import Testing

@Suite(.enabled(if: Corpus.isPresent, "needs ../shared/sqllogictest"))
struct EngineCorpusTests {
  static var files: [URL] { Corpus.selectFiles + Corpus.files(under: "evidence") }
  static let storages: [Database.Storage] = [.memory, .sqliteInMemory]

  /// select1–5 and evidence/: no record may fail, and the memory engine refuses only triggers,
  /// which it does not have.
  @Test(arguments: storages, files)
  func enginePassesEveryRecord(storage: Database.Storage, file: URL) throws {
    let engine = try DatabaseLogicEngine(storage: storage)
    let report = try SQLLogicRunner().run(fileAt: file, named: file.lastPathComponent, on: engine)
    #expect(report.failed == 0, "\(storage) \(report.summaryLine)\n\(report.failures.map(\.description).joined(separator: "\n"))")
    if storage == .sqliteInMemory {
      #expect(report.unsupported == 0)
    } else {
      let refused = Set(report.unsupportedConstructs.keys)
      #expect(refused.isSubset(of: ["CREATE TRIGGER", "DROP TRIGGER"]), "\(storage) refused \(refused.sorted())")
    }
  }

  /// The whole shared sample (`TANDEM_SLT_ALL=1`), with the totals printed.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["TANDEM_SLT_ALL"] == "1", "set TANDEM_SLT_ALL=1"), arguments: storages)
  func enginePassesTheWholeSample(storage: Database.Storage) throws {
    var total = SQLLogicReport(name: "\(storage) total")
    for file in Corpus.files() {
      total.add(try SQLLogicRunner().run(fileAt: file, on: try DatabaseLogicEngine(storage: storage)))
    }
    print(total.summaryLine)
    print(total.constructLines(limit: 25).joined(separator: "\n"))
    #expect(total.failed == 0, "\(total.failures.map(\.description).joined(separator: "\n"))")
  }
}
