import Foundation
import TandemCore

/// The byte form of a row or an index key, after SQLite's record format: a header of one
/// serial type per value, then the values' bodies.
///
/// Serial types are SQLite's: 0 NULL; 1, 2, 3, 4, 5, 6 a signed integer of 1, 2, 3, 4, 6 or 8
/// bytes; 7 a REAL; 8 and 9 the integers 0 and 1 (no body); an even N ≥ 12 a BLOB of (N−12)/2
/// bytes and an odd N ≥ 13 a TEXT of (N−13)/2 bytes. Unlike SQLite the header is not prefixed
/// by its length (a record's value count is known to its owner), serial types below 128 take
/// one byte and larger ones a little-endian varint, and bodies are little-endian.
///
/// ```swift
/// let bytes = Record.encode([.integer(1), .text("ab"), .null])
/// // header: 9 (the integer 1), 17 (TEXT of 2 bytes), 0 (NULL); body: "ab"
/// ```
enum Record {
  /// The serial type of a value.
  @inline(__always)
  static func serialType(_ value: SqliteValue) -> Int {
    switch value {
    case .null: return 0
    case .integer(let number): return integerSerialType(number)
    case .real: return 7
    case .text(let text): return text.utf8.count * 2 + 13
    case .blob(let data): return data.count * 2 + 12
    }
  }

  /// The serial type of an integer: the smallest body that holds it.
  @inline(__always)
  static func integerSerialType(_ number: Int64) -> Int {
    if number == 0 { return 8 }
    if number == 1 { return 9 }
    if number >= -128 && number <= 127 { return 1 }
    if number >= -32768 && number <= 32767 { return 2 }
    if number >= -8_388_608 && number <= 8_388_607 { return 3 }
    if number >= -2_147_483_648 && number <= 2_147_483_647 { return 4 }
    if number >= -140_737_488_355_328 && number <= 140_737_488_355_327 { return 5 }
    return 6
  }

  /// The body length of a serial type.
  @inline(__always)
  static func bodyLength(_ serialType: Int) -> Int {
    switch serialType {
    case 0, 8, 9: return 0
    case 1: return 1
    case 2: return 2
    case 3: return 3
    case 4: return 4
    case 5: return 6
    case 6, 7: return 8
    default: return (serialType - 12) >> 1
    }
  }

  /// The number of header bytes a serial type takes.
  @inline(__always)
  static func headerLength(_ serialType: Int) -> Int {
    var length = 1
    var rest = serialType >> 7
    while rest != 0 {
      length += 1
      rest >>= 7
    }
    return length
  }

  /// The encoded size of `count` values, leaving the value at `skipping` out (stored as NULL).
  static func encodedSize(_ values: UnsafePointer<SqliteValue>, count: Int, skipping: Int? = nil) -> Int {
    var size = 0
    let skipped = skipping ?? -1
    var index = 0
    while index < count {
      if index == skipped {
        size += 1
      } else {
        let type = serialType(values[index])
        size += headerLength(type) + bodyLength(type)
      }
      index += 1
    }
    return size
  }

  /// Writes `count` values at `destination` (which has room for ``encodedSize(_:count:skipping:)``
  /// bytes), the value at `skipping` as NULL, and returns the number of bytes written.
  @discardableResult
  static func write(
    _ values: UnsafePointer<SqliteValue>, count: Int, skipping: Int? = nil, to destination: UnsafeMutableRawPointer
  ) -> Int {
    let skipped = skipping ?? -1
    var header = 0
    var index = 0
    while index < count {
      let type = index == skipped ? 0 : serialType(values[index])
      header += writeVarint(type, to: destination + header)
      index += 1
    }
    var body = header
    index = 0
    while index < count {
      if index != skipped { body += writeBody(values[index], to: destination + body) }
      index += 1
    }
    return body
  }

  /// The record of `values` as bytes.
  static func encode(_ values: [SqliteValue], skipping: Int? = nil) -> [UInt8] {
    values.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return [] }
      let size = encodedSize(base, count: buffer.count, skipping: skipping)
      return [UInt8](unsafeUninitializedCapacity: size) { bytes, initialized in
        if let start = bytes.baseAddress {
          write(base, count: buffer.count, skipping: skipping, to: UnsafeMutableRawPointer(start))
        }
        initialized = size
      }
    }
  }

  @inline(__always)
  private static func writeVarint(_ value: Int, to destination: UnsafeMutableRawPointer) -> Int {
    if value < 0x80 {
      destination.storeBytes(of: UInt8(value), as: UInt8.self)
      return 1
    }
    var rest = value
    var written = 0
    while rest >= 0x80 {
      destination.storeBytes(of: UInt8(rest & 0x7F) | 0x80, toByteOffset: written, as: UInt8.self)
      rest >>= 7
      written += 1
    }
    destination.storeBytes(of: UInt8(rest), toByteOffset: written, as: UInt8.self)
    return written + 1
  }

  private static func writeBody(_ value: SqliteValue, to destination: UnsafeMutableRawPointer) -> Int {
    switch value {
    case .null:
      return 0
    case .integer(let number):
      // Little-endian, the low `length` bytes (the serial type says how many hold the value).
      let length = bodyLength(integerSerialType(number))
      var rest = UInt64(bitPattern: number)
      var offset = 0
      while offset < length {
        destination.storeBytes(of: UInt8(truncatingIfNeeded: rest), toByteOffset: offset, as: UInt8.self)
        rest >>= 8
        offset += 1
      }
      return length
    case .real(let number):
      destination.storeBytes(of: number.bitPattern.littleEndian, as: UInt64.self)
      return 8
    case .text(let text):
      return copyUTF8(text, to: destination)
    case .blob(let data):
      data.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress { destination.copyMemory(from: base, byteCount: bytes.count) }
      }
      return data.count
    }
  }

  private static func copyUTF8(_ text: String, to destination: UnsafeMutableRawPointer) -> Int {
    if let count = text.utf8.withContiguousStorageIfAvailable({ bytes -> Int in
      if let base = bytes.baseAddress { destination.copyMemory(from: base, byteCount: bytes.count) }
      return bytes.count
    }) {
      return count
    }
    var count = 0
    for byte in text.utf8 {
      destination.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
      count += 1
    }
    return count
  }

  // MARK: - Reading

  /// Reads a varint serial type at `position`, advancing it.
  @inline(__always)
  static func readVarint(_ record: UnsafeRawPointer, _ position: inout Int) -> Int {
    let first = Int(record.load(fromByteOffset: position, as: UInt8.self))
    position += 1
    if first < 0x80 { return first }
    var value = first & 0x7F
    var shift = 7
    while true {
      let byte = Int(record.load(fromByteOffset: position, as: UInt8.self))
      position += 1
      value |= (byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  /// Decodes the value of a serial type whose body starts at `body`.
  @inline(__always)
  static func value(serialType: Int, at body: UnsafeRawPointer) -> SqliteValue {
    switch serialType {
    case 0: return .null
    case 8: return .integer(0)
    case 9: return .integer(1)
    case 7: return .real(Double(bitPattern: UInt64(littleEndian: body.loadUnaligned(as: UInt64.self))))
    case 1...6: return .integer(integer(serialType: serialType, at: body))
    default:
      let length = (serialType - 12) >> 1
      let bytes = UnsafeRawBufferPointer(start: body, count: length)
      if serialType & 1 == 1 { return .text(String(decoding: bytes, as: UTF8.self)) }
      return .blob(Data(bytes))
    }
  }

  /// The integer of serial type 1–6 whose body starts at `body` (sign-extended).
  @inline(__always)
  static func integer(serialType: Int, at body: UnsafeRawPointer) -> Int64 {
    switch serialType {
    case 1: return Int64(body.load(as: Int8.self))
    case 2: return Int64(Int16(littleEndian: body.loadUnaligned(as: Int16.self)))
    case 3:
      let low = Int64(body.load(as: UInt8.self)) | Int64(body.load(fromByteOffset: 1, as: UInt8.self)) << 8
      let high = Int64(body.load(fromByteOffset: 2, as: Int8.self)) << 16
      return high | low
    case 4: return Int64(Int32(littleEndian: body.loadUnaligned(as: Int32.self)))
    case 5:
      let low = Int64(UInt32(littleEndian: body.loadUnaligned(as: UInt32.self)))
      let high = Int64(Int16(littleEndian: body.loadUnaligned(fromByteOffset: 4, as: Int16.self))) << 32
      return high | low
    default: return Int64(littleEndian: body.loadUnaligned(as: Int64.self))
    }
  }

  /// Decodes the first `count` values of a record into `values`, which must hold initialized
  /// values (they are replaced).
  @inline(__always)
  static func decode(_ record: UnsafeRawPointer, count: Int, into values: UnsafeMutablePointer<SqliteValue>) {
    var header = 0
    var body = headerSize(record, count: count)
    // Index loops, not `for … in`: unit tests run in debug builds, where iterators cost.
    var index = 0
    while index < count {
      let type = readVarint(record, &header)
      values[index] = value(serialType: type, at: record + body)
      body += bodyLength(type)
      index += 1
    }
  }

  /// Decodes the values at the positions `columns` (ascending) of a record of `count` values
  /// into the same positions of `values`.
  static func decode(
    _ record: UnsafeRawPointer, count: Int, columns: UnsafeBufferPointer<Int>, into values: UnsafeMutablePointer<SqliteValue>
  ) {
    guard let last = columns.last else { return }
    var header = 0
    var body = headerSize(record, count: count)
    var index = 0
    var next = 0
    while index <= last {
      let type = readVarint(record, &header)
      if index == columns[next] {
        values[index] = value(serialType: type, at: record + body)
        next += 1
      }
      body += bodyLength(type)
      index += 1
    }
  }

  /// The record's values, `count` of them.
  static func values(_ record: UnsafeRawPointer, count: Int) -> [SqliteValue] {
    var result = [SqliteValue](repeating: .null, count: count)
    result.withUnsafeMutableBufferPointer { buffer in
      if let base = buffer.baseAddress { decode(record, count: count, into: base) }
    }
    return result
  }

  /// The number of header bytes of a record of `count` values.
  @inline(__always)
  static func headerSize(_ record: UnsafeRawPointer, count: Int) -> Int {
    var position = 0
    var index = 0
    while index < count {
      if record.load(fromByteOffset: position, as: UInt8.self) < 0x80 {
        position += 1
      } else {
        _ = readVarint(record, &position)
      }
      index += 1
    }
    return position
  }

  /// The value at `column` of a record of `count` values.
  static func value(_ record: UnsafeRawPointer, count: Int, column: Int) -> SqliteValue {
    var header = 0
    var body = headerSize(record, count: count)
    var index = 0
    while index < count {
      let type = readVarint(record, &header)
      if index == column { return value(serialType: type, at: record + body) }
      body += bodyLength(type)
      index += 1
    }
    return .null
  }

  /// Compares two records of `count` values field by field with SQLite's order under BINARY
  /// collation (``ValueOrder``): NULL first, numbers by value, then text and blobs by bytes; a
  /// field marked in `descending` (a `DESC` index column) the other way round.
  static func compare(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int, descending: [Bool] = []) -> Int {
    var headerA = 0
    var headerB = 0
    var bodyA = headerSize(a, count: count)
    var bodyB = headerSize(b, count: count)
    var index = 0
    while index < count {
      let typeA = readVarint(a, &headerA)
      let typeB = readVarint(b, &headerB)
      let order = compareFields(typeA, a + bodyA, typeB, b + bodyB)
      if order != 0 { return index < descending.count && descending[index] ? -order : order }
      bodyA += bodyLength(typeA)
      bodyB += bodyLength(typeB)
      index += 1
    }
    return 0
  }

  /// Compares one encoded field with another.
  static func compareFields(_ typeA: Int, _ a: UnsafeRawPointer, _ typeB: Int, _ b: UnsafeRawPointer) -> Int {
    let classA = storageRank(typeA)
    let classB = storageRank(typeB)
    if classA != classB { return classA < classB ? -1 : 1 }
    switch classA {
    case 0:
      return 0
    case 1:
      return compareNumbers(typeA, a, typeB, b)
    default:
      let lengthA = (typeA - 12) >> 1
      let lengthB = (typeB - 12) >> 1
      let common = min(lengthA, lengthB)
      if common > 0 {
        let order = memcmp(a, b, common)
        if order != 0 { return order < 0 ? -1 : 1 }
      }
      return lengthA == lengthB ? 0 : (lengthA < lengthB ? -1 : 1)
    }
  }

  /// 0 NULL, 1 number, 2 text, 3 blob.
  @inline(__always)
  static func storageRank(_ serialType: Int) -> Int {
    if serialType == 0 { return 0 }
    if serialType < 12 { return 1 }
    return serialType & 1 == 1 ? 2 : 3
  }

  private static func compareNumbers(_ typeA: Int, _ a: UnsafeRawPointer, _ typeB: Int, _ b: UnsafeRawPointer) -> Int {
    let isRealA = typeA == 7
    let isRealB = typeB == 7
    if !isRealA && !isRealB {
      let x = integerValue(typeA, a)
      let y = integerValue(typeB, b)
      return x < y ? -1 : (x > y ? 1 : 0)
    }
    if isRealA && isRealB {
      let x = Double(bitPattern: UInt64(littleEndian: a.loadUnaligned(as: UInt64.self)))
      let y = Double(bitPattern: UInt64(littleEndian: b.loadUnaligned(as: UInt64.self)))
      return x < y ? -1 : (x > y ? 1 : 0)
    }
    if isRealA {
      let x = Double(bitPattern: UInt64(littleEndian: a.loadUnaligned(as: UInt64.self)))
      return -ValueOrder.compareExactly(integerValue(typeB, b), x)
    }
    let y = Double(bitPattern: UInt64(littleEndian: b.loadUnaligned(as: UInt64.self)))
    return ValueOrder.compareExactly(integerValue(typeA, a), y)
  }

  @inline(__always)
  private static func integerValue(_ type: Int, _ body: UnsafeRawPointer) -> Int64 {
    switch type {
    case 8: return 0
    case 9: return 1
    default: return integer(serialType: type, at: body)
    }
  }
}
