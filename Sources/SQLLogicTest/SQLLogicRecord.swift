/// One record of a sqllogictest script: a statement, a query or a control record, with the
/// `skipif` / `onlyif` conditions before it and the line it starts on.
///
/// ```swift
/// let script = SQLLogicScript(parsing: "statement ok\nCREATE TABLE t(a)\n")
/// script.records[0].kind  // .statement(expectsError: false, sql: "CREATE TABLE t(a)")
/// ```
public struct SQLLogicRecord: Sendable, Hashable {
  /// What the record asks for.
  public enum Kind: Sendable, Hashable {
    /// `statement ok` / `statement error`: SQL (possibly several statements) run as one script.
    case statement(expectsError: Bool, sql: String)
    /// `query <types> <sort> [label]` with its SQL and expected result lines.
    case query(SQLLogicQuery)
    /// `hash-threshold N`: results of more than N values are compared by their MD5.
    case hashThreshold(Int)
    /// `halt`: the rest of the script is ignored.
    case halt
    /// A record the parser could not read, with why; running it counts as a failure.
    case invalid(String)
  }

  /// A `skipif <engine>` or `onlyif <engine>` line.
  public enum Condition: Sendable, Hashable {
    /// The record is not run on this engine.
    case skipIf(String)
    /// The record is run only on this engine.
    case onlyIf(String)
  }

  /// What the record asks for.
  public var kind: Kind
  /// The conditions in front of it, in order.
  public var conditions: [Condition]
  /// The 1-based line of the record's first line in its file.
  public var line: Int

  /// A record.
  ///
  /// ```swift
  /// SQLLogicRecord(kind: .halt, conditions: [.onlyIf("mssql")], line: 12)
  /// ```
  public init(kind: Kind, conditions: [Condition] = [], line: Int) {
    self.kind = kind
    self.conditions = conditions
    self.line = line
  }

  /// Whether an engine of this name runs the record (no `skipif` names it, no `onlyif` names
  /// another engine). Names compare case-insensitively.
  ///
  /// ```swift
  /// SQLLogicRecord(kind: .halt, conditions: [.onlyIf("mssql")], line: 1).applies(to: "sqlite")  // false
  /// ```
  public func applies(to engine: String) -> Bool {
    for condition in conditions {
      switch condition {
      case .skipIf(let name) where name.lowercased() == engine.lowercased(): return false
      case .onlyIf(let name) where name.lowercased() != engine.lowercased(): return false
      default: continue
      }
    }
    return true
  }

  /// Whether the record is a statement or a query (the records counted as passed, failed,
  /// unsupported or skipped).
  ///
  /// ```swift
  /// SQLLogicRecord(kind: .hashThreshold(8), line: 1).isTest  // false
  /// ```
  public var isTest: Bool {
    switch kind {
    case .statement, .query, .invalid: true
    case .hashThreshold, .halt: false
    }
  }
}
