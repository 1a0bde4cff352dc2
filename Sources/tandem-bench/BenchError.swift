/// A failure of the benchmark itself (a SQLite call, a missing row, a wrong count).
struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
