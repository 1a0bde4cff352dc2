import Foundation
import SeededRandomness
import Tandem
import Testing

// A music store in the shape of the public sample databases users load first (artists, albums,
// tracks, genres, media types, playlists with a composite key, employees reporting to each
// other, customers, invoices and their lines), filled with generated rows, and the join-heavy
// reports people write against it, through the typed API, on every engine. On `.tandem` every
// report is also compared between the two engines.

@Table struct StoreArtist {
  let id: Int
  var name = ""
}

@Table(indexes: [.index(on: ["artistID"])])
struct StoreAlbum {
  let id: Int
  var title = ""
  @Column(references: StoreArtist.self) var artistID: Int
}

@Table struct StoreGenre {
  let id: Int
  var name = ""
}

@Table struct StoreMediaType {
  let id: Int
  var name = ""
}

@Table(indexes: [.index(on: ["albumID"]), .index(on: ["genreID"])])
struct StoreTrack {
  let id: Int
  var name = ""
  @Column(references: StoreAlbum.self) var albumID: Int?
  @Column(references: StoreGenre.self) var genreID: Int?
  @Column(references: StoreMediaType.self) var mediaTypeID: Int
  var milliseconds = 0
  var unitPrice = 0.99
}

@Table struct StorePlaylist {
  let id: Int
  var name = ""
}

@Table struct StorePlaylistTrack {
  @Column(primaryKey: true, references: StorePlaylist.self, onDelete: .cascade) var playlistID: Int
  @Column(primaryKey: true, references: StoreTrack.self) var trackID: Int
}

@Table struct StoreEmployee {
  let id: Int
  var lastName = ""
  var title = ""
  @Column(references: StoreEmployee.self) var reportsTo: Int?
}

@Table struct StoreCustomer {
  let id: Int
  var lastName = ""
  var country = ""
  @Column(references: StoreEmployee.self) var supportRepID: Int?
}

@Table(indexes: [.index(on: ["customerID"])])
struct StoreInvoice {
  let id: Int
  @Column(references: StoreCustomer.self) var customerID: Int
  var billingCountry = ""
  var total = 0.0
}

@Table(indexes: [.index(on: ["invoiceID"]), .index(on: ["trackID"])])
struct StoreInvoiceLine {
  let id: Int
  @Column(references: StoreInvoice.self, onDelete: .cascade) var invoiceID: Int
  @Column(references: StoreTrack.self) var trackID: Int
  var unitPrice = 0.0
  var quantity = 1
}

/// The store's rows, generated once from a fixed seed.
struct SampleStore {
  var artists: [StoreArtist] = []
  var albums: [StoreAlbum] = []
  var genres: [StoreGenre] = []
  var mediaTypes: [StoreMediaType] = []
  var tracks: [StoreTrack] = []
  var playlists: [StorePlaylist] = []
  var playlistTracks: [StorePlaylistTrack] = []
  var employees: [StoreEmployee] = []
  var customers: [StoreCustomer] = []
  var invoices: [StoreInvoice] = []
  var lines: [StoreInvoiceLine] = []

  static let shared = SampleStore()

  private init() {
    var random = SplitMix64(seed: 0x5A3D_1E57_0AE5_7031)
    func next(_ bound: Int) -> Int { random.int(0...(bound - 1)) }
    let countries = ["Brazil", "Canada", "France", "Germany", "USA", "Norway"]
    genres = ["Rock", "Jazz", "Metal", "Blues", "Latin"].enumerated().map { StoreGenre(id: $0 + 1, name: $1) }
    mediaTypes = ["MPEG", "AAC", "Protected AAC"].enumerated().map { StoreMediaType(id: $0 + 1, name: $1) }
    artists = (1...20).map { StoreArtist(id: $0, name: "Artist \($0)") }
    // Artists 19 and 20 have no album.
    albums = (1...40).map { StoreAlbum(id: $0, title: "Album \($0)", artistID: 1 + next(18)) }
    tracks = (1...400).map { id in
      StoreTrack(
        id: id, name: "Track \(id)", albumID: id % 37 == 0 ? nil : 1 + next(39),
        genreID: id % 23 == 0 ? nil : 1 + next(genres.count), mediaTypeID: 1 + next(mediaTypes.count),
        milliseconds: 90_000 + next(300_000), unitPrice: next(5) == 0 ? 1.99 : 0.99)
    }
    playlists = (1...8).map { StorePlaylist(id: $0, name: "Playlist \($0)") }
    var pairs = Set<[Int]>()
    for playlist in 1...7 {  // playlist 8 stays empty
      for _ in 0..<(10 + next(30)) { pairs.insert([playlist, 1 + next(tracks.count)]) }
    }
    playlistTracks = pairs.sorted { $0.lexicographicallyPrecedes($1) }.map { StorePlaylistTrack(playlistID: $0[0], trackID: $0[1]) }
    employees = [
      StoreEmployee(id: 1, lastName: "Adams", title: "General Manager", reportsTo: nil),
      StoreEmployee(id: 2, lastName: "Edwards", title: "Sales Manager", reportsTo: 1),
      StoreEmployee(id: 3, lastName: "Peacock", title: "Sales Agent", reportsTo: 2),
      StoreEmployee(id: 4, lastName: "Park", title: "Sales Agent", reportsTo: 2),
      StoreEmployee(id: 5, lastName: "Johnson", title: "Sales Agent", reportsTo: 2),
      StoreEmployee(id: 6, lastName: "Mitchell", title: "IT Manager", reportsTo: 1),
    ]
    customers = (1...30).map { id in
      StoreCustomer(
        id: id, lastName: "Customer \(id)", country: countries[next(countries.count)],
        supportRepID: id % 11 == 0 ? nil : 3 + next(3))
    }
    var lineID = 0
    for id in 1...120 {
      let customer = customers[next(customers.count - 2)]  // the last two customers buy nothing
      var total = 0.0
      var invoiceLines: [StoreInvoiceLine] = []
      for _ in 0..<(1 + next(6)) {
        lineID += 1
        let track = tracks[next(tracks.count)]
        let quantity = 1 + next(2)
        invoiceLines.append(
          StoreInvoiceLine(id: lineID, invoiceID: id, trackID: track.id, unitPrice: track.unitPrice, quantity: quantity))
        total += track.unitPrice * Double(quantity)
      }
      invoices.append(
        StoreInvoice(id: id, customerID: customer.id, billingCountry: customer.country, total: (total * 100).rounded() / 100))
      lines += invoiceLines
    }
  }

  /// A database of `kind` holding the store.
  func database(_ kind: BackendKind) throws -> Database {
    let db = try makeDatabase(kind)
    try db.create(StoreArtist.self)
    try db.create(StoreAlbum.self)
    try db.create(StoreGenre.self)
    try db.create(StoreMediaType.self)
    try db.create(StoreTrack.self)
    try db.create(StorePlaylist.self)
    try db.create(StorePlaylistTrack.self)
    try db.create(StoreEmployee.self)
    try db.create(StoreCustomer.self)
    try db.create(StoreInvoice.self)
    try db.create(StoreInvoiceLine.self)
    try db.insert(artists)
    try db.insert(albums)
    try db.insert(genres)
    try db.insert(mediaTypes)
    try db.insert(tracks)
    try db.insert(playlists)
    try db.insert(playlistTracks)
    try db.insert(employees)
    try db.insert(customers)
    try db.insert(invoices)
    try db.insert(lines)
    return db
  }
}

@Suite struct SampleStoreReportTests {
  let store = SampleStore.shared

  @Test(arguments: BackendKind.allCases)
  func tracksWithAlbumArtistAndGenre(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    let rows = try db.fetchAll(
      StoreTrack.join(StoreAlbum.self) { $0.albumID == $1.id }
        .join(StoreArtist.self) { _, album, artist in album.artistID == artist.id }
        .join(StoreGenre.self) { track, _, _, genre in track.genreID == genre.id }
        .where { _, _, _, genre in genre.name == "Jazz" }
        .order { track, _, artist, _ in (artist.name, track.name) }
        .select { track, album, artist, _ in (artist.name, album.title, track.name) })
    let jazz = store.genres.first { $0.name == "Jazz" }!.id
    let expected = store.tracks.filter { $0.genreID == jazz && $0.albumID != nil }
    #expect(rows.count == expected.count)
    #expect(rows.map(\.0) == rows.map(\.0).sorted())
  }

  @Test(arguments: BackendKind.allCases)
  func tracksPerGenreWithTheirLength(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    let rows = try db.fetchAll(
      StoreGenre.leftJoin(StoreTrack.self) { $0.id == $1.genreID }
        .group { genre, _ in genre.id }
        .order { genre, _ in genre.name }
        .select { genre, track in (genre.name, track.id.count(), track.milliseconds.sum(), track.unitPrice.avg()) })
    #expect(rows.map(\.0) == store.genres.map(\.name).sorted())
    for (name, count, length, _) in rows {
      let genre = store.genres.first { $0.name == name }!.id
      let tracks = store.tracks.filter { $0.genreID == genre }
      #expect(count == tracks.count)
      #expect(length == tracks.map(\.milliseconds).reduce(0, +))
    }
  }

  @Test(arguments: BackendKind.allCases)
  func salesPerCountryAndBestCustomers(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    let perCountry = try db.fetchAll(
      StoreInvoice.all.group { $0.billingCountry }
        .order { $0.billingCountry }
        .select { ($0.billingCountry, $0.id.count(), $0.total.total()) })
    #expect(perCountry.map(\.1).reduce(0, +) == store.invoices.count)
    let best = try db.fetchAll(
      StoreCustomer.join(StoreInvoice.self) { $0.id == $1.customerID }
        .group { customer, _ in customer.id }
        .order { customer, invoice in (invoice.total.total().desc(), customer.id) }
        .limit(5)
        .select { customer, invoice in (customer.lastName, invoice.total.total(), invoice.id.count()) })
    #expect(best.count == 5)
    #expect(best.map(\.1) == best.map(\.1).sorted(by: >))
    // Customers who never bought anything.
    let idle = try db.fetchAll(
      StoreCustomer.where { customer in !StoreInvoice.where { $0.customerID == customer.id }.exists() }
        .select { $0.id })
    #expect(idle == store.customers.map(\.id).filter { id in !store.invoices.contains { $0.customerID == id } })
  }

  @Test(arguments: BackendKind.allCases)
  func salesPerAgentThroughTheirCustomers(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    let rows = try db.fetchAll(
      StoreEmployee.join(StoreCustomer.self) { $0.id == $1.supportRepID }
        .join(StoreInvoice.self) { _, customer, invoice in customer.id == invoice.customerID }
        .group { employee, _, _ in employee.id }
        .having { _, _, invoice in invoice.id.count() > 0 }
        .order { employee, _, _ in employee.lastName }
        .select { employee, customer, invoice in
          (employee.lastName, customer.id.count(distinct: true), invoice.total.total())
        })
    #expect(rows.map(\.0) == ["Johnson", "Park", "Peacock"])
    let served = store.customers.filter { customer in
      customer.supportRepID != nil && store.invoices.contains { $0.customerID == customer.id }
    }
    #expect(rows.map(\.1).reduce(0, +) == served.count)
  }

  @Test(arguments: BackendKind.allCases)
  func employeesAndTheirManagers(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    let rows = try db.fetchAll(
      StoreEmployee.leftJoin(StoreEmployee.self) { $0.reportsTo == $1.id }
        .order { employee, _ in employee.id }
        .select { employee, manager in (employee.lastName, manager.lastName) })
    #expect(rows.map(\.0) == store.employees.map(\.lastName))
    #expect(rows.map(\.1) == [nil, "Adams", "Edwards", "Edwards", "Edwards", "Adams"])
    let reports = try db.fetchAll(
      StoreEmployee.join(StoreEmployee.self) { $0.id == $1.reportsTo }
        .group { manager, _ in manager.id }
        .select { manager, report in (manager.lastName, report.id.count()) })
    #expect(reports.map { "\($0.0)=\($0.1)" } == ["Adams=2", "Edwards=3"])
  }

  @Test(arguments: BackendKind.allCases)
  func playlistsAndWhatTheyHold(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    let sizes = try db.fetchAll(
      StorePlaylist.leftJoin(StorePlaylistTrack.self) { $0.id == $1.playlistID }
        .leftJoin(StoreTrack.self) { _, entry, track in entry.trackID == track.id }
        .group { playlist, _, _ in playlist.id }
        .select { playlist, entry, track in (playlist.name, entry.trackID.count(), track.milliseconds.sum()) })
    #expect(sizes.count == store.playlists.count)
    #expect(sizes.last?.1 == 0)
    #expect(sizes.last?.2 == nil)
    #expect(sizes.map(\.1).reduce(0, +) == store.playlistTracks.count)
    // Tracks on no playlist that were sold at least once.
    let listed = StorePlaylistTrack.all.select { $0.trackID }
    let sold = StoreInvoiceLine.all.select { $0.trackID }
    let rows = try db.fetchAll(StoreTrack.where { $0.id.notIn(listed) && $0.id.in(sold) }.select { $0.id })
    let listedIDs = Set(store.playlistTracks.map(\.trackID))
    let soldIDs = Set(store.lines.map(\.trackID))
    #expect(rows == store.tracks.map(\.id).filter { !listedIDs.contains($0) && soldIDs.contains($0) })
  }

  @Test(arguments: BackendKind.allCases)
  func artistsRevenueThroughFourTables(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    let rows = try db.fetchAll(
      StoreArtist.join(StoreAlbum.self) { $0.id == $1.artistID }
        .join(StoreTrack.self) { _, album, track in album.id == track.albumID }
        .join(StoreInvoiceLine.self) { _, _, track, line in track.id == line.trackID }
        .group { artist, _, _, _ in artist.id }
        .order { artist, _, _, line in (line.quantity.sum().desc(), artist.id) }
        .limit(3)
        .select { artist, _, _, line in (artist.name, line.quantity.sum(), line.unitPrice.total()) })
    #expect(rows.count == 3)
    #expect(rows.map { $0.1 ?? 0 } == rows.map { $0.1 ?? 0 }.sorted(by: >))
    // Artists with no album, through a left join.
    let silent = try db.fetchAll(
      StoreArtist.leftJoin(StoreAlbum.self) { $0.id == $1.artistID }
        .where { _, album in album.id == nil }
        .select { artist, _ in artist.id })
    #expect(silent == store.artists.map(\.id).filter { id in !store.albums.contains { $0.artistID == id } })
  }

  @Test(arguments: BackendKind.allCases)
  func invoicesAboveTheirCustomersAverage(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    let rows = try db.fetchAll(
      StoreInvoice.where { invoice in
        invoice.total > StoreInvoice.where { $0.customerID == invoice.customerID }.select { $0.total.avg() }.value()
      }
      .select { $0.id })
    let expected = store.invoices.filter { invoice in
      let own = store.invoices.filter { $0.customerID == invoice.customerID }.map(\.total)
      return invoice.total > own.reduce(0, +) / Double(own.count)
    }
    #expect(rows == expected.map(\.id))
  }

  @Test(arguments: BackendKind.allCases)
  func deletingAPlaylistCascadesAndAnArchivedCustomersLinesGo(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    #expect(try db.delete(StorePlaylist.where { $0.id == 1 }) == 1)
    #expect(try db.fetchCount(StorePlaylistTrack.where { $0.playlistID == 1 }) == 0)
    let french = StoreInvoice.where { $0.billingCountry == "France" }.select { $0.id }
    let removed = try db.delete(StoreInvoiceLine.where { $0.invoiceID.in(french) })
    let frenchIDs = Set(store.invoices.filter { $0.billingCountry == "France" }.map(\.id))
    #expect(removed == store.lines.filter { frenchIDs.contains($0.invoiceID) }.count)
  }

  @Test(arguments: BackendKind.allCases)
  func revenuePerGenreAndMediaType(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    // Floating-point sums over a join grouped by a name: the engines agree on one visiting order.
    func revenue(_ line: TableView<StoreInvoiceLine>) -> TypedExpression<Double> {
      line.unitPrice * line.quantity.cast(as: .real, to: Double.self)
    }
    let joined = StoreInvoiceLine.join(StoreTrack.self) { $0.trackID == $1.id }
      .join(StoreGenre.self) { _, track, genre in track.genreID == genre.id }
      .join(StoreMediaType.self) { _, track, _, media in track.mediaTypeID == media.id }
    let grouped = joined
      .group { _, _, genre, media in (genre.name, media.name) }
      .having { line, _, _, _ in revenue(line).total() > 5.0 }
      .order { line, _, genre, media in (revenue(line).total().desc(), genre.name, media.name) }
    let rows = try db.fetchAll(
      grouped.select { line, _, genre, media in (genre.name, media.name, revenue(line).total(), line.id.count()) })
    #expect(!rows.isEmpty)
    #expect(rows.allSatisfy { $0.2 > 5.0 })
    // Countries whose customers bought Metal, each once.
    let countries = try db.fetchAll(
      StoreCustomer.join(StoreInvoice.self) { $0.id == $1.customerID }
        .join(StoreInvoiceLine.self) { _, invoice, line in invoice.id == line.invoiceID }
        .join(StoreTrack.self) { _, _, line, track in line.trackID == track.id }
        .where { _, _, _, track in track.genreID.in(StoreGenre.where { $0.name == "Metal" }.select { $0.id }) }
        .distinct()
        .select { customer, _, _, _ in customer.country })
    #expect(Set(countries).count == countries.count)
    #expect(countries == countries.sorted())
  }

  @Test(arguments: BackendKind.allCases)
  func aScalarSubqueryPerRow(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    let rows = try db.fetchAll(
      StoreArtist.all
        .order { $0.id }
        .select { artist in
          (artist.name, StoreAlbum.where { $0.artistID == artist.id }.select { $0.id.count() }.value(),
           StoreAlbum.where { $0.artistID == artist.id }.order { $0.title.desc() }.select { $0.title }.value())
        })
    #expect(rows.count == store.artists.count)
    for (index, artist) in store.artists.enumerated() {
      let albums = store.albums.filter { $0.artistID == artist.id }
      #expect(rows[index].1 == albums.count)
      #expect(rows[index].2 == albums.map(\.title).max())
    }
    // Every country a customer lives in or an invoice was billed to.
    let all = try db.fetchAll(
      StoreCustomer.all.select { $0.country }.union(StoreInvoice.all.select { $0.billingCountry }))
    #expect(all == Set(store.customers.map(\.country) + store.invoices.map(\.billingCountry)).sorted())
  }

  @Test(arguments: BackendKind.allCases)
  func reportsWithFunctionsOverJoins(_ kind: BackendKind) throws {
    let db = try store.database(kind)
    // Each album's length in minutes, rounded, with its artist; albums named like "Album 1%".
    let albums = try db.fetchAll(
      StoreAlbum.join(StoreArtist.self) { $0.artistID == $1.id }
        .leftJoin(StoreTrack.self) { album, _, track in album.id == track.albumID }
        .where { album, _, _ in album.title.like("Album 1%") }
        .group { album, _, _ in album.id }
        .order { album, _, _ in album.id }
        .select { album, artist, track in
          (album.title, artist.name.lower(), (track.milliseconds.total() / 60_000.0).round(1), track.id.count())
        })
    #expect(albums.map(\.0) == store.albums.filter { $0.title.hasPrefix("Album 1") }.map(\.title))
    // Tracks without a genre count under "none"; the longest track per genre, with its name.
    let longest = try db.fetchAll(
      StoreTrack.leftJoin(StoreGenre.self) { $0.genreID == $1.id }
        .group { _, genre in genre.name }
        .order { _, genre in genre.name }
        .select { track, genre in (genre.name.coalesce("none"), track.milliseconds.max(), track.name) })
    #expect(longest.map(\.0) == ["none"] + store.genres.map(\.name).sorted())
    for (genre, length, name) in longest {
      let id = store.genres.first { $0.name == genre }?.id
      let tracks = store.tracks.filter { $0.genreID == id }
      #expect(length == tracks.map(\.milliseconds).max())
      #expect(tracks.first { $0.milliseconds == length }?.name == name)
    }
    // Invoices of mid-sized totals, billed where their customer lives.
    let mid = try db.fetchAll(
      StoreInvoice.join(StoreCustomer.self) { $0.customerID == $1.id }
        .where { invoice, customer in invoice.total.between(2.0, and: 5.0) && invoice.billingCountry == customer.country }
        .order { invoice, _ in (invoice.total.desc(), invoice.id) }
        .select { invoice, customer in (invoice.id, customer.lastName, invoice.total) })
    #expect(mid.map(\.0) == store.invoices.filter { (2.0...5.0).contains($0.total) }.sorted { ($0.total, -$0.id) > ($1.total, -$1.id) }.map(\.id))
  }
}
