import Tandem

extension Statement {
  /// Smaller statements to try in place of this one.
  var simplifications: [Statement] {
    switch self {
    case .select(let select): select.simplifications.map(Statement.select)
    case .insert(let insert): insert.simplifications.map(Statement.insert)
    case .update(let update): update.simplifications.map(Statement.update)
    case .delete(let delete):
      ((delete.filter == nil ? [] : [DeleteStatement(table: delete.table)])
        + (delete.filter?.simplifications ?? []).map { DeleteStatement(table: delete.table, filter: $0) })
        .map(Statement.delete)
    }
  }

  /// Every expression the statement holds.
  var expressions: [SQLExpression] {
    switch self {
    case .select(let s):
      return s.columns + [s.filter, s.having, s.limit, s.offset].compactMap { $0 } + s.groupBy
        + s.orderBy.map(\.expression) + s.joins.compactMap(\.condition)
    case .insert(let s):
      var list = s.rows.flatMap { $0 }
      if case .update(_, let assignments) = s.conflict { list += assignments.map(\.value) }
      return list
    case .update(let s): return s.assignments.map(\.value) + [s.filter].compactMap { $0 }
    case .delete(let s): return [s.filter].compactMap { $0 }
    }
  }

  /// The column names the statement mentions, in expressions or as targets.
  var mentionedColumns: Set<String> {
    var names: Set<String> = []
    for node in expressions.flatMap(\.deepNodes) {
      switch node {
      case .column(let name), .excluded(let name), .qualifiedColumn(_, let name): names.insert(name)
      default: break
      }
    }
    switch self {
    case .insert(let s):
      names.formUnion(s.columns)
      switch s.conflict {
      case .update(let target, let assignments):
        names.formUnion(target)
        names.formUnion(assignments.map(\.column))
      case .nothing(let target): names.formUnion(target)
      default: break
      }
    case .update(let s): names.formUnion(s.assignments.map(\.column))
    default: break
    }
    return names
  }
}

extension SelectStatement {
  /// Smaller selects; the deterministic tie-breakers are stripped first and put back after.
  var simplifications: [SelectStatement] {
    var base = self
    let ties = SelectGenerator.tieBreakers(for: self).map { OrderingTerm($0) }
    if base.orderBy.count >= ties.count && Array(base.orderBy.suffix(ties.count)) == ties {
      base.orderBy.removeLast(ties.count)
    }
    var candidates: [SelectStatement] = []
    func add(_ change: (inout SelectStatement) -> Void) {
      var copy = base
      change(&copy)
      copy.orderBy += SelectGenerator.tieBreakers(for: copy).map { OrderingTerm($0) }
      candidates.append(copy)
    }
    if base.columns.count > 1 {
      for index in base.columns.indices { add { $0.columns.remove(at: index) } }
    }
    if base.filter != nil { add { $0.filter = nil } }
    if base.having != nil { add { $0.having = nil } }
    if base.limit != nil { add { $0.limit = nil } }
    if base.offset != nil { add { $0.offset = nil } }
    if base.distinct && base.groupBy.isEmpty { add { $0.distinct = false } }
    for index in base.joins.indices {
      add { $0.joins.remove(at: index) }
      if base.joins[index].kind != .inner { add { $0.joins[index].kind = .inner } }
      if let condition = base.joins[index].condition {
        add { $0.joins[index].condition = nil }
        for smaller in condition.simplifications { add { $0.joins[index].condition = smaller } }
      }
    }
    for index in base.orderBy.indices { add { $0.orderBy.remove(at: index) } }
    // A compound loses a member (the last one gone, its ORDER BY by position still holds), or a
    // member's filter.
    for index in base.compound.indices {
      add { $0.compound.remove(at: index) }
      if base.compound[index].select.filter != nil { add { $0.compound[index].select.filter = nil } }
    }
    let keys = Set(base.groupBy)
    for index in base.columns.indices where !keys.contains(base.columns[index]) {
      for smaller in base.columns[index].simplifications { add { $0.columns[index] = smaller } }
    }
    for smaller in base.filter?.simplifications ?? [] { add { $0.filter = smaller } }
    for smaller in base.having?.simplifications ?? [] { add { $0.having = smaller } }
    return candidates
  }
}

extension InsertStatement {
  /// Fewer rows, fewer columns, a plain ABORT, fewer assignments, simpler values.
  var simplifications: [InsertStatement] {
    var candidates: [InsertStatement] = []
    if rows.count > 1 {
      for index in rows.indices {
        var copy = self
        copy.rows.remove(at: index)
        candidates.append(copy)
      }
    }
    if columns.count > 1 {
      for index in columns.indices {
        var copy = self
        copy.columns.remove(at: index)
        copy.rows = rows.map { row in
          var row = row
          if row.indices.contains(index) { row.remove(at: index) }
          return row
        }
        candidates.append(copy)
      }
    }
    if conflict != .abort && !columns.isEmpty {
      var copy = self
      copy.conflict = .abort
      candidates.append(copy)
    }
    if case .update(let target, let assignments) = conflict {
      if assignments.count > 1 {
        for index in assignments.indices {
          var copy = self
          var fewer = assignments
          fewer.remove(at: index)
          copy.conflict = .update(target: target, assignments: fewer)
          candidates.append(copy)
        }
      }
      for (index, assignment) in assignments.enumerated() {
        for smaller in assignment.value.simplifications {
          var copy = self
          var changed = assignments
          changed[index].value = smaller
          copy.conflict = .update(target: target, assignments: changed)
          candidates.append(copy)
        }
      }
    }
    for (rowIndex, row) in rows.enumerated() {
      for (columnIndex, value) in row.enumerated() {
        for smaller in value.simplifications {
          var copy = self
          copy.rows[rowIndex][columnIndex] = smaller
          candidates.append(copy)
        }
      }
    }
    return candidates
  }
}

extension UpdateStatement {
  /// Fewer assignments, no or a simpler filter, simpler values.
  var simplifications: [UpdateStatement] {
    var candidates: [UpdateStatement] = []
    if assignments.count > 1 {
      for index in assignments.indices {
        var copy = self
        copy.assignments.remove(at: index)
        candidates.append(copy)
      }
    }
    if filter != nil { candidates.append(UpdateStatement(table: table, assignments: assignments)) }
    for (index, assignment) in assignments.enumerated() {
      for smaller in assignment.value.simplifications {
        var copy = self
        copy.assignments[index].value = smaller
        candidates.append(copy)
      }
    }
    for smaller in filter?.simplifications ?? [] {
      candidates.append(UpdateStatement(table: table, assignments: assignments, filter: smaller))
    }
    return candidates
  }
}
