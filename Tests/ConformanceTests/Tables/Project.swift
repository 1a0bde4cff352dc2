import Tandem

/// A parent table for the declared foreign keys below: an integer key and a unique code.
@Table struct Project: Equatable {
  let id: Int
  @Column(unique: true) var code: String
  var name = ""
}

/// Foreign keys, indexes and a self-reference, all declared on the type: a task follows its
/// project's key (CASCADE), loses its project code (SET NULL), and cannot lose the task it is
/// blocked by (RESTRICT). Titles are unique within a project.
@Table(indexes: [.index(on: ["projectID", "title"], unique: true), .index("tasks_by_title", on: ["title"])])
struct ProjectTask: Equatable {
  let id: Int
  @Column(references: Project.self, onDelete: .cascade, onUpdate: .cascade) var projectID: Int
  @Column(references: \Project.code, onDelete: .setNull, onUpdate: .setNull) var projectCode: String?
  @Column("blocked_by", references: ProjectTask.self, onDelete: .restrict, onUpdate: .restrict) var blockedBy: Int?
  var title: String
}

/// A composite primary key, one of whose columns references a project.
@Table struct Membership: Equatable {
  @Column(primaryKey: true, references: Project.self, onDelete: .cascade) var projectID: Int
  @Column(primaryKey: true) var userName: String
  var role = "member"
}

/// A composite key with a nullable column: SQLite lets such a key hold NULL, and a NULL equals
/// no row.
@Table struct Placement: Equatable {
  @Column(primaryKey: true) var shelf: String
  @Column(primaryKey: true) var slot: Int?
  var item = ""
}

/// References a composite key by default: there is no one column to reference.
@Table struct MembershipNote {
  let id: Int
  @Column(references: Membership.self) var membership: Int
}
