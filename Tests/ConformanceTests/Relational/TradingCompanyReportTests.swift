import Foundation
import SeededRandomness
import Tandem
import Testing

// A trading company in the shape of the other public sample database users load first: text
// primary keys (customer codes, territory codes) that foreign keys point at, two composite keys
// (an order's lines, an employee's territories, one of them half text), fixed-point prices,
// dates, a REAL discount, nullable columns, an employee hierarchy and names in several scripts.
// Its reports run through the typed API on every engine; on `.tandem` each one is also compared
// between the two engines.

@Table struct TradeCategory {
  let id: Int
  var name = ""
  var details: String?
}

@Table struct TradeSupplier {
  let id: Int
  var companyName = ""
  var country = ""
}

@Table(indexes: [.index(on: ["categoryID"]), .index(on: ["supplierID"])])
struct TradeProduct {
  let id: Int
  var name = ""
  @Column(references: TradeSupplier.self) var supplierID: Int
  @Column(references: TradeCategory.self) var categoryID: Int?
  @Column(as: Decimal.FixedPointRepresentation<Hundredths>.self) var unitPrice: Decimal
  var unitsInStock = 0
  var isDiscontinued = false
}

@Table struct TradeCustomer {
  @Column(primaryKey: true) let code: String
  var companyName = ""
  var country = ""
  var region: String?
}

@Table struct TradeEmployee {
  let id: Int
  var lastName = ""
  @Column(references: TradeEmployee.self) var reportsTo: Int?
  var hiredOn: Date
}

@Table struct TradeRegion {
  let id: Int
  var name = ""
}

@Table struct TradeTerritory {
  @Column(primaryKey: true) let code: String
  var name = ""
  @Column(references: TradeRegion.self) var regionID: Int
}

@Table struct TradeEmployeeTerritory {
  @Column(primaryKey: true, references: TradeEmployee.self, onDelete: .cascade) var employeeID: Int
  @Column(primaryKey: true, references: TradeTerritory.self) var territoryCode: String
}

@Table(indexes: [.index(on: ["customerCode"]), .index(on: ["employeeID"])])
struct TradeOrder {
  let id: Int
  @Column(references: TradeCustomer.self) var customerCode: String
  @Column(references: TradeEmployee.self) var employeeID: Int
  var orderedOn: Date
  var shippedOn: Date?
  var freight = 0.0
}

@Table struct TradeOrderLine {
  @Column(primaryKey: true, references: TradeOrder.self, onDelete: .cascade) var orderID: Int
  @Column(primaryKey: true, references: TradeProduct.self) var productID: Int
  @Column(as: Decimal.FixedPointRepresentation<Hundredths>.self) var unitPrice: Decimal
  var quantity = 1
  var discount = 0.0
}

/// The company's rows, generated once from a fixed seed.
struct TradingCompany {
  var categories: [TradeCategory] = []
  var suppliers: [TradeSupplier] = []
  var products: [TradeProduct] = []
  var customers: [TradeCustomer] = []
  var employees: [TradeEmployee] = []
  var regions: [TradeRegion] = []
  var territories: [TradeTerritory] = []
  var employeeTerritories: [TradeEmployeeTerritory] = []
  var orders: [TradeOrder] = []
  var lines: [TradeOrderLine] = []

  static let shared = TradingCompany()

  /// Midnight UTC of a day counted from 1996-07-04.
  static func day(_ offset: Int) -> Date {
    Date(timeIntervalSince1970: 836_438_400 + Double(offset) * 86_400)
  }

  /// A price in hundredths as a `Decimal`.
  static func price(cents: Int) -> Decimal { Decimal(cents) / 100 }

  private init() {
    var random = SplitMix64(seed: 0x7EAD_E5C0_1996_0704)
    func next(_ bound: Int) -> Int { random.int(0...(bound - 1)) }
    categories = ["Beverages", "Condiments", "Confections", "Dairy Products", "Grains/Cereals", "Seafood"]
      .enumerated().map { TradeCategory(id: $0 + 1, name: $1, details: $0 == 2 ? nil : "Category \($0 + 1)") }
    let supplierNames = [
      ("Exotic Liquids", "UK"), ("Tokyo Traders", "Japan"), ("Bigfoot Breweries", "USA"),
      ("Pavlova, Ltd.", "Australia"), ("Norske Meierier", "Norway"), ("Forêts d'érables", "Canada"),
      ("Aux joyeux ecclésiastiques", "France"), ("Heli Süßwaren", "Germany"),
    ]
    suppliers = supplierNames.enumerated().map { TradeSupplier(id: $0 + 1, companyName: $1.0, country: $1.1) }
    let productNames = [
      "Chai", "Chang", "Aniseed Syrup", "Gumbo Mix", "Tofu", "Ikura", "Konbu", "Pavlova", "Geitost", "Gudbrandsdalsost",
      "Sirop d'érable", "Tarte au sucre", "Côte de Blaye", "Chartreuse verte", "Schoggi Schokolade", "Gumbär Gummibärchen",
      "Rössle Sauerkraut", "Thüringer Rostbratwurst", "Nord-Ost Matjeshering", "Røgede sild", "Spegesild", "Lakkalikööri",
      "chai latte", "ÉCLAIR", "Éclair", "e\u{301}clair",
    ]
    products = productNames.enumerated().map { index, name in
      TradeProduct(
        id: index + 1, name: name, supplierID: 1 + next(suppliers.count),
        categoryID: index % 9 == 8 ? nil : 1 + next(categories.count),
        unitPrice: Self.price(cents: 250 + next(26_000)), unitsInStock: next(120), isDiscontinued: next(6) == 0)
    }
    let customerNames = [
      ("ALFKI", "Alfreds Futterkiste", "Germany", nil), ("ANATR", "Ana Trujillo Emparedados", "Mexico", nil),
      ("BERGS", "Berglunds snabbköp", "Sweden", nil), ("BLONP", "Blondel père et fils", "France", nil),
      ("BOTTM", "Bottom-Dollar Markets", "Canada", "BC"), ("CHOPS", "Chop-suey Chinese", "Switzerland", nil),
      ("COMMI", "Comércio Mineiro", "Brazil", "SP"), ("FRANS", "Franchi S.p.A.", "Italy", nil),
      ("GREAL", "Great Lakes Food Market", "USA", "OR"), ("HUNGC", "Hungry Coyote Import Store", "USA", "OR"),
      ("KOENE", "Königlich Essen", "Germany", nil), ("LAZYK", "Lazy K Kountry Store", "USA", "WA"),
      ("OTTIK", "Ottilies Käseladen", "Germany", nil), ("PARIS", "Paris spécialités", "France", nil),
      ("SANTG", "Santé Gourmet", "Norway", nil), ("WOLZA", "Wolski  Zajazd", "Poland", nil),
      ("alfki", "lowercase twin", "Germany", nil),
    ]
    customers = customerNames.map { TradeCustomer(code: $0.0, companyName: $0.1, country: $0.2, region: $0.3) }
    employees = [
      TradeEmployee(id: 1, lastName: "Fuller", reportsTo: nil, hiredOn: Self.day(-1_200)),
      TradeEmployee(id: 2, lastName: "Davolio", reportsTo: 1, hiredOn: Self.day(-1_400)),
      TradeEmployee(id: 3, lastName: "Leverling", reportsTo: 1, hiredOn: Self.day(-1_000)),
      TradeEmployee(id: 4, lastName: "Peacock", reportsTo: 1, hiredOn: Self.day(-900)),
      TradeEmployee(id: 5, lastName: "Buchanan", reportsTo: 1, hiredOn: Self.day(-800)),
      TradeEmployee(id: 6, lastName: "Suyama", reportsTo: 5, hiredOn: Self.day(-700)),
      TradeEmployee(id: 7, lastName: "King", reportsTo: 5, hiredOn: Self.day(-650)),
      TradeEmployee(id: 8, lastName: "Callahan", reportsTo: 1, hiredOn: Self.day(-600)),
      TradeEmployee(id: 9, lastName: "Dodsworth", reportsTo: 5, hiredOn: Self.day(-500)),
    ]
    regions = ["Eastern", "Western", "Northern", "Southern"].enumerated().map { TradeRegion(id: $0 + 1, name: $1) }
    territories = [
      ("01581", "Westboro", 1), ("01730", "Bedford", 1), ("02116", "Boston", 1), ("19713", "Neward", 1),
      ("44122", "Beachwood", 3), ("48075", "Southfield", 3), ("80202", "Denver", 2), ("85014", "Phoenix", 2),
      ("98004", "Bellevue", 2), ("29202", "Columbia", 4), ("33607", "Tampa", 4), ("3", "Three", 4),
    ].map { TradeTerritory(code: $0.0, name: $0.1, regionID: $0.2) }
    var pairs: [(Int, String)] = []
    for employee in employees where employee.id != 9 {  // employee 9 has no territory
      for territory in territories where next(4) == 0 { pairs.append((employee.id, territory.code)) }
    }
    employeeTerritories = pairs.map { TradeEmployeeTerritory(employeeID: $0.0, territoryCode: $0.1) }
    for id in 10_248...10_420 {
      // The last two customers and the lowercase twin never order.
      let customer = customers[next(customers.count - 3)]
      let ordered = next(600)
      let shipped: Int? = next(10) == 0 ? nil : ordered + next(40)
      orders.append(
        TradeOrder(
          id: id, customerCode: customer.code, employeeID: 1 + next(employees.count), orderedOn: Self.day(ordered),
          shippedOn: shipped.map(Self.day), freight: Double(next(50_000)) / 100))
      var used = Set<Int>()
      for _ in 0..<(1 + next(5)) {
        let product = products[next(products.count - 1)]  // the last product is never ordered
        guard used.insert(product.id).inserted else { continue }
        lines.append(
          TradeOrderLine(
            orderID: id, productID: product.id, unitPrice: product.unitPrice, quantity: 1 + next(40),
            discount: [0, 0, 0, 0.05, 0.1, 0.15, 0.25][next(7)]))
      }
    }
  }

  /// A database of `kind` holding the company.
  func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(TradeCategory.self)
    try db.create(TradeSupplier.self)
    try db.create(TradeProduct.self)
    try db.create(TradeCustomer.self)
    try db.create(TradeEmployee.self)
    try db.create(TradeRegion.self)
    try db.create(TradeTerritory.self)
    try db.create(TradeEmployeeTerritory.self)
    try db.create(TradeOrder.self)
    try db.create(TradeOrderLine.self)
    try db.insert(categories)
    try db.insert(suppliers)
    try db.insert(products)
    try db.insert(customers)
    try db.insert(employees)
    try db.insert(regions)
    try db.insert(territories)
    try db.insert(employeeTerritories)
    try db.insert(orders)
    try db.insert(lines)
    return db
  }

  /// A line's amount after its discount, as the reports compute it in SQL.
  static func amount(_ line: TradeOrderLine) -> Double {
    Double(cents(line.unitPrice)) * 0.01 * Double(line.quantity) * (1 - line.discount)
  }

  /// A price in hundredths, as it is stored.
  static func cents(_ price: Decimal) -> Int { NSDecimalNumber(decimal: price * 100).intValue }
}

/// UTF-8 byte order: SQLite's BINARY collation.
private func binaryOrdered(_ names: [String]) -> [String] {
  names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
}

@Suite struct TradingCompanyReportTests {
  let company = TradingCompany.shared

  /// A line's amount after its discount: `unitPrice * quantity * (1 - discount)` in REAL.
  static func amount(_ line: TableView<TradeOrderLine>) -> TypedExpression<Double> {
    let price = line.unitPrice.cast(as: .real, to: Double.self) * 0.01
    return price * line.quantity.cast(as: .real, to: Double.self) * (1.0 - line.discount)
  }

  @Test(arguments: BackendKind.allCases)
  func productsInBinaryOrderWithTheirSupplierAndCategory(_ kind: BackendKind) throws {
    let db = try company.database(kind)
    let rows = try db.fetchAll(
      TradeProduct.join(TradeSupplier.self) { $0.supplierID == $1.id }
        .leftJoin(TradeCategory.self) { product, _, category in product.categoryID == category.id }
        .order { product, _, _ in product.name }
        .select { product, supplier, category in (product.name, supplier.companyName, category.name) })
    #expect(rows.map(\.0) == binaryOrdered(company.products.map(\.name)))
    #expect(rows.filter { $0.2 == nil }.count == company.products.filter { $0.categoryID == nil }.count)
    // Three spellings of "éclair" are three different names: none folds into another.
    let eclairs = try db.fetchAll(
      TradeProduct.where { $0.name.like("%clair") }.group { $0.name }.select { ($0.name, $0.id.count()) })
    #expect(eclairs.map(\.0) == binaryOrdered(["ÉCLAIR", "Éclair", "e\u{301}clair"]))
    #expect(eclairs.allSatisfy { $0.1 == 1 })
    // LIKE folds ASCII letters only; NOCASE too.
    #expect(try db.fetchAll(TradeProduct.where { $0.name.like("éclair") }.select { $0.name }).isEmpty)
    #expect(try db.fetchAll(TradeProduct.where { $0.name.like("chai%") }.select { $0.id }) == [1, 23])
    #expect(
      try db.fetchAll(TradeProduct.where { $0.name.collate(.nocase) == "ÉCLAIR" }.select { $0.name })
        == ["ÉCLAIR", "Éclair"])
  }

  @Test(arguments: BackendKind.allCases)
  func salesPerCategoryThroughFourTables(_ kind: BackendKind) throws {
    let db = try company.database(kind)
    let rows = try db.fetchAll(
      TradeCategory.join(TradeProduct.self) { $0.id == $1.categoryID }
        .join(TradeOrderLine.self) { _, product, line in product.id == line.productID }
        .join(TradeOrder.self) { _, _, line, order in line.orderID == order.id }
        .where { _, _, _, order in order.shippedOn != nil }
        .group { category, _, _, _ in category.id }
        .order { category, _, line, _ in (Self.amount(line).total().desc(), category.name) }
        .select { category, _, line, order in
          (category.name, order.id.count(distinct: true), Self.amount(line).total().round(2))
        })
    let shipped = Set(company.orders.filter { $0.shippedOn != nil }.map(\.id))
    var expected: [String: Set<Int>] = [:]
    for line in company.lines where shipped.contains(line.orderID) {
      guard let category = company.products[line.productID - 1].categoryID else { continue }
      expected[company.categories[category - 1].name, default: []].insert(line.orderID)
    }
    #expect(Set(rows.map(\.0)) == Set(expected.keys))
    for (name, count, _) in rows { #expect(count == expected[name]?.count) }
    #expect(rows.map(\.2) == rows.map(\.2).sorted(by: >))
  }

  @Test(arguments: BackendKind.allCases)
  func customersByTextKeyWithTheirOrdersAndThoseWithout(_ kind: BackendKind) throws {
    let db = try company.database(kind)
    let counts = try db.fetchAll(
      TradeCustomer.leftJoin(TradeOrder.self) { $0.code == $1.customerCode }
        .group { customer, _ in customer.code }
        .order { customer, _ in customer.code }
        .select { customer, order in (customer.code, order.id.count(), order.freight.total()) })
    #expect(counts.map(\.0) == binaryOrdered(company.customers.map(\.code)))
    for (code, count, _) in counts {
      #expect(count == company.orders.filter { $0.customerCode == code }.count)
    }
    let idle = try db.fetchAll(
      TradeCustomer.where { customer in !TradeOrder.where { $0.customerCode == customer.code }.exists() }
        .select { $0.code })
    let ordering = Set(company.orders.map(\.customerCode))
    // A table whose key is text keeps its rows in rowid order: the order they were inserted in.
    #expect(idle == company.customers.map(\.code).filter { !ordering.contains($0) })
    #expect(idle.contains("alfki"))
    // The same customers through NOT IN over the text key.
    let notIn = try db.fetchAll(
      TradeCustomer.where { $0.code.notIn(TradeOrder.all.select { $0.customerCode }) }.select { $0.code })
    #expect(notIn == idle)
    // Regions are NULL for most: NULL is never equal, in a join or in IN.
    let sameRegion = try db.fetchAll(
      TradeCustomer.join(TradeCustomer.self) { $0.region == $1.region && $0.code < $1.code }
        .select { first, second in (first.code, second.code) })
    #expect(sameRegion.map { "\($0.0)-\($0.1)" } == ["GREAL-HUNGC"])
  }

  @Test(arguments: BackendKind.allCases)
  func ordersBetweenDatesAndLateShipments(_ kind: BackendKind) throws {
    let db = try company.database(kind)
    let from = TradingCompany.day(100)
    let to = TradingCompany.day(200)
    let inRange = try db.fetchAll(
      TradeOrder.where { $0.orderedOn.between(from, and: to) }.order { ($0.orderedOn, $0.id) }.select { $0.id })
    let expected = company.orders.filter { $0.orderedOn >= from && $0.orderedOn <= to }
      .sorted { ($0.orderedOn, $0.id) < ($1.orderedOn, $1.id) }.map(\.id)
    #expect(inRange == expected)
    // Shipped more than 30 days after the order: dates compare as their ISO-8601 text.
    let late = try db.fetchAll(
      TradeOrder.join(TradeEmployee.self) { $0.employeeID == $1.id }
        .where { order, _ in order.shippedOn > order.orderedOn }
        .order { order, employee in (employee.lastName, order.id) }
        .select { order, employee in (employee.lastName, order.id, order.orderedOn, order.shippedOn) })
    #expect(late.count == company.orders.filter { order in order.shippedOn.map { $0 > order.orderedOn } ?? false }.count)
    #expect(late.allSatisfy { row in row.3.map { $0 > row.2 } ?? false })
    // Orders per month, the month read off the stored text.
    let months = try db.fetchAll(
      TradeOrder.all.group { $0.orderedOn.cast(as: .text, to: String.self).substr(1, 7) }
        .order { $0.orderedOn.cast(as: .text, to: String.self).substr(1, 7) }
        .select { ($0.orderedOn.cast(as: .text, to: String.self).substr(1, 7), $0.id.count(), $0.orderedOn.max()) })
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let expectedMonths = Set(company.orders.map { order in
      let parts = calendar.dateComponents([.year, .month], from: order.orderedOn)
      return String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
    })
    #expect(months.map(\.0) == expectedMonths.sorted())
    #expect(months.map(\.1).reduce(0, +) == company.orders.count)
  }

  @Test(arguments: BackendKind.allCases)
  func priceReportsOverFixedPointAmounts(_ kind: BackendKind) throws {
    let db = try company.database(kind)
    let expensive = try db.fetchAll(
      TradeProduct.all.order { ($0.unitPrice.desc(), $0.id) }.limit(5).select { ($0.name, $0.unitPrice) })
    let expected = company.products.sorted { ($1.unitPrice, $0.id) < ($0.unitPrice, $1.id) }.prefix(5)
    #expect(expensive.map(\.0) == expected.map(\.name))
    #expect(expensive.map(\.1.represented) == expected.map(\.unitPrice))
    // Above the average price of their own category (a correlated scalar subquery).
    let aboveAverage = try db.fetchAll(
      TradeProduct.where { product in
        let average = TradeProduct.where { $0.categoryID == product.categoryID }
          .select { $0.unitPrice.cast(as: .real, to: Double.self).avg() }
        return product.unitPrice.cast(as: .real, to: Double.self) > average.value()
      }
      .select { $0.id })
    let byCategory = Dictionary(grouping: company.products.filter { $0.categoryID != nil }, by: \.categoryID)
    let expectedAbove = company.products.filter { product in
      guard let peers = byCategory[product.categoryID] else { return false }
      let cents = peers.map { Double(TradingCompany.cents($0.unitPrice)) }
      return Double(TradingCompany.cents(product.unitPrice)) > cents.reduce(0, +) / Double(cents.count)
    }
    #expect(aboveAverage == expectedAbove.map(\.id))
    // Each supplier's dearest product and the value of its stock.
    let perSupplier = try db.fetchAll(
      TradeSupplier.leftJoin(TradeProduct.self) { $0.id == $1.supplierID }
        .group { supplier, _ in supplier.id }
        .order { supplier, _ in supplier.companyName }
        .select { supplier, product in (supplier.companyName, product.unitPrice.max(), product.unitPrice.sum()) })
    #expect(perSupplier.map(\.0) == binaryOrdered(company.suppliers.map(\.companyName)))
    for (name, dearest, sum) in perSupplier {
      let id = company.suppliers.first { $0.companyName == name }?.id
      let own = company.products.filter { $0.supplierID == id }
      #expect(dearest?.represented == own.map(\.unitPrice).max())
      #expect(sum?.represented == (own.isEmpty ? nil : own.map(\.unitPrice).reduce(0, +)))
    }
  }

  @Test(arguments: BackendKind.allCases)
  func employeesTheirManagersTerritoriesAndSales(_ kind: BackendKind) throws {
    let db = try company.database(kind)
    let managers = try db.fetchAll(
      TradeEmployee.leftJoin(TradeEmployee.self) { $0.reportsTo == $1.id }
        .order { employee, _ in employee.hiredOn }
        .select { employee, manager in (employee.lastName, manager.lastName, employee.hiredOn) })
    #expect(managers.map(\.0) == company.employees.sorted { $0.hiredOn < $1.hiredOn }.map(\.lastName))
    // Territories through the composite key whose second half is text, grouped per region.
    let territories = try db.fetchAll(
      TradeEmployee.join(TradeEmployeeTerritory.self) { $0.id == $1.employeeID }
        .join(TradeTerritory.self) { _, link, territory in link.territoryCode == territory.code }
        .join(TradeRegion.self) { _, _, territory, region in territory.regionID == region.id }
        .group { employee, _, _, region in (employee.id, region.id) }
        .order { employee, _, _, region in (employee.lastName, region.name) }
        .select { employee, _, territory, region in (employee.lastName, region.name, territory.code.count()) })
    #expect(territories.map(\.2).reduce(0, +) == company.employeeTerritories.count)
    #expect(!territories.contains { $0.0 == "Dodsworth" })
    // The code "3" is text: it does not match the integer 3.
    #expect(try db.fetchCount(TradeTerritory.where { $0.code == "3" }) == 1)
    // Sales per employee and country, above a threshold.
    let sales = try db.fetchAll(
      TradeEmployee.join(TradeOrder.self) { $0.id == $1.employeeID }
        .join(TradeCustomer.self) { _, order, customer in order.customerCode == customer.code }
        .join(TradeOrderLine.self) { _, order, _, line in order.id == line.orderID }
        .group { employee, _, customer, _ in (employee.id, customer.country) }
        .having { _, _, _, line in Self.amount(line).total() > 2_000.0 }
        .order { employee, _, customer, line in (employee.lastName, Self.amount(line).total().desc(), customer.country) }
        .select { employee, order, customer, line in
          (employee.lastName, customer.country, order.id.count(distinct: true), Self.amount(line).total())
        })
    #expect(!sales.isEmpty)
    #expect(sales.allSatisfy { $0.3 > 2_000 })
    // The same groups in Swift: each line's amount added to its (employee, country), in line order.
    let countries = Dictionary(uniqueKeysWithValues: company.customers.map { ($0.code, $0.country) })
    let orders = Dictionary(uniqueKeysWithValues: company.orders.map { ($0.id, $0) })
    var totals: [[String]: Double] = [:]
    for line in company.lines {
      guard let order = orders[line.orderID], let country = countries[order.customerCode] else { continue }
      totals[["\(order.employeeID)", country], default: 0] += TradingCompany.amount(line)
    }
    #expect(sales.count == totals.values.filter { $0 > 2_000 }.count)
  }

  @Test(arguments: BackendKind.allCases)
  func compoundsOverCountriesAndTheProductsNobodyOrdered(_ kind: BackendKind) throws {
    let db = try company.database(kind)
    let customerCountries = TradeCustomer.all.select { $0.country }
    let supplierCountries = TradeSupplier.all.select { $0.country }
    #expect(
      try db.fetchAll(customerCountries.union(supplierCountries))
        == binaryOrdered(Array(Set(company.customers.map(\.country) + company.suppliers.map(\.country)))))
    #expect(
      try db.fetchAll(customerCountries.intersect(supplierCountries))
        == binaryOrdered(Array(Set(company.customers.map(\.country)).intersection(company.suppliers.map(\.country)))))
    #expect(
      try db.fetchAll(customerCountries.except(supplierCountries))
        == binaryOrdered(Array(Set(company.customers.map(\.country)).subtracting(company.suppliers.map(\.country)))))
    let neverOrdered = try db.fetchAll(
      TradeProduct.where { $0.id.notIn(TradeOrderLine.all.select { $0.productID }) }.select { $0.name })
    let ordered = Set(company.lines.map(\.productID))
    #expect(neverOrdered == company.products.filter { !ordered.contains($0.id) }.map(\.name))
    // The categories' names and details in one list, NULL details left out.
    let words = try db.fetchAll(
      TradeCategory.all.select { $0.name.cast(as: .text, to: String?.self) }
        .unionAll(TradeCategory.where { $0.details != nil }.select { $0.details }))
    #expect(words.count == company.categories.count * 2 - 1)
  }

  @Test(arguments: BackendKind.allCases)
  func writesWithSubqueriesAndCascades(_ kind: BackendKind) throws {
    let db = try company.database(kind)
    // Take each product's ordered quantity off its stock, through a correlated subquery in SET.
    let sold = try db.update(TradeProduct.where { product in TradeOrderLine.where { $0.productID == product.id }.exists() }) {
      product in
      product.set(
        \.unitsInStock,
        to: product.unitsInStock
          - TradeOrderLine.where { $0.productID == product.id }.select { $0.quantity.sum() }
          .value().coalesce(0))
    }
    #expect(sold == Set(company.lines.map(\.productID)).count)
    let stock = try db.fetchAll(TradeProduct.all.select { ($0.id, $0.unitsInStock) })
    for (id, units) in stock {
      let quantity = company.lines.filter { $0.productID == id }.map(\.quantity).reduce(0, +)
      #expect(units == company.products[id - 1].unitsInStock - quantity)
    }
    // Deleting an order deletes its lines; deleting the orders of discontinued products' lines too.
    let discontinued = TradeProduct.where { $0.isDiscontinued }.select { $0.id }
    let removed = try db.delete(
      TradeOrder.where { order in TradeOrderLine.where { $0.orderID == order.id && $0.productID.in(discontinued) }.exists() })
    let gone = Set(
      company.lines.filter { company.products[$0.productID - 1].isDiscontinued }.map(\.orderID))
    #expect(removed == gone.count)
    #expect(try db.fetchCount(TradeOrderLine.where { $0.orderID.in(TradeOrder.all.select { $0.id }) }) == company.lines.filter { !gone.contains($0.orderID) }.count)
    #expect(try db.fetchCount(TradeOrderLine.all) == company.lines.filter { !gone.contains($0.orderID) }.count)
    // An employee who still has orders cannot go: the foreign key refuses, nothing changes.
    let busy = try #require(company.orders.first { !gone.contains($0.id) }?.employeeID)
    let error = try #require(throws: TandemError.self) { try db.delete(TradeEmployee.where { $0.id == busy }) }
    #expect(error.kind == .constraintViolation && error.constraint == .foreignKey)
    #expect(try db.fetchCount(TradeEmployee.all) == company.employees.count)
  }

  @Test(arguments: BackendKind.allCases)
  func wholeRecordsFirstRowsAndCountsOverJoins(_ kind: BackendKind) throws {
    let db = try company.database(kind)
    let withTerritories =
      TradeEmployee.leftJoin(TradeEmployeeTerritory.self) { $0.id == $1.employeeID }
      .leftJoin(TradeTerritory.self) { _, link, territory in link.territoryCode == territory.code }
    // Whole records, the left-joined ones optional: one row per link, or one with nils.
    let rows = try db.fetchAll(withTerritories.select { ($0, $1, $2) })
    let linked = Set(company.employeeTerritories.map(\.employeeID))
    #expect(rows.count == company.employeeTerritories.count + company.employees.filter { !linked.contains($0.id) }.count)
    #expect(rows.filter { $0.1 == nil }.map(\.0.lastName) == ["Dodsworth"])
    #expect(rows.allSatisfy { $0.1?.territoryCode == $0.2?.code })
    // Joined rows come in each source's rowid order, in FROM order.
    let order = rows.map { row in
      (row.0.id, company.territories.firstIndex { $0.code == row.2?.code } ?? -1)
    }
    #expect(order.map(\.0) == order.map(\.0).sorted())
    // fetchCount and fetchOne agree with fetchAll, joined, grouped and limited.
    #expect(try db.fetchCount(withTerritories.select { ($0, $1, $2) }) == rows.count)
    let grouped = withTerritories.group { employee, _, _ in employee.id }
    #expect(try db.fetchCount(grouped.select { employee, _, _ in employee.id }) == company.employees.count)
    let busiest = try db.fetchOne(
      grouped.order { employee, link, _ in (link.territoryCode.count().desc(), employee.id) }
        .select { employee, link, _ in (employee.lastName, link.territoryCode.count()) })
    let counts = company.employees.map { employee in
      (employee.lastName, company.employeeTerritories.filter { $0.employeeID == employee.id }.count)
    }
    let most = counts.map(\.1).max()
    #expect(busiest?.1 == most)
    #expect(busiest?.0 == counts.first { $0.1 == most }?.0)
    #expect(try db.fetchCount(withTerritories.limit(3, offset: 2).select { employee, _, _ in employee.id }) == min(3, rows.count - 2))
    // A common table of each order's amount, joined back to the customers.
    let big = try db.fetchAll(
      TradeCustomer.join(TradeBigOrder.self) { $0.code == $1.customerCode }
        .order { customer, order in (customer.code, order.orderID) }
        .select { customer, order in (customer.code, order.orderID) }
        .with(
          TradeBigOrder.self,
          as: TradeOrder.join(TradeOrderLine.self) { $0.id == $1.orderID }
            .group { order, _ in order.id }
            .having { _, line in line.quantity.sum() > 60 }
            .select { order, line in (order.id, order.customerCode, line.quantity.sum()) }))
    var expected: [(String, Int)] = []
    for order in company.orders {
      let quantity = company.lines.filter { $0.orderID == order.id }.map(\.quantity).reduce(0, +)
      if quantity > 60 { expected.append((order.customerCode, order.id)) }
    }
    expected.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) || ($0.0 == $1.0 && $0.1 < $1.1) }
    #expect(big.map(\.0) == expected.map(\.0))
    #expect(big.map(\.1) == expected.map(\.1))
  }
}

/// The rows of a common table: an order, its customer and its quantity.
@Table struct TradeBigOrder {
  let orderID: Int
  var customerCode = ""
  var quantity: Int?
}
