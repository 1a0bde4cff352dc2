/// A write that failed, with the schema facts its error is named from.
///
/// SQLite's `FOREIGN KEY constraint failed` names no table or column, and its `datatype mismatch`
/// for a non-integer rowid is not even a constraint error. Both engines name these failures by
/// this one rule, computed from the schema (each engine gathers the facts its own way, and only
/// once a write has failed), so that their errors are identical:
///
/// - A foreign key failure names the table the statement writes, and that table's columns in the
///   one foreign key the statement could have broken: a child's referencing column, which an
///   insert writes (or an update assigns), or a parent's referenced column, whose rows a delete
///   (or a replacing insert, or an update of that column) removes. When several foreign keys could
///   be to blame the columns are empty.
/// - A non-integer rowid written by an insert, upsert or update becomes
///   ``TandemError/Constraint/datatype`` on the written table's rowid alias (`rowid` when it has
///   none), with SQLite's message `datatype mismatch`. When a foreign key's `ON DELETE SET NULL`
///   or `SET DEFAULT` action may have written it into another table's rowid instead (a delete, or
///   an `INSERT OR REPLACE` into a table such a key references), or an `ON UPDATE` action (an
///   update of the referenced column), the error stays kind `.sqlite`, code 20: SQLite does not
///   say which table.
///
/// ```swift
/// // DELETE FROM lists WHERE id = 1, while todos.listID references it:
/// failedWrite.name(error)   // constraint .foreignKey, table "lists", columns ["id"]
/// ```
package struct FailedWrite {
  /// What the statement did.
  package enum Kind: Sendable {
    case insert(InsertStatement.ConflictResolution)
    /// An update, with the columns it assigns.
    case update(assigned: [String])
    case delete
    case dropTable

    /// The kind of a statement that writes; `nil` for a select.
    package init?(_ statement: Statement) {
      switch statement {
      case .select: return nil
      case .insert(let insert): self = .insert(insert.conflict)
      case .update(let update): self = .update(assigned: update.assignments.map(\.column))
      case .delete: self = .delete
      }
    }
  }

  /// A foreign key of the database, as declared.
  package struct Reference: Sendable {
    /// The table that holds the referencing column.
    package var childTable: String
    /// The referencing column.
    package var childColumn: String
    /// The referenced table.
    package var parentTable: String
    /// The referenced column.
    package var parentColumn: String
    /// What deleting a referenced row does to the child rows.
    package var onDelete: ForeignKey.Action
    /// What changing a referenced key does to the child rows.
    package var onUpdate: ForeignKey.Action
    /// Whether the referencing column is its table's rowid alias (`INTEGER PRIMARY KEY`).
    package var childColumnIsRowid: Bool

    package init(
      childTable: String, childColumn: String, parentTable: String, parentColumn: String,
      onDelete: ForeignKey.Action, onUpdate: ForeignKey.Action = .noAction, childColumnIsRowid: Bool
    ) {
      self.childTable = childTable
      self.childColumn = childColumn
      self.parentTable = parentTable
      self.parentColumn = parentColumn
      self.onDelete = onDelete
      self.onUpdate = onUpdate
      self.childColumnIsRowid = childColumnIsRowid
    }
  }

  package var kind: Kind
  /// The written table's name, as declared.
  package var table: String
  /// Its columns, as declared.
  package var columns: [String]
  /// Its `INTEGER PRIMARY KEY` column, if any.
  package var rowidColumn: String?
  /// Every foreign key of the database.
  package var references: [Reference]

  package init(kind: Kind, table: String, columns: [String], rowidColumn: String?, references: [Reference]) {
    self.kind = kind
    self.table = table
    self.columns = columns
    self.rowidColumn = rowidColumn
    self.references = references
  }

  /// The facts of `table` among `schemas` (every table of the database, as declared); `nil` when
  /// no schema has that name.
  package init?(kind: Kind, table: String, schemas: [TableSchema]) {
    guard let written = schemas.first(where: { SQLName.same($0.name, table) }) else { return nil }
    var references: [Reference] = []
    for schema in schemas {
      for column in schema.columns {
        guard let key = column.references else { continue }
        references.append(
          Reference(
            childTable: schema.name, childColumn: column.name, parentTable: key.table, parentColumn: key.column,
            onDelete: key.onDelete, onUpdate: key.onUpdate, childColumnIsRowid: schema.rowidColumn?.name == column.name))
      }
    }
    self.init(
      kind: kind, table: written.name, columns: written.columns.map(\.name), rowidColumn: written.rowidColumn?.name,
      references: references)
  }

  /// Whether `error`, thrown by a write of `kind`, is one this type names: engines gather the
  /// schema facts only then.
  package static func needsNaming(_ error: TandemError, _ kind: Kind) -> Bool {
    if error.constraint == .foreignKey && error.table == nil { return true }
    guard error.kind == .sqlite, error.sqliteCode == 20 else { return false }
    switch kind {
    case .insert, .update: return true
    case .delete, .dropTable: return false
    }
  }

  /// `error` with the table and columns the rule gives (see the type's documentation).
  package func name(_ error: TandemError) -> TandemError {
    if error.constraint == .foreignKey {
      var named = error
      named.table = table
      named.columns = blamedColumns()
      return named
    }
    guard Self.needsNaming(error, kind), !rowidMayBeAnotherTables() else { return error }
    var named = TandemError.constraintViolation(
      .datatype, table: table, columns: [rowidColumn ?? "rowid"], message: error.message)
    named.statement = error.statement
    return named
  }

  /// The written table's columns in the one foreign key the statement could have broken.
  private func blamedColumns() -> [String] {
    var candidates: [String] = []
    for reference in references {
      let isChild = SQLName.same(reference.childTable, table)
      let isParent = SQLName.same(reference.parentTable, table)
      switch kind {
      case .insert(let conflict):
        if isChild { candidates.append(reference.childColumn) }
        if isParent {
          switch conflict {
          case .replace: candidates.append(reference.parentColumn)
          case .update(_, let assignments) where assignments.contains(where: { SQLName.same($0.column, reference.parentColumn) }):
            candidates.append(reference.parentColumn)
          default: break
          }
        }
      case .update(let assigned):
        if isChild && assigned.contains(where: { SQLName.same($0, reference.childColumn) }) {
          candidates.append(reference.childColumn)
        }
        if isParent && assigned.contains(where: { SQLName.same($0, reference.parentColumn) }) {
          candidates.append(reference.parentColumn)
        }
      case .delete:
        if isParent { candidates.append(reference.parentColumn) }
      case .dropTable:
        if isParent && !isChild { candidates.append(reference.parentColumn) }
      }
    }
    guard candidates.count == 1 else { return [] }
    // As the table declares it, when it does.
    return [columns.first { SQLName.same($0, candidates[0]) } ?? candidates[0]]
  }

  /// Whether a foreign key action may have written a non-integer into another table's rowid: an
  /// ON DELETE SET NULL or SET DEFAULT run by a replacing insert, or an ON UPDATE action run by
  /// an update (or an upsert's DO UPDATE) that assigns the referenced column.
  private func rowidMayBeAnotherTables() -> Bool {
    let assigned: [String]
    switch kind {
    case .insert(.replace):
      return references.contains { reference in
        SQLName.same(reference.parentTable, table) && reference.childColumnIsRowid
          && (reference.onDelete == .setNull || reference.onDelete == .setDefault)
      }
    case .insert(.update(_, let assignments)): assigned = assignments.map(\.column)
    case .update(let columns): assigned = columns
    default: return false
    }
    return references.contains { reference in
      SQLName.same(reference.parentTable, table) && reference.childColumnIsRowid
        && [.setNull, .setDefault, .cascade].contains(reference.onUpdate)
        && assigned.contains { SQLName.same($0, reference.parentColumn) }
    }
  }
}
