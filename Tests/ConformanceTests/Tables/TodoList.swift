import Tandem

/// A parent table, written by hand (without `@Table`).
struct TodoList: Table, Equatable {
  var id: Int
  var title: String

  static let tableName = "lists"
  static let schema = TableSchema(
    "lists",
    columns: [
      .column("id", .integer, primaryKey: true),
      .column("title", .text),
    ])

  struct Columns: TableColumns {
    let id = ColumnExpression<Int>("id")
    let title = ColumnExpression<String>("title")
  }
  static let columns = Columns()

  init(id: Int, title: String) {
    self.id = id
    self.title = title
  }

  init(row: inout RowDecoder) throws {
    id = try row.decode()
    title = try row.decode()
  }

  func encode(to row: inout RowEncoder) {
    row.encode(id)
    row.encode(title)
  }
}

/// A child table whose `listID` references `lists(id)` and is deleted with its list.
struct TodoItem: Table, Equatable {
  var id: Int
  var listID: Int
  var title: String

  static let tableName = "todos"
  static let schema = TableSchema(
    "todos",
    columns: [
      .column("id", .integer, primaryKey: true),
      .column("listID", .integer, references: .table("lists", column: "id", onDelete: .cascade)),
      .column("title", .text),
    ])

  struct Columns: TableColumns {
    let id = ColumnExpression<Int>("id")
    let listID = ColumnExpression<Int>("listID")
    let title = ColumnExpression<String>("title")
  }
  static let columns = Columns()

  init(id: Int, listID: Int, title: String) {
    self.id = id
    self.listID = listID
    self.title = title
  }

  init(row: inout RowDecoder) throws {
    id = try row.decode()
    listID = try row.decode()
    title = try row.decode()
  }

  func encode(to row: inout RowEncoder) {
    row.encode(id)
    row.encode(listID)
    row.encode(title)
  }
}
