import Foundation

/// An MD5 digest (RFC 1321), the hash sqllogictest gives large results as.
///
/// ```swift
/// MD5.digest(of: Array("abc".utf8))  // "900150983cd24fb0d6963f7d28e17f72"
///
/// var md5 = MD5()
/// md5.update("ab")
/// md5.update("c")
/// md5.finalize()  // "900150983cd24fb0d6963f7d28e17f72"
/// ```
public struct MD5: Sendable {
  /// The per-step shift amounts, four per round.
  private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

  /// `floor(abs(sin(i + 1)) * 2^32)` for the 64 steps.
  private static let constants: [UInt32] = (0..<64).map { step in
    UInt32(truncatingIfNeeded: Int64((abs(sin(Double(step + 1))) * 4_294_967_296).rounded(.down)))
  }

  private var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476]
  /// Bytes not yet compressed: always fewer than 64.
  private var pending: [UInt8] = []
  private var length: UInt64 = 0

  /// An empty digest.
  ///
  /// ```swift
  /// MD5().finalize()  // "d41d8cd98f00b204e9800998ecf8427e"
  /// ```
  public init() {}

  /// The digest of `bytes`, as 32 lowercase hex digits.
  ///
  /// ```swift
  /// MD5.digest(of: [])  // "d41d8cd98f00b204e9800998ecf8427e"
  /// ```
  public static func digest(of bytes: [UInt8]) -> String {
    var md5 = MD5()
    md5.update(bytes: bytes)
    return md5.finalize()
  }

  /// Adds the UTF-8 bytes of `text`.
  ///
  /// ```swift
  /// md5.update("1\n")
  /// ```
  public mutating func update(_ text: String) {
    update(bytes: Array(text.utf8))
  }

  /// Adds raw bytes.
  ///
  /// ```swift
  /// md5.update(bytes: [0x61, 0x62, 0x63])
  /// ```
  public mutating func update(bytes: [UInt8]) {
    length &+= UInt64(bytes.count)
    var input = bytes[...]
    if !pending.isEmpty {
      let taken = input.prefix(64 - pending.count)
      pending.append(contentsOf: taken)
      input = input.dropFirst(taken.count)
      guard pending.count == 64 else { return }
      compressBlocks(pending[...])
      pending.removeAll(keepingCapacity: true)
    }
    let whole = input.count / 64 * 64
    compressBlocks(input.prefix(whole))
    pending.append(contentsOf: input.dropFirst(whole))
  }

  /// The digest of everything added, as 32 lowercase hex digits.
  ///
  /// ```swift
  /// var md5 = MD5(); md5.update("a"); md5.finalize()  // "0cc175b9c0f1b6a831c399e269772661"
  /// ```
  public func finalize() -> String {
    var copy = self
    let bitLength = length &* 8
    var padding: [UInt8] = [0x80]
    padding += [UInt8](repeating: 0, count: (119 - pending.count) % 64)
    for shift in stride(from: 0, to: 64, by: 8) {
      padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    copy.update(bytes: padding)
    let hexDigits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    for word in copy.state {
      for shift in stride(from: 0, to: 32, by: 8) {
        let byte = UInt8(truncatingIfNeeded: word >> UInt32(shift))
        hex.append(hexDigits[Int(byte >> 4)])
        hex.append(hexDigits[Int(byte & 0x0f)])
      }
    }
    return String(decoding: hex, as: UTF8.self)
  }

  /// Runs whole 64-byte blocks through the four rounds.
  private mutating func compressBlocks(_ blocks: ArraySlice<UInt8>) {
    guard !blocks.isEmpty else { return }
    var (h0, h1, h2, h3) = (state[0], state[1], state[2], state[3])
    Self.shifts.withUnsafeBufferPointer { shifts in
      Self.constants.withUnsafeBufferPointer { constants in
        blocks.withUnsafeBytes { raw in
          var offset = 0
          while offset < raw.count {
            var (a, b, c, d) = (h0, h1, h2, h3)
            for step in 0..<64 {
              let mixed: UInt32
              let wordIndex: Int
              switch step >> 4 {
              case 0:
                mixed = (b & c) | (~b & d)
                wordIndex = step
              case 1:
                mixed = (d & b) | (~d & c)
                wordIndex = (5 * step + 1) & 15
              case 2:
                mixed = b ^ c ^ d
                wordIndex = (3 * step + 5) & 15
              default:
                mixed = c ^ (b | ~d)
                wordIndex = (7 * step) & 15
              }
              let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + wordIndex * 4, as: UInt32.self))
              let shift = shifts[(step >> 4) * 4 + (step & 3)]
              let sum = a &+ mixed &+ constants[step] &+ word
              a = d
              d = c
              c = b
              b = b &+ ((sum << shift) | (sum >> (32 - shift)))
            }
            h0 &+= a
            h1 &+= b
            h2 &+= c
            h3 &+= d
            offset += 64
          }
        }
      }
    }
    state = [h0, h1, h2, h3]
  }
}
