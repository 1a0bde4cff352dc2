import Tandem
import Testing

/// Foreign keys, indexes and composite primary keys declared with `@Table` and `@Column` are
/// enforced alike on every backend.
@Suite struct DeclaredKeysAndIndexesTests {
  /// Projects 1 "A" and 2 "B"; tasks 1 and 2 in project 1 (task 2 blocked by task 1), task 3 in
  /// project 2; two members of project 1 and one of project 2.
  static func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(Project.self)
    try db.create(ProjectTask.self)
    try db.create(Membership.self)
    try db.insert([Project(id: 1, code: "A"), Project(id: 2, code: "B")])
    try db.insert([
      ProjectTask(id: 1, projectID: 1, projectCode: "A", title: "design"),
      ProjectTask(id: 2, projectID: 1, projectCode: "A", blockedBy: 1, title: "build"),
      ProjectTask(id: 3, projectID: 2, projectCode: "B", title: "design"),
    ])
    try db.insert([
      Membership(projectID: 1, userName: "ann"), Membership(projectID: 1, userName: "bob", role: "owner"),
      Membership(projectID: 2, userName: "ann"),
    ])
    return db
  }

  static let foreignKeyFailure = "FOREIGN KEY constraint failed"

  @Test(arguments: BackendKind.allCases)
  func deletingAProjectCascadesToItsTasksAndMembers(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.delete(Project.where { $0.id == 2 }) == 1)
    #expect(try db.fetchAll(ProjectTask.all.select { $0.id }) == [1, 2])
    #expect(try db.fetchAll(Membership.all.select { $0.userName }) == ["ann", "bob"])
  }

  @Test(arguments: BackendKind.allCases)
  func changingAProjectsKeysCascadesAndSetsNull(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    // Membership's key has no ON UPDATE action: a project with members keeps them only by
    // keeping its key, so the change fails once the statement ends.
    let error = try #require(throws: TandemError.self) {
      try db.update(Project.where { $0.id == 1 }) { $0.set(\.id, to: 10) }
    }
    // Tasks and members both reference projects.id, so the error blames no one column.
    #expect(error.signature == .constraint(.foreignKey, table: "projects", columns: [], message: Self.foreignKeyFailure))
    #expect(try db.delete(Membership.where { $0.projectID == 1 }) == 2)
    try db.update(Project.where { $0.id == 1 }) {
      $0.set(\.id, to: 10)
      $0.set(\.code, to: "AA")
    }
    #expect(
      try db.fetchAll(ProjectTask.all.select { ($0.id, $0.projectID, $0.projectCode) }).map { "\($0.0) \($0.1) \($0.2 ?? "nil")" }
        == ["1 10 nil", "2 10 nil", "3 2 B"])
  }

  @Test(arguments: BackendKind.allCases)
  func restrictKeepsABlockingTask(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let restricted = TandemError.Signature.constraint(
      .foreignKey, table: "projectTasks", columns: ["id"], message: Self.foreignKeyFailure)
    let deleteError = try #require(throws: TandemError.self) { try db.delete(ProjectTask.where { $0.id == 1 }) }
    #expect(deleteError.signature == restricted)
    let updateError = try #require(throws: TandemError.self) {
      try db.update(ProjectTask.where { $0.id == 1 }) { $0.set(\.id, to: 9) }
    }
    #expect(updateError.signature == restricted)
    #expect(try db.fetchAll(ProjectTask.all.select { $0.id }) == [1, 2, 3])
    // Once nothing is blocked by it, the task may go.
    try db.update(ProjectTask.where { $0.id == 2 }) { $0.set(\.blockedBy, to: nil) }
    #expect(try db.delete(ProjectTask.where { $0.id == 1 }) == 1)
  }

  @Test(arguments: BackendKind.allCases)
  func aChildNeedsItsParent(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let error = try #require(throws: TandemError.self) {
      try db.insert(ProjectTask(id: 4, projectID: 3, title: "orphan"))
    }
    #expect(error.signature.constraint == .foreignKey)
    #expect(try db.fetchCount(ProjectTask.all) == 3)
  }

  @Test(arguments: BackendKind.allCases)
  func aUniqueIndexRefusesADuplicate(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let error = try #require(throws: TandemError.self) {
      try db.insert(ProjectTask(id: 4, projectID: 1, title: "design"))
    }
    #expect(
      error.signature
        == .constraint(
          .unique, table: "projectTasks", columns: ["projectID", "title"],
          message: "UNIQUE constraint failed: projectTasks.projectID, projectTasks.title"))
    // The same title in another project, and the plain index on titles, allow it.
    try db.insert(ProjectTask(id: 4, projectID: 2, title: "build"))
    let moved = try #require(throws: TandemError.self) {
      try db.update(ProjectTask.where { $0.id == 4 }) { $0.set(\.projectID, to: 1) }
    }
    #expect(moved.signature.constraint == .unique)
    #expect(try db.fetchAll(ProjectTask.where { $0.title == "build" }.select { $0.projectID }) == [1, 2])
  }

  @Test(arguments: BackendKind.allCases)
  func aCompositeKeyConflictsOnlyWhenEveryColumnMatches(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    let error = try #require(throws: TandemError.self) { try db.insert(Membership(projectID: 1, userName: "ann")) }
    #expect(
      error.signature
        == .constraint(
          .primaryKey, table: "memberships", columns: ["projectID", "userName"],
          message: "UNIQUE constraint failed: memberships.projectID, memberships.userName"))
    try db.insert(Membership(projectID: 2, userName: "bob"))
    try db.insert(Membership(projectID: 1, userName: "ann", role: "owner"), onConflict: .replace)
    #expect(
      try db.fetchAll(Membership.all.order { ($0.projectID, $0.userName) }.select { $0.role })
        == ["owner", "owner", "member", "member"])
  }

  @Test(arguments: BackendKind.allCases)
  func recordsAreFoundByTheirCompositeKey(_ kind: BackendKind) throws {
    let db = try Self.database(kind)
    #expect(try db.update(Membership(projectID: 1, userName: "ann", role: "admin")))
    #expect(try db.update(Membership(projectID: 2, userName: "bob", role: "admin")) == false)
    try db.upsert(Membership(projectID: 2, userName: "ann", role: "owner"))
    try db.upsert(Membership(projectID: 2, userName: "cid"))
    #expect(try db.delete(Membership(projectID: 1, userName: "bob")))
    #expect(try db.delete(Membership(projectID: 1, userName: "bob")) == false)
    #expect(
      try db.fetchAll(Membership.all.order { ($0.projectID, $0.userName) })
        == [
          Membership(projectID: 1, userName: "ann", role: "admin"), Membership(projectID: 2, userName: "ann", role: "owner"),
          Membership(projectID: 2, userName: "cid"),
        ])
    // A lookup by one key value cannot name a row of a composite key.
    let error = try #require(throws: TandemError.self) { try db.find(Membership.self, key: 1) }
    #expect(
      error.signature
        == .misuse("memberships has a primary key of 2 columns, and find(_:key:) takes one value; fetch with a filter"))
  }
}

extension DeclaredKeysAndIndexesTests {
  @Test(arguments: BackendKind.allCases)
  func aNullKeyValueCannotFindItsRecord(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Placement.self)
    // Two NULL slots on one shelf do not conflict: NULLs are distinct in a key.
    try db.insert([Placement(shelf: "a", slot: nil, item: "x"), Placement(shelf: "a", slot: nil, item: "y")])
    try db.insert(Placement(shelf: "a", slot: 1, item: "z"))
    let refused = TandemError.Signature.misuse(
      "the record's primary key column placements.slot is NULL, which equals no row, so the record cannot be found by key")
    let update = try #require(throws: TandemError.self) { try db.update(Placement(shelf: "a", slot: nil, item: "w")) }
    #expect(update.signature == refused)
    let delete = try #require(throws: TandemError.self) { try db.delete(Placement(shelf: "a", slot: nil)) }
    #expect(delete.signature == refused)
    #expect(try db.update(Placement(shelf: "a", slot: 1, item: "w")))
    #expect(try db.fetchAll(Placement.all.order { $0.item }.select { $0.item }) == ["w", "x", "y"])
  }
}

extension DeclaredKeysAndIndexesTests {
  @Test(arguments: BackendKind.allCases)
  func aReferenceToACompositeKeyByDefaultIsRefused(_ kind: BackendKind) throws {
    let db = try makeDatabase(kind)
    try db.create(Membership.self)
    let error = try #require(throws: TandemError.self) { try db.create(MembershipNote.self) }
    #expect(
      error.signature
        == .misuse(
          "foreign key membershipNotes.membership names no column of memberships, whose primary key is not one "
            + "column; name the referenced column"))
    #expect(throws: TandemError.self) { try db.fetchCount(MembershipNote.all) }
  }
}
