// Number, duration and column formatting for the report, without Foundation's String(format:).

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }

  /// `12.34 ms`, `1.23 s` or `850.0 µs`.
  var formatted: String {
    let seconds = self.seconds
    if seconds >= 1 { return String(fixed: seconds, digits: 2) + " s" }
    if seconds >= 0.001 { return String(fixed: seconds * 1_000, digits: 2) + " ms" }
    return String(fixed: seconds * 1_000_000, digits: 1) + " µs"
  }
}

extension String {
  /// `value` with a fixed number of decimals, without Foundation's `String(format:)`.
  init(fixed value: Double, digits: Int) {
    guard value.isFinite else {
      self = "\(value)"
      return
    }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (Swift.abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    let fractionText = String(fraction)
    let padded = String(repeating: "0", count: Swift.max(0, digits - fractionText.count)) + fractionText
    self = (value < 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + padded : "")
  }
}

extension String {
  /// The string padded with spaces on the right to `width` characters.
  func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  /// The string padded with spaces on the left to `width` characters.
  func leftPadding(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}

extension Int {
  /// `20,000`.
  var formatted: String {
    let digits = String(Swift.abs(self))
    var groups: [Substring] = []
    var end = digits.endIndex
    while end > digits.startIndex {
      let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
      groups.insert(digits[start..<end], at: 0)
      end = start
    }
    return (self < 0 ? "-" : "") + groups.joined(separator: ",")
  }
}
