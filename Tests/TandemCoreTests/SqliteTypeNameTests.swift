import Foundation
import TandemCore
import Testing

@Suite struct SqliteTypeNameTests {
  @Test func notNullStripsNullability() {
    #expect(SqliteTypeName.notNull(.null(.text)) == .text)
    #expect(SqliteTypeName.notNull(.null(.null(.blob))) == .blob)
    for plain in [SqliteTypeName.integer, .real, .text, .blob] {
      #expect(SqliteTypeName.notNull(plain) == plain)
      #expect(!plain.isNullable)
      #expect(SqliteTypeName.null(plain).isNullable)
    }
  }

  @Test func optionalWrapsTheTypeName() {
    #expect(Int?.sqliteTypeName == .null(.integer))
    #expect(String?.sqliteTypeName == .null(.text))
    #expect(Date?.sqliteTypeName == .null(.text))
    #expect(Data?.sqliteTypeName == .null(.blob))
    #expect(Double?.sqliteTypeName == .null(.real))
  }

  @Test func builtInTypeNames() {
    #expect(Bool.sqliteTypeName == .integer)
    #expect(Int8.sqliteTypeName == .integer)
    #expect(UInt32.sqliteTypeName == .integer)
    #expect(Float.sqliteTypeName == .real)
    #expect([UInt8].sqliteTypeName == .blob)
    #expect(UUID.sqliteTypeName == .text)
    #expect(URL.sqliteTypeName == .text)
    #expect(Decimal.sqliteTypeName == .text)
    #expect(Date.UnixTimeRepresentation.sqliteTypeName == .integer)
    #expect(Date.UnixTimeIntervalRepresentation.sqliteTypeName == .real)
    #expect(Date.JulianDayRepresentation.sqliteTypeName == .real)
  }

  @Test func sqliteValueEqualityIsStorageIdentity() {
    #expect(SqliteValue.text("é") != .text("e\u{301}"))  // Swift's String == would say equal
    #expect(SqliteValue.real(-0.0) != .real(0.0))
    #expect(SqliteValue.integer(1) != .real(1))
    #expect(Set<SqliteValue>([.text("é"), .text("e\u{301}")]).count == 2)
  }
}
