import TandemCore

/// Placeholder until the parser lands (replaced by the parser's own file).
public struct SQLScriptReader {
  private let sql: String
  private var done = false
  public init(_ sql: String) { self.sql = sql }
  public mutating func next(schema: (String) -> [String]?) throws -> ParsedSQL? {
    if done { return nil }
    done = true
    throw TandemError.unsupported("SQL text", backend: "memory")
  }
}
