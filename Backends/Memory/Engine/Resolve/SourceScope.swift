import TandemCore

/// The tables one query level reads (its FROM sources), and the levels around it: where a
/// column name resolves, as SQLite's `resolve.c` looks names up, innermost level first.
///
/// A relational query evaluates its expressions over one *combined row*: the values of the
/// levels around it first (copied in when a subquery runs), then, for each source of its own,
/// that table's columns followed by one slot holding its rowid (NULL in a LEFT JOIN's row of
/// NULLs).
///
/// ```swift
/// // SELECT … FROM "lists" JOIN "reminders" ON …: lists' columns, lists' rowid, reminders' …
/// let scope = SourceScope(sources: [("lists", listsTable), ("reminders", remindersTable)], parent: nil)
/// try scope.resolve(column: "name", source: "lists")  // the slot of lists.name
/// ```
final class SourceScope {
  /// One source of this level.
  struct Source {
    /// The name its columns are qualified by.
    let alias: String
    /// The lookup key of `alias`, made once: every qualified name a query resolves compares it.
    let aliasKey: NameKey
    let definition: TableDefinition
    /// Its first column's slot in the combined row.
    let offset: Int
    /// Whether it is the right side of a LEFT JOIN, so any of its columns can be NULL.
    let isNullable: Bool
    /// The slot of its rowid.
    var rowidSlot: Int { offset + definition.columnCount }
  }

  /// A column reference resolved to its slot, with the properties comparisons use.
  struct Reference {
    let slot: Int
    let affinity: Affinity
    /// Whether the reference reads the rowid (or the column aliasing it).
    let isRowid: Bool
    /// The level that holds it: 0 for this one, 1 for the query around it, …
    let depth: Int
    /// The source's position in that level.
    let source: Int
    /// The column's position in its table (`nil` for the rowid).
    let column: Int?
    /// Whether a level the name was looked up in before it resolved marked it as possibly NULL
    /// (see ``SourceScope/marksNullable(lookingFor:)``).
    var passedNullableSource = false
  }

  let sources: [Source]
  let parent: SourceScope?
  /// Whether an expression of this level (or of a subquery inside it) read a level around it:
  /// the query is then correlated, and runs again for each outer row.
  private(set) var readsOuter = false
  /// Set while this level's ORDER BY and GROUP BY compile: SQLite resolves them (and the
  /// subqueries inside them) in this level alone, so a name of a level around it is `no such column`.
  var hidesOuter = false
  /// The number of slots of the levels around this one (the prefix of the combined row).
  let prefixWidth: Int
  /// The number of slots of the whole combined row.
  let width: Int

  /// A level reading `sources`; those at `nullable` positions are right sides of LEFT JOINs.
  init(sources: [(alias: String, definition: TableDefinition)], parent: SourceScope?, nullable: Set<Int> = []) {
    self.parent = parent
    prefixWidth = parent?.width ?? 0
    var offset = prefixWidth
    var list: [Source] = []
    for (position, (alias, definition)) in sources.enumerated() {
      list.append(
        Source(
          alias: alias, aliasKey: NameKey(alias), definition: definition, offset: offset,
          isNullable: nullable.contains(position)))
      offset += definition.columnCount + 1
    }
    self.sources = list
    width = offset
  }

  /// Whether the reference can never read NULL, so that SQLite's resolver answers `x IS [NOT]
  /// NULL` without reading a row: the rowid or a NOT NULL column of a table that is not the
  /// right side of a LEFT JOIN (a common table's columns are not known to be NOT NULL).
  func cannotBeNull(_ reference: Reference) -> Bool {
    guard let source = source(of: reference), !reference.passedNullableSource else { return false }
    if source.isNullable || source.definition.isEphemeral { return false }
    if reference.isRowid { return true }
    guard let column = reference.column else { return false }
    return column == source.definition.rowidColumn || source.definition.notNull[column]
  }

  /// The source a reference reads, in the level `reference.depth` levels around this one.
  func source(of reference: Reference) -> Source? {
    var level: SourceScope = self
    for _ in 0..<reference.depth {
      guard let parent = level.parent else { return nil }
      level = parent
    }
    return level.sources.indices.contains(reference.source) ? level.sources[reference.source] : nil
  }

  /// The source named `alias` in this level, by position (the first, when two share the name).
  func sourceIndex(_ alias: String) -> Int? {
    sources.firstIndex { $0.aliasKey.matches(alias) }
  }

  /// Whether looking a column up in this level, without finding it, marks the reference as
  /// possibly NULL: SQLite's `lookupName` remembers, on each level it searches, the last source
  /// that could have held the name's rowid (a table, named `alias` when the name is qualified),
  /// and flags the reference `EP_CanBeNull` when that source is the right side of a LEFT JOIN,
  /// even though the name then resolves in a level around. `x IS NULL` of a NOT NULL column is
  /// then computed, not answered up front.
  ///
  /// ```sql
  /// SELECT (SELECT 1 FROM a LEFT JOIN b WHERE t.notNull IS NULL) FROM t  -- folded: qualified
  /// SELECT (SELECT 1 FROM a LEFT JOIN b WHERE notNull IS NULL) FROM t    -- computed: b was passed
  /// ```
  func marksNullable(lookingFor alias: String?) -> Bool {
    Self.marksNullable(sources.map { ($0.alias, $0.definition, $0.isNullable) }, lookingFor: alias)
  }

  /// ``marksNullable(lookingFor:)`` for a level given as its sources, in FROM order.
  static func marksNullable(
    _ sources: [(alias: String, definition: TableDefinition, isNullable: Bool)], lookingFor alias: String?
  ) -> Bool {
    let last = sources.last { source in
      !source.definition.isEphemeral && (alias.map { NameKey($0) == NameKey(source.alias) } ?? true)
    }
    return last?.isNullable ?? false
  }

  /// Every source of this level named `alias`, by position.
  func sourceIndices(_ alias: String) -> [Int] {
    sources.indices.filter { sources[$0].aliasKey.matches(alias) }
  }

  /// Resolves `name` (qualified by `source` when given), innermost level first; throws SQLite's
  /// `no such column` or `ambiguous column name` error. With `marking` false, it only looks:
  /// no level is marked as reading outside itself.
  func resolve(column name: String, source: String?, marking: Bool = true) throws -> Reference {
    var level: SourceScope? = self
    var depth = 0
    var passedNullableSource = false
    var rowidSources = 0
    while let scope = level {
      if var found = try scope.resolveHere(column: name, source: source, depth: depth, rowidSources: &rowidSources) {
        if marking { markOuterRead(depth) }
        found.passedNullableSource = passedNullableSource
        return found
      }
      passedNullableSource = passedNullableSource || scope.marksNullable(lookingFor: source)
      if scope.hidesOuter { break }
      level = scope.parent
      depth += 1
    }
    throw EngineError.noSuchColumn(source.map { "\($0).\(name)" } ?? name)
  }

  private func resolveHere(column name: String, source: String?, depth: Int, rowidSources: inout Int) throws
    -> Reference?
  {
    // A FROM clause may name two sources alike (`child AS T, t`): a qualified name then looks in
    // both, and is ambiguous only when both have the column.
    let candidates: [Int]
    if let source {
      candidates = sourceIndices(source)
      guard !candidates.isEmpty else { return nil }
    } else {
      candidates = Array(sources.indices)
    }
    var found: Reference?
    for index in candidates {
      let definition = sources[index].definition
      guard let column = definition.columnIndex(name) else { continue }
      if found != nil {
        throw EngineError.sqlite(1, "ambiguous column name: " + (source.map { "\($0).\(name)" } ?? name))
      }
      let isRowid = column == definition.rowidColumn
      found = Reference(
        slot: isRowid ? sources[index].rowidSlot : sources[index].offset + column,
        affinity: isRowid ? .integer : definition.affinities[column], isRowid: isRowid, depth: depth,
        source: index, column: column)
    }
    if let found { return found }
    guard NameKey(name).isRowidName else { return nil }
    // SQLite counts every source the name could mean (`cntTab`); with two, no level's rowid is it.
    if let source, candidates.count > 1 { throw EngineError.noSuchColumn("\(source).\(name)") }
    return try rowidHere(of: candidates, depth: depth, rowidSources: &rowidSources)
  }

  /// The rowid a name resolves to in this level, when no column takes the name: SQLite's
  /// `lookupName` counts, over every level it passes (`cntTab`), the sources whose rows have a
  /// rowid a query may name (``TableDefinition/namesRowid``: not a common table expression's),
  /// and takes the rowid of the one it counted if that count is one when it ends a level. An
  /// unqualified rowid is so found past a level without such a source (a common table's only,
  /// or no FROM clause), and never once two were counted; a qualified one in the first level
  /// that has the source. A derived table's rowid is refused: SQLite's plan decides its value.
  private func rowidHere(of candidates: [Int], depth: Int, rowidSources: inout Int) throws
    -> Reference?
  {
    let named = candidates.filter { sources[$0].definition.namesRowid }
    rowidSources += named.count
    guard rowidSources == 1, named.count == 1 else { return nil }
    let index = named[0]
    guard !sources[index].definition.isEphemeral else {
      throw EngineError.unsupported(
        "the rowid of a subquery in FROM or of a view (SQLite reads NULL or the row's position, as its plan decides)")
    }
    return Reference(
      slot: sources[index].rowidSlot, affinity: .integer, isRowid: true, depth: depth, source: index, column: nil)
  }

  /// The reference a column or rowid expression makes, innermost level first; `nil` for any
  /// other expression or a name that does not resolve. It only looks: no level is marked as
  /// reading outside itself.
  func reference(to expression: SQLExpression) -> Reference? {
    switch expression {
    case .column(let name): try? resolve(column: name, source: nil, marking: false)
    case .qualifiedColumn(let source, let name): try? resolve(column: name, source: source, marking: false)
    case .rowid: try? resolveRowid(source: nil, marking: false)
    case .qualifiedRowid(let source): try? resolveRowid(source: source, marking: false)
    default: nil
    }
  }

  /// Marks this level and the levels between it and the one `depth` levels out as reading outside themselves.
  private func markOuterRead(_ depth: Int) {
    var level: SourceScope? = self
    for _ in 0..<depth {
      level?.readsOuter = true
      level = level?.parent
    }
  }

  /// The rowid of the source named `source` (or of the only source), innermost level first;
  /// with `marking` false, no level is marked as reading outside itself.
  func resolveRowid(source: String?, marking: Bool = true) throws -> Reference {
    var level: SourceScope? = self
    var depth = 0
    var rowidSources = 0
    while let scope = level {
      if let source {
        if let index = scope.sourceIndex(source) {
          guard scope.sources[index].definition.namesRowid, scope.sourceIndices(source).count == 1 else { break }
          if let found = try scope.rowidHere(of: [index], depth: depth, rowidSources: &rowidSources) {
            if marking { markOuterRead(depth) }
            return found
          }
          break
        }
      } else {
        // Unqualified: as `lookupName` finds it (see `rowidHere`), or no such column.
        let all = Array(scope.sources.indices)
        if let found = try scope.rowidHere(of: all, depth: depth, rowidSources: &rowidSources) {
          if marking { markOuterRead(depth) }
          return found
        }
        if rowidSources > 1 { break }
      }
      if scope.hidesOuter { break }
      level = scope.parent
      depth += 1
    }
    throw EngineError.noSuchColumn(source.map { "\($0).\(rowidSpelling(ofSource: $0))" } ?? unqualifiedRowidSpelling)
  }

  /// How the SQLite backend spells the rowid of the source named `alias` (as the first of
  /// `rowid`, `_rowid_` and `oid` that no column of its table takes): the spelling SQLite's
  /// error names.
  private func rowidSpelling(ofSource alias: String) -> String {
    var level: SourceScope? = self
    while let scope = level {
      if let index = scope.sourceIndex(alias) { return Self.rowidSpelling(scope.sources[index].definition) }
      level = scope.parent
    }
    return "rowid"
  }

  /// How the SQLite backend spells an unqualified rowid: by the innermost level's only source,
  /// else by the statement's table (the outermost level's first source).
  private var unqualifiedRowidSpelling: String {
    if sources.count == 1 { return Self.rowidSpelling(sources[0].definition) }
    var outermost: SourceScope = self
    while let parent = outermost.parent { outermost = parent }
    return outermost.sources.first.map { Self.rowidSpelling($0.definition) } ?? "rowid"
  }

  private static func rowidSpelling(_ definition: TableDefinition) -> String {
    ["rowid", "_rowid_", "oid"].first { !definition.shadowsRowid($0) } ?? "rowid"
  }
}
