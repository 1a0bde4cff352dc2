import Tandem

/// Stock of a shop: integer and real columns for comparisons, updates and aggregates.
@Table struct Item: Equatable {
  let id: Int
  var name = ""
  var stock = 0
  var reorderLevel = 0
  var price = 0.0
  var discount: Int?
}

extension Item {
  /// Four items whose values exercise every comparison (equal, less, greater, NULL).
  static let samples = [
    Item(id: 1, name: "apple", stock: 5, reorderLevel: 10, price: 1.5, discount: nil),
    Item(id: 2, name: "banana", stock: 20, reorderLevel: 10, price: 0.25, discount: 10),
    Item(id: 3, name: "cherry", stock: 10, reorderLevel: 10, price: 3.0, discount: 0),
    Item(id: 4, name: "date", stock: 0, reorderLevel: 5, price: 12.0, discount: nil),
  ]
}
