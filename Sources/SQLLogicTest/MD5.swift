import Foundation

/// An incremental MD5 digest (RFC 1321), the hash sqllogictest gives large results as.
///
/// ```swift
/// var md5 = MD5()
/// md5.update("abc")
/// md5.finalize()  // "900150983cd24fb0d6963f7d28e17f72"
/// ```
public struct MD5: Sendable {
  /// The per-step shift amounts, four per round.
  private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

  /// `floor(abs(sin(i + 1)) * 2^32)` for the 64 steps.
  private static let constants: [UInt32] = (0..<64).map { step in
    UInt32(truncatingIfNeeded: Int64((abs(sin(Double(step + 1))) * 4_294_967_296).rounded(.down)))
  }

  private var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
  private var pending: [UInt8] = []
  private var length: UInt64 = 0

  /// An empty digest.
  ///
  /// ```swift
  /// MD5().finalize()  // "d41d8cd98f00b204e9800998ecf8427e"
  /// ```
  public init() {}

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
    pending.append(contentsOf: bytes)
    var offset = 0
    while pending.count - offset >= 64 {
      compress(pending[offset..<offset + 64])
      offset += 64
    }
    pending.removeFirst(offset)
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
    while (copy.pending.count + padding.count) % 64 != 56 { padding.append(0) }
    for shift in stride(from: 0, to: 64, by: 8) {
      padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    copy.update(bytes: padding)
    let words = [copy.state.0, copy.state.1, copy.state.2, copy.state.3]
    let hexDigits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    for word in words {
      for shift in stride(from: 0, to: 32, by: 8) {
        let byte = UInt8(truncatingIfNeeded: word >> UInt32(shift))
        hex.append(hexDigits[Int(byte >> 4)])
        hex.append(hexDigits[Int(byte & 0x0f)])
      }
    }
    return String(decoding: hex, as: UTF8.self)
  }

  /// One 64-byte block through the four rounds.
  private mutating func compress(_ block: ArraySlice<UInt8>) {
    var words = [UInt32](repeating: 0, count: 16)
    let base = block.startIndex
    for index in 0..<16 {
      let at = base + index * 4
      words[index] = UInt32(block[at]) | UInt32(block[at + 1]) << 8
        | UInt32(block[at + 2]) << 16 | UInt32(block[at + 3]) << 24
    }
    var (a, b, c, d) = state
    for step in 0..<64 {
      let mixed: UInt32
      let wordIndex: Int
      switch step / 16 {
      case 0:
        mixed = (b & c) | (~b & d)
        wordIndex = step
      case 1:
        mixed = (d & b) | (~d & c)
        wordIndex = (5 * step + 1) % 16
      case 2:
        mixed = b ^ c ^ d
        wordIndex = (3 * step + 5) % 16
      default:
        mixed = c ^ (b | ~d)
        wordIndex = (7 * step) % 16
      }
      let shift = Self.shifts[(step / 16) * 4 + step % 4]
      let sum = a &+ mixed &+ Self.constants[step] &+ words[wordIndex]
      a = d
      d = c
      c = b
      b = b &+ ((sum << shift) | (sum >> (32 - shift)))
    }
    state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
  }
}
