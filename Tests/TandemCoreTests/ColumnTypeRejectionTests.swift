import Foundation
import TandemCore
import Testing

@Suite struct ColumnTypeRejectionTests {
  @Test func lossyIntegers() {
    #expect(Bool.decode(sqliteValue: .integer(2)) == nil)
    #expect(Bool.decode(sqliteValue: .integer(-1)) == nil)
    #expect(Int8.decode(sqliteValue: .integer(300)) == nil)
    #expect(Int8.decode(sqliteValue: .integer(-129)) == nil)
    #expect(Int16.decode(sqliteValue: .integer(40_000)) == nil)
    #expect(Int32.decode(sqliteValue: .integer(Int64(Int32.max) + 1)) == nil)
    #expect(UInt8.decode(sqliteValue: .integer(256)) == nil)
    #expect(UInt16.decode(sqliteValue: .integer(-1)) == nil)
    #expect(UInt32.decode(sqliteValue: .integer(-1)) == nil)
    #expect(UInt32.decode(sqliteValue: .integer(Int64(UInt32.max) + 1)) == nil)
    #expect(Float.decode(sqliteValue: .real(0.1)) == nil)
  }

  @Test func malformedText() {
    #expect(UUID.decode(sqliteValue: .text("nope")) == nil)
    #expect(Date.decode(sqliteValue: .text("yesterday")) == nil)
    #expect(Date.decode(sqliteValue: .text("2024-02-30T00:00:00.000Z")) == nil)
    #expect(Date.decode(sqliteValue: .text("2024-13-01T00:00:00.000Z")) == nil)
    #expect(Decimal.decode(sqliteValue: .text("1.2.3")) == nil)
    #expect(Decimal.decode(sqliteValue: .text("")) == nil)
    #expect(Decimal.decode(sqliteValue: .text("12abc")) == nil)
    #expect(URL.decode(sqliteValue: .text("")) == nil)
    #expect(Priority.decode(sqliteValue: .integer(9)) == nil)
    #expect(Mood.decode(sqliteValue: .text("sad")) == nil)
    #expect(JSONRepresentation<[Int]>.decode(sqliteValue: .text("{not json")) == nil)
  }

  static let everyClass: [SqliteValue] = [.integer(1), .real(1), .text("1"), .blob(Data([1])), .null]

  /// Each type accepts exactly one storage class (Optional adds NULL).
  @Test func wrongStorageClass() {
    func accepted<T: ColumnType>(_ type: T.Type) -> [String] {
      Self.everyClass.filter { T.decode(sqliteValue: $0) != nil }.map(\.storageClass)
    }
    #expect(accepted(Int.self) == ["integer"])
    #expect(accepted(Int64.self) == ["integer"])
    #expect(accepted(UInt8.self) == ["integer"])
    #expect(accepted(Bool.self) == ["integer"])
    #expect(accepted(Double.self) == ["real"])
    #expect(accepted(Float.self) == ["real"])
    #expect(accepted(String.self) == ["text"])
    #expect(accepted(Data.self) == ["blob"])
    #expect(accepted([UInt8].self) == ["blob"])
    #expect(accepted(Decimal.self) == ["text"])
    #expect(accepted(Int?.self) == ["integer", "null"])
    #expect(accepted(Date.UnixTimeRepresentation.self) == ["integer"])
    #expect(accepted(Date.JulianDayRepresentation.self) == ["real"])
    #expect(Date.decode(sqliteValue: .integer(0)) == nil)
    #expect(UUID.decode(sqliteValue: .blob(Data(count: 16))) == nil)
  }
}
