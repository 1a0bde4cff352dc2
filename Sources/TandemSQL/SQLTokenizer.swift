import Foundation

/// Splits SQL text into tokens by SQLite's rules (`tokenize.c`), skipping spaces and comments.
///
/// ```swift
/// var tokenizer = SQLTokenizer(Array("SELECT x'ab' -- note".utf8))
/// tokenizer.next().text  // "SELECT"
/// tokenizer.next().kind  // .blob
/// tokenizer.next().kind  // .end
/// ```
struct SQLTokenizer: Sendable {
  /// The script's UTF-8 bytes.
  let bytes: [UInt8]
  /// Where the next token starts looking.
  var position: Int

  init(_ bytes: [UInt8], position: Int = 0) {
    self.bytes = bytes
    self.position = position
  }

  /// Whether a byte may continue an identifier (`IdChar`).
  static func isIdentifierByte(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
  }

  static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
  }

  private func byte(at index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }

  /// The next token that is not a space or a comment.
  mutating func next() -> SQLToken {
    while true {
      let start = position
      guard start < bytes.count else { return make(.end, start, start) }
      let (kind, length) = scan(at: start)
      position = start + length
      if let kind { return make(kind, start, position) }
    }
  }

  private func make(_ kind: SQLToken.Kind, _ start: Int, _ end: Int) -> SQLToken {
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    var value = text
    switch kind {
    case .string, .quotedIdentifier:
      value = Self.unquote(text)
    case .blob:
      value = String(text.dropFirst(2).dropLast())
    default:
      break
    }
    return SQLToken(kind: kind, text: text, value: value, start: start, end: end)
  }

  /// The contents of a quoted string or identifier, doubled quotes undone.
  static func unquote(_ text: String) -> String {
    guard let first = text.first else { return text }
    let close: Character = first == "[" ? "]" : first
    var body = Substring(text.dropFirst())
    if body.last == close { body = body.dropLast() }
    if first == "[" { return String(body) }
    return body.replacingOccurrences(of: String([close, close]), with: String(close))
  }

  /// The kind (nil for a space or comment) and length of the token at `i`.
  private func scan(at i: Int) -> (SQLToken.Kind?, Int) {
    let c = bytes[i]
    switch c {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), 0x0C, UInt8(ascii: "\r"):
      var j = i + 1
      while j < bytes.count,
        [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), 0x0C, UInt8(ascii: "\r")].contains(bytes[j])
      { j += 1 }
      return (nil, j - i)
    case UInt8(ascii: "-"):
      if byte(at: i + 1) == UInt8(ascii: "-") {
        var j = i + 2
        while j < bytes.count, bytes[j] != UInt8(ascii: "\n") { j += 1 }
        return (nil, j - i)
      }
      if byte(at: i + 1) == UInt8(ascii: ">") { return (.symbol, byte(at: i + 2) == UInt8(ascii: ">") ? 3 : 2) }
      return (.symbol, 1)
    case UInt8(ascii: "/"):
      if byte(at: i + 1) == UInt8(ascii: "*") {
        var j = i + 2
        while j < bytes.count, !(bytes[j] == UInt8(ascii: "*") && byte(at: j + 1) == UInt8(ascii: "/")) { j += 1 }
        return (nil, min(j + 2, bytes.count) - i)
      }
      return (.symbol, 1)
    case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "%"),
      UInt8(ascii: ","), UInt8(ascii: "&"), UInt8(ascii: "~"):
      return (.symbol, 1)
    case UInt8(ascii: ";"):
      return (.semicolon, 1)
    case UInt8(ascii: "="):
      return (.symbol, byte(at: i + 1) == UInt8(ascii: "=") ? 2 : 1)
    case UInt8(ascii: "<"):
      let next = byte(at: i + 1)
      return (.symbol, next == UInt8(ascii: "=") || next == UInt8(ascii: ">") || next == UInt8(ascii: "<") ? 2 : 1)
    case UInt8(ascii: ">"):
      let next = byte(at: i + 1)
      return (.symbol, next == UInt8(ascii: "=") || next == UInt8(ascii: ">") ? 2 : 1)
    case UInt8(ascii: "!"):
      return byte(at: i + 1) == UInt8(ascii: "=") ? (.symbol, 2) : (.illegal, 1)
    case UInt8(ascii: "|"):
      return (.symbol, byte(at: i + 1) == UInt8(ascii: "|") ? 2 : 1)
    case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
      var j = i + 1
      while j < bytes.count {
        if bytes[j] == c {
          if byte(at: j + 1) == c {
            j += 2
            continue
          }
          return (c == UInt8(ascii: "'") ? .string : .quotedIdentifier, j + 1 - i)
        }
        j += 1
      }
      return (.illegal, j - i)
    case UInt8(ascii: "."):
      if Self.isDigit(byte(at: i + 1)) { return scanNumber(at: i) }
      return (.symbol, 1)
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      return scanNumber(at: i)
    case UInt8(ascii: "["):
      var j = i + 1
      while j < bytes.count, bytes[j] != UInt8(ascii: "]") { j += 1 }
      return j < bytes.count ? (.quotedIdentifier, j + 1 - i) : (.illegal, j - i)
    case UInt8(ascii: "?"):
      var j = i + 1
      while Self.isDigit(byte(at: j)) { j += 1 }
      return (.variable, j - i)
    case UInt8(ascii: "$"), UInt8(ascii: "@"), UInt8(ascii: ":"):
      var j = i + 1
      while j < bytes.count, Self.isIdentifierByte(bytes[j]) { j += 1 }
      return (j == i + 1 ? .illegal : .variable, j - i)
    case UInt8(ascii: "x"), UInt8(ascii: "X"):
      if byte(at: i + 1) == UInt8(ascii: "'") {
        var j = i + 2
        while Self.isHexDigit(byte(at: j)) { j += 1 }
        var kind = SQLToken.Kind.blob
        if byte(at: j) != UInt8(ascii: "'") || (j - i) % 2 == 1 {
          kind = .illegal
          while j < bytes.count, bytes[j] != UInt8(ascii: "'") { j += 1 }
        }
        if j < bytes.count { j += 1 }
        return (kind, j - i)
      }
      return scanWord(at: i)
    default:
      if Self.isLetter(c) || c == UInt8(ascii: "_") || c >= 0x80 { return scanWord(at: i) }
      return (.illegal, 1)
    }
  }

  private func scanWord(at i: Int) -> (SQLToken.Kind?, Int) {
    var j = i + 1
    while j < bytes.count, Self.isIdentifierByte(bytes[j]) { j += 1 }
    return (.word, j - i)
  }

  private func scanNumber(at i: Int) -> (SQLToken.Kind?, Int) {
    var j = i
    var kind = SQLToken.Kind.integer
    if bytes[i] == UInt8(ascii: "0"), byte(at: i + 1) | 0x20 == UInt8(ascii: "x"), Self.isHexDigit(byte(at: i + 2)) {
      j = i + 2
      while Self.isHexDigit(byte(at: j)) { j += 1 }
    } else {
      while Self.isDigit(byte(at: j)) { j += 1 }
      if byte(at: j) == UInt8(ascii: ".") {
        kind = .float
        j += 1
        while Self.isDigit(byte(at: j)) { j += 1 }
      }
      if byte(at: j) | 0x20 == UInt8(ascii: "e") {
        let sign = byte(at: j + 1) == UInt8(ascii: "+") || byte(at: j + 1) == UInt8(ascii: "-")
        if Self.isDigit(byte(at: j + 1)) || (sign && Self.isDigit(byte(at: j + 2))) {
          kind = .float
          j += sign ? 2 : 1
          while Self.isDigit(byte(at: j)) { j += 1 }
        }
      }
    }
    if j < bytes.count, Self.isIdentifierByte(bytes[j]) {
      while j < bytes.count, Self.isIdentifierByte(bytes[j]) { j += 1 }
      return (.illegal, j - i)
    }
    return (kind, j - i)
  }
}
