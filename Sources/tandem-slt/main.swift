import Foundation
import SQLLogicTest
import Tandem

// tandem-slt: runs sqllogictest scripts on a Tandem engine. See SLTOptions.usage.

guard let options = SLTOptions(arguments: Array(CommandLine.arguments.dropFirst())) else {
  exit(2)
}
let files: [URL]
switch ScriptFiles.collect(options.paths) {
case .success(let found): files = found
case .failure(let missing):
  FileHandle.standardError.write(Data("tandem-slt: no such file or folder: \(missing.path)\n".utf8))
  exit(2)
}

print("engine: \(options.engineName); linked SQLite \(Database.sqliteVersion); memory engine reproduces SQLite \(Database.memoryEngineSQLiteVersion)")
let runner = SQLLogicRunner(
  engineName: "sqlite", failureLimit: options.failureLimit, unsupportedLimit: options.unsupportedLimit)
var total = SQLLogicReport(name: "total", failureLimit: 0)
for file in files {
  let report: SQLLogicReport
  do {
    let engine = try DatabaseLogicEngine(storage: options.storage)
    report = try runner.run(fileAt: file, named: file.path, on: engine)
  } catch {
    FileHandle.standardError.write(Data("tandem-slt: \(file.path): \(error)\n".utf8))
    exit(2)
  }
  print(report.summaryLine)
  if options.failureLimit > 0 {
    for failure in report.failures {
      print(failure.description)
    }
    if report.failed > report.failures.count {
      print("  … and \(report.failed - report.failures.count) more failures")
    }
  }
  for record in report.unsupportedRecords {
    print(record.description)
  }
  total.add(report)
}
print(total.summaryLine.replacingOccurrences(of: "total:", with: "total (\(files.count) files):"))
let constructs = total.constructLines(limit: 25)
if !constructs.isEmpty {
  print("unsupported constructs:")
  constructs.forEach { print($0) }
}
exit(total.failed > 0 ? 1 : 0)
