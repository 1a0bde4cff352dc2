/// A view as `CREATE VIEW` defined it: its name, the column names it lists (if any) and the text
/// of its SELECT, which is parsed again wherever the view is read — as SQLite does, so that a
/// view sees the tables and views of the moment it is read.
///
/// ```swift
/// var reader = SQLScriptReader("CREATE VIEW open_notes(id) AS SELECT id FROM notes WHERE NOT done")
/// try reader.next(schema: { _ in nil })?.statement
/// // .createView(ViewDefinition(name: "open_notes", columns: ["id"], select: "SELECT id FROM notes WHERE NOT done"), …)
/// ```
public struct ViewDefinition: Sendable, Hashable {
  /// The view's name, as written.
  public var name: String
  /// The column names listed after the name, or `nil` for the SELECT's own result names.
  public var columns: [String]?
  /// The SELECT's text, as written after `AS`.
  public var select: String
  /// Whether it was created `TEMP` (it lives until the connection closes, as any view of a
  /// memory database does).
  public var isTemporary: Bool

  /// A view from its parts.
  public init(name: String, columns: [String]? = nil, select: String, isTemporary: Bool = false) {
    self.name = name
    self.columns = columns
    self.select = select
    self.isTemporary = isTemporary
  }
}
